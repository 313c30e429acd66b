"""葫芦岛打棒 at the table: the first dealer drawn by lot from the deal's seeds, the declaring
window (抢亮大王 in the order of the deal, level cards and every overcall), a kitty of jokers only
dealt again (重新洗牌, audited), 喝血, the kitty buried and the others' joker exchange with the
choice among equally low cards, 干锅, tricks with trumps, and the end of a hand in each of the
text's cases (0, 400, 160, 抠底 doubling, the four kitty-joker cases) with its 抠底/保底 line,
levels and a whole match from 3 past 10. Quotes are from seed 003.

Positions are dealt by the ``Dealt`` event itself (small hands where the story needs no more), so
every state is built by the engine's own ``evolve``; commands go through ``decide``.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

from paiju import api, bots, client, fairness, registry, terminal
from paiju.cards import BIG_JOKER, SMALL_JOKER, Hand, format_cards, parse_cards
from paiju.errors import RuleError
from paiju.games.dabang import GAME
from paiju.games.dabang_cards import auto_taken, takeable, trump_order_of
from paiju.games.dabang_declaring import flip_dealer, joker_grabs, overcalls
from paiju.games.dabang_scoring import blood_of_points
from paiju.games.dabang_state import DabangState
from paiju.log.deals import verify_deal
from paiju.log.file import dump_lines
from paiju.log.replay import audit
from paiju.protocol import (
    AddSeed,
    Bid,
    CommitDeal,
    Deal,
    DealCommitted,
    Dealt,
    Event,
    HandEnded,
    Play,
    ResultLine,
    SeedRevealed,
    TrickWon,
    decode,
    encode,
)
from paiju.results import LevelsAndBlood
from paiju.selfcheck import check_cards_conserved, checked_random_game
from paiju.simulate import hand_seed, play_game, random_chooser, table_command
from paiju.table import copy_with

registry.register(GAME)


def cards(text: str) -> tuple[int, ...]:
    return parse_cards(text)


def in_order(text: str) -> tuple[int, ...]:
    """Cards in the order written (the order drawn)."""
    return tuple(parse_cards([c])[0] for c in text.split())


class Table:
    def __init__(self, state: DabangState) -> None:
        self.state = state
        self.events: list[Event] = []

    def do(self, command: Any) -> list[Event]:
        events = GAME.decide(self.state, command)
        for event in events:
            self.state = GAME.evolve(self.state, event)
        self.events += events
        return events

    def say(self, *words: str) -> None:
        for word in words:
            seat = self.state.turn
            assert seat is not None
            self.do(Bid(seat=seat, bid=word))

    def view(self, seat: int | None) -> dict[str, Any]:
        return api.view(self.state, seat)

    def refuses(self, command: Any, code: str) -> None:
        with pytest.raises(RuleError) as info:
            GAME.decide(self.state, command)
        assert info.value.code == code, info.value


def deal(drawn: list[str], kitty: str, hand_no: int = 1, first: int = 0, **fields: Any) -> Table:
    """A hand dealt as drawn (each seat's cards in the order it drew them) with ``kitty``."""
    options = fields.pop("options", {})
    state = GAME.initial_state(GAME.config(**options))
    state = copy_with(state, {"phase": "seeding", "hand_no": hand_no} | fields)
    dealt = Dealt(
        hand_no=hand_no,
        hands=tuple(in_order(h) for h in drawn),
        rest=in_order(kitty),
        face_up=(),
        leader=first,
        scheme="round",
    )
    return Table(GAME.evolve(state, dealt))


# --- the first dealer, drawn by lot ------------------------------------------------------------


def dealt_by_the_table(server_seed: str, player_seed: str | None = None) -> tuple[Any, Dealt]:
    """The first hand dealt by ``decide``: the commitment, seat 1's seed, the deal."""
    state = GAME.initial_state(GAME.config())
    state, _ = GAME.apply(state, CommitDeal(commitment=fairness.commitment_of(server_seed)))
    if player_seed is not None:
        state, _ = GAME.apply(state, AddSeed(seat=1, seed=player_seed))
    state, events = GAME.apply(state, Deal(seed=server_seed))
    dealt = events[0]
    assert isinstance(dealt, Dealt)
    return state, dealt


def test_the_first_hand_is_dealt_from_a_dealer_drawn_by_lot_from_the_deal_s_seeds() -> None:
    """ "第一局随机确认庄家，并从庄家开始逆时针发牌": the lot (``fairness.draw_seat``, from the
    server's seed and the players') draws the first card and is the deal's leader; over a few
    deals every seat is drawn, and a player's seed changes the lot as much as the server's."""
    drawn, by_player = set(), set()
    for i in range(24):
        state, dealt = dealt_by_the_table(f"lot-{i}", "mine")
        seeds = [None, "mine", None, None]
        lot = fairness.draw_seat(f"lot-{i}", seeds, 4)
        pack = GAME.pack(state.config)
        assert (dealt.hands, dealt.rest) == fairness.deal(
            pack, 4, 52, f"lot-{i}", seeds, "round", lot
        )
        assert dealt.leader == lot and state.first_dealer == lot
        drawn.add(lot)
        by_player.add(dealt_by_the_table("lot-0", f"player-{i}")[1].leader)
    assert drawn == {0, 1, 2, 3} and by_player == {0, 1, 2, 3}


def test_the_lot_is_shown_until_the_dealer_is_known_and_not_drawn_again() -> None:
    state, dealt = dealt_by_the_table("lot-shown")
    assert GAME.view(state, None)["first_dealer"] == dealt.leader
    assert not GAME.draws_first_by_lot(state)  # drawn once a match
    settled = copy_with(state, {"dealer": 2})
    assert GAME.view(settled, None)["first_dealer"] is None and GAME.first_to_draw(settled) == 2


def test_nobody_grabs_and_the_kitty_is_turned_from_the_dealer_drawn_by_lot() -> None:
    """ "第一局需要按抽底牌的方式确认庄家时，也是从随机确认的庄家开始逆时针抽牌": from seat 2 the
    turned cards go to seats 2, 3, 0, 1; ♦2 is the biggest, turned by seat 0."""
    t = deal(["4S", "5S", "8S", "JS"], "4H KC 2D 9H 3C 5D 6H 7H", first=2)
    s = t.state
    assert (s.first_dealer, format_cards(s.flipped)) == (2, "4H KC 2D 9H")
    assert (s.dealer, s.trump_suit, s.phase, s.turn) == (0, 3, "bury", 0)


def test_the_audit_re_derives_the_lot_and_refuses_another() -> None:
    config = GAME.config(hands=1)
    _, events = play_game(config, "lot-audit", bot)
    first = next(e for e in events if isinstance(e, Dealt))
    seed = hand_seed("lot-audit", 1)
    assert first.leader == fairness.draw_seat(seed, [None] * 4, 4)
    assert {d.status for d in verify_deal(config, events)} == {"verified"}
    lines = dump_lines(config, events)
    assert audit(lines).verdict == "sound"
    i = events.index(first)
    forged = json.loads(lines[i + 1]) | {"leader": (first.leader + 1) % 4}
    report = audit([*lines[: i + 1], json.dumps(forged), *lines[i + 2 :]])
    assert report.verdict == "failed" and report.bad_index == i


# --- the card order of a hand -------------------------------------------------------------------


def test_the_trump_order_of_a_hand_is_the_text_s() -> None:
    """ "大王>小王>主花色混牌>其他花色混牌>主花色2>其他花色2>主花色牌（混牌除外）>副牌"."""
    order = trump_order_of(suit=2, level=7)  # ♣ trump, playing 7
    chain = cards("RJ BJ 7C 7S 2C 2H AC 3C AD")
    ranked = sorted(chain, key=order.strength, reverse=True)
    assert format_cards(ranked) == "RJ BJ 7C 7S 2C 2H AC 3C AD"
    assert order.strength(cards("7S")[0]) == order.strength(cards("7D")[0])


# --- 亮主: the first hand ------------------------------------------------------------------------


def test_the_first_grab_goes_to_whoever_drew_a_big_joker_first_and_the_next_suited_card_names_trumps() -> (
    None
):
    """ "第一把从3打起，亮牌是抢亮大王…以亮牌人亮牌后摸的第一张花色牌的花色为主花色（若摸到的是
    王则继续摸牌…）…亮牌人为庄家"."""
    t = deal(
        ["4S RJ 5D 6C", "7S 8S RJ BJ", "9S TS JS QS", "RJ BJ KH 5C"],
        "AS AH AC AD 6S 6H 6C 6D",
    )
    # seat 3 drew its big joker 4th (index 0), seat 0 5th (index 1), seat 1 11th
    assert t.state.phase == "declare" and t.state.to_speak == (3, 0, 1)
    assert GAME.words_now(t.state, 3) == ("pass", "liang")
    # each grabber's view names the card of his own draw that his 亮大王 would make trumps (his
    # hand is shown sorted); seat 1 drew only a joker after his: the kitty would say, unseen
    assert [t.view(s)["grab_card"] for s in (0, 1, 2, 3, None)] == ["5D", None, None, "KH", None]
    t.say("pass", "liang")
    assert [t.view(s)["grab_card"] for s in range(4)] == [None] * 4  # the window is over
    s = t.state
    assert (s.dealer, s.trump_suit, s.declarer) == (0, 3, 0)  # ♦5 followed seat 0's joker
    assert s.phase == "bury" and s.turn == 0 and len(s.hands[0]) == 4 + 8 and s.rest == ()
    assert format_cards(s.kitty) == "6S 6H 6C 6D AS AH AC AD"  # "发牌…结束后将底牌公开"


def test_a_joker_drawn_after_the_big_joker_is_passed_over_then_the_kitty() -> None:
    t = deal(["RJ BJ 4S", "5S 6S 7S", "8S 9S TS", "JS QS KS"], "RJ 4H 4C 4D 5H 5C 5D 6H")
    t.say("liang")
    assert (t.state.dealer, t.state.trump_suit) == (0, 0)
    grabs = joker_grabs([in_order("4S 5S RJ"), in_order("6S RJ"), (), ()], in_order("BJ 9C"), 0)
    assert grabs == [(1, 2, None), (0, 2, None)]  # nothing suited after either joker: the kitty's
    # ♣9, a card neither seat has seen


def test_nobody_grabs_every_seat_turns_a_kitty_card_and_the_biggest_deals() -> None:
    """ "若第一把没人抢亮大王，则4家都从底牌中翻牌，以翻出最大牌的一家为庄家，并以该牌的花色为
    主花色"; the kitty stays hidden ("若没人亮主，底牌不公开"); "第一把不带干锅"."""
    t = deal(["RJ 4S", "5S 6S", "8S 9S", "JS QS"], "4H KC BJ 2D 9H 3C 5D 6H")
    t.say("pass")
    s = t.state
    assert format_cards(s.flipped) == "4H KC 2D 9H"  # the joker is turned past
    assert (s.dealer, s.trump_suit, s.kitty, s.phase) == (2, 3, (), "bury")


def test_with_no_big_joker_dealt_the_kitty_is_turned_at_once_and_a_tie_goes_to_the_earlier() -> (
    None
):
    t = deal(["4S", "5S", "8S", "JS"], "AH 9C AS 4D 5D 6H 7H 8H", first=1, dealer=1)
    assert t.state.phase == "bury" and t.state.dealer == 1 and t.state.trump_suit == 1
    assert flip_dealer(in_order("KS KH 2C 2D"), 0) == (2, 2, in_order("KS KH 2C 2D"))


@pytest.mark.parametrize(
    ("flip_order", "dealer", "trump"),
    [("hunpai_high", 2, 3), ("two_high", 3, 2)],
)
def test_the_first_hand_s_level_card_three_is_the_biggest_card_turned(
    flip_order: str, dealer: int, trump: int
) -> None:
    """ "以翻出最大牌的一家为庄家" by the order "大王>小王>主花色混牌>其他花色混牌>主花色2>其他花色2>…",
    and "第一把从3打起": the first hand's 混牌 is the 3, so ♦3 (turned by seat 2) beats ♣2 (seat 3)
    — ``flip_order`` ``hunpai_high``, the default; ``two_high`` (the reading before issue 33)
    ranks 3 < … < A < 2."""
    t = deal(
        ["4S", "5S", "8S", "JS"], "4H KC 3D 2C 5D 6H 7H 8H", options={"flip_order": flip_order}
    )
    assert format_cards(t.state.flipped) == "4H KC 3D 2C"
    assert (t.state.dealer, t.state.trump_suit, t.state.phase) == (dealer, trump, "bury")


# --- 亮主: later hands ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("new", "old", "three", "ok"),
    [
        ("2xH", "1xS", False, True),  # "2个相同的反1个的"
        ("2xH", "2xS", False, False),
        ("3xH", "1xS", False, False),  # three are not listed as an overcall
        ("3xH", "2xS", True, True),  # … unless the table says so
        ("4xH", "3xS", False, True),  # "4个相同的反3个或2个、1个的"
        ("4xH", "1xS", False, True),
        ("4xH", "4xS", False, False),
        ("BJxD", "4xS", False, True),  # "4个小王或4个大王可以叫任意花色"
        ("RJxD", "BJxS", False, True),  # "大王的叫牌权优于小王"
        ("BJxD", "RJxS", False, False),
        ("1xH", None, False, True),
    ],
)
def test_overcalls(new: str, old: str | None, three: bool, ok: bool) -> None:
    assert overcalls(new, old, three) is ok


