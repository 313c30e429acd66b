"""关牌 at the table: who leads, whose turn it is, 必管, 顶大 and the last-hand specials, decided
through ``paiju.api`` on real states.

Positions are dealt exactly (the ``table`` fixture, see conftest.py); a refused command must raise
a ``RuleError`` with its stable code and leave the state as it was. Seats are numbered in the order
of play, so seat 1 is seat 0's 下家 (next player) and seat 0 is seat 2's 下家 at a table of three.
"""

from __future__ import annotations

from typing import Any

import pytest

from paiju import api
from paiju.cards import build_deck, parse_card, parse_cards
from paiju.errors import RuleError
from paiju.protocol import (
    Deal,
    DealCommitted,
    Dealt,
    HandEnded,
    MatchEnded,
    Pass,
    Play,
    Played,
    SeedRevealed,
)
from paiju.simulate import table_command

VARIANTS = ("boke", "mainstream", "suzhou")
OTHERS = ("mainstream", "suzhou")
LADDER = [f"{rank}S" for rank in "3456789TJQKA2"]


# --- the real deal -------------------------------------------------------------------------------


def new_table(variant: str, players: int | None = None, **options: Any) -> api.State:
    return api.initial_state(api.make_config("guanpai", variant, players, options))


def run_table(state: api.State, base_seed: str) -> tuple[api.State, list[Any]]:
    """Let the table take its own steps (commit, deal, reveal) until a seat must act."""
    events: list[Any] = []
    while (command := table_command(state, base_seed)) is not None:
        state, new = api.apply(state, command)
        events += new
        if state.phase == "play":
            break
    return state, events


def holder(state: api.State, code: str) -> int | None:
    card = parse_card(code)
    return next((s for s, hand in enumerate(state.hands) if card in hand), None)


def play_out(state: api.State) -> api.State:
    """Finish the hand: every seat takes its first legal move."""
    while state.phase == "play":
        seat = api.to_move(state)
        assert seat is not None
        state, _ = api.apply(state, api.legal_moves(state, seat)[0])
    return state


@pytest.mark.parametrize(
    ("variant", "players"),
    [("boke", 3), ("mainstream", 3), ("mainstream", 2), ("suzhou", 3), ("suzhou", 2)],
)
def test_the_deal_gives_sixteen_cards_each_from_the_48_card_pack(
    variant: str, players: int
) -> None:
    state = new_table(variant, players)
    state, events = run_table(state, "deal-test")
    assert [type(e) for e in events] == [DealCommitted, Dealt]
    assert state.phase == "play" and state.hand_no == 1
    assert [len(h) for h in state.hands] == [16] * players
    # 3 players share all 48 cards; with 2 the third 16-card pile is left unused (其中一沓16张牌不用)
    assert len(state.rest) == 48 - 16 * players
    every = sorted(c for h in state.hands for c in h) + list(state.rest)
    assert sorted(every) == list(build_deck(removed=state.config.options.removed))
    assert api.to_move(state) == events[-1].leader


@pytest.mark.parametrize("seed", range(6))
def test_boke_the_diamond_three_leads(seed: int) -> None:
    # 每局固定为持有方块3的先出牌
    state, _ = run_table(new_table("boke"), f"boke-{seed}")
    assert api.to_move(state) == holder(state, "3D")


@pytest.mark.parametrize("variant", OTHERS)
@pytest.mark.parametrize("seed", range(4))
def test_three_players_the_spade_three_leads(variant: str, seed: int) -> None:
    # 第一次为黑桃3先出
    state, _ = run_table(new_table(variant, 3), f"{variant}-{seed}")
    assert api.to_move(state) == holder(state, "3S")


@pytest.mark.parametrize("variant", OTHERS)
def test_two_players_climb_the_spade_ladder_when_the_three_lies_in_the_unused_pile(
    variant: str,
) -> None:
    # 如果两人游戏时双方都摸不到黑桃3，那么黑桃4先出，以下依此类推
    skipped = set()
    for seed in range(60):
        state, _ = run_table(new_table(variant, 2), f"ladder-{seed}")
        dealt = [code for code in LADDER if holder(state, code) is not None]
        assert api.to_move(state) == holder(state, dealt[0])
        skipped.add(LADDER.index(dealt[0]))
    assert {0, 1, 2} <= skipped  # ♠3, ♠4 and ♠5 each led in some deal: the ladder was climbed


