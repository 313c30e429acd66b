"""What must always hold, over thousands of random games of every game and variant: they end
scored and never raise, every card stays in exactly one place, no view shows a card of another
seat's hand, replaying the events (through their JSON form) rebuilds the very same state, and every
move legal_moves offers is accepted while a refused play is never offered. The invariants live in
paiju.selfcheck, so the same checks also run inside Pyodide (test_pyodide.py)."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paiju.api import list_games
from paiju.protocol import Play
from paiju.registry import get_game
from paiju.selfcheck import checked_random_game
from paiju.simulate import play_game

# every game, variant and number of players the catalogue knows
CONFIGS = [
    (game["id"], variant["id"], players)
    for game in list_games()
    for variant in game["variants"]
    for players in variant["players"]
]


SOAK = os.environ.get("HYPOTHESIS_PROFILE") == "soak"  # tests/conftest.py: the profiles
# 52-card packs dealt per example of the loaded Hypothesis profile (tests/conftest.py): 1.25 under
# ``ci`` (``make test``: 125 random games of a one-pack game, 30 of a four-pack one, per
# configuration; an eighth of what it played before the suite had to fit in 12 minutes), 10 under
# ``soak`` (``make soak``: 10,000 games of a one-pack game, eighty times ``make test``'s). The
# count suffices for ``make test`` because it is not alone: every invariant is checked at every
# 9th step of each of those games and at every step of ``GAMES_AT_EVERY_STEP`` more games per
# configuration (test_views_never_leak_at_any_step, which checks everything this test does),
# every offered move of ``GAMES_OF_EVERY_MOVE`` games per configuration is decided (the legal-move
# test), and the tracker's, the browser engine's and the words' tests play random games of every
# configuration of their own; all derandomized, so a run is repeatable, while each soak explores
# new games.
PACKS_PER_EXAMPLE = 10 if SOAK else 1.25
# Games checked at every step, and games with every offered move decided, per configuration: 10
# under ``ci``, 100 under ``soak``. Ten suffice for ``make test``: each is two whole hands in which
# every view of every seat and of a spectator is checked at each of hundreds of decisions (3,400 in
# ten 打棒 games), or every move offered is decided (over 4,000 in ten games of any configuration,
# 34,000 of 打棒; the test asks for 1,000), and the random games above check the views at every
# 9th step of 30 to 135 other games. (Before the suite had to fit in 12 minutes: 25 and 30.)
GAMES_AT_EVERY_STEP = GAMES_OF_EVERY_MOVE = 100 if SOAK else 10
# ``make soak`` selects the Hypothesis tests (``-m hypothesis``): these are, though their examples
# are drawn inside the test (a count per configuration) or are plain seeds.
pytestmark = pytest.mark.hypothesis


def examples(game_id: str, variant: str, players: int) -> int:
    """Random games for one configuration: about the same number of cards dealt for each
    (``PACKS_PER_EXAMPLE`` packs of 52 cards per example of the profile), so a four-deck game does
    not cost four times a one-deck game; never fewer than a quarter of the profile's own count."""
    game = get_game(game_id)
    pack = len(game.pack(game.config(variant, players)))
    base = settings.default.max_examples
    return max(base // 4, int(base * PACKS_PER_EXAMPLE * 52 // pack))


@pytest.mark.parametrize(("game_id", "variant", "players"), CONFIGS)
def test_random_games_keep_every_invariant(game_id: str, variant: str, players: int) -> None:
    @settings(
        max_examples=examples(game_id, variant, players),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(seed=st.integers(min_value=0, max_value=2**32))
    def random_game(seed: int) -> None:
        summary = checked_random_game(game_id, variant, seed, players, hands=2, every=9)
        assert summary["decisions"] > 0 and sum(summary["totals"]) == 0

    random_game()


@pytest.mark.parametrize(("game_id", "variant", "players"), CONFIGS)
def test_views_never_leak_at_any_step(game_id: str, variant: str, players: int) -> None:
    for seed in range(GAMES_AT_EVERY_STEP):
        checked_random_game(game_id, variant, seed, players, hands=2, every=1)


@pytest.mark.parametrize(("game_id", "variant", "players"), CONFIGS)
def test_every_legal_move_is_accepted_and_a_refused_play_is_never_offered(
    game_id: str, variant: str, players: int
) -> None:
    game = get_game(game_id)
    rng = random.Random(7)
    offered = refused = 0

    def choose(state: Any, seat: int, moves: list[Any]) -> Any:
        nonlocal offered, refused
        for move in moves:
            game.decide(state, move)
            offered += 1
        hand = state.hands[seat]
        pick = tuple(sorted(rng.sample(hand, rng.randint(1, min(5, len(hand))))))
        # a play is its cards and its reading: cards offered only with a reading may be refused
        # without one (ambiguous_reading)
        legal = {(m.cards, m.reading) for m in moves if isinstance(m, Play)}
        try:
            game.decide(state, Play(seat=seat, cards=pick))
        except ValueError:
            refused += 1
            assert (pick, None) not in legal
        return rng.choice(moves)

    for seed in range(GAMES_OF_EVERY_MOVE):
        play_game(game.config(variant, players, hands=2), f"accept-{seed}", choose)
    assert offered > 1000 and refused > 100


def test_the_checks_themselves_catch_a_leak_and_lost_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """The invariant checks are not vacuous: a view that shows the next seat's hand, or a state
    that drops a card, is caught."""
    import dataclasses

    from paiju.cards import card_codes
    from paiju.selfcheck import InvariantBroken, check_cards_conserved, check_views_hide_hands

    game = get_game("guanpai")
    state, _ = play_game(game.config("boke"), "x", lambda s, seat, moves: moves[0])
    base = dataclasses.replace(
        game.initial_state(game.config("boke")), phase="play", hands=((0, 1), (2, 3), (4, 5))
    )
    original = type(game).view

    def leaky(self: Any, st: Any, seat: int | None) -> dict[str, Any]:
        view = original(self, st, seat)
        view["peek"] = card_codes(st.hands[((seat or 0) + 1) % 3])
        return view

    monkeypatch.setattr(type(game), "view", leaky)
    with pytest.raises(InvariantBroken):
        check_views_hide_hands(base)
    monkeypatch.setattr(
        type(game),
        "view",
        lambda self, st, seat: original(self, st, seat) | {"all": card_codes(st.hands[0])},
    )
    with pytest.raises(InvariantBroken, match="seat None"):  # a spectator's view is checked too
        check_views_hide_hands(base)
    monkeypatch.undo()
    check_views_hide_hands(base)
    holder = next(seat for seat, hand in enumerate(state.hands) if hand)
    hands = list(state.hands)
    hands[holder] = hands[holder][1:]
    with pytest.raises(InvariantBroken):
        check_cards_conserved(dataclasses.replace(state, hands=tuple(hands)))