def later_hand(**fields: Any) -> Table:
    """The second hand, seat 1 dealing at level 5 (side 1), the 5s are the level cards."""
    return deal(
        [
            "5H 5H 9S 9S AS",
            "5S 5S 5S 5S 7D",
            "BJ BJ BJ BJ 5C",
            "RJ RJ RJ RJ 8C",
        ],
        "3H 4H 6S 6D 7C 8D 9D TD",
        hand_no=2,
        first=1,
        dealer=1,
        levels=(3, 5),
        **fields,
    )


def test_later_hands_declare_with_level_cards_and_overcall_in_turn() -> None:
    """ "从第二把起亮牌必须用混牌"; "亮牌后自己和其他人都可以反，自己可以加固自己的亮牌"."""
    t = later_hand()
    assert t.state.to_speak == (1, 2, 3, 0) and t.state.level_rank == 2
    assert GAME.words_now(t.state, 1) == ("pass", "1xS", "2xS", "3xS", "4xS")
    t.say("2xS")
    assert GAME.words_now(t.state, 2) == ("pass", "BJxS", "BJxH", "BJxC", "BJxD")
    t.say("pass", "pass")
    assert GAME.words_now(t.state, 0) == ("pass",)  # one 5♥ pair cannot beat a pair
    t.say("pass")
    assert GAME.words_now(t.state, 1) == ("pass", "3xS", "4xS")  # 加固: more cards of his suit
    t.say("4xS", "BJxH", "RJxC", "pass", "pass", "pass", "pass")
    s = t.state
    assert (s.dealer, s.trump_suit, s.declaration, s.declarer) == (1, 2, "RJxC", 3)
    assert s.phase == "bury" and s.turn == 1


def shown_a_spade(**options: Any) -> Table:
    """Issue 33's position: the second hand at level 4, seat 1 dealing; seat 3 has shown one ♠
    and everyone else has passed: seat 3, holding ♦4 ♦4, speaks again."""
    t = deal(
        ["9S 9S AS", "5S 7D", "BJ 5C", "4S 4D 4D 4D 4D 8C"],
        "3H 4H 6S 6D 7C 8D 9D TD",
        hand_no=2,
        first=1,
        dealer=1,
        levels=(3, 4),
        options=options,
    )
    t.say("pass", "pass", "1xS", "pass", "pass", "pass")
    assert t.state.turn == 3 and t.state.declarer == 3
    return t


def test_the_declarer_may_overcall_himself_in_another_suit() -> None:
    """ "亮牌后自己和其他人都可以反，自己可以加固自己的亮牌。反的规则是：2个相同的反1个的，4个相同的
    反3个或2个、1个的": 反 is given to 自己 as well — two ♦4 over his own one ♠ (``self_overcall``
    ``any_suit``, the default); ``same_suit`` (the reading before issue 33) refuses it."""
    t = shown_a_spade()
    assert GAME.words_now(t.state, 3) == ("pass", "2xD", "4xD")
    t.say("2xD", "pass", "pass", "pass", "pass")
    assert (t.state.trump_suit, t.state.declarer, t.state.dealer) == (3, 3, 1)
    old = shown_a_spade(self_overcall="same_suit")
    old.refuses(Bid(seat=3, bid="2xD"), "bid_not_allowed")
    assert GAME.words_now(old.state, 3) == ("pass",)


@pytest.mark.parametrize(
    ("reinforce", "words"),
    [
        ("more", ("pass", "3xS", "4xS", "4xD")),  # "加固": no count given, more cards
        ("like_overcall", ("pass", "4xS", "4xD")),  # by the counts of 反: four over two only
    ],
)
def test_reinforcing_one_s_own_show_from_two_to_three(
    reinforce: str, words: tuple[str, ...]
) -> None:
    """ "自己可以加固自己的亮牌" gives 加固 no count: with ``reinforce`` ``more`` the declarer of two
    ♠5 may show three; ``like_overcall`` holds him to the counts of 反 (three do not overcall
    two). In another suit he 反 by its counts either way."""
    t = deal(
        ["5H 5H 5H 5H 9S", "5S 5S 5S 5S 5D 5D 5D 5D", "BJ 5C", "8C"],
        "3H 4H 6S 6D 7C 8D 9D TD",
        hand_no=2,
        first=1,
        dealer=1,
        levels=(3, 5),
        options={"reinforce": reinforce},
    )
    t.say("2xS", "pass", "pass", "pass")
    assert GAME.words_now(t.state, 1) == words


def test_nobody_declares_and_a_kitty_card_names_trumps() -> None:
    """ "如果没人亮主，就从底牌中任意抽取一张牌，并以此牌的花色为主花色"."""
    t = later_hand()
    t.say("pass", "pass", "pass", "pass")
    assert (t.state.trump_suit, t.state.kitty, t.state.phase) == (1, (), "bury")


# --- 重新洗牌: a kitty of jokers only ------------------------------------------------------------