def test_a_player_seed_changes_the_deal_and_the_server_seed_must_match() -> None:
    base = new_table("boke")
    state, _ = api.apply(base, table_command(base, "s"))
    alone, _ = api.apply(state, table_command(state, "s"))
    seeded, _ = api.apply(state, {"type": "add_seed", "seat": 1, "seed": "mine"})
    seeded, _ = api.apply(seeded, table_command(seeded, "s"))
    assert alone.hands != seeded.hands
    wrong = Deal(seed="not the committed seed")
    with pytest.raises(RuleError) as info:
        api.decide(state, wrong)
    assert info.value.code == "seed_mismatch"


def test_nobody_plays_before_the_deal() -> None:
    state = new_table("boke")
    with pytest.raises(RuleError) as info:
        api.decide(state, Play(seat=0, cards=parse_cards("3D")))
    assert info.value.code == "wrong_phase"


# --- turns and tricks ------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_trick_goes_round_until_all_others_pass_then_its_winner_leads(
    variant: str, table
) -> None:
    t = table(variant, "3S 5H 9C KD", "4S 6H TC", "7S 8H JC")
    assert t.turn == 0
    t.play(0, "KD")
    assert t.turn == 1
    t.passes(1)
    assert t.turn == 2
    t.passes(2)
    assert t.turn == 0
    assert api.view(t.state, 0)["lead"] is None  # a fresh trick: seat 0 leads anything
    t.play(0, "3S")
    assert t.turn == 1 and t.hand(0) == "5H 9C"


@pytest.mark.parametrize("variant", VARIANTS)
def test_out_of_turn_and_foreign_cards_are_refused_and_change_nothing(variant: str, table) -> None:
    t = table(variant, "3S 5H 9C KD", "4S 6H TC", "7S 8H JC")
    t.refuses_play(1, "4S", "not_your_turn")
    t.refuses(Pass(seat=2), "not_your_turn")
    t.refuses_play(0, "4S", "not_in_hand")
    t.refuses(Play(seat=0, cards=()), "empty_play")
    t.refuses(Play(seat=3, cards=parse_cards("3S")), "unknown_seat")
    t.refuses_play(0, "3S 5H", "invalid_combination")
    t.refuses(Pass(seat=0), "cannot_pass_lead")
    t.play(0, "9C")  # the refusals left seat 0 to lead, and its cards in hand
    t.refuses_play(1, "6H", "does_not_beat")
    t.refuses_play(1, "4S 6H", "invalid_combination")
    t.refuses_play(2, "JC", "not_your_turn")
    t.play(1, "TC")
    assert t.turn == 2


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_follower_must_match_the_kind_and_length(variant: str, table) -> None:
    t = table(variant, "3S 4S 5S 6S 7S 8H", "4H 5H 6H 7H 8S 9S KD", "3C 3D")
    t.play(0, "3S 4S 5S 6S 7S")
    t.refuses_play(1, "4H 5H 6H 7H 8S 9S", "does_not_beat")
    t.refuses_play(1, "KD", "does_not_beat")
    t.play(1, "4H 5H 6H 7H 8S")
    assert t.events[-1].kind == "straight"


def test_the_hand_ends_when_a_player_is_out_and_then_nobody_plays(table) -> None:
    t = table("boke", "5H 9C", "KD", "3S 4S")
    t.play(0, "9C")
    events = t.play(1, "KD")
    assert [type(e) for e in events] == [Played, HandEnded]
    assert t.state.phase == "reveal" and t.turn is None
    t.refuses_play(2, "3S", "wrong_phase")


# --- 必管 must beat (波克城市) ---------------------------------------------------------------------


def test_boke_a_player_who_can_beat_may_not_pass(table) -> None:
    # 必管：上家打的牌，下家能管上就必须管
    t = table("boke", "5H 9C KD", "4S 7S TC", "3C 6D")
    t.play(0, "5H")
    t.refuses(Pass(seat=1), "must_beat")
    assert not t.may_pass(1)
    assert t.legal_plays(1) == {"7S", "TC"}
    t.play(1, "7S")
    assert t.may_pass(2)  # 3 and 6 cannot beat a 7
    t.passes(2)
    t.refuses(Pass(seat=0), "must_beat")


