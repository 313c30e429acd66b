"""大北 at the table: the ♦4 opening, the hidden partners, play after the first player is out, and
every line of the score sheet — decided through ``paiju.api`` on real states.

A position is dealt by the ``Dealt`` event itself, so the state is built by the engine's own
``evolve``; a position late in a hand adds what the earlier play left behind (who is out, who
played ♠3 and ♠A) with ``dataclasses.replace``. Seats are numbered in the order of play
(counterclockwise at the table).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from story import Table, dealt, play_hand_with_bots, run_table

from paiju import api
from paiju.cards import format_cards, parse_card, parse_cards
from paiju.games.dabei import SPADE_ACE, SPADE_THREE
from paiju.protocol import HandEnded, Pass, Play, ScoreLine

# --- positions ------------------------------------------------------------------------------------


def config(**options: Any) -> api.Config:
    return api.make_config("dabei", "beihai", 4, options)


def deal(*hands: str, leader: int | None = None, **options: Any) -> Table:
    """A hand dealt exactly as given (one string per seat); the ♦4 holder leads unless told."""
    if leader is None:
        leader = next(s for s, h in enumerate(hands) if "4D" in h.split())
    return dealt(config(**options), hands, leader)


# Two full deals that differ only in where ♠A lies: with seat 1 in WITH_SEAT_1, with seat 2 in
# WITH_SEAT_2 (it changes places with ♥4). Seat 0 holds ♦4 and ♠3 in both.
WITH_SEAT_1 = (
    "4D 3S 5H 6H 7H 8H 9H TH JH QH KH AH 2H",
    "AS 4S 5S 6S 7S 8S 9S TS JS QS KS 2S 3H",
    "4H 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2C",
    "3C 3D 5D 6D 7D 8D 9D TD JD QD KD AD 2D",
)


def swapped(hands: tuple[str, ...], one: str, other: str) -> tuple[str, ...]:
    """The same deal with two cards changing places."""
    table = {one: other, other: one}
    return tuple(" ".join(table.get(code, code) for code in hand.split()) for hand in hands)


WITH_SEAT_2 = swapped(WITH_SEAT_1, "AS", "4H")


def test_the_two_deals_hold_every_card_once() -> None:
    for hands in (WITH_SEAT_1, WITH_SEAT_2):
        cards = [c for h in hands for c in parse_cards(h)]
        assert sorted(cards) == list(range(52))
    assert "AS" in WITH_SEAT_2[2] and "4H" in WITH_SEAT_2[1]


# --- the ♦4 opening ---------------------------------------------------------------------------------


def test_the_first_play_must_contain_the_diamond_four() -> None:
    # 3a "每局均是方块4出牌，出的第一手牌中必须有方块4"
    t = deal("4D 4S 9H", "5C 6C", "7C 8C", "9C TC")
    assert t.state.turn == 0
    assert t.legal_plays(0) == {"4D", "4S 4D"}
    t.refuses_play(0, "9H", "must_include_card")
    t.refuses_play(0, "4S", "must_include_card")
    t.play(0, "4S 4D")
    t.passes(1, 2, 3)
    assert t.state.turn == 0
    assert t.legal_plays(0) == {"9H"}  # later leads are free


@pytest.mark.parametrize("seed", ["a", "b", "c"])
def test_every_hand_of_a_match_is_opened_by_the_diamond_four(seed: str) -> None:
    state = api.initial_state(config(hands=3))
    for hand_no in (1, 2, 3):
        state = run_table(state, seed)
        assert state.hand_no == hand_no
        four = next(s for s, h in enumerate(state.hands) if parse_card("4D") in h)
        assert api.to_move(state) == four
        plays = {format_cards(m.cards) for m in api.legal_moves(state, four) if isinstance(m, Play)}
        assert plays and all("4D" in p for p in plays)
        state = play_hand_with_bots(state)
        assert state.phase == "reveal"
    state = run_table(state, seed)
    assert state.phase == "over"


# --- hidden sides ------------------------------------------------------------------------------------


def test_no_seat_learns_its_partner_from_the_view_before_the_spades_are_played() -> None:
    # 4 "甲方和乙方在打牌过程中凭各人出牌的方式和直觉判断同伙": seat 0 (♠3) is with seat 1 in one
    # deal and with seat 2 in the other; seat 0 and seat 3 see exactly the same in both.
    a, b = deal(*WITH_SEAT_1), deal(*WITH_SEAT_2)

    def same_for_0_and_3() -> None:
        for seat in (0, 3, None):
            assert a.view(seat) == b.view(seat)

    same_for_0_and_3()
    view = a.view(0)
    assert view["openness"] == "hidden" and view["sides"] is None
    assert view["spade_three"] is None and view["spade_ace"] is None
    for t in (a, b):
        t.play(0, "4D")
        t.passes(1, 2, 3)
    same_for_0_and_3()
    # 半明打: ♠3 is played; everybody saw who played it, the ♠A is still hidden
    for t in (a, b):
        t.play(0, "3S")
        t.passes(1, 2, 3)
    same_for_0_and_3()
    view = a.view(3)
    assert view["openness"] == "half_open" and view["spade_three"] == 0
    assert view["spade_ace"] is None and view["sides"] is None
    # 全明打: seat 1 plays ♠A in the first deal
    a.play(0, "5H")
    a.play(1, "AS")
    for seat in (None, 0, 1, 2, 3):
        view = a.view(seat)
        assert view["openness"] == "open" and view["spade_ace"] == 1 and view["sides"] is None


def test_the_sides_are_shown_once_the_hand_is_over() -> None:
    t = deal("4D 3S", "5C 6C 7C", "AS 8D", "9C TC JC")
    t.play(0, "4D")
    t.play(1, "5C")
    t.play(2, "AS")
    t.passes(3)
    t.play(0, "3S")
    t.passes(1, 2, 3)
    t.play(1, "6C")
    t.play(2, "8D")
    t.play(3, "9C")
    t.passes(1)
    t.play(3, "TC")
    t.passes(1)
    assert t.view(1)["sides"] is None
    t.play(3, "JC")
    assert t.state.phase == "reveal"
    for seat in (None, 0, 1, 2, 3):
        assert t.view(seat)["sides"] == {"jia": [0, 2], "yi": [1, 3], "solo": False}


# --- play after the first player is out ----------------------------------------------------------------


def test_play_goes_on_after_the_first_player_is_out_until_three_are_out() -> None:
    t = deal("4D 3S", "5C 6C 7C", "AS 8D", "9C TC JC")
    t.play(0, "4D")
    t.play(1, "5C")
    t.play(2, "AS")
    t.passes(3)
    t.play(0, "3S")  # seat 0 is out first: the hand goes on
    assert t.state.out == (0,) and t.state.phase == "play"
    t.passes(1, 2, 3)  # the trick seat 0 won passes the lead to the next seat with cards
    assert t.state.turn == 1 and t.state.lead is None
    t.play(1, "6C")
    t.play(2, "8D")  # out second: 甲 have the first two places
    assert t.state.out == (0, 2) and t.state.phase == "play"
    t.play(3, "9C")
    assert t.state.turn == 1  # seats 0 and 2 are skipped
    t.passes(1)
    assert t.state.turn == 3 and t.state.lead is None
    t.play(3, "TC")
    t.passes(1)
    t.play(3, "JC")  # the third player out fixes the last place too
    assert t.ended.order == (0, 2, 3, 1)
    assert t.ended.lines == (ScoreLine("full_win", 1, 0, 6), ScoreLine("full_win", 3, 2, 6))
    assert t.ended.scores == (6, -6, 6, -6)


def test_a_pass_is_for_one_turn_and_the_leader_of_a_round_must_play() -> None:
    """ "选择 Pass 就会轮到下一家": a pass hands the turn on, nothing more — the passer plays again
    when the turn comes back in the same round; a fresh round's leader has nothing to answer and
    must play (docs/rules/dabei.md, "A trick")."""
    t = deal("4D 9H KH", "5C 6C QC", "8D 9D TD", "9C TC JC")
    t.play(0, "4D")
    t.passes(1)  # seat 1 passes on ♦4 …
    t.play(2, "8D")
    t.play(3, "9C")
    t.passes(0)
    assert t.state.turn == 1 and "QC" in t.legal_plays(1)
    t.play(1, "QC")  # … and plays again in the same round
    t.passes(2, 3, 0)
    assert t.state.turn == 1 and t.state.lead is None and not t.may_pass(1)
    t.refuses(Pass(seat=1), "cannot_pass_lead")


def test_a_table_may_stop_as_soon_as_the_score_is_settled() -> None:
    t = deal("4D 3S", "5C 6C 7C", "AS 8D", "9C TC JC", stop_when_settled=True)
    t.play(0, "4D")
    t.play(1, "5C")
    t.play(2, "AS")
    t.passes(3)
    t.play(0, "3S")
    assert t.state.phase == "play"
    t.passes(1, 2, 3)
    t.play(1, "6C")
    t.play(2, "8D")  # 甲 first and second: nothing left to decide
    assert t.ended.order == (0, 2, 1, 3)  # the rest by cards left
    assert t.ended.scores == (6, -6, 6, -6)


def test_stopping_early_still_plays_on_while_the_result_is_open() -> None:
    # ♠3 (seat 0) out first, then 乙 (seat 1): a half win or a draw, so the hand goes on
    t = deal("4D 3S", "5C", "AS 8D 9D", "9C TC JC", stop_when_settled=True)
    t.play(0, "4D")
    t.play(1, "5C")  # seat 1 is out first
    t.play(2, "AS")
    t.passes(3)
    assert t.state.out == (1,) and t.state.turn == 0
    t.play(0, "3S")  # out second: 乙 first, 甲 second — still open
    assert t.state.phase == "play"


def test_the_solo_player_stops_the_hand_early_when_he_is_out() -> None:
    t = deal("4D 3S AS", "5C 6C", "7C 8C", "9C TC", stop_when_settled=True)
    t.play(0, "4D")
    t.passes(1, 2, 3)
    t.play(0, "3S")
    t.passes(1, 2, 3)
    t.play(0, "AS")
    assert t.ended.order[0] == 0
    assert t.ended.scores == (18, -6, -6, -6)


# --- the score sheet --------------------------------------------------------------------------------


def finish(order: tuple[int, int, int, int], three: int, ace: int, **options: Any) -> HandEnded:
    """The end of a hand with this finishing order: the first two are out and ♠3 and ♠A were
    played by their holders; the third player leads his last card and goes out."""
    first, second, third, last = order
    hands = [""] * 4
    hands[third], hands[last] = "5H", "6H 7H"
    t = deal(*hands, leader=third, **options)
    t.state = dataclasses.replace(
        t.state,
        out=(first, second),
        marks_played=((SPADE_THREE, three), (SPADE_ACE, ace)),
        discards=parse_cards("4D 3S AS 8C 9C TC JC QC KC 2C 3C 4C 5C 6C"),
    )
    t.play(third, "5H")
    return t.ended


# (finishing order, ♠3 holder, ♠A holder, reason, each seat's score)
PARTNER_CASES = [
    # 3b as written: ♠3 first
    ((0, 2, 1, 3), 0, 2, "full_win", (6, -6, 6, -6)),  # "黑桃A是第二个出完牌，则甲方全胜"
    ((0, 1, 2, 3), 0, 2, "half_win", (3, -3, 3, -3)),  # "黑桃A是第三个出完牌，则甲方半胜"
    ((0, 1, 3, 2), 0, 2, None, (0, 0, 0, 0)),  # "黑桃A是第四个（最后一个）出完牌，则甲方乙方平局"
    # the symmetric reading: ♠A first is read like ♠3 first
    ((2, 0, 1, 3), 0, 2, "full_win", (6, -6, 6, -6)),
    ((2, 1, 0, 3), 0, 2, "half_win", (3, -3, 3, -3)),
    ((2, 3, 1, 0), 0, 2, None, (0, 0, 0, 0)),
    # ... and 乙 first like 甲 first
    ((1, 3, 0, 2), 0, 2, "full_win", (-6, 6, -6, 6)),
    ((3, 0, 1, 2), 0, 2, "half_win", (-3, 3, -3, 3)),
    ((1, 2, 0, 3), 0, 2, None, (0, 0, 0, 0)),
    # partners sitting side by side
    ((3, 2, 0, 1), 2, 3, "full_win", (-6, -6, 6, 6)),
]


@pytest.mark.parametrize(("order", "three", "ace", "reason", "scores"), PARTNER_CASES)
def test_partners_score_by_the_place_of_the_first_players_partner(
    order: tuple[int, int, int, int],
    three: int,
    ace: int,
    reason: str | None,
    scores: tuple[int, ...],
) -> None:
    ended = finish(order, three, ace)
    assert ended.order == order
    assert ended.scores == scores
    if reason is None:
        assert ended.lines == ()
    else:
        assert {line.reason for line in ended.lines} == {reason}
        # each loser pays one winner: the last of the losers pays the first player
        assert len(ended.lines) == 2
        assert ended.lines[0].payee == order[0] and ended.lines[0].payer == max(
            (s for s in order if scores[s] < 0), key=order.index
        )


SOLO_CASES = [
    # 3c "如果甲方先出完牌…共赢得18个游戏币，乙方各人各自输6个游戏币"
    ((0, 1, 2, 3), "solo_first", (18, -6, -6, -6)),
    # "如果甲方第二个出完牌，则甲方半胜，共赢得9个游戏币，乙方各人各自输3个游戏币"
    ((1, 0, 2, 3), "solo_second", (9, -3, -3, -3)),
    # "如果甲方是第三个出完牌，则甲方半输，共输9个游戏币，乙方各人各得3个游戏币"
    ((1, 2, 0, 3), "solo_third", (-9, 3, 3, 3)),
    # "如果甲方是最后一个出完牌，则甲方全输，共输18个游戏币，乙方各人各得6个游戏币"
    ((1, 2, 3, 0), "solo_last", (-18, 6, 6, 6)),
]


@pytest.mark.parametrize(("order", "reason", "scores"), SOLO_CASES)
def test_one_player_with_both_spades_plays_alone_against_three(
    order: tuple[int, int, int, int], reason: str, scores: tuple[int, ...]
) -> None:
    ended = finish(order, 0, 0)
    assert ended.scores == scores
    assert len(ended.lines) == 3 and {line.reason for line in ended.lines} == {reason}
    for line in ended.lines:
        assert 0 in (line.payer, line.payee) and line.amount == abs(scores[0]) // 3


def test_the_stakes_are_a_table_option() -> None:
    # "假设打牌约定是3个游戏币和6个游戏币": a table may agree on other stakes
    assert finish((0, 2, 1, 3), 0, 2, full_stake=10, half_stake=4).scores == (10, -10, 10, -10)
    assert finish((0, 1, 2, 3), 0, 2, full_stake=10, half_stake=4).scores == (4, -4, 4, -4)
    assert finish((1, 0, 2, 3), 0, 0, full_stake=10, half_stake=4).scores == (12, -4, -4, -4)


def test_a_solo_player_found_in_a_real_deal_plays_alone() -> None:
    t = deal("4D 3S AS 5S", "5C 6C", "7C 8C", "9C TC")
    t.play(0, "4D")
    t.passes(1, 2, 3)
    t.play(0, "3S")
    t.passes(1, 2, 3)
    t.play(0, "AS")
    t.passes(1, 2, 3)
    t.play(0, "5S")  # first out: the hand goes on until the places are fixed
    t.play(1, "6C")
    t.play(2, "7C")
    t.play(3, "TC")
    t.passes(1, 2)
    t.play(3, "9C")  # seat 3 out second; nobody beats his 9C
    t.passes(1, 2)
    assert t.state.turn == 1  # the lead goes on from the seat that went out
    t.play(1, "5C")  # seat 1 out third, seat 2 last
    assert t.ended.order == (0, 3, 1, 2)
    assert t.ended.scores == (18, -6, -6, -6)
    assert t.view(2)["sides"] == {"jia": [0], "yi": [1, 2, 3], "solo": True}


@pytest.mark.parametrize("bare_four", [False, True])
def test_a_bare_four_is_a_play_only_under_the_house_rule(bare_four: bool) -> None:
    # "可出单张，双张，三张或五张": four cards are no play; ``bare_four`` is a house rule outside the text
    t = deal("4D 9S 9H 9C 9D", "5C 6C", "7C 8C", "TC JC", bare_four=bare_four)
    t.play(0, "4D")
    t.passes(1, 2, 3)
    assert ("9S 9H 9C 9D" in t.legal_plays(0)) is bare_four
    if bare_four:
        t.play(0, "9S 9H 9C 9D")
        assert t.events[-1].kind == "quad"
    else:
        t.refuses_play(0, "9S 9H 9C 9D", "invalid_combination")


def test_options_are_checked() -> None:
    with pytest.raises(ValueError):
        config(full_stake="six")
    with pytest.raises(ValueError):
        config(single_order="spades")
    with pytest.raises(ValueError):
        config(jokers=True)
    assert config(hands=2).options.hands == 2