KITTY_OF_JOKERS = "RJ RJ RJ RJ BJ BJ BJ BJ"


def next_deal(t: Table, drawn: list[str], kitty: str) -> None:
    """The table's steps after a hand: the seed revealed, the next commitment, the next deal
    (from the seat the rules let draw first)."""
    no = t.state.hand_no
    for event in (
        SeedRevealed(hand_no=no, seed="s"),
        DealCommitted(hand_no=no + 1, commitment="0" * 64),
    ):
        t.state = GAME.evolve(t.state, event)
    first = GAME.first_to_draw(t.state)
    hands = tuple(in_order(h) for h in drawn)
    dealt = Dealt(no + 1, hands, in_order(kitty), (), first, "round")
    t.state = GAME.evolve(t.state, dealt)


def test_nobody_declares_over_a_kitty_of_jokers_and_the_hand_is_dealt_again() -> None:
    """ "如果没人亮主，就从底牌中任意抽取一张牌，并以此牌的花色为主花色。若抽到王需继续抽，直到抽到
    花色牌为止。若底牌全是王，则重新洗牌": the last pass ends the hand unplayed — no level, the same
    dealer, the blood owed still owed — and the next deal plays the same hand again."""
    t = deal(
        ["5H 5H 9S 9S AS", "5S 7D 8D 9D TD", "6C 9C 9C 8C 7C", "8C 6S 6H 7H 7S"],
        KITTY_OF_JOKERS,
        hand_no=2,
        first=1,
        dealer=1,
        levels=(3, 5),
        blood=2,
    )
    t.say("pass", "pass", "pass")
    *_, last = GAME.decide(t.state, Bid(seat=0, bid="pass"))
    t.say("pass")
    assert last == HandEnded(2, (), (), (0, 0, 0, 0), (ResultLine("redeal", 1, 8),))
    s = t.state
    assert (s.phase, s.levels, s.dealer, s.blood, s.redeals, s.totals) == (
        "reveal",
        (3, 5),
        1,
        2,
        1,
        (0, 0, 0, 0),
    )
    next_deal(
        t,
        ["9S AS 4S 4H 4C", "5S 7D 8D 5H 5H", "6C 9C 9C 8C 7C", "8C 6S 6H 7H 7S"],
        "3H 4H 6S 6D 7C 8D 9D TD",
    )
    assert t.state.hand_no == 3 and not GAME.first_hand(t.state)
    assert GAME.words_now(t.state, 1) == ("pass", "1xS", "1xH", "2xH")  # level cards again
    t.say("pass", "pass", "pass", "pass")
    assert t.state.tribute == 2  # the blood owed is paid in the hand played again


def test_a_first_hand_with_nothing_to_turn_is_dealt_again_from_the_same_dealer() -> None:
    """Nobody holds a big joker and the kitty is jokers only: no card can be turned ("若抽到王需
    继续抽"), the hand ends at its deal; the next deal is a first hand again (抢亮大王), dealt from
    the dealer drawn by lot, not drawn again."""
    t = deal(["4S", "5S", "8S", "JS"], KITTY_OF_JOKERS, first=3)
    assert t.state.phase == "redeal"
    (ended,) = GAME.deal_consequences(t.state)
    assert isinstance(ended, HandEnded) and ended.results == (ResultLine("redeal", 3, 8),)
    t.state = GAME.evolve(t.state, ended)
    assert (t.state.redeals, t.state.first_dealer, t.state.dealer) == (1, 3, None)
    assert not GAME.match_over(copy_with(t.state, {"config": GAME.config(hands=1)}))
    assert not GAME.draws_first_by_lot(t.state) and GAME.first_to_draw(t.state) == 3
    next_deal(t, ["RJ 4S", "5S", "8S", "JS"], "4H KC 2D 9H 3C 5D 6H 7H")
    assert GAME.first_hand(t.state) and t.state.to_speak == (0,)
    assert GAME.words_now(t.state, 0) == ("pass", "liang")


def test_every_pass_or_a_grab_with_no_suit_to_name_deals_again() -> None:
    """The first hand: all pass and the kitty cannot be turned; or the grab's suit — the first
    suited card after the big joker — is never found, even in the kitty."""
    t = deal(["RJ 4S", "5S", "8S", "JS"], KITTY_OF_JOKERS)
    events = t.do(Bid(seat=0, bid="pass"))
    assert [e.TYPE for e in events] == ["bid_made", "hand_ended"] and t.state.phase == "reveal"
    t = deal(["4S RJ", "5S", "8S", "JS"], KITTY_OF_JOKERS)
    events = t.do(Bid(seat=0, bid="liang"))
    assert isinstance(events[-1], HandEnded) and events[-1].results[0].reason == "redeal"


def rigged(monkeypatch: pytest.MonkeyPatch, seeds: set[str]) -> None:
    """Deals with ``seeds`` put eight jokers last (the kitty); the deal and its audit both
    shuffle through ``fairness.shuffle``."""
    real = fairness.shuffle

    def shuffle(pack: Any, server_seed: str, player_seeds: Any) -> Hand:
        cards = list(real(pack, server_seed, player_seeds))
        if server_seed in seeds:
            jokers = [c for c in cards if c >= SMALL_JOKER][:8]
            for c in jokers:
                cards.remove(c)
            cards += jokers
        return tuple(cards)

    monkeypatch.setattr(fairness, "shuffle", shuffle)