def test_boke_must_beat_binds_every_follower_not_only_the_next_one(table) -> None:
    t = table("boke", "5H 9C KD", "3S 4S 4C", "7S 8D 8C")
    t.play(0, "5H")
    t.passes(1)  # only 3 and 4: cannot beat
    t.refuses(Pass(seat=2), "must_beat")


def test_boke_must_beat_includes_bombs_by_default(table) -> None:
    t = table("boke", "2S 5H 9C", "3S 3H 3C 3D 4S", "6D 7D")
    t.play(0, "2S")
    t.refuses(Pass(seat=1), "must_beat")
    assert t.legal_plays(1) == {"3S 3H 3C 3D"}


def test_boke_option_lets_a_player_keep_his_bomb(table) -> None:
    t = table("boke", "2S 5H 9C", "3S 3H 3C 3D 4S", "6D 7D", must_beat_with_bomb=False)
    t.play(0, "2S")
    assert t.may_pass(1)
    assert t.legal_plays(1) == {"3S 3H 3C 3D"}  # he still may bomb
    t.passes(1)
    assert t.turn == 2


def test_boke_bomb_option_still_binds_a_player_with_a_plain_answer(table) -> None:
    t = table("boke", "2S 5H 9C", "3S 3H 3C 3D 6S", "6D 7D", must_beat_with_bomb=False)
    t.play(0, "5H")
    t.refuses(Pass(seat=1), "must_beat")  # the 6 beats: the bomb option does not help him
    t.play(1, "3S 3H 3C 3D")
    assert t.events[-1].kind == "bomb"


@pytest.mark.parametrize("variant", OTHERS)
def test_elsewhere_a_player_may_pass_although_he_could_beat(variant: str, table) -> None:
    t = table(variant, "5H 9C KD", "4S 7S TC", "3C 6D")
    t.play(0, "5H")
    assert t.may_pass(1)
    t.passes(1)
    t.passes(2)
    assert t.turn == 0


def test_boke_must_beat_can_be_switched_off(table) -> None:
    t = table("boke", "5H 9C KD", "4S 7S TC", "3C 6D", must_beat=False)
    t.play(0, "5H")
    t.passes(1)
    assert t.turn == 2


# 上家打的牌，下家能管上就必须管: every follower (default) or only the 下家 of the player on top


@pytest.mark.parametrize(
    ("scope", "second_may_pass"), [("every_follower", False), ("next_player", True)]
)
def test_boke_must_beat_scope_decides_the_second_follower_after_a_pass(
    scope: str, second_may_pass: bool, table
) -> None:
    t = table("boke", "5H 9C KD", "3S 4S 4C", "7S 8D 8C", must_beat_scope=scope)
    t.play(0, "5H")
    t.passes(1)  # the 下家 cannot beat a 5
    assert t.legal_plays(2) == {"7S", "8C"}  # seat 2 can beat, but is seat 0's 下家's 下家
    assert t.may_pass(2) is second_may_pass
    if second_may_pass:
        t.passes(2)
        assert t.turn == 0 and t.state.lead is None  # the trick is over: seat 0 leads again
    else:
        t.refuses(Pass(seat=2), "must_beat")
        t.play(2, "7S")


@pytest.mark.parametrize("scope", ["every_follower", "next_player"])
def test_boke_must_beat_scope_always_binds_the_next_player(scope: str, table) -> None:
    t = table("boke", "5H 9C KD", "4S 7S TC", "3C 6D", must_beat_scope=scope)
    t.play(0, "5H")
    t.refuses(Pass(seat=1), "must_beat")
    assert not t.may_pass(1)
    t.play(1, "7S")
    t.passes(2)  # seat 1's 下家: 3 and 6 cannot beat
    # seat 0 holds 9 and K, but is not the 下家 of seat 1, who made the play on top
    if scope == "next_player":
        assert t.may_pass(0)
        t.passes(0)
        assert t.turn == 1 and t.state.lead is None
    else:
        assert not t.may_pass(0)
        t.refuses(Pass(seat=0), "must_beat")


