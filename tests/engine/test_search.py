"""The 高手 bot (``paiju.search``) and its sampler (``paiju.sampling``): at seeded points of every
game, bids and plays alike, its move is legal, the same for the same state, within its budget, and
the same whichever way the other seats' hidden cards lie; every deal it samples keeps what the
seat knows, and so does the true deal (the sampler never rules the truth out)."""

from __future__ import annotations

import dataclasses
import functools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju import api, levels, sampling, search
from paiju.cards import parse_cards
from paiju.client import state_from_view
from paiju.duel import duel_config, opening
from paiju.protocol import Bid, HandEnded
from paiju.registry import get_game
from paiju.simulate import table_command
from paiju.table import TableState

GAMES = [game["id"] for game in api.list_games()]
POINTS = 3  # decisions per game: the first that is not a play (a bid), then plays


@functools.cache
def points(game_id: str) -> tuple[tuple[TableState, int], ...]:
    """Seeded points of one hand of ``game_id`` played by 普通 bots, where the seat to move has a
    choice: its first choice outside play (if any), one early in play and one later."""
    config = duel_config(game_id)
    game: Any = get_game(game_id)
    state = game.initial_state(config)
    found: list[tuple[TableState, int]] = []
    plays = 0
    bid_taken = False
    while len(found) < POINTS:
        command = table_command(state, f"search-{game_id}")
        if command is None:
            seat = game.to_move(state)
            if len(game.legal_moves(state, seat)) > 1:
                if state.phase != "play" and not bid_taken:
                    found.append((state, seat))
                    bid_taken = True
                elif state.phase == "play":
                    plays += 1
                    if plays in (2, 9):
                        found.append((state, seat))
            command = levels.choose(state, seat, "normal")
        state, events = game.apply(state, command)
        if any(isinstance(e, HandEnded) for e in events):
            break
    return tuple(found)


def seat_state(state: TableState, seat: int) -> TableState:
    return state_from_view(state.config, api.view(state, seat))


@pytest.mark.parametrize("game_id", GAMES)
def test_an_expert_decision_is_legal_repeatable_and_within_its_budget(game_id: str) -> None:
    game: Any = get_game(game_id)
    budget = search.budget_for(game_id)
    phases = set()
    for state, seat in points(game_id):
        limit = budget.steps_for(game_id, state.phase)  # more outside play (``words``)
        mine = seat_state(state, seat)
        found = search.search(mine, seat, budget)
        assert found.move in game.legal_moves(state, seat)  # legal at the true table
        assert search.search(mine, seat, budget) == found  # the same state, the same search
        assert levels.choose(mine, seat, "expert") == found.move
        assert 1 <= found.deals <= budget.playouts
        assert len(found.values) <= budget.candidates
        assert found.steps - found.last <= limit + budget.playouts
        phases.add(state.phase)
    assert "play" in phases


def test_a_scaled_budget_plays_out_that_share_of_the_steps() -> None:
    game_id = "guanpai"
    assert search.Budget().steps_for(game_id, "declare") == 4 * search.STEPS[game_id]
    assert search.Budget(scale=0.5).steps_for(game_id) == search.STEPS[game_id] // 2
    assert search.Budget(steps=10, scale=0.01).steps_for(game_id) == 1  # never none
    assert search.scaled(1.0) is search.choose
    small = dataclasses.replace(search.budget_for(game_id), scale=0.1)
    state, seat = next((s, t) for s, t in points(game_id) if s.phase == "play")
    mine = seat_state(state, seat)
    full, tenth = (
        search.search(mine, seat, search.budget_for(game_id)),
        search.search(mine, seat, small),
    )
    assert tenth.steps - tenth.last <= small.steps_for(game_id) + small.playouts
    assert tenth.deals < full.deals
    assert search.scaled(0.1)(mine, seat) == tenth.move


def test_a_lone_legal_move_is_played_without_a_search() -> None:
    for game_id in GAMES:
        game: Any = get_game(game_id)
        state = game.initial_state(duel_config(game_id))
        for _ in range(400):
            command = table_command(state, "lone")
            if command is None:
                seat = game.to_move(state)
                moves = game.legal_moves(state, seat)
                if len(moves) == 1:
                    found = search.search(seat_state(state, seat), seat)
                    assert (found.move, found.deals, found.steps) == (moves[0], 0, 0)
                    break
                command = levels.choose(state, seat, "normal")
            state, events = game.apply(state, command)
            if any(isinstance(e, HandEnded) for e in events):
                break