def test_a_hand_dealt_again_is_audited_and_a_log_that_plays_it_on_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The re-deal is a hand of the log of its own (its commitment, its seed, its deal), ended
    by the rules at its deal; the audit replays it, verifies both deals, and refuses a log that
    leaves the re-deal out. A one-hand match plays the hand dealt again and then ends."""
    rigged(monkeypatch, {hand_seed("redealt", 1)})
    config = GAME.config(hands=1)
    end, events = play_game(config, "redealt", bot)
    deals = [e for e in events if isinstance(e, Dealt)]
    ends = [e for e in events if isinstance(e, HandEnded)]
    assert len(deals) == len(ends) == 2 and end.phase == "over"
    assert ends[0].results == (ResultLine("redeal", deals[0].leader, 8),)
    assert deals[1].leader == deals[0].leader  # the same dealer deals again
    assert events.index(ends[0]) == events.index(deals[0]) + 1  # ended at its deal
    assert {d.status for d in verify_deal(config, events)} == {"verified"}
    lines = dump_lines(config, events)
    assert audit(lines).verdict == "sound"
    i = events.index(ends[0])
    report = audit([*lines[: i + 1], *lines[i + 2 :]])
    assert report.verdict == "failed" and report.bad_index == i


def test_a_bid_the_hand_cannot_show_is_refused() -> None:
    t = later_hand()
    t.refuses(Bid(seat=1, bid="1xH"), "bid_not_allowed")
    t.refuses(Bid(seat=2, bid="pass"), "not_your_turn")


# --- 喝血 -----------------------------------------------------------------------------------------


def test_the_dealer_s_previous_player_pays_his_biggest_non_point_cards() -> None:
    """ "庄家的上家应向庄家进贡，所进贡的牌为进贡者手中的最大牌(分牌除外)"; the dealer hands back
    as many of his lowest cards so that every hand keeps its size."""
    t = later_hand(blood=2)
    t.say("pass", "pass", "pass", "pass")  # hearts trump
    s = t.state
    # seat 0 (the dealer's 上家) held 5H 5H 9S 9S AS: the 5s are points ("打5、10的时候，5、10不
    # 进贡"), so ♠A and ♠9 go; the dealer's lowest, ♦7 and a ♠5, come back
    assert s.tribute == 2
    assert s.hands[0] == cards("5S 9S 5H 5H 7D")
    assert s.hands[1] == tuple(
        sorted(cards("5S 5S 5S 9S AS") + s.rest + cards("3H 4H 6S 6D 7C 8D 9D TD"))
    )


def test_the_blood_a_hand_owes_is_shown_once_it_is_scored_and_not_while_it_is_drunk() -> None:
    """The view's 下局血数 (``blood_next``) is the next hand's blood: shown between the hands (with
    the sheet), never while a hand is played, when its blood was this hand's and is paid already
    (本局喝血张数, ``tribute_paid``)."""
    t = later_hand(blood=2)
    t.say("pass", "pass", "pass", "pass")
    view = GAME.view(t.state, 0)
    assert view["tribute_paid"] == 2 and view["blood_next"] is None
    assert view["tribute_payer"] == 0 and view["dealer"] == 1  # who paid whom: 上家 to 庄家
    state = GAME.initial_state(GAME.config(hands=2))
    while not GAME.between_hands(state):  # a first hand played by the bots, to its sheet
        seat = GAME.to_move(state)
        command = table_command(state, "blood") if seat is None else bots.choose(state, seat)
        assert command is not None
        state, _ = GAME.apply(state, command)
    assert GAME.view(state, None)["blood_next"] == state.blood
    assert any(r.reason == "blood" for r in state.last_hand.results) == (state.blood > 0)


def test_no_point_card_is_paid() -> None:
    t = deal(
        ["KH KH TH 5H 4S", "3S 3S 6D 6D 7D", "BJ 8C 8C 9C 9C", "JC JC QC QC AC"],
        "3H 4H 6S 6D 7C 8D 9D TD",
        hand_no=2,
        first=1,
        dealer=1,
        blood=3,
    )
    t.say("pass", "pass", "pass", "pass")
    assert t.state.tribute == 1 and cards("4S")[0] in t.state.hands[1]


@pytest.mark.parametrize(
    ("points", "blood"),
    [(0, 12), (85, 4), (115, 1), (120, 0), (160, 0), (200, 0), (205, 0), (215, 1), (260, 6)],
)
def test_blood_from_the_score(points: int, blood: int) -> None:
    """ "未满120分，每少10分下局出一个血（结算时5分不计）。若得分超过200，每多10分下局即得一个血"."""
    assert blood_of_points(points) == blood


@pytest.mark.parametrize(
    ("points", "blood"),
    [(0, 12), (85, 3), (115, 0), (110, 1), (120, 0), (205, 0), (215, 1), (260, 6)],
)
def test_blood_from_the_score_counting_whole_tens_short(points: int, blood: int) -> None:
    """The other reading of "（结算时5分不计）", option ``blood_rounding`` = ``shortfall``: only whole
    tens short of 120 count; a hand ending on 85 owes three."""
    assert blood_of_points(points, "shortfall") == blood
    state = end_of_hand((0, 40, 0, 45), 0, KITTY_20, options={"blood_rounding": "shortfall"})
    assert GAME.outcome(state).blood == 3
    assert GAME.outcome(end_of_hand((0, 40, 0, 45), 0, KITTY_20)).blood == 4


# --- the kitty --------------------------------------------------------------------------------


def at_bury(**fields: Any) -> Table:
    t = deal(
        [
            "RJ 4S 5S 6S 7S 8S 9S TS JS",
            "4D 5D 6D 7D 8D 9D TD JD QD",
            "4C 5C 6C 7C 8C BJ BJ RJ RJ",
            "4H 5H 6H 7H 8H 9H TH JH QH",
        ],
        "3H 4H 6D 6D 7C 8D 9D KD",
        **fields,
    )
    t.say("liang")  # seat 0, spades
    assert t.state.phase == "bury" and len(t.state.hands[0]) == 17
    return t


def test_the_dealer_buries_eight_and_big_jokers_before_small() -> None:
    """ "扣王时有大王必须先扣大王，没有大王的情况下才能扣小王"."""
    t = at_bury()
    t.refuses(Play(seat=0, cards=cards("4S 5S 6S")), "bury_eight")
    t.refuses(Play(seat=1, cards=cards("4S 5S 6S 7S 8S 9S TS JS")), "not_your_turn")
    t.refuses(Play(seat=0, cards=cards("4S 4S 6S 7S 8S 9S TS JS")), "not_in_hand")
    t.do(Play(seat=0, cards=cards("3H 4H 6D 6D 7C 8D 9D 4S")))
    assert t.state.kitty == () and t.state.phase == "exchange"  # "不扣王时底牌不公开"
    assert t.state.to_speak == (1, 2, 3)


def test_buried_jokers_show_the_kitty() -> None:
    """ "底牌中可以扣分牌和王…扣王时底牌必须亮给大家看"."""
    t = at_bury()
    t.do(Play(seat=0, cards=cards("RJ 4H 6D 6D 7C 8D 9D 4S")))
    assert format_cards(t.state.kitty) == format_cards(t.state.rest)
    assert BIG_JOKER in t.state.kitty


def test_a_kitty_of_only_points_closes_the_exchange() -> None:
    """ "若庄家在扣牌中扣的全是分，则其他用户不能再在底牌中扣王"."""
    t = at_bury()
    hand = cards("5S 5S 5S 5S TS TS TS KS RJ 4C")
    t.state = copy_with(t.state, {"hands": (hand, *t.state.hands[1:])})
    t.do(Play(seat=0, cards=cards("5S 5S 5S 5S TS TS TS RJ")))  # "扣的全是分牌或者分牌和王牌"
    assert t.state.phase == "play" and t.state.turn == 0 and t.state.exchanges == ()


def test_the_others_bury_jokers_and_take_back_the_lowest_non_point_cards() -> None:
    """ "其他玩家也可在底牌中扣王，扣王时底牌必须公开。扣王后还需从底牌中捡最小的牌，不能捡分牌，
    扣几张捡几张。最小牌的判定方法为先看是否是主牌，然后看点数，最后看花色"."""
    t = at_bury()
    t.do(Play(seat=0, cards=cards("3H 4H 6D 6D 7C 8D 9D KD")))
    t.say("pass")
    assert GAME.words_now(t.state, 2) == ("pass", "bury1", "bury2", "bury3", "bury4")
    t.say("bury3")
    s = t.state
    # ♥3 is a level card (a trump); ♦K a point card: ♥4 ♦6 ♦6 are the lowest
    assert format_cards(s.kitty) == "3H 7C 8D 9D KD BJ RJ RJ"  # big jokers first, then a small
    assert s.hands[2] == cards("4H 6D 6D 4C 5C 6C 7C 8C BJ")
    assert s.exchanges == ((2, 3),) and len(s.rest) == 8
    t.say("pass")
    assert s.phase == "exchange" and t.state.phase == "play" and t.state.turn == 0


def at_exchange(buried: str, **fields: Any) -> Table:
    """The dealer (seat 0, spades trump) has buried ``buried``; seat 1 (no joker) has passed;
    seat 2, holding ♣4 ♣5 ♣6 ♣7 ♣8 and four jokers, is to speak."""
    t = at_bury(**fields)
    hand = tuple(sorted(cards(buried) + cards("AS AS AS AS AS AS AS AS AS")))
    t.state = copy_with(t.state, {"hands": (hand, *t.state.hands[1:])})
    t.do(Play(seat=0, cards=cards(buried)))
    t.say("pass")
    return t


def test_equally_low_cards_of_different_suits_are_the_player_s_to_choose() -> None:
    """ "如果点数相同，花色不同，可由用户自己决定要哪张牌" (``pick_back`` ``choose``, the default):
    burying two jokers over ♥4 ♣4 ♦4, seat 2 picks one at a time (``pick``); the kitty is shown
    meanwhile; once the choice is made the round goes on."""
    t = at_exchange("4H 4C 4D 6D 7C 8D 9D KD")
    t.say("bury2")
    s = t.state
    assert (s.phase, s.turn, s.picking) == ("pick", 2, 2)
    assert format_cards(s.kitty) == "4H 4C 4D 6D 7C 8D 9D KD RJ RJ"
    assert GAME.words_now(s, 2) == ("take4H", "take4C", "take4D")
    assert [m.bid for m in GAME.legal_moves(s, 2) if isinstance(m, Bid)] == list(
        GAME.words_now(s, 2)
    )
    t.refuses(Bid(seat=2, bid="take6D"), "bid_not_allowed")
    t.refuses(Bid(seat=2, bid="pass"), "bid_not_allowed")
    t.say("take4D")
    assert (t.state.phase, t.state.picking) == ("pick", 1)
    assert GAME.words_now(t.state, 2) == ("take4H", "take4C")
    t.say("take4C")
    s = t.state
    assert (s.phase, s.turn, s.picking, s.exchanges) == ("exchange", 3, 0, ((2, 2),))
    assert format_cards(s.kitty) == format_cards(s.rest) == "4H 6D 7C 8D 9D KD RJ RJ"
    assert s.hands[2] == cards("4C 4C 4D 5C 6C 7C 8C BJ BJ")
    assert [w for _, w in s.said] == ["pass", "bury2", "take4D", "take4C"]


def test_a_card_alone_in_its_rank_is_taken_and_the_choice_comes_after_it() -> None:
    """♥4 is the lowest alone: taken; of ♣6 ♦6 one more is wanted: the player's choice. Identical
    copies are one choice."""
    t = at_exchange("4H 6C 6D 6D 8D 9D KD TD")
    t.say("bury2")
    assert cards("4H")[0] in t.state.hands[2] and t.state.picking == 1
    assert GAME.words_now(t.state, 2) == ("take6C", "take6D")
    order = trump_order_of(0, 3)
    assert auto_taken(cards("4H 4H 4C 9D"), order, 2) == ((), 2)
    assert auto_taken(cards("4H 4H 9D"), order, 1) == (cards("4H"), 0)
    assert auto_taken(cards("4H 6C 6D 9D"), order, 3) == (cards("4H 6C 6D"), 0)


def test_the_fixed_reading_takes_the_suit_order_and_asks_nothing() -> None:
    """``pick_back`` ``fixed``: "最后看花色" — ♠ ♥ ♣ ♦."""
    t = at_exchange("4H 4C 4D 6D 7C 8D 9D KD", options={"pick_back": "fixed"})
    t.say("bury2")
    s = t.state
    assert (s.phase, s.turn, s.picking) == ("exchange", 3, 0)
    assert format_cards(s.kitty) == "4D 6D 7C 8D 9D KD RJ RJ"


