"""Invariants every game keeps, checkable anywhere the engine runs (the property tests on CPython,
the same checks inside Pyodide): every card is in exactly one place, no view shows a card of
another seat's hand while the hand is played, and replaying the events rebuilds the very state.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from paiju.cards import card_codes
from paiju.protocol import Command, decode, encode
from paiju.registry import get_game
from paiju.simulate import log_digest, play_game
from paiju.table import TableState


class InvariantBroken(AssertionError):
    """An invariant of the engine does not hold."""


def strings_in(value: Any) -> set[str]:
    """Every string anywhere in a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        found: set[str] = set()
        for item in value:
            found |= strings_in(item)
        return found
    return set()


def check_cards_conserved(state: TableState) -> None:
    game = get_game(state.config.game)
    held: Counter[int] = Counter(c for hand in state.hands for c in hand)
    held.update(state.rest)
    held.update(getattr(state, "discards", ()))
    if state.hands and held != Counter(game.pack(state.config)):
        raise InvariantBroken(f"cards not conserved at version {state.version}")


def check_views_hide_hands(state: TableState) -> None:
    """While a hand is played, no seat (nor a spectator) sees a card of another seat's hand.
    With several decks a code may be both held and already played (public), so codes a viewer
    holds itself or that lie among the played cards do not count, nor does a card named in public
    while its holder stays secret (a called card). And no view tells a state from one that differs
    only in a secret (who holds the called card)."""
    game = get_game(state.config.game)
    if state.phase not in game.seat_phases:
        return
    played = set(card_codes(getattr(state, "discards", ()))) | set(
        card_codes(game.named_cards(state))
    )
    views = {seat: game.view(state, seat) for seat in [None, *range(state.config.players)]}
    for seat, view in views.items():
        seen = strings_in(view)
        own = set(card_codes(state.hands[seat])) if seat is not None else set()
        for other, hand in enumerate(state.hands):
            if other != seat:
                leaked = (seen & set(card_codes(hand))) - own - played
                if leaked:
                    raise InvariantBroken(f"seat {seat} sees {sorted(leaked)} of seat {other}")
        if json.loads(json.dumps(view)) != view:
            raise InvariantBroken("a view is not plain JSON")
    for twin, watchers in game.indistinguishable(state):
        for seat in watchers:
            if game.view(twin, seat) != views[seat]:
                raise InvariantBroken(f"seat {seat} can tell a secret at version {state.version}")


def checked_random_game(
    game_id: str,
    variant: str | None = None,
    seed: int = 0,
    players: int | None = None,
    hands: int = 2,
    every: int = 1,
) -> dict[str, Any]:
    """A random match with every invariant checked (views every ``every`` decisions); returns a
    summary. Raises InvariantBroken."""
    game = get_game(game_id)
    config = game.config(variant, players, hands=hands)
    rng = random.Random(seed)
    steps = 0

    def choose(state: TableState, seat: int, moves: list[Command]) -> Command:
        nonlocal steps
        if not moves:
            raise InvariantBroken(f"seat {seat} is to move but has no legal move")
        check_cards_conserved(state)
        if steps % every == 0:
            check_views_hide_hands(state)
        steps += 1
        return rng.choice(moves)

    state, events = play_game(config, f"checked-{seed}", choose)
    if state.phase != "over" or state.last_hand is None:
        raise InvariantBroken("the match did not end scored")
    if sum(state.totals) != 0:
        raise InvariantBroken(f"scores do not sum to zero: {state.totals}")
    replayed = game.initial_state(config)
    for event in events:
        replayed = game.evolve(replayed, decode(json.loads(json.dumps(encode(event)))))  # type: ignore[arg-type]
    if replayed != state:
        raise InvariantBroken("replaying the events does not rebuild the state")
    return {
        "game": game_id,
        "variant": config.variant,
        "seed": seed,
        "decisions": steps,
        "totals": list(state.totals),
        "digest": log_digest(config, events),
    }
