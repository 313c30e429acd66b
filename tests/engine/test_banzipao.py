"""板子炮 at the table: the nine 牌型 and what beats what, the 包 / 反包 / 叫牌 auction, capturing a
round (得牌), every line of the score sheet (牌局分, 附加分, 天牌) and the secret partner — each
checked against the rule text of seed 000 (quoted in the comments without its spliced-in noise),
through ``paiju.api`` on states the engine built itself.

A position is dealt by the ``Dealt`` event with the ♠7 holder as leader: the engine makes him the
dealer (庄家), who speaks first in the auction. Seats are numbered in the order of play, so a
seat's 下家 is the next seat. ``legal_moves`` is checked against a brute force at the end.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from story import Table, dealt

from paiju import api, fairness
from paiju.cards import build_deck, format_cards, parse_card, parse_cards, rank_counts
from paiju.climbing import Combo
from paiju.errors import RuleError
from paiju.games import banzipao
from paiju.games.banzipao import GAME, BanzipaoState
from paiju.games.banzipao_combos import beats, combo_of, generate, tianpai_of, tianpai_winner
from paiju.protocol import (
    Bid,
    CallCard,
    CommitDeal,
    Deal,
    Dealt,
    HandEnded,
    Pass,
    Play,
    ScoreLine,
)
from paiju.rank_patterns import group_by_rank, take
from paiju.selfcheck import InvariantBroken, check_views_hide_hands

# --- positions ------------------------------------------------------------------------------------


def config(**options: Any) -> api.Config:
    return GAME.config(None, None, **options)


def deal(*hands: str, **options: Any) -> Table:
    """A hand dealt exactly as given (one string per seat); the ♠7 holder is the dealer and speaks
    first ("每局均以抓到黑桃7者为庄家…庄家具有叫牌的优先发言权")."""
    dealer = next(s for s, h in enumerate(hands) if "7S" in h.split())
    t = dealt(config(**options), hands, dealer)
    assert t.state.phase == "bid" and t.state.dealer == dealer and t.turn == dealer
    return t


def say(t: Table, *words: str) -> None:
    """The seats to speak say ``words`` in turn."""
    for word in words:
        seat = t.turn
        assert seat is not None
        t.do(Bid(seat=seat, bid=word))


def words(t: Table, seat: int) -> set[str]:
    """What ``seat`` may say now (and nothing but bids is offered during the auction)."""
    moves = api.legal_moves(t.state, seat)
    assert all(isinstance(m, Bid) for m in moves)
    return {m.bid for m in moves if isinstance(m, Bid)}


def only_speaker(t: Table, seat: int, allowed: set[str]) -> None:
    """``seat`` is to speak, may say exactly ``allowed``, and nobody else may say anything."""
    assert t.turn == seat and t.state.phase == "bid"
    for other in range(4):
        assert words(t, other) == (allowed if other == seat else set())


def bao(*hands: str, **options: Any) -> Table:
    """The dealer bids 包 and his 下家 declines 反包: one against three, the dealer leads."""
    t = deal(*hands, **options)
    say(t, "bao", "pass")
    assert t.state.phase == "play" and t.turn == t.state.dealer and t.state.benched == ()
    return t


def duel(*hands: str, **options: Any) -> Table:
    """The dealer bids 包 and his 下家 answers 反包: the other two sit out, the dealer leads."""
    t = deal(*hands, **options)
    say(t, "bao", "fanbao")
    assert t.state.phase == "play" and t.turn == t.state.dealer
    return t


def called(*hands: str, card: str, **options: Any) -> Table:
    """Nobody bids; the dealer calls ``card`` and leads, two against two."""
    t = deal(*hands, **options)
    say(t, "pass", "pass", "pass", "pass")
    assert t.state.phase == "call"
    dealer = t.state.dealer
    assert dealer is not None
    t.do(CallCard(seat=dealer, card=parse_card(card)))
    assert t.state.phase == "play" and t.turn == dealer
    return t


def lines(*spec: tuple[str, int, int, int]) -> tuple[ScoreLine, ...]:
    return tuple(ScoreLine(*s) for s in spec)


def each_pays(reason: str, payee: int, amount: int) -> tuple[ScoreLine, ...]:
    """Every other seat pays ``payee`` ``amount`` for ``reason``, in seat order."""
    return tuple(ScoreLine(reason, p, payee, amount) for p in range(4) if p != payee)


# A full deal: seat 0 (甲) holds ♠7 and QQQ, seat 1 (乙) a 9, seat 3 (丁) the 2s. No 天牌.
FULL = (
    "3S 4S 5S 6S 7S 8S 9S TS JS QS KS QH QC",
    "3H 4H 5H 6H 7H 8H 9H TH JH KH AH 2H AS",
    "3C 4C 5C 6C 7C 8C 9C TC JC KC AC 2C 3D",
    "4D 5D 6D 7D 8D 9D TD JD QD KD AD 2D 2S",
)


def swapped(hands: tuple[str, ...], one: str, other: str) -> tuple[str, ...]:
    """The same deal with two cards changing places."""
    table = {one: other, other: one}
    return tuple(" ".join(table.get(code, code) for code in hand.split()) for hand in hands)


# 天牌 deals. SHISANLAN: seat 1 holds one card of every rank. GUNLONG: seat 2 holds 333344445555.
SHISANLAN = (
    "3S 3C 3D 4S 4C 5S 5C 6S 6C 7S 7C 8S 8C",
    "3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2H",
    "9C TS TC JS JC QS QC KS KC AS AC 2S 2C",
    "9S 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2D",
)
GUNLONG = (
    "7S 7H 8S 8H 9S 9H TS TH JS JH QS QH KS",
    "6H 6C 6D 7C 7D 8C 8D 9C 9D TC TD JC JD",
    "3S 3H 3C 3D 4S 4H 4C 4D 5S 5H 5C 5D 6S",
    "QC QD KH KC KD AS AH AC AD 2S 2H 2C 2D",
)
# two 滚龙: seat 1's 345 is first from the dealer, seat 3's 89T is bigger
TWO_GUNLONG = (
    "7S 7H 6C JS JH QS QH KS KH AS AH 2S 2H",
    "3S 3H 3C 3D 4S 4H 4C 4D 5S 5H 5C 5D 6S",
    "6D 7C 7D JC JD QC QD KC KD AC AD 2C 2D",
    "8S 8H 8C 8D 9S 9H 9C 9D TS TH TC TD 6H",
)
# two 十三烂, at seats 1 and 3; the dealer (♠7) is seat 2
TWO_SHISANLAN = (
    "3S 4S 5S 6S 8S 9S TS JS QS KS AS 2S 2D",
    "3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2H",
    "7S 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2C",
)
DEALS = (FULL, SHISANLAN, GUNLONG, TWO_GUNLONG, TWO_SHISANLAN, swapped(FULL, "AC", "AD"))


@pytest.mark.parametrize("hands", DEALS)
def test_each_full_deal_holds_every_card_once(hands: tuple[str, ...]) -> None:
    cards = [c for h in hands for c in parse_cards(h)]
    assert sorted(cards) == list(build_deck())
    assert all(len(h.split()) == 13 for h in hands)


# --- 1. the combinations --------------------------------------------------------------------------

KINDS = [
    # 1、单张 "例如一张6"; 2、对子 "例如KK"
    ("6S", "single"),
    ("2D", "single"),
    ("KS KH", "pair"),
    ("2S 2H", "pair"),
    # 3、顺子 "3个或3个以上连牌，但2不参与顺子，例如345，6789"
    ("3S 4H 5C", "straight"),
    ("6S 7H 8C 9D", "straight"),
    ("QS KH AC", "straight"),
    ("TS JH QC KD AS", "straight"),
    ("3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS", "straight"),  # 3…A, the longest
    # 4、炸弹 "即3张相同的牌"
    ("QS QH QC", "bomb"),
    ("2S 2H 2C", "bomb"),
    # 5、板子炮 "由3对或3对以上连牌组成"
    ("7S 7H 8S 8H 9S 9H", "banzipao"),
    ("5S 5H 6S 6H 7S 7H 8S 8H", "banzipao"),
    ("QS QH KS KH AS AH", "banzipao"),
    # 6、豆 "由4张相同的牌组成…例如4444、QQQQ"
    ("4S 4H 4C 4D", "dou"),
    ("QS QH QC QD", "dou"),
    ("2S 2H 2C 2D", "dou"),
    # 7、滚筒 "由连续3个或3个以上的炸弹组成，例如666777888"
    ("6S 6H 6C 7S 7H 7C 8S 8H 8C", "guntong"),
    ("QS QH QC KS KH KC AS AH AC", "guntong"),
    ("3S 3H 3C 4S 4H 4C 5S 5H 5C 6S 6H 6C", "guntong"),
]


@pytest.mark.parametrize(("cards", "kind"), KINDS)
def test_every_combination_is_classified(cards: str, kind: str) -> None:
    combo = api.classify(config(), cards)
    assert combo is not None and combo.kind == kind
    assert combo == combo_of(parse_cards(cards))
    assert combo.size == len(cards.split())
    assert combo.key == max(c >> 2 for c in parse_cards(cards))  # the (top) rank


NOT_COMBINATIONS = [
    "",
    "QS KH AC 2D",  # "以上牌型中，顺子、板子炮、滚筒和滚龙中均不包括2在内"
    "AS 2H 3C",  # no run around the 2
    "KS AH 2C",
    "3S 4H 5C 6D 7S 8H 9C TD JS QH KC AD 2S",
    "3S 4H",  # a straight has 3 or more cards
    "3S 4H 6C",  # a gap
    "5S 5H 6S 6H",  # 2 pairs: 板子炮 needs "3对或3对以上"
    "AS AH 2S 2H",
    "KS KH AS AH 2S 2H",  # no 板子炮 with 2s
    "3S 3H 4S 4H 6S 6H",  # pairs with a gap
    "5S 5H 5C 6S 6H",  # mixed widths
    "5S 5H 5C 6S",
    "5S 5H 6S",
    "5S 5H 5C 6S 6H 6C",  # 2 triples: 滚筒 needs "连续3个或3个以上"
    "KS KH KC AS AH AC 2S 2H 2C",  # no 滚筒 with 2s
    "3S 3H 3C 3D 4S 4H 4C 4D 5S 5H 5C 5D",  # a 滚龙 is a 天牌, never a play
    "3S 3H 3C 3D 4S 4H 4C 4D",
    "RJ",  # no jokers in the pack
]


@pytest.mark.parametrize("cards", NOT_COMBINATIONS)
def test_other_sets_of_cards_are_no_combination(cards: str) -> None:
    assert api.classify(config(), cards) is None
    assert combo_of(parse_cards(cards)) is None


def test_a_gunlong_cannot_be_compared_because_it_is_no_play() -> None:
    with pytest.raises(ValueError):
        api.compare(config(), "3S 3H 3C 3D 4S 4H 4C 4D 5S 5H 5C 5D", "2S 2H 2C 2D")


# --- 2. what beats what ---------------------------------------------------------------------------

# (a, b, compare(a, b)): 1 if a may be played on b, -1 if b on a, 0 if neither
COMPARISONS = [
    # "牌点从大到小依次为 2>A>K>Q>J>10>9>8>7>6>5>4>3"
    ("2S", "AS", 1),
    ("AS", "KS", 1),
    ("4S", "3S", 1),
    ("3S", "2S", -1),
    ("9S", "9H", 0),
    ("2S 2H", "AS AH", 1),
    ("3S 3H", "4S 4H", -1),
    ("KS KH", "KC KD", 0),
    # "顺子间必须张数相同才可以比较大小"
    ("4S 5S 6S", "3S 4H 5H", 1),
    ("QS KS AS", "JS QH KH", 1),
    ("3S 4S 5S 6S", "QS KS AS", 0),
    ("QS KS AS", "3S 4S 5S 6S", 0),
    ("4S 5S 6S 7S 8S", "3S 4H 5H 6H", 0),
    ("4S 5S 6S", "4H 5H 6H", 0),
    # "单张、对子与顺子间不能互相比较大小"
    ("2S", "3S 3H", 0),
    ("3S 3H", "2S", 0),
    ("2S 2H", "3S 4S 5S", 0),
    ("2S", "3S 4S 5S", 0),
    ("3S", "QS KS AS", 0),
    # 炸弹 "可以打以上三种牌型"; between 炸弹, by rank
    ("3S 3H 3C", "2S", 1),
    ("3S 3H 3C", "2S 2H", 1),
    ("3S 3H 3C", "3D 4S 5S 6S 7S 8S 9S TS JS QS KS AS", 1),
    ("2S 2H 2C", "AS AH AC", 1),
    ("4S 4H 4C", "5S 5H 5C", -1),
    # 板子炮 "可以打以上四种牌型": the 炸弹 too, and not the other way round
    ("3S 3H 4S 4H 5S 5H", "2S 2H 2C", 1),
    ("2S 2H 2C", "3S 3H 4S 4H 5S 5H", -1),
    ("3S 3H 4S 4H 5S 5H", "2D", 1),
    ("3S 3H 4S 4H 5S 5H", "2C 2D", 1),
    ("3S 3H 4S 4H 5S 5H", "9S TS JS QS KS AS", 1),
    # "板子炮之间…首先看板子炮的长度…如张数相同则比较牌点大小。如55667788>JJQQKK>778899"
    ("5S 5H 6S 6H 7S 7H 8S 8H", "JS JH QS QH KS KH", 1),
    ("JS JH QS QH KS KH", "7S 7H 8S 8H 9S 9H", 1),
    ("5S 5H 6S 6H 7S 7H 8S 8H", "7C 7D 8C 8D 9C 9D", 1),
    ("JS JH QS QH KS KH", "5S 5H 6S 6H 7S 7H 8S 8H", -1),
    ("3S 3H 4S 4H 5S 5H", "4C 4D 5C 5D 6C 6D", -1),
    # 豆 "可以打上述五种牌型", a 板子炮 of any length included; between 豆, by rank
    ("3S 3H 3C 3D", "2S", 1),
    ("3S 3H 3C 3D", "2S 2H", 1),
    ("3S 3H 3C 3D", "4S 5S 6S 7S 8S 9S TS JS QS KS AS", 1),
    ("3S 3H 3C 3D", "2S 2H 2C", 1),
    ("3S 3H 3C 3D", "4S 4H 5S 5H 6S 6H 7S 7H 8S 8H 9S 9H", 1),
    ("4S 4H 5S 5H 6S 6H", "3S 3H 3C 3D", -1),
    ("4S 4H 4C 4D", "3S 3H 3C 3D", 1),
    ("2S 2H 2C 2D", "AS AH AC AD", 1),
    ("KS KH KC KD", "AS AH AC AD", -1),
    # 滚筒 "可以打上述六种牌型": 豆 and 2222 too; "滚筒间…也是先比较张数再比较牌点"
    ("3S 3H 3C 4S 4H 4C 5S 5H 5C", "2S 2H 2C 2D", 1),
    ("2S 2H 2C 2D", "3S 3H 3C 4S 4H 4C 5S 5H 5C", -1),
    ("3S 3H 3C 4S 4H 4C 5S 5H 5C", "5D 5C 6S 6H 7S 7H 8S 8H 9S 9H TS TH", 1),
    ("3S 3H 3C 4S 4H 4C 5S 5H 5C", "2S 2H 2C", 1),
    ("3S 3H 3C 4S 4H 4C 5S 5H 5C", "2S", 1),
    ("3S 3H 3C 4S 4H 4C 5S 5H 5C 6S 6H 6C", "QS QH QC KS KH KC AS AH AC", 1),
    ("QS QH QC KS KH KC AS AH AC", "3S 3H 3C 4S 4H 4C 5S 5H 5C 6S 6H 6C", -1),
    ("4S 4H 4C 5S 5H 5C 6S 6H 6C", "5D 5H 5C 6D 6H 6C 7S 7H 7C", -1),
    ("8S 8H 8C 9S 9H 9C TS TH TC", "6S 6H 6C 7S 7H 7C 8S 8H 8D", 1),
]


@pytest.mark.parametrize(("a", "b", "expected"), COMPARISONS)
def test_compare(a: str, b: str, expected: int) -> None:
    assert api.compare(config(), a, b) == expected
    assert api.compare(config(), b, a) == -expected


def leading(lead: str, reply: str) -> Table:
    """The dealer (seat 0, with ♠7 kept back) has bid 包 and leads ``lead``; seat 1 holds ``reply``
    and one card more, so that any reply leaves him in the hand."""
    used = set(parse_cards(f"{lead} {reply} 7S"))
    spare = [format_cards([c]) for c in build_deck() if c not in used]
    t = bao(f"{lead} 7S", f"{reply} {spare[0]}", spare[1], spare[2])
    t.play(0, lead)
    assert t.turn == 1
    return t


# (on the table, seat 1's reply, accepted)
PLAYS = [
    ("9S", "TH", True),
    ("9S", "9H", False),
    ("AS", "2H", True),
    ("2S", "AH", False),
    ("9S", "TH TC", False),  # "单张、对子与顺子间不能互相比较大小"
    ("9S", "TH JH QH", False),
    ("9S 9H", "TC", False),
    ("9S 9H", "TC JC QC", False),
    ("3S 4S 5S", "2H", False),
    ("3S 4S 5S", "2H 2C", False),
    ("3S 4S 5S", "4H 5H 6H", True),
    ("3S 4S 5S", "8H 9H TH JH", False),  # "顺子间必须张数相同"
    ("8S 9S TS JS", "QH KH AH", False),
    ("9S", "3H 3C 3D", True),  # 炸弹 "可以打以上三种牌型"
    ("2S 2H", "3H 3C 3D", True),
    ("8S 9S TS JS QS KS AS", "3H 3C 3D", True),
    ("4S 4H 4C", "3H 3C 3D", False),
    ("4S 4H 4C", "5H 5C 5D", True),
    ("AS AH AC", "3H 3C 4H 4C 5H 5C", True),  # 板子炮 "可以打以上四种牌型"
    ("3S 3H 4S 4H 5S 5H", "AC AD AH", False),
    ("7H 7C 8H 8C 9H 9C", "JS JH QS QH KS KH", True),  # "55667788>JJQQKK>778899"
    ("JS JH QS QH KS KH", "5S 5H 6S 6H 7H 7C 8S 8H", True),
    ("5S 5H 6S 6H 7H 7C 8S 8H", "JC JD QC QD KC KD", False),
    ("3S 3H 4S 4H 5S 5H", "4C 4D 5C 5D 6C 6D", True),
    ("3S 3H 4S 4H 5S 5H 6S 6H 7H 7C", "9S 9H 9C 9D", True),  # 豆 "可以打上述五种牌型"
    ("2S 2H 2C", "3S 3H 3C 3D", True),
    ("5S 5H 5C 5D", "4S 4H 4C 4D", False),
    ("AS AH AC AD", "2S 2H 2C 2D", True),
    ("2S 2H 2C 2D", "3S 3H 3C 4S 4H 4C 5S 5H 5C", True),  # 滚筒 "可以打上述六种牌型"
    ("3S 3H 3C 4S 4H 4C 5S 5H 5C", "2S 2H 2C 2D", False),
    ("8S 8H 8C 9S 9H 9C TS TH TC", "3S 3H 3C 4S 4H 4C 5S 5H 5C 6S 6H 6C", True),
    ("3S 3H 3C 4S 4H 4C 5S 5H 5C 6S 6H 6C", "8S 8H 8C 9S 9H 9C TS TH TC", False),
    ("6S 6H 6C 7H 7C 7D 8S 8H 8C", "3S 3H 3C 4S 4H 4C 5S 5H 5C", False),
    ("6S 6H 6C 7H 7C 7D 8S 8H 8C", "9S 9H 9C TS", False),
    ("4S 4H 4C 5S 5H 5C 6S 6H 6C", "8S 8H 8C 9S 9H 9C TS TH TC", True),
]


@pytest.mark.parametrize(("lead", "reply", "accepted"), PLAYS)
def test_a_play_must_beat_the_one_on_top(lead: str, reply: str, accepted: bool) -> None:
    t = leading(lead, reply)
    combo = combo_of(parse_cards(reply))
    if accepted:
        t.play(1, reply)
        assert t.state.lead_seat == 1 and t.state.lead == combo and t.turn == 2
    else:
        t.refuses_play(1, reply, "invalid_combination" if combo is None else "does_not_beat")
        assert t.may_pass(1)  # "玩家不想要时，也可选择PASS"


# --- 3. the auction ------------------------------------------------------------------------------

SMALL = ("3S 3H", "7S 7H", "4S 4H", "5S 5H")  # seat 1 holds ♠7: seat 1 deals


def test_the_dealer_speaks_first_and_may_only_say_bao_or_pass() -> None:
    # "每局均由庄家先发言，选择'包牌'或'不包'"
    t = deal(*SMALL)
    assert t.state.dealer == 1
    only_speaker(t, 1, {"bao", "pass"})
    t.refuses(Bid(seat=2, bid="bao"), "not_your_turn")
    t.refuses(Bid(seat=1, bid="fanbao"), "bid_not_allowed")  # nothing to answer yet
    t.refuses(Bid(seat=1, bid="double"), "bid_not_allowed")
    t.refuses(Play(seat=1, cards=parse_cards("7S")), "wrong_phase")
    t.refuses(Pass(seat=1), "wrong_phase")
    t.refuses(CallCard(seat=1, card=parse_card("AS")), "wrong_phase")
    assert t.view(None)["dealer"] == 1 and t.view(3)["bids"] == []


def test_nobody_bids_and_each_speaks_once_in_turn_from_the_dealer() -> None:
    # "如果庄家'不包'，则依次由闲家选择包牌或不包…如果四人均发言完毕，仍无人'包牌'，则轮到庄家叫牌"
    t = deal(*SMALL)
    for seat in (1, 2, 3, 0):
        only_speaker(t, seat, {"bao", "pass"})
        say(t, "pass")
    assert t.state.phase == "call" and t.turn == 1
    assert t.view(0)["bids"] == [[1, "pass"], [2, "pass"], [3, "pass"], [0, "pass"]]


@pytest.mark.parametrize("passes", [0, 1, 2, 3])
@pytest.mark.parametrize("answer", ["fanbao", "pass"])
def test_a_bao_may_be_answered_by_the_bidders_next_player(passes: int, answer: str) -> None:
    # "如果有人选择包牌了，则他的下家还可以选择'反包'，第四人包牌时，庄家可以选择反包"
    t = deal(*SMALL)
    order = (1, 2, 3, 0)  # from the dealer, seat 1
    say(t, *["pass"] * passes)
    bidder = order[passes]
    only_speaker(t, bidder, {"bao", "pass"})
    say(t, "bao")
    answerer = order[(passes + 1) % 4]  # the fourth speaker's 下家 is the dealer
    only_speaker(t, answerer, {"fanbao", "pass"})
    for other in range(4):
        if other != answerer:
            t.refuses(Bid(seat=other, bid="fanbao"), "not_your_turn")
    t.refuses(Bid(seat=answerer, bid="bao"), "bid_not_allowed")  # one 包 per hand
    say(t, answer)
    # "如果某局有人包牌或者有人反包，均由包牌者首先出牌"
    assert t.state.phase == "play" and t.turn == bidder and t.state.leader == bidder
    assert t.state.bao == bidder
    for seat in range(4):
        assert not any(isinstance(m, Bid) for m in api.legal_moves(t.state, seat))
    if answer == "fanbao":
        # "另外两人完全不参与战斗，仅由包牌与反包者对抗"
        assert t.state.fanbao == answerer
        assert t.state.benched == tuple(s for s in range(4) if s not in (bidder, answerer))
        assert banzipao.sides_of(t.state) == ((bidder,), (answerer,))
    else:
        # "3人联合与包牌者对抗"; the others who have not spoken do not get to
        assert t.state.fanbao is None and t.state.benched == ()
        assert banzipao.sides_of(t.state) == ((bidder,), tuple(s for s in range(4) if s != bidder))
    assert banzipao.mode_of(t.state) == ("fanbao" if answer == "fanbao" else "bao")
    t.refuses(Bid(seat=answerer, bid="pass"), "wrong_phase")


def test_the_benched_pair_never_gets_a_turn_in_a_duel() -> None:
    t = deal("3S 4S", "7S 6H", "8S 9S KS", "TH JH QH")  # seat 1 deals
    say(t, "pass", "bao", "fanbao")  # seat 2 包, seat 3 反包
    assert t.state.benched == (0, 1) and t.turn == 2
    t.play(2, "8S")
    assert t.turn == 3  # the next fighter
    for benched in (0, 1):
        assert api.legal_moves(t.state, benched) == []
        t.refuses(Play(seat=benched, cards=t.state.hands[benched][:1]), "not_your_turn")
    t.play(3, "TH")
    assert t.turn == 2  # seats 0 and 1 are skipped
    t.passes(2)
    assert t.turn == 3 and t.state.lead is None  # one pass ends the round in a duel
    assert t.state.captured == (0, 0, 0, 2)


def test_with_fanbao_rights_all_the_others_answer_in_turn_until_one_does() -> None:
    t = deal(*SMALL, fanbao_rights="all")
    say(t, "bao")  # the dealer, seat 1
    for seat in (2, 3):
        only_speaker(t, seat, {"fanbao", "pass"})
        say(t, "pass")
    only_speaker(t, 0, {"fanbao", "pass"})
    say(t, "fanbao")
    assert (t.state.bao, t.state.fanbao, t.state.benched) == (1, 0, (2, 3))
    assert t.state.phase == "play" and t.turn == 1


def test_with_fanbao_rights_all_a_bao_nobody_answers_is_one_against_three() -> None:
    t = deal(*SMALL, fanbao_rights="all")
    say(t, "pass", "bao")  # seat 2 包
    for seat in (3, 0, 1):
        only_speaker(t, seat, {"fanbao", "pass"})
        say(t, "pass")
    assert t.state.phase == "play" and t.turn == 2 and t.state.benched == ()
    assert banzipao.mode_of(t.state) == "bao"


def test_by_default_only_the_next_player_may_answer_a_bao() -> None:
    t = deal(*SMALL)
    say(t, "bao", "pass")  # seat 1 包, seat 2 declines: seats 3 and 0 have no say
    assert t.state.phase == "play" and t.turn == 1
    assert [list(b) for b in t.state.said] == [[1, "bao"], [2, "pass"]]


def test_nobody_bids_and_the_dealer_must_call_a_card_he_does_not_hold() -> None:
    # "此时庄家必须叫一张手中没有的牌，拿到此张牌的人，则成为庄家的朋友"
    t = deal(*FULL)
    say(t, "pass", "pass", "pass", "pass")
    assert t.state.phase == "call" and t.turn == 0
    calls = api.legal_moves(t.state, 0)
    assert all(isinstance(m, CallCard) for m in calls)
    assert {m.card for m in calls if isinstance(m, CallCard)} == set(build_deck()) - set(
        t.state.hands[0]
    )
    assert len(calls) == 39
    for seat in (1, 2, 3):
        assert api.legal_moves(t.state, seat) == []
    t.refuses(CallCard(seat=0, card=parse_card("QS")), "call_own_card")
    t.refuses(CallCard(seat=0, card=parse_card("RJ")), "card_not_in_pack")
    t.refuses(CallCard(seat=2, card=parse_card("AC")), "not_your_turn")
    t.refuses(Bid(seat=0, bid="bao"), "wrong_phase")
    t.refuses(Play(seat=0, cards=parse_cards("7S")), "wrong_phase")
    t.do(CallCard(seat=0, card=parse_card("AC")))
    # "如果庄家叫牌，则由庄家先出牌"; "拿到此张牌的人和庄家为朋友"
    assert t.state.phase == "play" and t.turn == 0 and t.state.leader == 0
    assert t.state.called == parse_card("AC") and banzipao.partner_of(t.state) == 2
    assert banzipao.mode_of(t.state) == "call"
    assert banzipao.sides_of(t.state) == ((0, 2), (1, 3))
    assert t.view(1)["called_card"] == "AC"


# --- 4. capturing a round -------------------------------------------------------------------------


def test_the_texts_example_round_gives_jia_six_cards_and_the_next_lead() -> None:
    # "甲出一张6，乙出一张9，丙不出牌，丁出一张2，然后甲用炸弹QQQ炸掉，其后乙丙丁均不再压牌，
    #  则玩家甲得到本轮的692QQQ，共计6张牌…然后甲继续出牌"
    t = called(*FULL, card="AC")
    t.play(0, "6S")
    t.play(1, "9H")
    t.passes(2)
    t.play(3, "2D")
    t.play(0, "QS QH QC")
    assert t.state.captured == (0, 0, 0, 0)
    t.passes(1, 2, 3)
    assert t.state.captured == (6, 0, 0, 0)
    assert t.turn == 0 and t.state.lead is None
    for seat in (None, 0, 1, 2, 3):
        assert t.view(seat)["captured"] == [6, 0, 0, 0]
    assert t.legal_plays(0) and not t.may_pass(0)


# --- 5. the score of a hand (牌局分) -----------------------------------------------------------------


def test_bao_wins_when_he_goes_out_first() -> None:
    # "如果某人包牌并获胜，则包牌者+9分，其他每人-3分"
    t = bao("7S 3S", "4H 5H", "6H 8H", "9D TD")
    t.play(0, "3S")
    t.passes(1, 2, 3)
    t.play(0, "7S")
    assert t.ended.order[0] == 0
    assert t.ended.lines == each_pays("bao_win", 0, 3)
    assert t.ended.scores == (9, -3, -3, -3)
    assert t.state.phase == "reveal" and t.state.totals == (9, -3, -3, -3)


def test_bao_loses_and_the_hand_ends_when_any_other_player_goes_out() -> None:
    # "否则需付其他每人3分"; "只要有一人出完手中牌，则结束牌局"
    t = bao("7S 3S", "4H 5H", "6H", "9D TD")
    t.play(0, "3S")
    t.passes(1)
    t.play(2, "6H")
    assert t.state.phase == "reveal" and api.to_move(t.state) is None
    assert t.ended.order == (2, 0, 1, 3)
    assert t.ended.lines == lines(
        ("bao_lose", 0, 1, 3), ("bao_lose", 0, 2, 3), ("bao_lose", 0, 3, 3)
    )
    assert t.ended.scores == (-9, 3, 3, 3)


def test_fanbao_fails_when_the_bao_player_is_out_first() -> None:
    # "反包失败，则反包者-18分，包牌者+18分…其他2人判和局"
    t = duel("7S 3S", "4H 9H", "5C", "6D")
    assert t.state.benched == (2, 3)
    t.play(0, "3S")
    t.passes(1)
    assert t.turn == 0
    t.play(0, "7S")
    assert t.ended.lines == lines(("fanbao_fail", 1, 0, 18))
    assert t.ended.scores == (18, -18, 0, 0)


def test_fanbao_succeeds_when_the_fanbao_player_is_out_first() -> None:
    # "反包成功则反包者+9分，包牌者-9分"
    t = duel("7S 3S", "4H 9H", "5C", "6D")
    t.play(0, "3S")
    t.play(1, "9H")
    t.passes(0)
    assert t.turn == 1
    t.play(1, "4H")
    assert t.ended.lines == lines(("fanbao_win", 0, 1, 9))
    assert t.ended.scores == (-9, 9, 0, 0)


def test_shuangfei_for_the_dealers_side() -> None:
    # "若某方两家都出完牌而另外两家均没出完，则称为双飞，先出完方的两人分别+2分，没出完的两家分别-2分"
    t = called("7S 3S", "4H 5D 9C", "KH", "6C 8D TC", card="KH")
    t.play(0, "3S")
    t.passes(1, 2, 3)
    t.play(0, "7S")  # the dealer is out; play goes on
    assert t.state.out == (0,) and t.state.phase == "play" and t.turn == 1
    t.passes(1)
    t.play(2, "KH")
    assert t.ended.order == (0, 2, 1, 3)
    assert t.ended.lines == lines(("shuangfei", 1, 0, 2), ("shuangfei", 3, 2, 2))
    assert t.ended.scores == (2, -2, 2, -2)


def test_shuangfei_for_the_other_side() -> None:
    t = called("7S 3S 4S", "5H", "KH 9D", "6C", card="KH")
    t.play(0, "3S")
    t.play(1, "5H")
    t.passes(2)
    t.play(3, "6C")
    assert t.ended.order == (1, 3, 0, 2)
    assert t.ended.lines == lines(("shuangfei", 0, 1, 2), ("shuangfei", 2, 3, 2))
    assert t.ended.scores == (-2, 2, -2, 2)


def test_the_last_players_captures_go_to_the_first_out_and_turn_the_result() -> None:
    # "最后出完牌者手中未打出的牌作废，不算作得牌张数，并且他之前的所得牌全部拿给最先出完牌的人。
    #  然后比较双方2人的得牌和，张数多的一方两人胜，分别+1分，负方则分别-1分"
    t = called("3S 3H 7S", "5H 5D 8D", "6H 6D 9D", "2C 2D 4C KC", card="9D")
    t.play(0, "3S 3H")
    t.play(1, "5H 5D")
    t.play(2, "6H 6D")
    t.play(3, "2C 2D")
    t.passes(0, 1, 2)
    t.play(3, "4C")
    t.play(0, "7S")  # out first
    t.passes(1, 2, 3)
    assert t.turn == 1
    # seat 3 holds 8 captured cards against the dealer's side's 2
    assert t.state.captured == (2, 0, 0, 8)
    t.play(1, "8D")  # out second
    t.play(2, "9D")  # out third: the dealer's side is out; seat 3 is the last, with KC void
    assert t.ended.order == (0, 1, 2, 3)
    assert t.state.captured == (10, 0, 2, 0)  # 3's eight to seat 0; the open round to seat 2
    assert t.ended.lines == lines(("more_cards", 1, 0, 1), ("more_cards", 3, 2, 1))
    assert t.ended.scores == (1, -1, 1, -1)


OPEN_TRICK_DEAL = ("3S 7S KH KC", "4S 8H", "9H 9C AH AC", "5S 6C JH JC KD")


@pytest.mark.parametrize(
    ("open_trick", "captured", "scores"),
    [
        ("top", (0, 6, 8, 0), (1, -1, 1, -1)),
        ("nobody", (0, 6, 0, 0), (-1, 1, -1, 1)),
    ],
)
def test_the_round_left_open_at_the_end_can_decide_the_hand(
    open_trick: str, captured: tuple[int, ...], scores: tuple[int, ...]
) -> None:
    t = called(*OPEN_TRICK_DEAL, card="AH", open_trick=open_trick)
    t.play(0, "3S")
    t.play(1, "4S")
    t.passes(2)
    t.play(3, "5S")
    t.passes(0, 1, 2)  # seat 3 captures 3
    t.play(3, "6C")
    t.play(0, "7S")
    t.play(1, "8H")  # seat 1 is out first
    t.passes(2, 3, 0)  # seat 1 captures 3
    assert t.turn == 2
    t.play(2, "9H 9C")
    t.play(3, "JH JC")
    t.play(0, "KH KC")  # out second
    t.play(2, "AH AC")  # out third: eight cards lie open, AA on top
    assert t.ended.order == (1, 0, 2, 3)
    assert t.state.captured == captured  # seat 3 (last) gave his 3 to seat 1
    assert t.ended.scores == scores
    assert {line.reason for line in t.ended.lines} == {"more_cards"}


def test_equal_captures_go_to_the_first_player_out_and_his_partner() -> None:
    # "如果双方得牌和相同，则最先跑完手中牌者与其朋友判胜"
    t = called("3S 7S", "4H", "8D", "5C 6C KC", card="8D")
    t.play(0, "3S")
    t.play(1, "4H")  # seat 1 is out first
    t.passes(2)
    t.play(3, "5C")
    t.passes(0, 2)  # seat 3 captures 3
    t.play(3, "6C")
    t.play(0, "7S")  # out second
    t.passes(2, 3)  # seat 0 captures 2
    t.play(2, "8D")  # out third: the open round (1 card) to seat 2
    assert t.state.captured == (2, 3, 1, 0)  # 3 against 3
    assert t.ended.order == (1, 0, 2, 3)
    assert t.ended.lines == lines(("more_cards", 0, 1, 1), ("more_cards", 2, 3, 1))
    assert t.ended.scores == (-1, 1, -1, 1)


# --- 6. bonuses (附加分) -----------------------------------------------------------------------------


def test_a_dou_that_wins_its_round_earns_one_from_each_other_player() -> None:
    # "豆附加+3分给得牌者(其他每人-1分)"
    t = bao("5S 5H 5C 5D 7S", "3H 4H", "6H 8H", "9D TD")
    t.play(0, "5S 5H 5C 5D")
    t.passes(1, 2)
    assert t.state.bonuses == ()
    t.passes(3)
    assert t.state.bonuses == each_pays("dou", 0, 1)
    assert t.view(2)["bonus_lines"] == [
        {"reason": "dou", "payer": p, "payee": 0, "amount": 1} for p in (1, 2, 3)
    ]
    t.play(0, "7S")
    assert t.ended.lines == each_pays("dou", 0, 1) + each_pays("bao_win", 0, 3)
    assert t.ended.scores == (12, -4, -4, -4)


def test_the_texts_example_2222_on_6666_pays_b_and_not_a() -> None:
    # "玩家A打出6666，结果被B用2222压住并且此轮无人再要，则给B在给附加6分，其他三家分别给-2分，
    #  此时A玩家虽然打出豆了，但他的豆没有大住牌，所以不附加"
    t = bao("6S 6H 6C 6D 7S 8S", "2S 2H 2C 2D 3H", "4C 5C", "9D TD")
    t.play(0, "6S 6H 6C 6D")
    t.play(1, "2S 2H 2C 2D")
    t.passes(2, 3, 0)
    assert t.state.captured == (0, 8, 0, 0)
    assert t.state.bonuses == each_pays("dou_twos", 1, 2)
    t.play(1, "3H")  # out: the 包 is lost as well
    bao_lose = lines(("bao_lose", 0, 1, 3), ("bao_lose", 0, 2, 3), ("bao_lose", 0, 3, 3))
    assert t.ended.lines == each_pays("dou_twos", 1, 2) + bao_lose
    assert t.ended.scores == (-11, 9, 1, 1)


def test_a_guntong_earns_three_from_each_and_the_dou_it_beat_earns_nothing() -> None:
    # "滚筒附加+9分(其他每人-3分)"
    t = bao("5S 5H 5C 5D 7S 3S", "6S 6H 6C 7H 7C 7D 8S 8H 8C 3H", "9C", "TD")
    t.play(0, "5S 5H 5C 5D")
    t.play(1, "6S 6H 6C 7H 7C 7D 8S 8H 8C")
    t.passes(2, 3, 0)
    assert t.state.captured == (0, 13, 0, 0)
    t.play(1, "3H")
    bao_lose = lines(("bao_lose", 0, 1, 3), ("bao_lose", 0, 2, 3), ("bao_lose", 0, 3, 3))
    assert t.ended.lines == each_pays("guntong", 1, 3) + bao_lose
    assert t.ended.scores == (-12, 12, 0, 0)


def test_each_round_won_by_a_dou_pays_again() -> None:
    # "每用大牌型得牌一次，都会得到相应的附加分"
    t = bao("5S 5H 5C 5D 9S 9H 9C 9D 7S", "3H 4H", "6H 8H", "TD JD")
    t.play(0, "5S 5H 5C 5D")
    t.passes(1, 2, 3)
    t.play(0, "9S 9H 9C 9D")
    t.passes(1, 2, 3)
    t.play(0, "7S")
    dou = each_pays("dou", 0, 1)
    assert t.ended.lines == dou + dou + each_pays("bao_win", 0, 3)
    assert t.ended.scores == (15, -5, -5, -5)


def test_in_two_against_two_the_capturers_partner_pays_his_bonus_too() -> None:
    # "其他每人-1分": every other player, the partner included
    t = called("7S 3S", "4H", "9S 9H 9C 9D 5D", "6C 8C", card="5D")
    t.play(0, "3S")
    t.passes(1)
    t.play(2, "9S 9H 9C 9D")
    t.passes(3, 0, 1)
    assert t.state.bonuses == each_pays("dou", 2, 1)
    t.play(2, "5D")  # the partner is out first
    t.play(3, "6C")
    t.play(0, "7S")  # and the dealer second: 双飞
    shuangfei = lines(("shuangfei", 1, 2, 2), ("shuangfei", 3, 0, 2))
    assert t.ended.lines == each_pays("dou", 2, 1) + shuangfei
    assert t.ended.scores == (1, -3, 5, -3)


@pytest.mark.parametrize(
    ("bystanders_pay_bonus", "bonus", "scores"),
    [
        (False, lines(("dou", 1, 0, 1)), (19, -19, 0, 0)),
        (True, each_pays("dou", 0, 1), (21, -19, -1, -1)),
    ],
)
def test_the_benched_pair_pays_bonuses_only_if_the_table_says_so(
    bystanders_pay_bonus: bool, bonus: tuple[ScoreLine, ...], scores: tuple[int, ...]
) -> None:
    t = duel("5S 5H 5C 5D 7S", "3H 4H", "6H", "9D", bystanders_pay_bonus=bystanders_pay_bonus)
    t.play(0, "5S 5H 5C 5D")
    t.passes(1)
    assert t.state.bonuses == bonus
    t.play(0, "7S")
    assert t.ended.lines == bonus + lines(("fanbao_fail", 1, 0, 18))
    assert t.ended.scores == scores


@pytest.mark.parametrize(
    ("open_trick", "scores"), [("top", (12, -4, -4, -4)), ("nobody", (9, -3, -3, -3))]
)
def test_a_dou_that_goes_out_stands_only_if_the_open_round_counts(
    open_trick: str, scores: tuple[int, ...]
) -> None:
    t = bao("7S 5S 5H 5C 5D", "3H 4H", "6H 8H", "9D TD", open_trick=open_trick)
    t.play(0, "7S")
    t.passes(1, 2, 3)
    t.play(0, "5S 5H 5C 5D")
    assert t.ended.scores == scores


# --- 7. 天牌 ----------------------------------------------------------------------------------------


def hands_of(deal_: tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
    return tuple(parse_cards(h) for h in deal_)


def test_tianpai_of_a_hand() -> None:
    # "十三烂。即手中全是单张牌，没有任何2张大小相同的牌"; "滚龙。由连续3个或3个以上的豆组成"
    assert tianpai_of(parse_cards(SHISANLAN[1])) == ("shisanlan", 0)
    for hand in (GUNLONG[2], "QS QH QC QD KS KH KC KD AS AH AC AD 3S"):
        found = tianpai_of(parse_cards(hand))
        assert found is not None and found[0] == "gunlong"
    for hand in FULL:
        assert tianpai_of(parse_cards(hand)) is None
    # three fours that are not consecutive, and fours with the 2s ("滚龙中均不包括2")
    assert tianpai_of(parse_cards("3S 3H 3C 3D 5S 5H 5C 5D 7S 7H 7C 7D 9S")) is None
    assert tianpai_of(parse_cards(GUNLONG[3])) is None  # AAAA 2222 KKK
    assert tianpai_of(parse_cards("KS KH KC KD AS AH AC AD 2S 2H 2C 2D 3S")) is None
    # twelve ranks and a pair is no 十三烂
    assert tianpai_of(parse_cards("3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS AH")) is None


def test_tianpai_winner() -> None:
    assert tianpai_winner(hands_of(FULL), 0) is None
    assert tianpai_winner(hands_of(SHISANLAN), 0) == (1, "shisanlan")
    assert tianpai_winner(hands_of(GUNLONG), 0) == (2, "gunlong")
    # "如果多人抓到滚龙则滚龙大的为胜": 89T over 345, whoever sits first
    for dealer in range(4):
        assert tianpai_winner(hands_of(TWO_GUNLONG), dealer) == (3, "gunlong")
    # "如果多人抓到十三烂则从庄家起，靠前的十三烂者为胜"
    assert tianpai_winner(hands_of(TWO_SHISANLAN), 2) == (3, "shisanlan")
    assert tianpai_winner(hands_of(TWO_SHISANLAN), 0) == (1, "shisanlan")
    assert tianpai_winner(hands_of(TWO_SHISANLAN), 3) == (3, "shisanlan")


TIANPAI_CASES = [
    # "十三烂者直接判胜，得+18分，其他每人-6分。滚龙者也直接判胜，得36分，其他每人-12分"
    (SHISANLAN, 1, "shisanlan", (-6, 18, -6, -6)),
    (GUNLONG, 2, "gunlong", (-12, -12, 36, -12)),
    (TWO_GUNLONG, 3, "gunlong", (-12, -12, -12, 36)),
    (TWO_SHISANLAN, 3, "shisanlan", (-6, -6, -6, 18)),
]


@pytest.mark.parametrize(("hands", "winner", "reason", "scores"), TIANPAI_CASES)
def test_a_tianpai_wins_the_hand_at_the_deal(
    hands: tuple[str, ...], winner: int, reason: str, scores: tuple[int, ...]
) -> None:
    t = deal(*hands)
    ended = GAME.deal_consequences(t.state)
    assert len(ended) == 1 and isinstance(ended[0], HandEnded)
    amount = scores[winner] // 3
    assert ended[0].order == (winner,)
    assert ended[0].lines == each_pays(reason, winner, amount)
    assert ended[0].scores == scores
    state = api.evolve(t.state, ended[0])
    assert state.phase == "reveal" and api.to_move(state) is None
    assert state.totals == scores and api.result(state) == ended[0]
    for seat in range(4):
        assert api.legal_moves(state, seat) == []


def test_no_tianpai_no_consequence() -> None:
    t = deal(*FULL)
    assert GAME.deal_consequences(t.state) == []


@pytest.mark.parametrize(
    ("hands", "events"), [(SHISANLAN, ["dealt", "hand_ended"]), (FULL, ["dealt"])]
)
def test_the_deal_command_ends_a_tianpai_hand_before_anyone_speaks(
    monkeypatch: pytest.MonkeyPatch, hands: tuple[str, ...], events: list[str]
) -> None:
    """Through the table's own ``Deal`` command, the shuffle replaced by a fixed deal: "玩家只要抓到
    此牌型，就直接判胜，无需对局"."""
    monkeypatch.setattr(fairness, "deal", lambda *args: (hands_of(hands), ()))
    state = api.initial_state(config())
    state, _ = api.apply(state, CommitDeal(commitment=fairness.commitment_of("seed")))
    state, happened = api.apply(state, Deal(seed="seed"))
    assert [e.TYPE for e in happened] == events
    assert isinstance(happened[0], Dealt) and happened[0].leader == 0  # seat 0 holds ♠7
    if len(happened) == 1:
        assert state.phase == "bid" and api.to_move(state) == 0
    else:
        assert state.phase == "reveal" and api.to_move(state) is None
        assert state.totals == (-6, 18, -6, -6)
        with pytest.raises(RuleError, match="wrong_phase"):
            api.decide(state, Bid(seat=0, bid="bao"))