@pytest.mark.parametrize(
    ("level", "suit", "kitty", "lowest"),
    [
        (3, 0, "5D 7S 8S AD AS BJ BJ RJ RJ RJ", "AD"),
        (4, 3, "2H 3D 5D 5H 9C JC KC BJ BJ RJ RJ", "9C"),
        (4, 1, "2C 9H AS TC BJ BJ RJ RJ RJ RJ", "AS"),
    ],
)
def test_a_card_of_the_trump_suit_is_a_trump_when_taking_back(
    level: int, suit: int, kitty: str, lowest: str
) -> None:
    """Issue 33's kitties: "最小牌的判定方法为先看是否是主牌，然后看点数，最后看花色" with "主牌：大王、
    小王、常主、级牌和主花色牌" — a side card is lower than any trump, the trump suit's cards
    included (♠7 is a trump when spades are trumps: ♦A is taken first)."""
    order = trump_order_of(suit, level)
    assert takeable(cards(kitty), order)[0] == cards(lowest)[0]
    for by in ("rank", "card_order"):
        assert auto_taken(cards(kitty), order, 1, by) == (cards(lowest), 0)


def test_the_exchange_takes_the_side_card_before_the_trump_suit_s() -> None:
    """The first kitty of issue 33, played: spades trump at level 3, the dealer buries ♦5 ♠7 ♠8
    ♦A ♠A and his three big jokers; seat 2 buries one (a small joker) and takes back ♦A."""
    t = at_exchange("5D 7S 8S AD AS RJ RJ RJ")
    t.state = copy_with(
        t.state, {"hands": (*t.state.hands[:2], cards("4C BJ BJ"), t.state.hands[3])}
    )
    t.say("bury1")
    assert t.state.hands[2] == cards("4C AD BJ")
    assert format_cards(t.state.kitty) == "5D 7S 8S AS BJ RJ RJ RJ"


@pytest.mark.parametrize(
    ("take_order", "phase", "taken"),
    [
        ("rank", "pick", "6D"),  # ♠3 and ♥3: "点数相同，花色不同" — his choice
        ("card_order", "exchange", "6D 3H"),  # ♥3 (其他花色混牌) below ♠3 (主花色混牌)
    ],
)
def test_trumps_taken_back_by_rank_or_by_the_order_of_the_cards(
    take_order: str, phase: str, taken: str
) -> None:
    """ "然后看点数，最后看花色。如果点数相同，花色不同，可由用户自己决定要哪张牌": among trumps the 点数
    (``take_order`` ``rank``, the default): the level cards ♠3 (of the trump suit) and ♥3 are of
    one rank, so seat 2 chooses; by the order of the cards (``card_order``, the reading before
    issue 33) ♥3 is the lower."""
    t = at_exchange("3S 3H 6D KD TD 5D 5C KC", options={"take_order": take_order})
    t.say("bury2")
    assert t.state.phase == phase
    assert cards(taken) == tuple(c for c in cards(taken) if c in t.state.hands[2])
    if phase == "pick":
        assert GAME.words_now(t.state, 2) == ("take3S", "take3H")
        t.say("take3S")
        assert cards("3S")[0] in t.state.hands[2] and t.state.phase == "exchange"
    order = trump_order_of(0, 3)
    by_rank = takeable(cards("2C 4S 3H"), order)
    assert by_rank == list(cards("3H 4S 2C")) != takeable(cards("2C 4S 3H"), order, "card_order")


def test_no_more_jokers_are_buried_than_cards_can_be_taken_back() -> None:
    """ "扣几张捡几张", "不能捡分牌": the kitty (hidden: "不扣王时底牌不公开") has two non-point
    cards; seat 2 may say ``bury4`` (he cannot see how many there are), buries two jokers, takes
    both cards back and keeps his other two jokers."""
    t = at_exchange("4H 6D KD TD 5D 5C KC TC")
    assert t.state.kitty == ()
    assert GAME.words_now(t.state, 2) == ("pass", "bury1", "bury2", "bury3", "bury4")
    t.say("bury4")
    s = t.state
    assert s.exchanges == ((2, 2),) and len(s.hands[2]) == 9 and len(s.rest) == 8
    assert s.hands[2] == cards("4H 6D 4C 5C 6C 7C 8C BJ BJ")


def test_a_bot_takes_the_card_that_pairs_with_its_hand() -> None:
    t = at_exchange("4H 4C 4D 6D 7C 8D 9D KD")
    t.say("bury1")
    move = GAME.bot_choice(t.state, 2, GAME.legal_moves(t.state, 2))
    assert move == Bid(seat=2, bid="take4C")  # seat 2 holds a ♣4: a 棒


def test_the_take_words_are_named_as_players_read_cards() -> None:
    said = GAME.words.commands["bid"]["takeTH"]
    assert said.button == ("捡♥10", "Take 10♥") and said.badge == ("捡♥10", "Took 10♥")
    catalogue = next(g for g in api.list_games() if g["id"] == "dabang")
    assert catalogue["words"]["commands"]["bid"]["take4C"]["button"] == ["捡♣4", "Take 4♣"]
    pick = next(o for o in catalogue["variants"][0]["options"] if o["name"] == "pick_back")
    assert pick["default"] == "choose" and [c["value"] for c in pick["choices"]] == [
        "choose",
        "fixed",
    ]


def test_random_matches_go_through_the_choice_and_a_rebuilt_seat_agrees() -> None:
    """Random players bury jokers: the ``pick`` phase comes, its moves are exactly what a seat
    rebuilt from its view lists, and the cards stay conserved."""
    config = GAME.config(hands=1)
    picks = 0
    rng = random.Random(7)

    def choose(state: Any, seat: int, moves: list[Any]) -> Any:
        nonlocal picks
        if state.phase == "pick":
            picks += 1
            check_cards_conserved(state)
            view = json.loads(json.dumps(GAME.view(state, seat)))
            mine = client.state_from_view(config, view)
            assert GAME.legal_moves(mine, seat) == moves
        if state.phase in ("exchange", "pick"):
            return rng.choice(moves)
        return GAME.bot_choice(state, seat, moves)

    for seed in range(6):
        play_game(config, f"pick-{seed}", choose)
    assert picks > 0


def test_ganguo_the_kitty_is_not_exchanged() -> None:
    """ "底牌没有主花色牌(混牌除外)或全是主，称为干锅。干锅时底牌不能替换，也不能在底牌中扣王"."""
    t = later_hand()
    t.say("2xS", "pass", "pass", "pass", "pass")  # spades: the kitty has ♠6 only → not 干锅
    assert not t.state.ganguo and t.state.phase == "bury"
    t = deal(
        ["5H 5H 9S 9S AS", "5S 5S 5S 5S 7D", "BJ BJ BJ BJ 5C", "RJ RJ RJ RJ 8C"],
        "3H 4H 6H 6D 7C 8D 9D TD",
        hand_no=2,
        first=1,
        dealer=1,
        levels=(3, 5),
    )
    t.say("2xS", "pass", "pass", "pass", "pass")
    s = t.state
    assert s.ganguo and s.phase == "play" and s.turn == 1 and len(s.rest) == 8
    assert len(s.hands[1]) == 5


def test_the_first_hand_after_a_grab_may_be_ganguo_when_the_table_says_so() -> None:
    """ "第一把不带干锅" stands in the paragraph on turning the kitty: by default the whole first
    hand is exempt; with ``first_hand_ganguo`` = ``after_grab`` a grabbed big joker naming spades
    over a kitty without a spade (shown, "发牌或反主结束后将底牌公开") is 干锅."""
    assert at_bury().state.phase == "bury"  # the default: buried as usual
    t = deal(
        [
            "RJ 4S 5S 6S 7S 8S 9S TS JS",
            "4D 5D 6D 7D 8D 9D TD JD QD",
            "4C 5C 6C 7C 8C BJ BJ RJ RJ",
            "4H 5H 6H 7H 8H 9H TH JH QH",
        ],
        "3H 4H 6D 6D 7C 8D 9D KD",
        options={"first_hand_ganguo": "after_grab"},
    )
    t.say("liang")
    assert t.state.ganguo and t.state.phase == "play" and len(t.state.hands[0]) == 9


@pytest.mark.parametrize("unopened", [False, True])
def test_a_kitty_nobody_opened_is_ganguo_only_when_the_table_says_so(unopened: bool) -> None:
    """ "公开底牌后，底牌没有主花色牌(混牌除外)或全是主，称为干锅" and "若没人亮主，底牌不公开": nobody
    declares, ♥5 (a level card) names hearts, and the kitty has no other heart. It is never opened,
    so it is not 干锅 (the default); with ``ganguo_unopened`` it is judged all the same, shown,
    and played as dealt."""
    t = deal(
        ["5H 5H 9S 9S AS", "5S 5S 5S 5S 7D", "BJ BJ BJ BJ 5C", "RJ RJ RJ RJ 8C"],
        "5H 4S 6S 6D 7C 8D 9D TD",
        hand_no=2,
        first=1,
        dealer=1,
        levels=(3, 5),
        options={"ganguo_unopened": unopened},
    )
    t.say("pass", "pass", "pass", "pass")
    s = t.state
    assert s.trump_suit == 1 and s.ganguo is unopened
    assert s.phase == ("play" if unopened else "bury")
    assert s.kitty == (cards("5H 4S 6S 6D 7C 8D 9D TD") if unopened else ())