def swapped(state: TableState, seat: int) -> TableState | None:
    """``state`` with a hidden card of one other seat exchanged for a different one of another's,
    such that ``seat``'s view stays the same (None: no such exchange)."""
    others = [s for s in range(state.config.players) if s != seat and state.hands[s]]
    view = api.view(state, seat)
    for a in others:
        for b in others:
            if b <= a:
                continue
            for x in sorted(set(state.hands[a])):
                for y in sorted(set(state.hands[b]) - {x}):
                    hands = list(state.hands)
                    ha, hb = list(hands[a]), list(hands[b])
                    ha.remove(x)
                    hb.remove(y)
                    hands[a], hands[b] = tuple(sorted([*ha, y])), tuple(sorted([*hb, x]))
                    other = dataclasses.replace(state, hands=tuple(hands))
                    if api.view(other, seat) == view:
                        return other
    return None


@pytest.mark.parametrize("game_id", GAMES)
def test_a_decision_depends_on_the_seats_view_only(game_id: str) -> None:
    """Issue 30's information hygiene: two tables that differ only in how the other seats' hidden
    cards lie give the seat the same view, and the expert the same move."""
    checked = 0
    for state, seat in points(game_id)[1:]:
        other = swapped(state, seat)
        if other is None:
            continue
        assert other.hands != state.hands
        first = search.search(seat_state(state, seat), seat)
        second = search.search(seat_state(other, seat), seat)
        assert first == second
        checked += 1
    assert checked


def random_point(game_id: str, seed: int, moves: int) -> tuple[TableState, int] | None:
    """The table after ``moves`` random legal moves of a seeded hand, and the seat to move."""
    game: Any = get_game(game_id)
    state = game.initial_state(duel_config(game_id))
    rng = random.Random(seed)
    taken = 0
    for _ in range(2000):
        command = table_command(state, f"sample-{seed}")
        if command is None:
            seat = game.to_move(state)
            if taken >= moves:
                return state, seat
            command = rng.choice(game.legal_moves(state, seat))
            taken += 1
        state, events = game.apply(state, command)
        if any(isinstance(e, HandEnded) for e in events):
            return None
    return None


@settings(max_examples=30, deadline=None)
@given(
    game_id=st.sampled_from(GAMES),
    seed=st.integers(0, 10_000),
    moves=st.integers(0, 120),
    draw=st.integers(0, 2**32),
)
def test_every_sample_keeps_what_the_seat_knows(
    game_id: str, seed: int, moves: int, draw: int
) -> None:
    point = random_point(game_id, seed, moves)
    if point is None:
        return
    truth, seat = point
    mine = seat_state(truth, seat)
    know = sampling.knowledge(mine, seat)
    assert sampling.problems(truth, mine, seat, know) == []  # the truth is one of the deals
    for i in range(3):
        dealt = sampling.sample(mine, seat, random.Random(draw + i), know)
        assert sampling.problems(dealt, mine, seat, know) == []
        assert dealt.hands[seat] == truth.hands[seat]
        assert [len(h) for h in dealt.hands] == [len(h) for h in truth.hands]


def test_a_void_shown_in_the_trick_is_kept() -> None:
    """打棒: a seat that followed a lead with fewer cards of its suit than led holds none of it,
    in the truth and in every sample."""
    game: Any = get_game("dabang")
    state = game.initial_state(duel_config("dabang"))
    rng = random.Random(7)
    for _ in range(3000):
        command = table_command(state, "voids")
        if command is None:
            seat = game.to_move(state)
            if state.phase == "play" and state.trick_leader not in (None, seat):
                mine = seat_state(state, seat)
                know = sampling.knowledge(mine, seat)
                shown = [(s, suits) for s, suits in enumerate(know.voids) if suits]
                for s, suits in shown:
                    assert not any(know.suit_of[c] in suits for c in state.hands[s])
                    dealt = sampling.sample(mine, seat, rng, know)
                    assert not any(know.suit_of[c] in suits for c in dealt.hands[s])
                    assert sampling.problems(dealt, mine, seat, know) == []
                if shown:
                    return
            command = rng.choice(game.legal_moves(state, seat))
        state, events = game.apply(state, command)
        if any(isinstance(e, HandEnded) for e in events):
            state = game.initial_state(state.config)
    pytest.fail("no void shown")


