"""通山打拱 Dagong at the table: the deal, the dealer and his called card (the partner hidden in
every view until he plays it, also when the dealer holds both copies), 明独, play with declared
readings, 接风 both ways, the points captured, every end condition and every 番 line — through
``paiju.api`` on states the engine built itself.

A later hand is dealt by the ``Dealt`` event with the last 一游 as dealer, so the called card is
the first card of the dealer's string ("亮出发到的第一张牌进行叫牌"). Seats are numbered in the order
of play (counterclockwise at the table)."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

import pytest
from story import Table, run_table

from paiju import api, bots
from paiju.cards import format_cards, parse_card, parse_cards
from paiju.games.dagong import GAME, DagongState
from paiju.games.dagong_calling import HAND_SIZE, called_card, first_dealer
from paiju.games.dagong_combos import LINEAR
from paiju.games.dagong_scoring import points_of, settle, xiqian_of
from paiju.protocol import Bid, Dealt, HandEnded, Pass, Play, Played, Reading, ScoreLine
from paiju.selfcheck import check_views_hide_hands
from paiju.table import copy_with


def drawn(text: str) -> tuple[int, ...]:
    """Cards in the order given (``parse_cards`` sorts)."""
    return tuple(parse_card(code) for code in text.split())


def deal(*hands: str, dealer: int = 0, **options: Any) -> Table:
    """A later hand (the last 一游 deals) dealt exactly as given, each seat's cards in the order
    drawn; the speaking round for 明独 is open, the dealer first."""
    others = tuple(s for s in range(4) if s != dealer)
    last = HandEnded(hand_no=1, order=(dealer, *others), lines=(), scores=(0,) * 4)
    config = GAME.config(None, None, **options)
    before = dataclasses.replace(
        api.initial_state(config), phase="seeding", hand_no=2, last_hand=last
    )
    dealt = Dealt(
        hand_no=2,
        hands=tuple(drawn(h) for h in hands),
        rest=(),
        face_up=(),
        leader=dealer,
        scheme="round",
    )
    t = Table(api.evolve(before, dealt))
    assert t.state.phase == "declare" and t.turn == dealer
    return t


def no_solo(t: Table) -> None:
    for _ in range(4):
        seat = t.turn
        assert seat is not None
        t.do(Bid(seat=seat, bid="budu"))
    assert t.state.phase == "play"


def partner_in_views(t: Table) -> list[Any]:
    return [t.view(s)["partner"] for s in (None, 0, 1, 2, 3)]


# --- the deal and the call -------------------------------------------------------------------------


def test_a_real_first_deal_turns_a_card_for_the_dealer_who_calls_a_card_he_holds_once() -> None:
    config = GAME.config()
    for seed in ("a", "b", "c", "d"):
        state = run_table(api.initial_state(config), seed)
        assert state.phase == "declare"
        assert sorted(len(h) for h in state.hands) == [HAND_SIZE] * 4
        every = Counter(c for h in state.hands for c in h)
        assert len(every) == 54 and set(every.values()) == {2}  # two decks, jokers too
        dealer, turned = first_dealer(state.hands)
        assert (state.dealer, state.turned, state.turn) == (dealer, turned, dealer)
        assert turned in state.hands[dealer]
        called = state.called
        assert called is not None and called < 52
        assert state.hands[dealer].count(called) == 1
        partner = next(s for s in range(4) if s != dealer and called in state.hands[s])
        assert GAME.teams(state)[0] == tuple(sorted((dealer, partner)))
        assert all(
            state.hands[s].count(called) == 0 for s in range(4) if s not in (dealer, partner)
        )
        check_views_hide_hands(state)  # the twin deals: nobody can tell who the partner is


def test_the_call_moves_on_when_the_dealer_holds_both_copies() -> None:
    """ "如庄家发到两张一样叫庄的牌，则需重新叫牌，叫牌的规则为发到第二张同样牌后的第一张为第二次叫牌"
    — jokers never called ("不包括大小王")."""
    cards = drawn("RJ 9H 4D 9H 6C 6C 8S 3D")
    # 9H is first; its second copy is dealt 4th; the first after it is 6C — doubled too, so the
    # first after the second 6C: 8S
    assert called_card(cards, first_hand=False) == parse_card("8S")
    assert called_card(drawn("BJ 5S 4H"), first_hand=False) == parse_card("5S")
    # the first hand: a random card the dealer holds once, never a joker
    first = called_card(cards, first_hand=True)
    assert first in parse_cards("4D 8S 3D")


@pytest.mark.parametrize(("run_out", "called"), [("first_single", "KS"), ("lowest", "3C")])
def test_a_call_that_runs_off_the_deal_by_the_option(run_out: str, called: str) -> None:
    """9H is dealt first and again 4th, with nothing after it: the text is silent (issue 33). The
    call goes round the deal again to the first card he holds once (``first_single``, the
    default) or is his lowest single (``lowest``, the engine's reading before)."""
    t = deal("9H KS 3C 9H", "4D 5D", "7S QH", "6D 6S", call_run_out=run_out)
    assert t.state.called == parse_card(called)
    assert t.view(None)["called_card"] == called


def test_dealer_holding_both_copies_plays_with_the_holder_of_the_next_call() -> None:
    t = deal("9H 9H 7S 3C", "4D 5D", "7S QH", "6D 6S")
    assert t.state.called == parse_card("7S")
    assert t.view(1)["called_card"] == "7S"
    no_solo(t)
    assert GAME.teams(t.state) == ((0, 2), (1, 3))


# --- the hidden partner, 明鸡 and 接风 ---------------------------------------------------------------


def test_the_partner_is_hidden_until_he_plays_the_called_card_and_jiefeng_goes_to_him() -> None:
    t = deal("7S 4S 4H 9C", "5D 6D 8C 3S", "7S JH QH", "TD KD 3D 3C")
    no_solo(t)
    assert GAME.allies(t.state, 2) == {0} and GAME.allies(t.state, 0) == frozenset()
    t.play(0, "7S")  # the dealer's own copy shows nobody
    assert partner_in_views(t) == [None] * 5
    assert GAME.allies(t.state, 0) == frozenset() and GAME.allies(t.state, 1) == frozenset()
    check_views_hide_hands(t.state)
    assert GAME.indistinguishable(t.state)
    t.play(1, "8C")
    t.play(2, "JH")
    t.play(3, "KD")
    t.passes(0, 1, 2)  # "最后得到任意出牌权的玩家获得这些分数": 3 takes the K
    assert t.state.points == (0, 0, 0, 10) and t.turn == 3
    assert t.view(0)["captured_points"] == [0, 0, 0, 10]
    t.play(3, "3D")
    t.play(0, "4S")
    t.play(1, "5D")
    t.play(2, "7S")  # 明鸡
    assert partner_in_views(t) == [2] * 5
    assert GAME.allies(t.state, 0) == {2} and GAME.allies(t.state, 1) == {3}
    t.passes(3, 0, 1)
    assert t.state.points == (0, 0, 5, 10)
    t.play(2, "QH")  # out, and nobody beats it
    t.passes(3, 0, 1)
    assert t.turn == 0  # 接风: "若庄家的对家已明鸡确定关系，由各自对家接风"


def test_jiefeng_goes_to_the_next_player_while_the_partnership_is_unknown() -> None:
    t = deal("7S AS", "3S 4D 5C", "7S 3H 4H", "3C 4C 6C")
    no_solo(t)
    t.play(0, "7S")
    t.passes(1, 2, 3)
    t.play(0, "AS")  # out
    t.passes(1, 2, 3)
    assert t.turn == 1  # "若未明鸡确定关系，由下家接风" — not the partner (2)
    assert partner_in_views(t)[1:] == [None] * 4


# --- 明独 ------------------------------------------------------------------------------------------


def test_mingdu_one_against_three_only_the_first_out_counts() -> None:
    t = deal("7S 5H", "2S", "7S 4H", "9D 9C", stake=2)
    t.do(Bid(seat=0, bid="budu"))
    assert {m.bid for m in api.legal_moves(t.state, 1) if isinstance(m, Bid)} == {"budu", "mingdu"}
    t.do(Bid(seat=1, bid="mingdu"))
    assert t.state.phase == "play" and t.turn == 0 and t.state.solo == 1
    assert GAME.teams(t.state) == ((1,), (0, 2, 3))
    assert t.view(None)["solo"] == 1
    t.play(0, "7S")
    t.play(1, "2S")  # out first: "若明独玩家得到一游，则明独玩家胜"
    ended = t.ended
    assert [(x.reason, x.payer, x.payee, x.amount) for x in ended.lines] == [
        ("mingdu_win", 0, 1, 8),  # stake 2 × 吼 4
        ("mingdu_win", 2, 1, 8),
        ("mingdu_win", 3, 1, 8),
    ]


def test_mingdu_lost_when_another_is_out_first() -> None:
    t = deal("7S 5H", "3S 3H", "7S 4H", "9D 9C")
    t.do(Bid(seat=0, bid="mingdu"))
    assert t.state.solo == 0 and t.state.phase == "play"
    t.play(0, "7S")
    t.passes(1, 2)
    t.play(3, "9D")
    t.passes(0, 1, 2)
    t.play(3, "9C")
    assert [(x.reason, x.payer, x.payee, x.amount) for x in t.ended.lines] == [
        ("mingdu_lose", 0, 1, 4),
        ("mingdu_lose", 0, 2, 4),
        ("mingdu_lose", 0, 3, 4),
    ]


# --- readings ----------------------------------------------------------------------------------


def test_a_selection_read_several_ways_needs_a_reading_and_the_log_records_the_jokers() -> None:
    t = deal("7S 7H 8S 8H BJ RJ 3S", "4D 5D", "7S QH", "6D 6S")
    no_solo(t)
    readings = api.readings(t.state, 0, parse_cards("7S 7H 8S 8H BJ RJ"))
    assert {(r["kind"], " ".join(r["reading"]["stands_for"])) for r in readings} == {
        ("liandui", "6S 6S"),
        ("liandui", "9S 9S"),
        ("feiji", "7S 8S"),
    }
    # each named as players say it, the jokers as the ranks they stand for (issue 29, item 7)
    assert {(r["said"], r["name"]["zh"]) for r in readings} == {
        ("667788", "连对"),
        ("778899", "连对"),
        ("777888", "飞机"),
    }
    t.refuses(Play(seat=0, cards=parse_cards("7S 7H 8S 8H BJ RJ")), "ambiguous_reading")
    t.refuses(
        Play(
            seat=0,
            cards=parse_cards("7S 7H 8S 8H BJ RJ"),
            reading=Reading("feiji", parse_cards("9S 9S")),
        ),
        "reading_not_possible",
    )
    events = t.do(
        Play(
            seat=0,
            cards=parse_cards("7S 7H 8S 8H BJ RJ"),
            reading=Reading("feiji", parse_cards("7S 8S")),
        )
    )
    played = events[0]
    assert isinstance(played, Played)
    assert (played.kind, played.stands_for) == ("feiji", parse_cards("7S 8S"))
    assert t.view(None)["lead"]["stands_for"] == ["7S", "8S"]
    assert t.view(None)["lead"]["said"] == "777888"  # the table shows what the jokers stood for


@pytest.mark.parametrize("stands_for", [["2S", "3S"], ["3S", "2S"]])
@pytest.mark.parametrize("order", ["sorted", "reversed"])
def test_a_reading_is_the_same_command_whatever_order_it_lists_its_cards_in(
    stands_for: list[str], order: str
) -> None:
    """Issue 33, defect 4: the jokers of 3H 3H 3D 2S 2S 2H RJ RJ stand for ♠3 and ♠2 (a 拱拢 2-3),
    however the play lists its cards or their stand-ins: the command is normalised where it
    enters the engine, so the browser's check, the services and the audit all accept it."""
    t = deal("3H 3H 3D 2S 2S 2H RJ RJ 4S", "4D 5D", "7S QH", "6D 6S")
    no_solo(t)
    codes = ["3H", "3H", "3D", "2S", "2S", "2H", "RJ", "RJ"]
    cards = codes if order == "sorted" else codes[::-1]
    command = {
        "type": "play",
        "seat": 0,
        "cards": cards,
        "reading": {"kind": "gonglong", "stands_for": stands_for},
    }
    assert api.check_command(t.state, command) == {"ok": True}
    events = t.do(
        Play(
            seat=0,
            cards=drawn(" ".join(cards)),
            reading=Reading("gonglong", drawn(" ".join(stands_for))),
        )
    )
    played = events[0]
    assert isinstance(played, Played)
    assert (played.kind, played.stands_for) == ("gonglong", parse_cards("3S 2S"))


# --- the end of a hand ---------------------------------------------------------------------------


def test_bang_first_and_second_wins_outright_and_guangtou() -> None:
    t = deal("7S AS", "3S 4S", "7S 2H", "3C 4C")
    no_solo(t)
    t.play(0, "AS")
    t.passes(1)
    t.play(2, "2H")
    t.passes(3, 0, 1)
    t.play(2, "7S")  # 明鸡, and out
    t.passes(3, 0, 1)
    assert t.turn == 0  # 接风 to the known partner
    t.play(0, "7S")
    ended = t.ended
    assert ended.order[:2] == (2, 0)
    assert [(x.reason, x.payer, x.payee, x.amount) for x in ended.lines] == [
        ("bang", 1, 2, 2),  # 绑 ×2
        ("bang", 3, 0, 2),
    ]
    assert {(r.reason, r.seat) for r in ended.results if r.reason == "guangtou"} == {
        ("guangtou", 0),
        ("guangtou", 2),
    }


def end_state(
    t: Table, out: tuple[int, ...], points: tuple[int, ...], left: dict[int, str]
) -> DagongState:
    """The hand of ``t`` jumped to its end: ``out`` in order, ``points`` captured, the cards
    ``left`` in hands (the called card stays in its holder's hand or is counted as played)."""
    hands = tuple(parse_cards(left.get(s, "")) for s in range(4))
    state = t.state
    marks = state.marks_played
    partner = next(s for s in range(1, 4) if state.called in state.hands[s])
    if state.called not in hands[partner]:
        marks = ((state.called, partner),)
    return copy_with(
        state, {"out": out, "points": points, "hands": hands, "marks_played": marks, "lead": None}
    )


def lines_of(ended: HandEnded) -> list[tuple[str, int, int, int]]:
    return [(x.reason, x.payer, x.payee, x.amount) for x in ended.lines]


def points_result(ended: HandEnded) -> list[int]:
    return [r.value for r in ended.results if r.reason == "points"]


def two_against_two() -> Table:
    t = deal("7S 4S", "3S 4D", "7S 3H", "3C 4C")  # dealer 0 and partner 2 against 1 and 3
    no_solo(t)
    return t


def test_more_points_win_and_the_last_players_points_go_to_the_first() -> None:
    t = two_against_two()
    # 一游 1, 二游 0, 三游 3, 末游 2 (holding a K and a 5: "手中未出的分数归三（一）游所有")
    state = end_state(t, (1, 0, 3), (60, 40, 55, 30), {2: "KS 5H 7S"})
    ended = GAME.score(state)
    # 2's 55 go to 一游 (1); the 15 in its hand to 三游 (3): A (0, 2) 60 + 0 = 60; B 95 + 45 = 140
    assert points_result(ended) == [60, 95, 0, 45]
    assert lines_of(ended) == [("points_win", 0, 1, 1), ("points_win", 2, 3, 1)]
    first = GAME.score(
        copy_with(state, {"config": GAME.config(None, None, unplayed_points="first")})
    )
    assert points_result(first) == [60, 110, 0, 30]


def test_one_hundred_each_goes_against_the_side_of_the_last() -> None:
    t = two_against_two()
    # 一游 0, 二游 1, 三游 3, 末游 2 (partner of the dealer): 100–100, so the dealer's side loses
    ended = GAME.score(end_state(t, (0, 1, 3), (60, 50, 40, 50), {2: "7S"}))
    assert points_result(ended) == [100, 50, 0, 50]
    assert lines_of(ended) == [("points_win", 0, 1, 1), ("points_win", 2, 3, 1)]
    # the same split with 末游 on the other side: the dealer's side wins
    ended = GAME.score(end_state(t, (0, 1, 2), (50, 100, 50, 0), {3: "3C"}))
    assert sum(points_result(ended)[s] for s in (0, 2)) == 100
    assert lines_of(ended) == [("points_win", 1, 0, 1), ("points_win", 3, 2, 1)]


def test_qing_all_two_hundred_points() -> None:
    t = two_against_two()
    ended = GAME.score(end_state(t, (0, 1, 2), (150, 0, 50, 0), {3: "3C"}))
    assert {(r.reason, r.seat) for r in ended.results if r.reason == "qing"} == {
        ("qing", 0),
        ("qing", 2),
    }
    assert lines_of(ended) == [("points_win", 1, 0, 1), ("points_win", 3, 2, 1)]


def test_stake_times_fan() -> None:
    t = deal("7S 4S", "3S 4D", "7S 3H", "3C 4C", stake=5)
    no_solo(t)
    ended = GAME.score(end_state(t, (0, 2), (0, 0, 0, 0), {1: "3S", 3: "3C"}))
    assert lines_of(ended) == [("bang", 1, 0, 10), ("bang", 3, 2, 10)]


# --- 番 -------------------------------------------------------------------------------------------


def test_xiqian_paid_by_the_three_others_whatever_the_result() -> None:
    hands = (
        parse_cards("BJ BJ RJ RJ 3S"),  # 天炸 3: each other pays 1
        parse_cards("4S 4S 4H 4H 4C 4C 4D 4D"),  # 8喜 6: each pays 2
        parse_cards("6S 6S 6H 6H 6C 6C 6D"),  # 7喜 3: each pays 1
        parse_cards("5S 5H 5C 5D TS TH TC TD KS KH KC KD"),  # 四套硬510K 3: each pays 1
    )
    lines = [(x.reason, x.payer, x.payee, x.amount) for x in xiqian_of(hands, 1)]
    assert lines == [
        ("xiqian_tianzha", 1, 0, 1),
        ("xiqian_tianzha", 2, 0, 1),
        ("xiqian_tianzha", 3, 0, 1),
        ("xiqian_baxi", 0, 1, 2),
        ("xiqian_baxi", 2, 1, 2),
        ("xiqian_baxi", 3, 1, 2),
        ("xiqian_qixi", 0, 2, 1),
        ("xiqian_qixi", 1, 2, 1),
        ("xiqian_qixi", 3, 2, 1),
        ("xiqian_sitao", 0, 3, 1),
        ("xiqian_sitao", 1, 3, 1),
        ("xiqian_sitao", 2, 3, 1),
    ]
    assert xiqian_of(hands, 3)[0].amount == 3
    # in a hand: on the sheet whoever wins
    t = deal("7S 4S", "BJ BJ RJ RJ 3D", "7S 3H", "3C 4C")
    no_solo(t)
    ended = GAME.score(end_state(t, (0, 2), (0, 0, 0, 0), {1: "3D", 3: "3C"}))
    assert lines_of(ended)[:3] == [
        ("xiqian_tianzha", 0, 1, 1),
        ("xiqian_tianzha", 2, 1, 1),
        ("xiqian_tianzha", 3, 1, 1),
    ]
    # they come from a hidden hand: no view tells them before the hand is over
    assert all(t.view(s)["xiqian_lines"] == [] for s in (None, 0, 1, 2, 3))
    t.play(0, "7S")
    t.passes(1, 2, 3)
    t.play(0, "4S")  # out; partner unknown: 1 leads
    t.play(1, "BJ BJ RJ RJ")
    t.passes(2, 3)
    t.play(1, "3D")  # out
    t.passes(2, 3)
    t.play(2, "3H")
    t.passes(3)
    t.play(2, "7S")
    assert t.ended.lines[:3] == tuple(ScoreLine("xiqian_tianzha", p, 1, 1) for p in (0, 2, 3))
    assert t.view(3)["xiqian_lines"][0] == {
        "reason": "xiqian_tianzha",
        "payer": 0,
        "payee": 1,
        "amount": 1,
    }
    # 1 played the 天炸 and went out second, but 末游 is 3, his own side: 1 and 3 lose its 3 番
    assert [x for x in lines_of(t.ended) if x[0] == "fan_tianzha"] == [
        ("fan_tianzha", 1, 0, 3),
        ("fan_tianzha", 3, 2, 3),
    ]


def test_a_gonglong_played_wins_its_fan_if_its_player_gets_out_and_the_last_is_an_opponent() -> (
    None
):
    t = deal("7S 3S 3H 3C 3D 4S 4H 4C 4D 9C", "5D 6D", "7S QH", "TD KD")
    no_solo(t)
    t.play(0, "3S 3H 3C 3D 4S 4H 4C 4D")  # a hard 8拱: 4番
    assert t.state.big_plays == ((0, "fan_gonglong", 4),)
    state = t.state
    won = GAME.score(end_state(t, (0, 1, 2), (0, 0, 0, 0), {3: "TD"}))
    assert ("fan_gonglong", 1, 0, 4) in lines_of(won) and ("fan_gonglong", 3, 2, 4) in lines_of(won)
    # "如出拱拢者未跑出，则他和他对家都输相应的番数"
    lost = GAME.score(end_state(t, (1, 2, 3), (0, 0, 0, 0), {0: "9C"}))
    assert ("fan_gonglong", 0, 1, 4) in lines_of(lost) and ("fan_gonglong", 2, 3, 4) in lines_of(
        lost
    )
    # out, but 末游 is his own partner: "末游为敌对方的人" fails, lost
    partner_last = GAME.score(end_state(t, (0, 1, 3), (0, 0, 0, 0), {2: "7S"}))
    assert ("fan_gonglong", 0, 1, 4) in lines_of(partner_last)
    assert state.big_plays == t.state.big_plays
    # the other reading (option big_play_won = out): out in the first three is enough
    out = copy_with(
        end_state(t, (0, 1, 3), (0, 0, 0, 0), {2: "7S"}),
        {"config": GAME.config(None, None, big_play_won="out")},
    )
    assert ("fan_gonglong", 1, 0, 4) in lines_of(GAME.score(out))


def test_the_fan_table_is_an_option() -> None:
    t = deal(
        "7S 3S 3H 3C 3D 4S 4H 4C 4D 5S 5H 5C 5D 9C",
        "5D 6D",
        "7S QH",
        "TD KD",
        gonglong_fan=list(LINEAR),
    )
    no_solo(t)
    t.play(0, "3S 3H 3C 3D 4S 4H 4C 4D 5S 5H 5C 5D")  # a hard 12拱: soft 6 × 2 with LINEAR
    assert t.state.big_plays == ((0, "fan_gonglong", 12),)
    with pytest.raises(ValueError):
        GAME.config(None, None, gonglong_fan=[2, 4])


def test_played_tianzha_and_xi_win_or_lose_their_fan() -> None:
    t = deal("7S BJ BJ RJ RJ 9C", "5D 6D", "7S QH", "TD KD")
    no_solo(t)
    t.play(0, "BJ BJ RJ RJ")
    assert t.state.big_plays == ((0, "fan_tianzha", 3),)
    assert t.state.xiqian and t.state.xiqian[0].reason == "xiqian_tianzha"


# --- bots ----------------------------------------------------------------------------------------


def test_bots_keep_bombs_for_when_they_matter_and_then_bomb_with_the_least() -> None:
    """Only a bomb beats the single 2: a bot passes while nobody is close to going out, and when
    the leader is, it bombs with the least bomb (3333, not 33333)."""
    others = ("7S QH QD QC JH", "TD KD JS JC 9S")
    t = deal("7S 2S 9C 9D 9H 8C 8D", "3D 3H 3C 3D 3H 5S", *others)
    no_solo(t)
    t.play(0, "2S")
    assert isinstance(bots.choose(t.state, 1), Pass)
    t = deal("7S 2S 9C", "3D 3H 3C 3D 3H 5S", *others)
    no_solo(t)
    t.play(0, "2S")
    move = bots.choose(t.state, 1)
    assert isinstance(move, Play) and len(move.cards) == 4


def test_a_bot_never_acts_on_a_partner_it_cannot_know() -> None:
    t = deal("7S 3S 9C", "4D 5D", "7S QH 2H", "TD KD")
    no_solo(t)
    t.play(0, "3S")
    t.passes(1)
    # seat 2 holds the other 7S: it knows the dealer is its partner and lets his play stand
    assert GAME.allies(t.state, 2) == {0}
    assert isinstance(bots.choose(t.state, 2), Pass)
    # the dealer does not know his partner until the 7S is played
    t.passes(2)
    t.play(3, "KD")
    assert GAME.allies(t.state, 0) == frozenset()


def test_points_of_cards() -> None:
    assert points_of(parse_cards("5S TH KD 3C RJ")) == 25


def test_a_27_card_hand_with_four_jokers_gets_every_move_once_and_each_is_accepted() -> None:
    pack = [c for c in GAME.pack(GAME.config()) if c < 52]
    random.Random(5).shuffle(pack)
    jokers = "BJ BJ RJ RJ"
    mine = [pack[i] for i in range(23)]
    called = next(c for c in mine if mine.count(c) == 1)
    mine.remove(called)
    hands = [
        format_cards([called]) + " " + format_cards(mine) + " " + jokers,
        format_cards(pack[23:50]),
        format_cards(pack[50:77]),
        format_cards(pack[77:104]),
    ]
    t = deal(*hands)
    no_solo(t)
    assert len(t.state.hands[0]) == HAND_SIZE
    moves = api.legal_moves(t.state, 0)
    plays = [m for m in moves if isinstance(m, Play)]
    assert len(plays) == len(moves) > 100
    assert len({(m.cards, m.reading) for m in plays}) == len(plays)
    for move in plays:
        event = api.decide(t.state, move)[0]
        assert isinstance(event, Played) and move.reading is not None
        assert (event.kind, event.stands_for) == (move.reading.kind, move.reading.stands_for)
    assert any(m.reading is not None and m.reading.kind == "tianzha" for m in plays)


def test_the_house_rules_are_lobby_options_with_named_presets() -> None:
    game = next(g for g in api.list_games() if g["id"] == "dagong")
    options = {o["name"]: o for o in game["variants"][0]["options"]}
    fan = options["gonglong_fan"]
    assert fan["kind"] == "list" and fan["item"] == "int"
    assert [p["value"][:5] for p in fan["presets"]] == [[2, 2, 4, 4, 8], [2, 2, 4, 4, 6]]
    assert {c["value"] for c in options["unplayed_points"]["choices"]} == {"third", "first"}
    assert options["stake"]["kind"] == "int" and options["stake"]["min"] == 1
    with pytest.raises(ValueError):
        api.make_config("dagong", "tongshan", 4, {"stake": 0})


def test_a_bot_does_not_bomb_a_partner_it_knows_even_when_he_is_close_to_going_out() -> None:
    t = deal("7S 2S 9C", "4D 5D 6D 8D", "7S QH 4S 4H 4C 4D", "TD KD JS JC")
    no_solo(t)
    t.play(0, "2S")  # the dealer keeps two cards: only a bomb beats his 2
    t.passes(1)
    assert GAME.allies(t.state, 2) == {0}
    assert isinstance(bots.choose(t.state, 2), Pass)
    # seat 1, who cannot know the partner, bombs the dealer close to going out
    t = deal("7S 2S 9C", "4D 4H 4C 4S 5D", "7S QH", "TD KD JS JC")
    no_solo(t)
    t.play(0, "2S")
    assert GAME.allies(t.state, 1) == frozenset()
    move = bots.choose(t.state, 1)
    assert isinstance(move, Play) and move.reading is not None and move.reading.kind == "bomb"


def test_two_against_two_each_loser_pays_one_winner_or_each_winner_by_option() -> None:
    """ "他和他对家都赢相应的番数", "最终金币数＝房间底金×番数": each player of the winning side wins the
    番, each loser loses it (``payment`` ``one_each``, the default); ``each_to_each``, the other
    reading: each loser pays each winner, twice the 番 a head — the hand's lines and a played
    拱拢's alike. One against three (明独) is the same either way."""
    t = two_against_two()
    state = end_state(t, (0, 1, 2), (150, 0, 50, 0), {3: "3C"})
    assert lines_of(GAME.score(state)) == [("points_win", 1, 0, 1), ("points_win", 3, 2, 1)]
    each = copy_with(state, {"config": GAME.config(None, None, payment="each_to_each")})
    ended = GAME.score(each)
    assert lines_of(ended) == [
        ("points_win", 1, 0, 1),
        ("points_win", 1, 2, 1),
        ("points_win", 3, 0, 1),
        ("points_win", 3, 2, 1),
    ]
    assert ended.scores == (2, -2, 2, -2)
    g = deal("7S 3S 3H 3C 3D 4S 4H 4C 4D 9C", "5D 6D", "7S QH", "TD KD", payment="each_to_each")
    no_solo(g)
    g.play(0, "3S 3H 3C 3D 4S 4H 4C 4D")  # a hard 8拱: 4番
    won = lines_of(GAME.score(end_state(g, (0, 1, 2), (0, 0, 0, 0), {3: "TD"})))
    assert [x for x in won if x[0] == "fan_gonglong"] == [
        ("fan_gonglong", 1, 0, 4),
        ("fan_gonglong", 1, 2, 4),
        ("fan_gonglong", 3, 0, 4),
        ("fan_gonglong", 3, 2, 4),
    ]
    solo = settle("mingdu_win", (0,), (1, 2, 3), 4, "each_to_each")
    assert solo == settle("mingdu_win", (0,), (1, 2, 3), 4)


@pytest.mark.parametrize(("tie", "beats"), [("more_cards", True), ("hard", False)])
def test_a_soft_ten_on_a_hard_eight_of_the_same_ranks_by_the_option(tie: str, beats: bool) -> None:
    """Issue 33: a hard 3333 4444 and a soft 10 on the same ranks are both 4番 with the same face;
    ``gonglong_tie`` decides (docs/rules/dagong.md)."""
    t = deal(
        "3S 3H 3C 3D 4S 4H 4C 4D 9C",
        "3S 3H 3C 3D 4S 4H 4C 4D BJ RJ TD",
        "7S QH",
        "6D 6S",
        gonglong_tie=tie,
    )
    no_solo(t)
    t.do(Play(seat=0, cards=parse_cards("3S 3H 3C 3D 4S 4H 4C 4D")))
    soft10 = Play(
        seat=1,
        cards=parse_cards("3S 3H 3C 3D 4S 4H 4C 4D BJ RJ"),
        reading=Reading("gonglong", parse_cards("3S 4S")),
    )
    listed = {m.cards for m in api.legal_moves(t.state, 1) if isinstance(m, Play)}
    assert (soft10.cards in listed) is beats
    if beats:
        t.do(soft10)
    else:
        t.refuses(soft10, "does_not_beat")


def test_a_config_stored_before_the_options_of_issue_33_is_read_as_it_was_played() -> None:
    """A log header written before ``gonglong_tie`` existed does not name it: it is read with the
    reading it was played under, ``hard`` (``options_before``); a new table takes ``more_cards``."""
    stored = GAME.config(None, None).to_dict()
    del stored["options"]["gonglong_tie"], stored["options"]["call_run_out"]
    options = api.config_from_dict(stored).options
    assert (options.gonglong_tie, options.call_run_out) == ("hard", "lowest")
    fresh = GAME.config(None, None).options
    assert (fresh.gonglong_tie, fresh.call_run_out) == ("more_cards", "first_single")