@pytest.mark.parametrize(("two", "ganguo"), [("apart", True), ("trump_suit", False)])
def test_the_trump_suit_s_two_in_the_ganguo_test_is_an_option(two: str, ganguo: bool) -> None:
    """ "底牌没有主花色牌(混牌除外)": a kitty whose only spade is ♠2 is 干锅 when the 2 stands apart
    ("主花色2" has its own place in the order, the default), not when it counts as a spade."""
    t = deal(
        ["5H 5H 9S 9S AS", "5S 5S 5S 5S 7D", "BJ BJ BJ BJ 5C", "RJ RJ RJ RJ 8C"],
        "2S 4H 6H 6D 7C 8D 9D TD",
        hand_no=2,
        first=1,
        dealer=1,
        levels=(3, 5),
        options={"ganguo_two": two},
    )
    t.say("2xS", "pass", "pass", "pass", "pass")
    assert t.state.ganguo is ganguo
    assert t.state.phase == ("play" if ganguo else "bury")


# --- tricks -----------------------------------------------------------------------------------


def in_play(drawn: list[str], **fields: Any) -> Table:
    """Hands in play: hearts trump, level 3, seat 0 dealing and leading."""
    state = GAME.initial_state(GAME.config(**fields.pop("options", {})))
    hands = tuple(cards(h) for h in drawn)
    base = {
        "phase": "play",
        "hand_no": 2,
        "hands": hands,
        "rest": cards("3C 4C 6C 7C 8C 9C 5D TD"),
        "dealer": 0,
        "trump_suit": 1,
        "level_rank": 0,
        "turn": 0,
        "leader": 0,
    }
    state = copy_with(state, GAME.start_hand(state) | base | fields)
    return Table(state)


def test_tricks_follow_suit_trump_and_go_to_the_highest() -> None:
    t = in_play(["KS 4D", "9S 5S", "AD 7D", "3D 8D"])
    t.do(Play(seat=0, cards=cards("KS")))
    t.refuses(Play(seat=1, cards=cards("5S 9S")), "wrong_number_of_cards")
    t.do(Play(seat=1, cards=cards("5S")))
    t.do(Play(seat=2, cards=cards("AD")))  # void: a discard
    events = t.do(Play(seat=3, cards=cards("3D")))  # the level 3: a trump
    won = next(e for e in events if isinstance(e, TrickWon))
    assert won.seat == 3 and t.state.turn == 3
    assert t.state.points_won == (0, 0, 0, 15)  # ♠K and ♠5
    t.refuses(Play(seat=3, cards=cards("8D 8D")), "not_in_hand")
    t.do(Play(seat=3, cards=cards("8D")))
    t.refuses(Play(seat=1, cards=cards("9S")), "not_your_turn")


def test_the_dealer_leads_every_trick_with_the_literal_reading() -> None:
    t = in_play(["KS 4D", "9S 5S", "AD 7D", "3D 8D"], options={"leader": "dealer"})
    t.do(Play(seat=0, cards=cards("KS")))
    for seat, card in ((1, "5S"), (2, "AD"), (3, "3D")):
        t.do(Play(seat=seat, cards=cards(card)))
    assert t.state.turn == 0


def end_of_hand(points: tuple[int, ...], last: int, kitty: str, **fields: Any) -> DabangState:
    """The state when the last trick has been taken: seat 0 dealt (side 0 defends)."""
    t = in_play(["", "", "", ""], **fields)
    return copy_with(
        t.state,
        {"points_won": points, "last_winner": last, "rest": cards(kitty), "hands": ((),) * 4},
    )


KITTY_20 = "5C 5D TC 3C 4C 6C 7C 8C"  # 20 points


@pytest.mark.parametrize(
    ("points", "last", "case", "leveling", "next_dealer"),
    [
        ((0, 70, 0, 80), 0, 1, 0, 2),  # 保底, under 160: the dealer side levels, keeps the deal
        ((0, 70, 0, 80), 1, 2, None, 2),  # 抠底 under 160 (a kitty without points)
        ((0, 100, 0, 80), 0, 3, None, 1),  # 保底 but 180: the attackers deal, no level
        ((0, 100, 0, 80), 3, 4, 1, 1),  # 抠底 and 160+: the attackers level up and deal
    ],
)
def test_the_four_cases(
    points: tuple[int, ...], last: int, case: int, leveling: int | None, next_dealer: int
) -> None:
    kitty = "3C 4C 6C 7C 8C 9C 3D 4D" if case == 2 else KITTY_20
    out = GAME.outcome(end_of_hand(points, last, kitty))
    assert (out.case, out.leveling, out.next_dealer) == (case, leveling, next_dealer)


def test_kitty_points_count_double_on_koudi_only() -> None:
    """ "抠底：不论用几张牌抠底，底牌的分数都只翻两倍"."""
    koudi = GAME.outcome(end_of_hand((0, 60, 0, 60), 1, KITTY_20))
    assert (koudi.points, koudi.kitty_points, koudi.case) == (160, 40, 4)
    baodi = GAME.outcome(end_of_hand((0, 60, 0, 60), 0, KITTY_20))
    assert (baodi.points, baodi.kitty_points, baodi.case) == (120, 0, 1)
    four = GAME.outcome(
        end_of_hand((0, 60, 0, 60), 1, KITTY_20, options={"kitty_multiplier": "x4"})
    )
    assert four.points == 200


def test_the_score_sheet_says_koudi_or_baodi_on_the_seat_that_took_the_last_trick() -> None:
    """The hand's result tells who took the last trick and what the kitty counted: 抠底 (the
    kitty's points doubled, "翻两倍", or ×4 with ``kitty_multiplier``) or 保底 (not counted)."""
    lines = GAME.score(end_of_hand((0, 60, 0, 60), 3, KITTY_20)).results
    assert ResultLine("koudi", 3, 40) in lines and not [r for r in lines if r.reason == "baodi"]
    lines = GAME.score(end_of_hand((0, 60, 0, 60), 2, KITTY_20)).results
    assert ResultLine("baodi", 2, 20) in lines and not [r for r in lines if "koudi" in r.reason]
    x4 = end_of_hand((0, 60, 0, 60), 1, KITTY_20, options={"kitty_multiplier": "x4"})
    assert ResultLine("koudi_x4", 1, 80) in GAME.score(x4).results
    reasons = next(g for g in api.list_games() if g["id"] == "dabang")["words"]["reasons"]
    assert reasons["koudi"][0].startswith("抠底") and "doubled" in reasons["koudi"][1]
    assert reasons["baodi"][0].startswith("保底") and "not counted" in reasons["baodi"][1]
    assert reasons["koudi_x4"][0].startswith("抠底") and reasons["redeal"][0].startswith(
        "底牌全是王"
    )


def test_zero_and_four_hundred_end_the_match() -> None:
    """ "抓分方得"0"分，庄家方即赢…抓分方得"400"分，抓分方即赢，本轮游戏结束"."""
    zero = GAME.outcome(end_of_hand((100, 0, 100, 0), 0, KITTY_20))
    assert zero.match_winner == 0 and zero.blood == 12
    full = GAME.outcome(end_of_hand((0, 200, 0, 160), 1, KITTY_20))
    assert full.points == 400 and full.match_winner == 1


@pytest.mark.parametrize(
    ("last", "points", "jokers", "winner", "blood"),
    [
        (0, 50, "RJ RJ RJ RJ", 0, 2 + 8),  # case 1: "庄家方保底成功，则庄家方即赢"
        (1, 80, "RJ RJ RJ RJ", 1, 0 + 8),  # case 4: "拿够160分并扣底，则抓分方即赢"
        (1, 30, "RJ RJ RJ RJ", None, 6),  # case 2: "扣的王作废"
        (0, 90, "RJ RJ RJ RJ", None, 8),  # case 3: blood, no level, no end
        (0, 50, "BJ BJ BJ BJ", 0, 2 + 4),  # four small jokers: rule 5 ends it too
        (0, 50, "RJ BJ", None, 2 + 3),  # "1个大王为2个血…1个小王为1个血"
    ],
)
def test_the_kitty_joker_cases(
    last: int, points: int, jokers: str, winner: int | None, blood: int
) -> None:
    n = len(jokers.split())
    fillers = ["3C", "4C", "6C", "7C", "8C", "9C", "3D", "4D"]
    kitty = " ".join([jokers, *fillers[: 8 - n]])
    state = end_of_hand((0, points, 0, points), last, kitty)
    out = GAME.outcome(state)
    assert (out.match_winner, out.blood) == (winner, blood)


def test_small_jokers_do_not_end_the_match_when_the_table_says_so() -> None:
    kitty = "BJ BJ BJ BJ 3C 4C 6C 7C"
    state = end_of_hand((0, 50, 0, 50), 0, kitty, options={"small_jokers_end": False})
    assert GAME.outcome(state).match_winner is None


def test_ganguo_jokers_give_no_blood() -> None:
    """ "底牌中的王不追加升级也不算血"."""
    state = end_of_hand((0, 50, 0, 50), 0, "RJ RJ 3C 4C 6C 7C 8C 9C", ganguo=True)
    assert GAME.outcome(state).blood == 2


