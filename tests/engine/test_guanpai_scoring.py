"""关牌 scoring: the first player out wins and every other player pays him a point per card left,
double for a player still holding all sixteen (被关); 顶大 liability moves the losers' debts to the
player who did not play high; bombs pay only if the table sets ``bomb_score``.

关对手的积分为对手手中的牌数，关对方16张，可获双倍积分。 Each test plays a hand to its end on an
exact position and reads the ``HandEnded`` event: its score lines (reason, payer, payee, amount),
the net scores and the finishing order.
"""

from __future__ import annotations

import pytest

from paiju.protocol import HandEnded

VARIANTS = ("boke", "mainstream", "suzhou")


def sheet(ended: HandEnded) -> list[tuple[str, int, int, int]]:
    lines = [(line.reason, line.payer, line.payee, line.amount) for line in ended.lines]
    assert sum(ended.scores) == 0
    return lines


# 16-card hands where seat 0 leads a 12-card straight, a triple and the 2 while nobody can answer
ACE = {"boke": ("AS", "AH AC"), "mainstream": ("AH", "AC AD"), "suzhou": ("AH", "AC AD")}


def full_hands(variant: str) -> tuple[str, str, str]:
    mine, theirs = ACE[variant]
    return (
        f"3S 4S 5S 6S 7S 8S 9S TS JS QS KS {mine} QH QC QD 2S",
        "3H 3C 3D 4H 4C 4D 5H 5C 5D 6H 6C 6D 7H 7C KH KC",
        f"7D 8H 8C 8D 9H 9C 9D TH TC TD JH JC JD KD {theirs}",
    )


@pytest.mark.parametrize(
    ("variant", "players"),
    [("boke", 3), ("mainstream", 3), ("mainstream", 2), ("suzhou", 3), ("suzhou", 2)],
)
def test_every_loser_pays_the_winner_one_point_per_card_left(
    variant: str, players: int, table
) -> None:
    hands = ("9D 2S", "3S 4S 5H", "6S 7S 8H 9H JC")[:players]
    t = table(variant, *hands)
    t.play(0, "2S")
    for seat in range(1, players):
        t.passes(seat)
    t.play(0, "9D")
    ended = t.ended
    expected = [("cards_left", 1, 0, 3), ("cards_left", 2, 0, 5)][: players - 1]
    assert sheet(ended) == expected
    assert ended.scores == ((8, -3, -5) if players == 3 else (3, -3))
    assert ended.order == tuple(range(players))
    assert t.state.totals == ended.scores
    assert ended.hand_no == 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_player_who_never_played_a_card_pays_double(variant: str, table) -> None:
    # 关对方16张，可获双倍积分
    t = table(variant, *full_hands(variant))
    t.play(0, "3S 4S 5S 6S 7S 8S 9S TS JS QS KS " + ACE[variant][0])
    t.passes(1)
    t.passes(2)
    t.play(0, "QH QC QD")
    t.passes(1)
    t.passes(2)
    t.play(0, "2S")
    ended = t.ended
    assert sheet(ended) == [("guan", 1, 0, 32), ("guan", 2, 0, 32)]
    assert ended.scores == (64, -32, -32)


@pytest.mark.parametrize("variant", VARIANTS)
def test_fifteen_cards_left_are_not_doubled(variant: str, table) -> None:
    _, sixteen, other = full_hands(variant)
    fifteen = other.replace("7D ", "")
    t = table(variant, "7D", sixteen, fifteen)
    t.play(0, "7D")
    assert sheet(t.ended) == [("guan", 1, 0, 32), ("cards_left", 2, 0, 15)]


def test_the_finishing_order_ranks_losers_by_fewest_cards(table) -> None:
    t = table("mainstream", "2S", "3S 4S 5H 6H 9C", "7S 8S")
    t.play(0, "2S")
    assert t.ended.order == (0, 2, 1)
    assert t.ended.scores == (7, -5, -2)


# --- 顶大 liability (波克城市) -------------------------------------------------------------------------
# 如果不顶大则输分的玩家都由没顶大的玩家包下输掉的分（不包括炸弹得分）


def test_boke_the_player_who_did_not_play_high_pays_for_every_loser(table) -> None:
    t = table("boke", "5S 5H 9S KS", "AH", "3C 4C 7D 8D")
    t.play(0, "9S")  # his 下家 has one card and he keeps the K
    t.play(1, "AH")
    assert sheet(t.ended) == [("dingda_cards_left", 0, 1, 3), ("dingda_cards_left", 0, 1, 4)]
    assert t.ended.scores == (-7, 7, 0)


def test_boke_playing_the_highest_single_keeps_the_normal_tariff(table) -> None:
    t = table("boke", "5S 5H 9S KS", "AH", "3C 4C 7D 8D")
    t.play(0, "KS")
    t.play(1, "AH")
    assert sheet(t.ended) == [("cards_left", 0, 1, 3), ("cards_left", 2, 1, 4)]


def test_boke_leading_a_pair_is_no_fault(table) -> None:
    t = table("boke", "5S 5H 9S KS", "AH", "3C 4C 7D 8D")
    t.play(0, "5S 5H")
    t.passes(1)
    t.passes(2)
    t.play(0, "KS")
    t.play(1, "AH")
    assert sheet(t.ended) == [("cards_left", 0, 1, 1), ("cards_left", 2, 1, 4)]


def test_boke_following_low_is_a_fault_too(table) -> None:
    t = table("boke", "5S 5H 9S KS", "AH", "3C 4C 7D 8D", leader=2)
    t.play(2, "3C")
    t.play(0, "9S")
    t.play(1, "AH")
    assert sheet(t.ended) == [("dingda_cards_left", 0, 1, 3), ("dingda_cards_left", 0, 1, 3)]