def test_boke_next_player_scope_binds_whoever_follows_the_newest_play(table) -> None:
    t = table("boke", "5H 9C KD", "4S 7S TC", "3C 8D", must_beat_scope="next_player")
    t.play(0, "5H")
    t.play(1, "7S")
    t.refuses(Pass(seat=2), "must_beat")  # seat 2 is seat 1's 下家 now, and his 8 beats
    t.play(2, "8D")
    t.refuses(Pass(seat=0), "must_beat")  # seat 0 is seat 2's 下家


# --- 顶大 play your highest single when your 下家 has one card ----------------------------------------


def test_boke_liable_a_low_single_stands_when_the_next_player_has_one_card(table) -> None:
    # 顶大 (default "liable"): the play is legal; the cost comes at the end (test_guanpai_scoring)
    t = table("boke", "5S 5H 9S KS", "AH", "3C 4C 7D 8D")
    assert "9S" in t.legal_plays(0)
    t.play(0, "9S")
    t.play(1, "AH")
    assert t.ended.lines[0].reason == "dingda_cards_left"


def test_boke_enforced_refuses_a_low_single_when_the_next_player_has_one_card(table) -> None:
    # 若玩家下家只剩下最后一张牌，玩家必须出最大的牌（即顶大）
    t = table("boke", "5S 5H 9S KS", "AH", "3C 4C 7D 8D", dingda="enforced")
    t.refuses_play(0, "9S", "must_play_highest")
    t.refuses_play(0, "5S", "must_play_highest")
    singles = {p for p in t.legal_plays(0) if " " not in p}
    assert singles == {"KS"}
    assert "5S 5H" in t.legal_plays(0)  # only singles are constrained: a pair may be led
    t.play(0, "KS")
    assert t.turn == 1


def test_boke_enforced_binds_a_follower_too(table) -> None:
    t = table("boke", "5S 5H 9S KS", "AH", "3C 4C 7D 8D", leader=2, dingda="enforced")
    t.play(2, "3C")  # seat 2's 下家 is seat 0, who holds four cards: no constraint on seat 2
    t.refuses_play(0, "9S", "must_play_highest")
    t.play(0, "KS")


def test_boke_enforced_leading_a_pair_is_allowed(table) -> None:
    t = table("boke", "5S 5H 9S KS", "AH", "3C 4C 7D 8D", dingda="enforced")
    t.play(0, "5S 5H")
    t.passes(1)
    t.passes(2)  # no pair: 必管 does not bind him
    t.refuses_play(0, "9S", "must_play_highest")


def test_enforced_dingda_needs_exactly_one_card_in_the_next_hand(table) -> None:
    t = table("boke", "5S 5H 9S KS", "AH AC", "3C 4C 7D 8D", dingda="enforced")
    t.play(0, "9S")
    assert t.turn == 1


@pytest.mark.parametrize("variant", OTHERS)
def test_elsewhere_there_is_no_dingda_unless_the_table_asks(variant: str, table) -> None:
    free = table(variant, "5S 5H 9S KS", "AH", leader=0)
    free.play(0, "9S")
    free.play(1, "AH")
    assert [line.reason for line in free.ended.lines] == ["cards_left"]
    strict = table(variant, "5S 5H 9S KS", "AH", dingda="enforced")
    strict.refuses_play(0, "9S", "must_play_highest")


# --- last hands (波克城市) --------------------------------------------------------------------------


def test_boke_a_last_hand_triple_beats_a_trio_with_two(table) -> None:
    # 最后一手牌是三条时可以当作三带二出，即可以管上别的玩家的三带二（只比较三条的大小）
    t = table("boke", "3S 3H 3C 4D 7S KD", "5S 5H 5C", "6D 8D 9D JH")
    t.play(0, "3S 3H 3C 4D 7S")
    assert t.legal_plays(1) == {"5S 5H 5C"}
    events = t.play(1, "5S 5H 5C")
    assert isinstance(events[0], Played) and events[0].kind == "trio_pair"
    assert t.ended.order[0] == 1