def test_levels_go_up_by_one_stop_at_ten_and_the_dealer_side_passing_ten_wins() -> None:
    """ "打过10就结束一轮，再从3打起，逢3必打,逢10必打"."""
    up = end_of_hand((0, 50, 0, 50), 0, KITTY_20, levels=(6, 9))
    assert GAME.hand_scored(up, GAME.score(up))["levels"] == (7, 9)
    attackers_at_ten = end_of_hand((0, 100, 0, 80), 1, KITTY_20, levels=(6, 10))
    changes = GAME.hand_scored(attackers_at_ten, GAME.score(attackers_at_ten))
    assert (
        changes["levels"] == (6, 10) and changes["match_winner"] is None and changes["dealer"] == 1
    )
    past = end_of_hand((0, 50, 0, 50), 0, KITTY_20, levels=(10, 4))
    ended = GAME.score(past)
    assert GAME.outcome(past).match_winner == 0
    assert {(r.reason, r.seat) for r in ended.results} >= {("match_won", 0), ("match_won", 2)}
    record = LevelsAndBlood.from_event(ended)
    assert (record.levels, record.match_won, ended.order, ended.scores) == (
        (1, 0, 1, 0),
        (0, 2),
        (),
        (0, 0, 0, 0),
    )  # levels and the match won, no made-up finishing order nor ±1 scores


# --- the kings' levels: "升级并且吃血", "逢3必打,逢10必打", 干锅 ----------------------------------------

TODAY = {"buried_king_levels": "none", "must_play": "ten"}  # the readings before issue 27


def play_last_trick(t: Table, points: tuple[int, ...], winner: int) -> HandEnded:
    """The hand's last trick, played: the tricks before gave ``points``; every seat holds one
    diamond, ``winner`` the ace (no level is a J, Q or A). Returns the hand's end."""
    hands = tuple(cards("AD" if s == winner else "JD") for s in range(4))
    t.state = copy_with(t.state, {"hands": hands, "points_won": points})
    for _ in range(4):
        seat = t.state.turn
        assert seat is not None
        t.do(Play(seat=seat, cards=t.state.hands[seat]))
    ended = [e for e in t.events if isinstance(e, HandEnded)]
    assert len(ended) == 1 and t.state.phase != "play"
    return ended[0]


def kings_buried(dealer: str, partner: str = "pass", **fields: Any) -> Table:
    """The first hand (no 干锅, "第一把不带干锅"), seat 0 dealing with spades: he buries
    ``dealer`` (his cards), his partner (seat 2: ♛♛ and ♕♕) says ``partner`` in the exchange."""
    t = at_bury(**fields)
    t.do(Play(seat=0, cards=cards(dealer)))
    t.say("pass", partner, "pass")
    assert t.state.phase == "play"
    return t


def levelled(t: Table, points: tuple[int, ...], winner: int) -> tuple[tuple[int, ...], int]:
    """The levels after the hand's last trick, and the levels its result line gives."""
    ended = play_last_trick(t, points, winner)
    up = {r.value for r in ended.results if r.reason == "level_up"}
    assert len(up) == 1, ended.results
    return t.state.levels, up.pop()


BURY_ONE = "RJ 4H 6D 6D 7C 8D 9D 4S"  # the dealer's big king and 7 low cards
BURY_NONE = "3H 4H 6D 6D 7C 8D 9D 4S"


@pytest.mark.parametrize(
    ("options", "levels", "earned"),
    [
        ({}, (6, 3), 2),  # "升级并且吃血": the hand's level and one for the king
        ({"buried_king_levels": "like_blood"}, (7, 3), 3),  # as its blood: a big king 2
        (TODAY, (5, 3), 1),  # the option: the kings bring blood only
    ],
)
def test_one_king_buried_and_the_kitty_kept_levels_the_dealer_side_up_for_it(
    options: dict[str, str], levels: tuple[int, ...], earned: int
) -> None:
    """Case 1: "如果庄家方保底,抓分方得分又未达到或超过160.则庄家方享受底牌扣的王带来的奖励(升级并且
    吃血)" — outside 干锅 the kings "追加升级"."""
    t = kings_buried(BURY_ONE, levels=(4, 3), options=options)
    assert t.state.rest.count(BIG_JOKER) == 1
    assert levelled(t, (0, 50, 0, 50), winner=2) == (levels, earned)
    assert t.state.blood == 2 + 2  # 100 points: 2 blood; "1个大王为2个血"


@pytest.mark.parametrize(
    ("options", "levels", "earned"),
    [
        ({}, (3, 8), 3),  # two kings: two levels more
        ({"buried_king_levels": "like_blood"}, (3, 10), 5),  # 5 + 5 → stops at 10
        (TODAY, (3, 6), 1),
    ],
)
def test_two_kings_buried_and_the_kitty_taken_level_the_attackers_up_for_both(
    options: dict[str, str], levels: tuple[int, ...], earned: int
) -> None:
    """Case 4: "如果抓分方抠底,得分也超过或达到160，则下局抓分方上台坐庄，并且享受底牌扣的王的奖励
    (升级并且吃血)" — whoever buried the kings (here the dealer and his partner)."""
    t = kings_buried(BURY_ONE, "bury1", levels=(3, 5), options=options)
    assert t.state.rest.count(BIG_JOKER) == 2 and t.state.exchanges == ((2, 1),)
    assert levelled(t, (0, 90, 0, 90), winner=1) == (levels, earned)
    assert t.state.dealer == 1 and t.state.match_winner is None


def test_a_small_king_counts_one_level_either_way() -> None:
    """ "1个小王为1个血": ♛♛♕ buried by the partner (big ones first), the dealer side at 3 keeping
    the kitty — the hand's level and one a king (4), or as their blood (1 + 2 + 2 + 1 = 6)."""
    each = kings_buried(BURY_NONE, "bury3", levels=(3, 3))
    assert sorted(each.state.rest)[-3:] == [SMALL_JOKER, BIG_JOKER, BIG_JOKER]
    assert levelled(each, (0, 50, 0, 50), winner=0) == ((7, 3), 4)
    like_blood = {"buried_king_levels": "like_blood"}
    blood = kings_buried(BURY_NONE, "bury3", levels=(3, 3), options=like_blood)
    assert levelled(blood, (0, 50, 0, 50), winner=0) == ((9, 3), 6)


def test_a_climb_that_would_pass_ten_stops_at_ten() -> None:
    """ "逢10必打": the dealer side at 8 earns three levels (two kings) and stops at 10, which it
    must play; at 10 the next win as the dealer side passes it and wins the match."""
    t = kings_buried(BURY_ONE, "bury1", levels=(8, 5))
    assert levelled(t, (0, 50, 0, 50), winner=0) == ((10, 5), 3)
    assert t.state.match_winner is None and t.state.dealer == 2
    attackers = kings_buried(BURY_ONE, "bury1", levels=(3, 9))
    assert levelled(attackers, (0, 90, 0, 90), winner=3) == ((3, 10), 3)


def test_a_climb_from_three_as_the_attackers_stops_at_three() -> None:
    """ "打过10就结束一轮，再从3打起，逢3必打": a side at 3 passes 3 only by playing it — as the
    attackers it earns its levels but stays at 3, and deals at 3; as the dealer side it climbs
    from 3. The option ``must_play`` = ``ten`` (and both options: today's reading) let it pass."""
    t = kings_buried(BURY_ONE, levels=(3, 3))
    assert levelled(t, (0, 90, 0, 90), winner=1) == ((3, 3), 2)
    assert t.state.dealer == 1  # the attackers deal at 3 ("上台坐庄")
    ten = kings_buried(BURY_ONE, levels=(3, 3), options={"must_play": "ten"})
    assert levelled(ten, (0, 90, 0, 90), winner=1) == ((3, 5), 2)
    today = kings_buried(BURY_ONE, levels=(3, 3), options=TODAY)
    assert levelled(today, (0, 90, 0, 90), winner=1) == ((3, 4), 1)
    dealing = kings_buried(BURY_ONE, levels=(3, 3))
    assert levelled(dealing, (0, 50, 0, 50), winner=0) == ((5, 3), 2)


def test_kings_earn_no_level_in_the_cases_without_a_level_up() -> None:
    """Case 3 "能吃到底牌扣的王奖励的血牌,但不升级"; case 2 "扣的王作废"."""
    t = kings_buried(BURY_ONE, "bury1", levels=(4, 5))
    play_last_trick(t, (0, 90, 0, 90), winner=0)  # 保底, 180 + 0
    assert (t.state.levels, t.state.blood, t.state.dealer) == ((4, 5), 4, 1)
    void = kings_buried(BURY_ONE, "bury1", levels=(4, 5))
    play_last_trick(void, (0, 30, 0, 30), winner=1)  # 抠底 under 160
    assert (void.state.levels, void.state.dealer) == ((4, 5), 2)


def test_ganguo_kings_add_no_level() -> None:
    """干锅: "此局中若有一方能达到升级的条件，这方就升级，但底牌中的王不追加升级也不算血" — the kitty
    (kept, "干锅时底牌不能替换") holds two big kings; the dealer side keeps it and levels up by one."""
    t = deal(
        ["5H 5H 9S 9S AS", "5S 5S 5S 5S 7D", "BJ BJ BJ BJ 5C", "RJ RJ RJ RJ 8C"],
        "RJ RJ 6H 6D 7C 8D 9D TD",
        hand_no=2,
        first=1,
        dealer=1,
        levels=(3, 5),
    )
    t.say("2xS", "pass", "pass", "pass", "pass")
    assert t.state.ganguo and t.state.phase == "play" and t.state.rest.count(BIG_JOKER) == 2
    assert levelled(t, (50, 0, 50, 0), winner=1) == ((3, 6), 1)
    assert t.state.blood == 2  # 100 points; the kings "不算血"


