"""One module per game, holding only what is that game's own."""