# --- 8. the secret partner ------------------------------------------------------------------------


def test_no_view_shows_the_partner_until_the_called_card_is_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # "拿到此张牌的人和庄家为朋友": AC lies with seat 2 in one deal, with seat 3 in the other
    # (it changes places with AD); the dealer, seat 1 and a spectator see the same in both.
    a = called(*FULL, card="AC")
    b = called(*swapped(FULL, "AC", "AD"), card="AC")
    assert (banzipao.partner_of(a.state), banzipao.partner_of(b.state)) == (2, 3)

    def same_for_0_1_and_spectators() -> None:
        for seat in (None, 0, 1):
            assert a.view(seat) == b.view(seat)
        for seat in (None, 0, 1, 2, 3):
            assert a.view(seat)["partner"] is None and b.view(seat)["partner"] is None

    same_for_0_1_and_spectators()
    for t in (a, b):
        t.play(0, "3S")
        t.play(1, "5H")
        t.passes(2, 3, 0)
        t.play(1, "9H")
        t.passes(2)
    same_for_0_1_and_spectators()
    # the engine's own check moves the called card the same way
    twins = GAME.indistinguishable(a.state)
    assert [banzipao.partner_of(twin) for twin, _ in twins] == [1, 3]
    by_partner = {banzipao.partner_of(twin): watchers for twin, watchers in twins}
    assert by_partner[3] == (None, 0, 1)
    check_views_hide_hands(a.state)

    # a view that shows the partner is caught
    original = type(GAME).view
    monkeypatch.setattr(
        type(GAME),
        "view",
        lambda self, st, seat: original(self, st, seat) | {"friend": banzipao.partner_of(st)},
    )
    with pytest.raises(InvariantBroken, match="can tell a secret"):
        check_views_hide_hands(a.state)
    monkeypatch.undo()
    check_views_hide_hands(a.state)

    # once AC is played, everyone has seen who holds it
    a.passes(3, 0)
    a.play(1, "3H")
    a.play(2, "AC")
    for seat in (None, 0, 1, 2, 3):
        assert a.view(seat)["partner"] == 2
    assert GAME.indistinguishable(a.state) == []
    check_views_hide_hands(a.state)