def test_boke_a_last_hand_trio_with_one_beats_a_trio_with_two(table) -> None:
    # 最后一手牌时三带一可以直接出，也可以管三带二（只比较三条的大小）
    t = table("boke", "3S 3H 3C 4D 7S KD", "5S 5H 5C 9D", "6D 8D JH")
    t.play(0, "3S 3H 3C 4D 7S")
    t.refuses(Pass(seat=1), "must_beat")
    t.play(1, "5S 5H 5C 9D")
    assert t.ended.order[0] == 1


def test_boke_the_last_hand_triple_must_still_be_higher(table) -> None:
    t = table("boke", "6S 6H 6C 4D 7S KD", "5S 5H 5C", "3D 8D JH")
    t.play(0, "6S 6H 6C 4D 7S")
    t.refuses_play(1, "5S 5H 5C", "does_not_beat")
    t.passes(1)  # nothing beats: 必管 lets him pass


def test_boke_a_triple_that_is_not_the_last_hand_does_not_beat_a_trio_with_two(table) -> None:
    t = table("boke", "3S 3H 3C 4D 7S KD", "5S 5H 5C 9D JH QH", "6D 8D")
    t.play(0, "3S 3H 3C 4D 7S")
    t.refuses_play(1, "5S 5H 5C", "does_not_beat")
    t.refuses_play(1, "5S 5H 5C 9D", "trio_single_not_last")
    t.play(1, "5S 5H 5C 9D JH")


def test_boke_last_triple_option_off(table) -> None:
    t = table("boke", "3S 3H 3C 4D 7S KD", "5S 5H 5C", "6D 8D", last_triple_as_trio_pair=False)
    t.play(0, "3S 3H 3C 4D 7S")
    t.refuses_play(1, "5S 5H 5C", "does_not_beat")


def test_boke_a_trio_with_one_may_be_led_as_the_last_hand(table) -> None:
    t = table("boke", "3S 3H 3C 4D", "5S 5H", "6D 8D")
    t.play(0, "3S 3H 3C 4D")
    assert t.events[0].kind == "trio_single"
    assert t.ended.order[0] == 0


def test_boke_a_trio_with_one_is_refused_before_the_last_hand(table) -> None:
    t = table("boke", "3S 3H 3C 4D 9S", "5S 5H", "6D 8D")
    err = t.refuses_play(0, "3S 3H 3C 4D", "trio_single_not_last")
    assert err.cards == ["3S", "3H", "3C", "4D"]


@pytest.mark.parametrize("variant", OTHERS)
def test_elsewhere_last_hands_get_no_favours(variant: str, table) -> None:
    t = table(variant, "3S 3H 3C 4D 7S KD", "5S 5H 5C", "6D 8D")
    t.play(0, "3S 3H 3C 4D 7S")
    t.refuses_play(1, "5S 5H 5C", "does_not_beat")
    u = table(variant, "3S 3H 3C 4D", "5S 5H", "6D 8D")
    u.refuses_play(0, "3S 3H 3C 4D", "invalid_combination")


# --- bombs at the table -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "bomb", "higher"),
    [
        ("boke", "3S 3H 3C 3D", "AS AH AC"),
        ("mainstream", "3S 3H 3C 3D 4S", "AH AC AD 4H"),
        ("suzhou", "3S 3H 3C 3D", "AH AC AD 4H"),
    ],
)
def test_a_bomb_stops_a_straight_and_only_a_higher_bomb_stops_the_bomb(
    variant: str, bomb: str, higher: str, table
) -> None:
    t = table(variant, "5S 6S 7S 8S 9S KD", f"{bomb} JD", f"{higher} QD")
    t.play(0, "5S 6S 7S 8S 9S")
    t.play(1, bomb)
    t.refuses_play(2, "QD", "does_not_beat")
    t.play(2, higher)
    assert t.events[-1].kind == "bomb" and t.turn == 0


# --- the match ---------------------------------------------------------------------------------------


def test_one_hand_is_a_match_by_default() -> None:
    state, _ = run_table(new_table("mainstream"), "m")
    state = play_out(state)
    state, events = api.apply(state, table_command(state, "m"))
    assert [type(e) for e in events] == [SeedRevealed, MatchEnded]
    assert state.phase == "over" and table_command(state, "m") is None
    assert events[1].totals == state.totals == state.last_hand.scores