# --- whole matches --------------------------------------------------------------------------------


def bot(state: Any, seat: int, moves: list[Any]) -> Any:
    return GAME.bot_choice(state, seat, moves)


def test_a_whole_match_from_three_past_ten() -> None:
    config = GAME.config()
    end, events = play_game(config, "dabang-match-1", bot)
    assert isinstance(end, DabangState)
    state = end
    ends = [e for e in events if isinstance(e, HandEnded)]
    assert state.phase == "over" and state.match_winner is not None
    levels: list[tuple[int, ...]] = [(3, 3)]
    replayed = GAME.initial_state(config)
    for event in events:
        replayed = GAME.evolve(replayed, event)
        if isinstance(event, HandEnded):
            levels.append(replayed.levels)
    for before, after in itertools.pairwise(levels):  # one level at a time, never above 10
        assert all(0 <= b - a <= 1 for a, b in zip(before, after, strict=True)) and max(after) <= 10
    last = ends[-1]
    winner = state.match_winner
    assert {(r.reason, r.seat) for r in last.results} >= {("match_won", winner)}
    assert levels[-1][winner] == 10 and sum(state.totals) == 0


@pytest.mark.parametrize("seed", range(3))
def test_random_legal_matches_keep_every_invariant(seed: int) -> None:
    """216 cards conserved (copies counted), no view shows a hand or the buried kitty, replay
    rebuilds the state — over matches of two hands with every view checked."""
    summary = checked_random_game("dabang", None, seed, None, hands=2, every=1)
    assert summary["decisions"] > 100


def test_a_random_full_match_ends_and_conserves_the_cards() -> None:
    config = GAME.config()
    rng = random.Random(5)

    def choose(state: Any, seat: int, moves: list[Any]) -> Any:
        check_cards_conserved(state)
        return rng.choice(moves)

    end, events = play_game(config, "full", choose)
    assert isinstance(end, DabangState)
    assert end.phase == "over" and end.match_winner is not None
    for event in events:
        assert decode(json.loads(json.dumps(encode(event)))) == event


def test_the_terminal_names_the_exchange_s_pass_by_the_exchange_s_word() -> None:
    """`paiju play`: in the exchange the pass is 不扣王 (the game's ``phase_commands``), as the
    person is asked and as a bot is told; in the declaring window it stays 不亮."""
    t = at_bury()
    t.do(Play(seat=0, cards=cards("3H 4H 6D 6D 7C 8D 9D KD")))
    moves = GAME.legal_moves(t.state, 1)
    prompt = terminal._prompt(t.state, api.view(t.state, 1), 1, moves, "both")
    assert "不扣王（pass）" in prompt and "pass (Bury none)" in prompt and "不亮" not in prompt
    assert terminal._reply_command(t.state, 1, "不扣王") == Bid(seat=1, bid="pass")
    said = Bid(seat=1, bid="pass")
    events = GAME.decide(t.state, said)
    line = terminal._bot_line(t.state, said, events, 1, ["", "", "", ""], GAME.words, "both")
    assert "不扣王" in line and "Bury none" in line and "不亮" not in line
    declaring = later_hand()
    line = terminal._bot_line(
        declaring.state, Bid(seat=1, bid="pass"), [], 1, ["", "", "", ""], GAME.words, "both"
    )
    assert "不亮" in line


def test_no_view_shows_the_buried_kitty_before_it_is_shown() -> None:
    t = at_bury()
    t.do(Play(seat=0, cards=cards("3H 4H 6D 6D 7C 8D 9D 4S")))
    assert GAME.view(t.state, 0)["buried"] == [
        "3H",
        "4S",
        "4H",
        "6D",
        "6D",
        "7C",
        "8D",
        "9D",
    ]  # his own
    for seat in (None, 1, 2, 3):
        view = GAME.view(t.state, seat)
        assert view["kitty"] == [] and view["buried"] is None
        assert "3H" not in json.dumps({k: v for k, v in view.items() if k != "hand"})


def test_a_seat_rebuilt_from_its_view_has_the_same_moves() -> None:
    config = GAME.config()
    rng = random.Random(2)
    checked = 0

    def choose(state: Any, seat: int, moves: list[Any]) -> Any:
        nonlocal checked
        mine: Any
        if checked < 200 and rng.random() < 0.3:
            view = json.loads(json.dumps(GAME.view(state, seat)))
            mine = client.state_from_view(config, view)
            assert GAME.legal_moves(mine, seat) == moves
            assert GAME.view(mine, seat) == view
            checked += 1
        return rng.choice(moves)

    play_game(dataclasses.replace(config), "client", choose)
    assert checked > 50


def test_bots_follow_suit_and_bury_low_side_cards() -> None:
    t = at_bury()
    move = GAME.bot_choice(t.state, 0, GAME.legal_moves(t.state, 0))
    assert isinstance(move, Play) and len(move.cards) == 8
    assert set(cards("4H 6D 7C 8D 9D")) <= set(move.cards)  # the side suits' low cards
    assert not any(c >= SMALL_JOKER for c in move.cards)
    rng = random.Random(0)
    state, _ = play_game(GAME.config(hands=1), "bots", random_chooser(rng))
    assert state.phase == "over"


def test_a_hand_is_shown_grouped_by_trumps_then_suits() -> None:
    """The browser's order (``SeatClient.order``): trumps strongest first, then each side suit."""
    t = in_play(["RJ 3S 2H 2C AH 4H KS 9S AD 5C", "", "", ""])
    seat = client.SeatClient(json.dumps(t.state.config.to_dict()))
    seat.update(json.dumps(GAME.view(t.state, 0)))
    shown = json.loads(seat.order(json.dumps(format_cards(t.state.hands[0]).split())))
    assert shown == ["RJ", "3S", "2H", "2C", "AH", "4H", "KS", "9S", "5C", "AD"]


def test_bots_win_an_opponent_s_trick_cheaply_feed_a_partner_and_shed_low() -> None:
    t = in_play(["9S AS 8D", "AS QS 4S", "KS 6S 7D", "KS 6S 9D"])
    t.do(Play(seat=0, cards=cards("9S")))
    move = GAME.bot_choice(t.state, 1, GAME.legal_moves(t.state, 1))
    assert move == Play(seat=1, cards=cards("QS"))  # the cheapest card that wins
    t = in_play(["AS 8D", "4S 9D", "KS 6S", "KS 6S"])
    t.do(Play(seat=0, cards=cards("AS")))
    t.do(Play(seat=1, cards=cards("4S")))
    move = GAME.bot_choice(t.state, 2, GAME.legal_moves(t.state, 2))
    assert move == Play(seat=2, cards=cards("KS"))  # the partner is on top: ten points for him
    t.do(move)
    move = GAME.bot_choice(t.state, 3, GAME.legal_moves(t.state, 3))
    assert move == Play(seat=3, cards=cards("6S"))  # no winning card: the low one, no points given


OLD_LOG = Path(__file__).resolve().parents[1] / "fixtures" / "logs" / "before-27"


def test_a_log_stored_before_the_kings_levels_replays_with_the_readings_it_was_played_under() -> (
    None
):
    """The golden match as recorded before issue 27 (frozen in tests/fixtures/logs/before-27): its
    header names neither ``buried_king_levels`` nor ``must_play``, so it is read with ``none`` and
    ``ten`` (``options_before``) and audits as played — the attackers at 3 win hand 1 and play
    hand 2 at 4. Read with today's defaults, hand 2's level would be 3 and its plays refused."""
    lines = (OLD_LOG / "dabang-huludao.jsonl").read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    assert not {"buried_king_levels", "must_play"} & set(header["config"]["options"])
    report = audit(lines)
    assert report.ok, report.error
    assert report.state is not None and report.state.levels == (3, 4)
    options = report.state.config.options
    assert (options.buried_king_levels, options.must_play) == ("none", "ten")
    header["config"]["options"] |= {"buried_king_levels": "one_each", "must_play": "three_and_ten"}
    assert not audit([json.dumps(header), *lines[1:]]).ok


def test_a_config_stored_before_issue_33_is_read_with_the_readings_it_was_played_under() -> None:
    """A stored config names only the options of its day: those of issue 33 take the readings
    played before them (``options_before``); a new table takes the text's."""
    header = json.loads(
        (OLD_LOG / "dabang-huludao.jsonl").read_text(encoding="utf-8").split("\n")[0]
    )
    fields = ("self_overcall", "reinforce", "flip_order", "take_order", "ganguo_unopened")
    old = api.config_from_dict(header["config"]).options
    assert [getattr(old, f) for f in fields] == [
        "same_suit",
        "like_overcall",
        "two_high",
        "card_order",
        False,
    ]
    new = GAME.config().options
    assert [getattr(new, f) for f in fields] == ["any_suit", "more", "hunpai_high", "rank", False]