def test_the_partner_is_shown_once_the_hand_is_over() -> None:
    t = called("7S 3S", "4H 5D 9C", "KH", "6C 8D TC", card="KH")
    t.play(0, "3S")
    t.passes(1, 2, 3)
    assert t.view(1)["partner"] is None
    t.play(0, "7S")
    assert t.view(3)["partner"] is None
    t.passes(1, 2, 3)
    t.play(1, "4H")
    t.play(2, "KH")  # the called card ends the hand: 双飞 for the dealer and partner
    for seat in (None, 0, 1, 2, 3):
        assert t.view(seat)["partner"] == 2


# --- 9. legal_moves is exact ----------------------------------------------------------------------


def brute_force(hand: tuple[int, ...], lead: Combo | None) -> set[tuple[int, ...]]:
    """Every sub-multiset of ranks of ``hand`` that is a combination and beats ``lead`` (any one,
    when leading), as rank-count vectors."""
    counts = rank_counts(hand)[:13]
    groups = group_by_rank(hand)
    found = set()
    for pick in itertools.product(*(range(c + 1) for c in counts)):
        if not any(pick):
            continue
        combo = combo_of(take(groups, [(r, n) for r, n in enumerate(pick) if n]))
        if combo is not None and (lead is None or beats(combo, lead)):
            found.add(pick)
    return found


