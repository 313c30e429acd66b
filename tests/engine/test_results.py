"""Results as data (issue 27): each game ends a hand with the record it declares
(``paiju.results``) — payments for 关牌, 大北, 条数 and 板子炮, levels and blood for 打棒, points,
番 and 喜 for 打拱 — the views carry it, the audit's report tells it, and ``selfcheck`` checks
what each declares (zero sum where it holds; 打棒's levels have no order, payment nor score).
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from paiju import api
from paiju.log.file import dump_lines
from paiju.log.replay import audit
from paiju.log.report import describe
from paiju.protocol import HandEnded, ScoreLine
from paiju.registry import get_game
from paiju.results import LevelsAndBlood, Payments, PointsFanXi
from paiju.selfcheck import InvariantBroken, check_result
from paiju.simulate import play_game, random_chooser

DECLARED = {
    "guanpai": Payments,
    "dabei": Payments,
    "tiaoshu": Payments,
    "banzipao": Payments,
    "dabang": LevelsAndBlood,
    "dagong": PointsFanXi,
}


def played(game_id: str, seed: int = 1) -> tuple[Any, Any, list[Any]]:
    """A random match of two hands: its config, last state and events."""
    game = get_game(game_id)
    config = game.config(None, None, hands=2)
    state, events = play_game(config, f"results-{seed}", random_chooser(random.Random(seed)))
    return config, state, events


def hands_ended(events: list[Any]) -> list[HandEnded]:
    return [e for e in events if isinstance(e, HandEnded)]


def test_every_game_declares_its_record_and_the_catalogue_says_so() -> None:
    assert {game_id: get_game(game_id).result_type for game_id in DECLARED} == DECLARED
    catalogue = {g["id"]: g["result"] for g in api.list_games()}
    assert catalogue["guanpai"] == {"kind": "payments", "zero_sum": True, "scored": True}
    assert catalogue["dabang"] == {"kind": "levels", "zero_sum": False, "scored": False}
    assert catalogue["dagong"] == {"kind": "points", "zero_sum": True, "scored": True}


@pytest.mark.parametrize("game_id", sorted(DECLARED))
def test_each_hand_ends_with_the_games_record_and_holds_what_it_declares(game_id: str) -> None:
    config, state, events = played(game_id)
    result_type = DECLARED[game_id]
    ended = hands_ended(events)
    assert ended
    for event in ended:
        record = result_type.from_event(event)
        assert record.hand_no == event.hand_no
        assert result_type.problems(event, config.players) == []
        check_result(result_type, event, config.players)
    assert isinstance(api.hand_result(state), result_type)


def test_dabang_records_levels_and_blood_without_a_finishing_order_or_scores() -> None:
    config, state, events = played("dabang", seed=3)
    for event in hands_ended(events):
        assert (event.order, event.lines, event.scores) == ((), (), (0,) * config.players)
        record = LevelsAndBlood.from_event(event)
        climbed = {seat % 2 for seat, gained in enumerate(record.levels) if gained}
        assert len(climbed) <= 1
        assert record.redeal is not None or record.kitty is not None
    assert state.totals == (0,) * config.players


def test_dagong_records_points_fan_and_xi_apart_from_its_payments() -> None:
    config, _, events = played("dagong", seed=2)
    for event in hands_ended(events):
        record = PointsFanXi.from_event(event)
        assert record.fan is not None and record.fan.value >= 1
        assert sorted(record.order) == list(range(config.players))  # 打拱 plays every hand out
        assert all(line.reason.startswith("xiqian_") for line in record.xi)
        assert set(record.xi) | set(record.lines) == set(event.lines)
        assert record.points == tuple(
            next((r.value for r in event.results if r.reason == "points" and r.seat == s), 0)
            for s in range(config.players)
        )


def test_a_zero_sum_game_whose_scores_do_not_sum_to_zero_is_caught() -> None:
    _, _, events = played("guanpai")
    event = hands_ended(events)[0]
    forged = dataclasses.replace(event, scores=(event.scores[0] + 1, *event.scores[1:]))
    with pytest.raises(InvariantBroken, match="do not sum to zero"):
        check_result(Payments, forged, len(event.scores))
    unpaid = dataclasses.replace(event, lines=(*event.lines, ScoreLine("bomb", 0, 1, 5)))
    with pytest.raises(InvariantBroken, match="not the payments' net"):
        check_result(Payments, unpaid, len(event.scores))
    no_order = dataclasses.replace(event, order=(event.order[0], *event.order[:-1]))
    with pytest.raises(InvariantBroken, match="finishing order"):
        check_result(Payments, no_order, len(event.scores))
    _, _, gong = played("dagong")
    hand = hands_ended(gong)[0]
    with pytest.raises(InvariantBroken, match="do not sum to zero"):
        check_result(PointsFanXi, dataclasses.replace(hand, scores=(1,) * 4), 4)


def test_dabang_is_not_checked_for_zero_sum_but_for_levels_without_scores() -> None:
    assert LevelsAndBlood.ZERO_SUM is False and Payments.ZERO_SUM and PointsFanXi.ZERO_SUM
    _, _, events = played("dabang", seed=3)
    event = next(e for e in hands_ended(events) if any(r.reason == "level_up" for r in e.results))
    check_result(LevelsAndBlood, event, 4)  # its scores are all zero, its levels one side's
    (old,) = LevelsAndBlood.earlier_forms(event, 4)  # as it was written before issue 27
    assert old.order == (0, 1, 2, 3) and sum(map(abs, old.scores)) > 0
    with pytest.raises(InvariantBroken, match="finishing order, payments or scores"):
        check_result(LevelsAndBlood, old, 4)
    up = next(r for r in event.results if r.reason == "level_up")
    other_side = dataclasses.replace(up, seat=(up.seat + 1) % 4)
    climbing_both = dataclasses.replace(event, results=(*event.results, other_side))
    with pytest.raises(InvariantBroken, match="not one side's"):
        check_result(LevelsAndBlood, climbing_both, 4)


@pytest.mark.parametrize("game_id", sorted(DECLARED))
def test_the_views_carry_the_hands_record(game_id: str) -> None:
    config, _, events = played(game_id)
    game = get_game(game_id)
    state = game.initial_state(config)
    assert game.view(state, 0)["result"] is None
    for event in events:
        state = game.evolve(state, event)
        if isinstance(event, HandEnded):
            record = DECLARED[game_id].from_event(event).to_json()
            for seat in (*range(config.players), None):
                assert game.view(state, seat)["result"] == record
            assert record["kind"] == DECLARED[game_id].KIND
            assert ("scores" in record) == DECLARED[game_id].SCORED


def report_of(game_id: str, seed: int = 1) -> tuple[list[str], list[str]]:
    config, _, events = played(game_id, seed)
    words = describe(audit(dump_lines(config, events)))
    return [zh for zh, _ in words], [en for _, en in words]


def test_the_report_tells_payments_with_the_finishing_order_and_scores() -> None:
    _, en = report_of("guanpai")
    assert any(line.startswith("hand 1, finishing order: Seat") for line in en)
    assert any(line.strip().startswith("scores: Seat 1") for line in en)
    assert any(line.startswith("totals: ") for line in en)
    assert any(" pays " in line for line in en)


def test_the_report_tells_dabangs_levels_and_blood_without_order_or_scores() -> None:
    zh, en = report_of("dabang", seed=3)
    assert not any("finishing order" in line or "scores:" in line for line in en)
    assert not any(line.startswith("totals") for line in en)
    words = get_game("dabang").words.reasons
    assert any(line.strip().startswith(words["points"][1]) for line in en)
    assert any(words["level_up"][0] in line for line in zh)


def test_the_report_tells_dagongs_points_and_fan() -> None:
    zh, en = report_of("dagong", seed=2)
    words = get_game("dagong").words.reasons
    assert any(line.strip().startswith("card points: Seat 1 ") for line in en)
    assert not any(line.strip().startswith("card points: Seat 1 +") for line in en)
    assert any(words["fan"][0] in line for line in zh)
    assert any(line.strip().startswith("scores: Seat 1") for line in en)