def test_boke_liability_covers_a_doubled_debt(table) -> None:
    sixteen = "3S 3H 3C 4S 4H 4C 6S 6H 6C 7S 7H 7C 8S 8H 8C TD"
    t = table("boke", "5S 5H 9S KS", "AH", sixteen)
    t.play(0, "9S")
    t.play(1, "AH")
    assert sheet(t.ended) == [("dingda_cards_left", 0, 1, 3), ("dingda_guan", 0, 1, 32)]
    assert t.ended.scores == (-35, 35, 0)


def test_boke_no_liability_when_someone_else_goes_out(table) -> None:
    t = table("boke", "5S 5H 9S KS", "8H", "TD")
    t.play(0, "9S")  # a fault: his 下家 holds one card
    t.passes(1)  # ... but the 8 cannot beat
    t.play(2, "TD")
    assert sheet(t.ended) == [("cards_left", 0, 2, 3), ("cards_left", 1, 2, 1)]


@pytest.mark.parametrize(
    ("liability", "expected"),
    [
        ("if_next_wins", [("cards_left", 0, 2, 3), ("cards_left", 1, 2, 1)]),
        ("always", [("dingda_cards_left", 0, 2, 3), ("dingda_cards_left", 0, 2, 1)]),
    ],
)
def test_boke_dingda_liability_when_someone_else_goes_out(
    liability: str, expected: list[tuple[str, int, int, int]], table
) -> None:
    # 如果不顶大则输分的玩家都由没顶大的玩家包下: "always" reads it whoever wins
    t = table("boke", "5S 5H 9S KS", "8H", "TD", dingda_liability=liability)
    t.play(0, "9S")  # a fault: his 下家 holds one card
    t.passes(1)
    t.play(2, "TD")
    assert sheet(t.ended) == expected


@pytest.mark.parametrize("liability", ["if_next_wins", "always"])
def test_boke_dingda_liability_when_the_next_player_wins(liability: str, table) -> None:
    t = table("boke", "5S 5H 9S KS", "AH", "3C 4C 7D 8D", dingda_liability=liability)
    t.play(0, "9S")
    t.play(1, "AH")
    assert sheet(t.ended) == [("dingda_cards_left", 0, 1, 3), ("dingda_cards_left", 0, 1, 4)]


@pytest.mark.parametrize("liability", ["if_next_wins", "always"])
def test_boke_a_player_who_failed_dingda_and_wins_is_paid_as_usual(liability: str, table) -> None:
    t = table("boke", "5S 9S", "4H", "3C 4C", dingda_liability=liability)
    t.play(0, "5S")  # a fault: his 下家 holds one card and he keeps the 9
    t.passes(1, 2)
    t.play(0, "9S")  # the liability cannot make him pay himself: the losers pay him
    assert sheet(t.ended) == [("cards_left", 1, 0, 1), ("cards_left", 2, 0, 2)]


def test_boke_liability_can_be_switched_off(table) -> None:
    t = table("boke", "5S 5H 9S KS", "AH", "3C 4C 7D 8D", dingda="off")
    t.play(0, "9S")
    t.play(1, "AH")
    assert sheet(t.ended) == [("cards_left", 0, 1, 3), ("cards_left", 2, 1, 4)]


# --- bombs --------------------------------------------------------------------------------------------


BOMB_HAND = ("5S 5H 9S KS", "AH", "3S 3H 3C 3D 4C 7D 8D")


def bomb_then_fault(table, **options):
    """Seat 2 bombs, then leads low; seat 0 answers low although his 下家 has one card."""
    t = table("boke", *BOMB_HAND, leader=2, **options)
    t.play(2, "3S 3H 3C 3D")
    t.passes(0)
    t.passes(1)
    t.play(2, "4C")
    t.play(0, "9S")
    t.play(1, "AH")
    return t.ended


def test_boke_bombs_score_nothing_by_default(table) -> None:
    ended = bomb_then_fault(table)
    assert sheet(ended) == [("dingda_cards_left", 0, 1, 3), ("dingda_cards_left", 0, 1, 2)]
    assert ended.scores == (-5, 5, 0)


def test_boke_bomb_score_is_paid_by_everyone_and_not_shifted_by_dingda(table) -> None:
    # (不包括炸弹得分): the liable player does not pay the bomb money of others
    ended = bomb_then_fault(table, bomb_score=5)
    assert sheet(ended) == [
        ("dingda_cards_left", 0, 1, 3),
        ("dingda_cards_left", 0, 1, 2),
        ("bomb", 0, 2, 5),
        ("bomb", 1, 2, 5),
    ]
    assert ended.scores == (-10, 0, 10)


def test_mainstream_bomb_score_counts_every_bomb(table) -> None:
    t = table("mainstream", "3S 3H 3C 3D 4S 5S 5H 5C 5D 6S 9S", "KH KD", "QH QD JC", bomb_score=2)
    t.play(0, "3S 3H 3C 3D 4S")
    t.passes(1)
    t.passes(2)
    t.play(0, "5S 5H 5C 5D 6S")
    t.passes(1)
    t.passes(2)
    t.play(0, "9S")
    assert sheet(t.ended) == [
        ("cards_left", 1, 0, 2),
        ("cards_left", 2, 0, 3),
        ("bomb", 1, 0, 4),
        ("bomb", 2, 0, 4),
    ]
    assert t.ended.scores == (13, -6, -7)