def second_hand(variant: str, base: str, **options: Any) -> tuple[api.State, api.State]:
    """Play a whole first hand (first legal move each time) and deal the second."""
    first, _ = run_table(new_table(variant, hands=2, **options), base)
    first = play_out(first)
    second, events = run_table(first, base)
    assert [type(e) for e in events] == [SeedRevealed, DealCommitted, Dealt]
    assert second.hand_no == 2
    return first, second


def test_mainstream_later_hands_are_led_by_the_previous_winner() -> None:
    differs = 0
    for n in range(8):
        first, second = second_hand("mainstream", f"match-{n}")
        winner = first.last_hand.order[0]
        assert api.to_move(second) == winner
        differs += holder(second, "3S") != winner
        assert second.totals == first.last_hand.scores
    assert differs  # in some match the ♠3 went elsewhere: the winner, not the ♠3, led


def test_boke_every_hand_is_led_by_the_diamond_three() -> None:
    differs = 0
    for n in range(8):
        first, second = second_hand("boke", f"match-{n}")
        assert api.to_move(second) == holder(second, "3D")
        differs += holder(second, "3D") != first.last_hand.order[0]
    assert differs


def test_a_two_hand_match_ends_after_the_second_reveal() -> None:
    _, state = second_hand("suzhou", "two")
    state = play_out(state)
    state, events = api.apply(state, table_command(state, "two"))
    assert isinstance(events[-1], MatchEnded)
    assert state.phase == "over"
    assert len(state.revealed) == 2


# --- the other readings, as table options ------------------------------------------------------------


def test_dingda_highest_single_scope_makes_the_top_card_the_only_lead(table) -> None:
    # the other reading of 顶大 ("玩家必须出最大的牌"): he must lead his highest card, whatever he holds
    t = table(
        "boke", "5S 5H 9S KS", "AH", "3C 4C 7D 8D", dingda="enforced", dingda_scope="highest_single"
    )
    t.refuses_play(0, "5S 5H", "must_play_highest")
    assert t.legal_plays(0) == {"KS"}
    t.play(0, "KS")


def test_dingda_highest_single_scope_when_liable_charges_a_pair_lead(table) -> None:
    t = table("boke", "5S 5H 9S KS", "AH", "3C 4C 7D 8D", dingda_scope="highest_single")
    t.play(0, "5S 5H")  # legal, but not 顶大 under this reading
    t.passes(1)
    t.passes(2)
    t.play(0, "9S")
    t.play(1, "AH")
    assert {line.payer for line in t.ended.lines} == {0}
    assert {line.reason for line in t.ended.lines} == {"dingda_cards_left"}


def test_first_play_must_include_the_leading_card_when_the_table_asks(table) -> None:
    # "第一次为黑桃3先出": read as "the first play contains ♠3"
    t = table("mainstream", "3S 3H 8C", "4D 9S", "5C KD", first_play_must_include=True)
    t.refuses_play(0, "8C", "must_include_card")
    assert t.legal_plays(0) == {"3S", "3S 3H"}
    t.play(0, "3S 3H")
    plain = table("mainstream", "3S 3H 8C", "4D 9S", "5C KD")
    assert "8C" in plain.legal_plays(0)


def test_first_play_must_include_the_diamond_three_in_boke(table) -> None:
    t = table("boke", "3S 3D 8C", "4D 9S", "5C KD", first_play_must_include=True)
    assert t.legal_plays(0) == {"3D", "3S 3D"}
    t.refuses_play(0, "3S", "must_include_card")


def test_aaa_either_form_is_a_bomb(table) -> None:
    # "AAA in any form is a bomb": bare AAA and AAA带1 both bomb a four of a kind
    cfg = api.make_config("guanpai", "mainstream", options={"aaa_bomb": "either"})
    assert api.classify(cfg, "AH AC AD").kind == "bomb"
    assert api.classify(cfg, "AH AC AD 3S").kind == "bomb"
    assert api.compare(cfg, "AH AC AD", "KS KH KC KD 3S") == 1
    t = table("mainstream", "AH AC AD 3S", "9S 9H 9C 9D 4S", "5C KD", aaa_bomb="either")
    assert {"AH AC AD", "3S AH AC AD"} <= t.legal_plays(0)
