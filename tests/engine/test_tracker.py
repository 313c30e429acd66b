"""记牌器 (``paiju.tracker``): the counts a seat's counter works out from its own views, fed one
after every event as the browser's worker gets them, equal at every event of random games of every
catalogued game the counts from the true log: the pack minus the seat's hand minus every card
played this hand; every card another seat holds is among them; and a counter that starts in the
middle of a hand, or misses an event, says it is not complete.
"""

from __future__ import annotations

import functools
import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju import api
from paiju.cards import card_codes
from paiju.protocol import Dealt, Played
from paiju.registry import get_game
from paiju.simulate import random_chooser, table_command
from paiju.tracker import CardCounter, TrackerClient, rank_key

CASES = [
    (game["id"], variant["id"], players)
    for game in api.list_games()
    for variant in game["variants"]
    for players in variant["players"]
]
MAX_EVENTS = 400  # events followed per example (a whole hand and more)


@functools.cache
def pack_ranks(config: Any) -> Counter[str]:
    """How many cards of each rank the pack of ``config`` holds."""
    return Counter(rank_key(c) for c in card_codes(get_game(config.game).pack(config)))


def truth(config: Any, state: Any, seat: int, played: list[str]) -> dict[str, int]:
    """The pack minus the seat's true hand minus the cards of the hand's plays (from the log)."""
    pack = pack_ranks(config)
    mine = Counter(rank_key(c) for c in card_codes(state.hands[seat] if state.hands else ()))
    out = pack - mine - Counter(rank_key(c) for c in played)
    return {rank: out[rank] for rank in pack}


def follow(
    case: tuple[str, str, int], seed: int, seat_pick: int, skip: int = 0, from_deal: bool = False
) -> Counter[str]:
    """Play a random game with random legal moves; after every event (as the gateway sends a
    view after each) feed the seat's view to a counter and its JSON twin, and compare with the
    truth whenever the counter says it is complete. ``from_deal``: the first view fed is the first
    in which a seat is to act (a page opened after the deal), which must count as complete.
    ``skip``: leave out the view of that event number (a missed frame), after which the counter
    must not claim to be complete in that hand. Either follows the match to the end of the hand
    it is about (the first, or the missed one), no further: the later hands are the plain
    following of other random games. Returns what was seen: "compared" events, "after_plays"
    (compared with a card played), "incomplete" events."""
    game_id, variant, players = case
    config = api.make_config(game_id, variant, players)
    game = get_game(game_id)
    seat = seat_pick % players
    choose = random_chooser(random.Random(seed))
    state = game.initial_state(config)
    counter = CardCounter(config.to_dict())
    twin = TrackerClient(json.dumps(config.to_dict()))
    played: list[str] = []
    seen: Counter[str] = Counter()
    number = 0
    missed_hand = None
    while state.phase != "over" and number < MAX_EVENTS:
        if (skip or from_deal) and state.hand_no > max(missed_hand or 0, 1):
            break  # the hand the test is about is over
        command = table_command(state, f"tracker-{seed}")
        if command is None:
            mover = game.to_move(state)
            assert mover is not None
            command = choose(state, mover, game.legal_moves(state, mover))
        _, events = game.apply(state, command)
        for event in events:
            state = api.evolve(state, event)
            number += 1
            if isinstance(event, Dealt):
                played = []
            if isinstance(event, Played):
                played.extend(card_codes(event.cards))
            if number == skip:
                missed_hand = state.hand_no
                continue
            if from_deal and counter.version is None and game.to_move(state) is None:
                continue  # the page is not open yet
            view = json.loads(json.dumps(api.view(state, seat)))
            counter.update(view)
            if from_deal and state.hand_no == 1:
                assert counter.complete, (number, view["phase"], view["counts"])
            assert json.loads(twin.update(json.dumps(view))) == counter.to_json()
            if not counter.complete:
                seen["incomplete"] += 1
                continue
            assert missed_hand != state.hand_no or not played, "complete after a missed play"
            assert counter.counts() == truth(config, state, seat, played), (number, view)
            seen["compared"] += 1
            seen["after_plays"] += bool(played)
            if state.hands and state.phase in game.seat_phases:
                held = Counter(
                    rank_key(c)
                    for other, hand in enumerate(state.hands)
                    if other != seat
                    for c in card_codes(hand)
                )
                assert not held - Counter(counter.counts())  # every hidden card is counted
    return seen


@pytest.mark.parametrize("case", CASES, ids=[f"{g}-{v}-{n}" for g, v, n in CASES])
@settings(max_examples=15, deadline=None)  # `make soak`: 150
@given(seed=st.integers(0, 2**32), seat=st.integers(0, 5))
def test_the_counts_from_the_views_are_the_pack_minus_the_hand_minus_the_plays(
    case: tuple[str, str, int], seed: int, seat: int
) -> None:
    seen = follow(case, seed, seat)
    assert seen["compared"] > 0 and seen["after_plays"] > 0


@pytest.mark.parametrize("case", CASES, ids=[f"{g}-{v}-{n}" for g, v, n in CASES])
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32), seat=st.integers(0, 5))
def test_a_counter_opened_after_the_deal_is_complete_and_right(
    case: tuple[str, str, int], seed: int, seat: int
) -> None:
    """A seat whose page receives its first view once the cards are dealt (a kitty set aside, as
    打棒's eight) saw the hand from before its first play: complete, and the counts right."""
    seen = follow(case, seed, seat, from_deal=True)
    assert seen["compared"] > 0 and seen["after_plays"] > 0


@pytest.mark.parametrize("case", CASES, ids=[f"{g}-{v}-{n}" for g, v, n in CASES])
@settings(max_examples=10, deadline=None)  # `make soak`: 100
@given(seed=st.integers(0, 2**32), seat=st.integers(0, 5), skip=st.integers(3, 60))
def test_a_missed_event_makes_the_counter_say_it_is_not_complete(
    case: tuple[str, str, int], seed: int, seat: int, skip: int
) -> None:
    follow(case, seed, seat, skip)


def test_a_counter_started_in_the_middle_of_a_hand_is_not_complete() -> None:
    config = api.make_config("guanpai", "boke")
    game = get_game("guanpai")
    state = game.initial_state(config)
    choose = random_chooser(random.Random(7))
    while state.phase != "play" or not any(api.view(state, None)["actions"]):
        command = table_command(state, "mid")
        if command is None:
            mover = game.to_move(state)
            assert mover is not None
            command = choose(state, mover, game.legal_moves(state, mover))
        state, _ = game.apply(state, command)
    counter = CardCounter(config)
    counter.update(api.view(state, 0))
    assert not counter.complete
    out = counter.to_json()
    assert out["ranks"][0]["rank"] == "2"  # in the game's order: 2 is 关牌's highest
    assert sum(r["total"] for r in out["ranks"]) == 48
