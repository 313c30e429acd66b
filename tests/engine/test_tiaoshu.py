"""条数 at the table: who leads each hand, the end of a hand, the multipliers for cards left and the
end of a match at 100 cards — decided through ``paiju.api`` on real states.

A position is dealt by the ``Dealt`` event itself, so the state is built by the engine's own
``evolve``; whole matches are dealt by the table's own commands (``table_command``) and played by
the bots.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from story import Table, dealt, play_hand_with_bots, run_table

from paiju import api
from paiju.cards import build_deck, format_cards, parse_card, parse_cards
from paiju.errors import RuleError
from paiju.fairness import commitment_of
from paiju.protocol import MatchEnded, Play, RevealSeed, ScoreLine

FOUR_D = parse_card("4D")

# --- positions ------------------------------------------------------------------------------------


SEED = "server-seed/1"


def config(**options: Any) -> api.Config:
    return api.make_config("tiaoshu", "beihai", 4, options)


def deal(*hands: str, leader: int = 0, hand_no: int = 1, **options: Any) -> Table:
    """A hand dealt exactly as given (one string per seat), ``leader`` to play."""
    return dealt(config(**options), hands, leader, hand_no=hand_no, commitment=commitment_of(SEED))


def first_out_with(*left: int, **options: Any) -> Table:
    """Seat 0 holds a single ♦4 and goes out with it; seats 1, 2, 3 hold ``left`` cards each."""
    pack = [format_cards((c,)) for c in build_deck() if c != FOUR_D]
    hands, start = ["4D"], 0
    for n in left:
        hands.append(" ".join(pack[start : start + n]))
        start += n
    t = deal(*hands, **options)
    t.play(0, "4D")
    return t


# --- who leads ----------------------------------------------------------------------------------------


def leads(state: api.State) -> set[str]:
    seat = api.to_move(state)
    assert seat is not None
    return {format_cards(m.cards) for m in api.legal_moves(state, seat) if isinstance(m, Play)}


@pytest.mark.parametrize("seed", ["a", "b"])
def test_the_diamond_four_leads_the_first_hand_and_the_winner_every_later_one(seed: str) -> None:
    # 3a "第一局是方块4出牌，第二局起赢者出牌"
    state = run_table(api.initial_state(config(hands=6)), seed)
    assert api.to_move(state) == next(s for s, h in enumerate(state.hands) if FOUR_D in h)
    later_leaders_without_the_four = 0
    for _ in range(5):
        state = play_hand_with_bots(state)
        assert state.last_hand is not None
        winner = state.last_hand.order[0]
        state = run_table(state, seed)
        assert api.to_move(state) == winner
        later_leaders_without_the_four += FOUR_D not in state.hands[winner]
    assert later_leaders_without_the_four > 0


def test_the_diamond_four_merely_leads_the_first_play_need_not_contain_it() -> None:
    state = run_table(api.initial_state(config()), "free")
    assert any("4D" not in play for play in leads(state))


def test_a_table_may_require_the_diamond_four_in_the_first_play_of_the_match() -> None:
    # as 大北 does every hand ("出的第一手牌中必须有方块4"), here the first play of the match only
    t = deal("4D 9H", "5C", "6C", "7C", first_play_with_4d=True)
    with pytest.raises(RuleError) as info:
        api.decide(t.state, Play(seat=0, cards=parse_cards("9H")))
    assert info.value.code == "must_include_card"
    state = run_table(api.initial_state(config(first_play_with_4d=True, hands=2)), "first")
    assert leads(state) and all("4D" in play for play in leads(state))
    state = run_table(play_hand_with_bots(state), "first")
    assert state.hand_no == 2 and any("4D" not in play for play in leads(state))


# --- the end of a hand and its score ----------------------------------------------------------------------


def test_the_hand_ends_as_soon_as_the_first_player_is_out() -> None:
    t = deal("4D 5D", "5C 6C", "7C 8C", "9C TC")
    t.play(0, "4D")
    t.passes(1, 2, 3)
    t.play(0, "5D")
    assert t.state.phase == "reveal"
    assert t.ended.order == (0, 1, 2, 3)
    assert t.ended.lines == tuple(ScoreLine("cards_left", s, 0, 2) for s in (1, 2, 3))
    assert t.ended.scores == (6, -2, -2, -2)


MULTIPLIERS = [
    # 3b "手上的牌数是7张或以下，则按实际牌数计数"
    ((1, 7, 2), ("cards_left", 1), ("cards_left", 7), ("cards_left", 2)),
    # 3c "牌数是8至9张，则按双倍计16张或18张"
    ((8, 9, 7), ("cards_left_x2", 16), ("cards_left_x2", 18), ("cards_left", 7)),
    # "如果牌数是10至12张，则按3倍分别计30张、33张及36张"
    ((10, 11, 12), ("cards_left_x3", 30), ("cards_left_x3", 33), ("cards_left_x3", 36)),
    # "如牌数是13张，则按4倍计52张"
    ((13, 12, 9), ("cards_left_x4", 52), ("cards_left_x3", 36), ("cards_left_x2", 18)),
]


@pytest.mark.parametrize(("left", "one", "two", "three"), MULTIPLIERS)
def test_each_loser_pays_per_card_left_with_the_multipliers(
    left: tuple[int, int, int], one: tuple[str, int], two: tuple[str, int], three: tuple[str, int]
) -> None:
    t = first_out_with(*left)
    expected = tuple(
        ScoreLine(reason, seat, 0, amount)
        for seat, (reason, amount) in enumerate((one, two, three), 1)
    )
    assert t.ended.lines == expected
    assert t.ended.scores[0] == one[1] + two[1] + three[1]
    assert t.ended.order[0] == 0
    assert t.state.lost == (0, one[1], two[1], three[1])


def test_the_finishing_order_ranks_the_losers_by_fewest_cards() -> None:
    assert first_out_with(9, 2, 5).ended.order == (0, 2, 3, 1)


def test_a_card_may_be_worth_more_than_one_stake() -> None:
    # "假设打牌约定一张牌等于1个游戏币": a table may agree on another stake; the cards lost stay cards
    t = first_out_with(3, 8, 13, card_stake=5)
    assert [line.amount for line in t.ended.lines] == [15, 80, 260]
    assert t.state.lost == (0, 3, 16, 52)


# --- the end of a match ----------------------------------------------------------------------------------


def match_after(lost_before: tuple[int, ...], left: int, **options: Any) -> tuple[Table, bool]:
    """Seat 0 goes out; seat 1 still holds ``left`` cards; the others one each. Did the match end?"""
    pack = [format_cards((c,)) for c in build_deck() if c != FOUR_D]
    t = deal("4D", " ".join(pack[:left]), pack[left], pack[left + 1], **options)
    t.state = dataclasses.replace(t.state, lost=lost_before)
    t.play(0, "4D")
    return t, any(isinstance(e, MatchEnded) for e in t.do(RevealSeed(seed=SEED)))


def test_the_match_ends_when_a_total_reaches_a_hundred() -> None:
    # 3d "如果有人牌数总计达到或超过100张，则本轮游戏结束"
    t, over = match_after((0, 93, 0, 0), 7)
    assert over and t.state.lost == (0, 100, 1, 1) and t.state.phase == "over"
    t, over = match_after((0, 92, 0, 0), 7)
    assert not over and t.state.lost == (0, 99, 1, 1) and t.state.phase == "commit"
    t, over = match_after((0, 52, 0, 0), 13)
    assert over and t.state.lost[1] == 104


def test_by_default_the_hundred_counts_the_multiplied_cards() -> None:
    # "则按双倍计16张": the text counts the multiplied value in cards
    _, over = match_after((0, 70, 0, 0), 10)
    assert over  # 70 + 30
    _, over = match_after((0, 70, 0, 0), 10, limit_counts="actual")
    assert not over  # 70 + 10
    t, over = match_after((0, 90, 0, 0), 10, limit_counts="actual")
    assert over and t.state.lost == (0, 100, 1, 1)


def test_the_winners_total_of_lost_cards_does_not_grow() -> None:
    t, over = match_after((99, 0, 0, 0), 2)
    assert not over and t.state.lost == (99, 2, 1, 1)


def test_a_table_may_cap_the_number_of_hands() -> None:
    _, over = match_after((0, 0, 0, 0), 2, hands=1)
    assert over
    _, over = match_after((0, 0, 0, 0), 2)
    assert not over


@pytest.mark.parametrize("seed", ["m1", "m2"])
def test_a_whole_match_runs_until_the_first_hand_that_takes_someone_to_a_hundred(
    seed: str,
) -> None:
    state = api.initial_state(config())
    totals = [0, 0, 0, 0]
    lost = [0, 0, 0, 0]
    while state.phase != "over":
        state = play_hand_with_bots(run_table(state, seed))
        assert max(lost) < 100, "the match went on after reaching 100"
        ended = state.last_hand
        assert ended is not None and ended.hand_no == state.hand_no
        for line in ended.lines:
            lost[line.payer] += line.amount
        totals = [t + s for t, s in zip(totals, ended.scores, strict=True)]
        assert list(state.lost) == lost and list(state.totals) == totals
        state = run_table(state, seed)
    assert max(lost) >= 100 and sum(totals) == 0 and state.hand_no > 1
    assert api.view(state, 0)["lost"] == lost