def position(
    seed: int, hand_size: int, low: int, span: int, lead_kind: str | None
) -> BanzipaoState:
    """Seat 0, who bid 包, to play ``hand_size`` cards drawn from ranks ``low``…``low + span - 1``
    (a narrow window makes runs and sets common); the lead, if any, a random play of ``lead_kind``
    from the cards seat 0 does not hold."""
    rng = random.Random(seed)
    window = [c for c in build_deck() if low <= c >> 2 < low + span]
    rng.shuffle(window)
    mine = tuple(sorted(window[:hand_size]))
    others = [c for c in build_deck() if c not in mine]
    rng.shuffle(others)
    hands = (mine, *(tuple(sorted(others[i::3])) for i in range(3)))
    base = dataclasses.replace(
        GAME.initial_state(config()), phase="play", hand_no=1, hands=hands, turn=0, leader=0
    )
    state = dataclasses.replace(base, **GAME.start_hand(base) | {"dealer": 0, "bao": 0})
    if lead_kind is not None:
        plays = [p for p in generate(tuple(sorted(others)), None) if p[1].kind == lead_kind]
        if plays:  # (a 滚筒 may be missing from the other cards)
            cards, combo = rng.choice(plays)
            actions = (None, cards, None, None)
            state = dataclasses.replace(state, lead=combo, lead_seat=1, actions=actions)
    return state


@settings(max_examples=400, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    hand_size=st.integers(1, 13),
    low=st.integers(0, 12),
    span=st.integers(3, 13),
    lead_kind=st.sampled_from(
        [None, None, "single", "pair", "straight", "bomb", "banzipao", "dou", "guntong"]
    ),
)
def test_legal_plays_are_exactly_the_brute_force_set(
    seed: int, hand_size: int, low: int, span: int, lead_kind: str | None
) -> None:
    state = position(seed, hand_size, min(low, 13 - span), span, lead_kind)
    moves = api.legal_moves(state, 0)
    plays = [m for m in moves if isinstance(m, Play)]
    generated = [tuple(rank_counts(m.cards)[:13]) for m in plays]
    assert len(set(generated)) == len(generated), "a play is listed twice"
    assert set(generated) == brute_force(state.hands[0], state.lead)
    assert (Pass(seat=0) in moves) == (state.lead is not None)
    assert len(moves) == len(plays) + (state.lead is not None)
    for move in plays[:20]:
        api.decide(state, move)  # every offered play is accepted