def test_a_declarations_cards_are_dealt_to_the_seat_that_showed_them() -> None:
    """打棒, a later hand's declaring round: the level cards (or jokers) a seat's declaration
    showed are in its hand, in the truth and in every deal another seat samples."""
    game: Any = get_game("dabang")
    config = duel_config("dabang", hands=2)
    checked = 0
    for seed in range(40):
        state = opening(config, f"shown-{seed}", "normal")
        while state is not None and state.phase != "declare":
            command = table_command(state, f"shown-{seed}")
            if command is None:
                break
            state, _ = game.apply(state, command)
        if state is None or state.phase != "declare":
            continue
        speaker = game.to_move(state)
        shows = [m for m in game.legal_moves(state, speaker) if m.bid not in ("pass", "liang")]
        if not shows:
            continue
        state, _ = game.apply(state, max(shows, key=lambda m: m.bid))
        if state.phase != "declare":
            continue
        seat = game.to_move(state)
        shown = game.shown_held(state)
        assert shown and {s for s, _ in shown} == {speaker}
        mine = seat_state(state, seat)
        know = sampling.knowledge(mine, seat)
        assert sampling.problems(state, mine, seat, know) == []
        for i in range(10):
            dealt = sampling.sample(mine, seat, random.Random(i), know)
            held = dealt.hands[speaker]
            for card in {c for _, c in shown}:
                assert held.count(card) >= sum(c == card for _, c in shown)
        checked += 1
        if checked == 3:
            return
    pytest.fail(f"only {checked} declarations said in 40 second hands")


@pytest.mark.parametrize("game_id", ["dabang", "dagong"])
def test_the_unseen_played_cards_hold_the_points_the_view_tells(game_id: str) -> None:
    """打棒 and 打拱: the view shows the points each seat took and those on the table, so the
    played cards the seat did not see hold exactly the rest, in the truth and in every sample."""
    game: Any = get_game(game_id)
    truth = game.initial_state(duel_config(game_id))
    plays = 0
    while plays < 40:  # well into the hand: many cards played out of sight
        command = table_command(truth, "played-points")
        if command is None:
            plays += truth.phase == "play"
            command = levels.choose(truth, game.to_move(truth), "normal")
        truth, _ = game.apply(truth, command)
    seat = game.to_move(truth)
    mine = seat_state(truth, seat)
    know = sampling.knowledge(mine, seat)
    assert know.hidden_points is not None and know.hidden_points > 0
    assert sampling.problems(truth, mine, seat, know) == []
    for i in range(20):
        dealt = sampling.sample(mine, seat, random.Random(i), know)
        assert sampling.problems(dealt, mine, seat, know) == []


@pytest.mark.parametrize(
    ("held", "answer"),
    [
        ("JS JH JC JD QS QH QC QD KS KH KC KD 3S", "fanbao"),  # three 斗 (four of a kind) win it
        ("3S 4H 6C 7D 8S 9H TC JD QS KH 5C 5D 6S", "pass"),  # a plain hand would pay 18
    ],
)
def test_the_expert_answers_a_bao_with_fanbao_when_its_hand_wins_the_duel(
    held: str, answer: str
) -> None:
    """板子炮's 反包 wins 9 and loses 18: the 普通 bot says it only with four aces and twos, and
    passes with three 斗 of J, Q and K; the 高手 searches it and answers with 反包 there, and with
    a plain hand it passes."""
    game: Any = get_game("banzipao")
    state = game.initial_state(duel_config("banzipao"))
    while (command := table_command(state, "fanbao")) is not None:
        state, _ = game.apply(state, command)
    bidder = game.to_move(state)
    answerer = (bidder + 1) % 4  # the 下家: "他的下家还可以选择反包"
    mine = tuple(sorted(parse_cards(held)))
    rest = [c for hand in state.hands for c in hand if c not in mine]
    others = iter(s for s in range(4) if s != answerer)
    hands = [mine] * 4
    for i, seat in enumerate(others):
        hands[seat] = tuple(sorted(rest[13 * i : 13 * (i + 1)]))
    state = dataclasses.replace(state, hands=tuple(hands))
    state, _ = game.apply(state, Bid(seat=bidder, bid="bao"))
    assert game.to_move(state) == answerer
    assert levels.choose(seat_state(state, answerer), answerer, "normal") == Bid(
        seat=answerer, bid="pass"
    )
    assert levels.choose(seat_state(state, answerer), answerer, "expert") == Bid(
        seat=answerer, bid=answer
    )
