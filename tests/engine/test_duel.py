"""``paiju duel`` (``paiju.duel``): one bot level against another over duplicate deals. Its JSON
carries every key issue 30 names, with its type; the same seed gives the same duel, times apart;
each deal is played once per seat, the hero in every seat on the same cards; a level, game or
variant that does not exist is refused in words, with exit status 2; and every bot decides from
its own seat's view, never from the table's state."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from paiju import api, duel, duel_report, levels
from paiju.cli import main
from paiju.client import state_from_view
from paiju.console import EXIT_OK, EXIT_UNREADABLE
from paiju.protocol import Bid, Command
from paiju.registry import get_game
from paiju.simulate import table_command
from paiju.table import TableState

KEYS: dict[str, type | tuple[type, ...]] = {
    "game": str,
    "variant": str,
    "hero": str,
    "field": str,
    "hands": int,
    "hero_mean": (int, float),
    "ci95": list,
    "win_rate": (int, float),
    "bids": dict,
    "decision_ms": dict,
    "field_mean": (int, float),
    "field_ci95": list,
    "lineup": str,
    "seed": str,
    "players": int,
    "hero_hands": int,
    "decisions": int,
}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["duel", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def duel_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    status, out, _ = run(capsys, *argv, "--json")
    assert status == EXIT_OK
    assert len(out.strip().splitlines()) == 1  # exactly one JSON object
    report: dict[str, Any] = json.loads(out)
    return report


def without_times(report: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in report.items() if key != "decision_ms"}


def test_the_json_names_every_key_of_the_issue_with_its_type(
    capsys: pytest.CaptureFixture[str],
) -> None:
    report = duel_json(capsys, "banzipao", "--hero", "normal", "--field", "basic", "--hands", "4")
    for key, kind in KEYS.items():
        assert isinstance(report[key], kind), (key, report[key])
    assert (report["game"], report["variant"], report["hands"]) == ("banzipao", "guizhou", 4)
    assert (report["hero"], report["field"], report["lineup"]) == ("normal", "basic", "one")
    assert report["hero_hands"] == 4 * 4  # each deal once per seat, one hero seat each time
    low, high = report["ci95"]
    assert low <= report["hero_mean"] <= high
    assert 0 <= report["win_rate"] <= 1
    assert set(report["decision_ms"]) == {"p50", "p95", "max"}
    ms = report["decision_ms"]
    assert 0 <= ms["p50"] <= ms["p95"] <= ms["max"]
    assert report["bids"]  # these deals have a 包 and a 叫牌
    for kind, bid in report["bids"].items():
        assert isinstance(bid["count"], int) and bid["offered"] >= bid["count"] >= 0, kind
        if bid["count"]:
            assert isinstance(bid["hero_mean"], int | float), kind
        else:
            assert bid["hero_mean"] is None and bid["offered"] > 0, kind
        assert bid["zh"] and bid["en"] and bid["zh"] != kind  # named in the game's words
    assert "pass" not in report["bids"]  # 不包 is no bid


def test_the_same_seed_gives_the_same_duel_times_apart(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("guanpai:boke", "--hero", "normal", "--field", "basic", "--hands", "6")
    first = duel_json(capsys, *args, "--seed", "s1")
    again = duel_json(capsys, *args, "--seed", "s1")
    other = duel_json(capsys, *args, "--seed", "s2")
    assert without_times(first) == without_times(again)
    assert without_times(first) != without_times(other)
    # the hero's mean is whatever the levels make of the cards: only its form is asserted
    assert first["hero_mean"] == round(first["hero_mean"], 4)


def test_deals_played_in_two_processes_make_the_same_duel(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ("guanpai:boke", "--hero", "normal", "--field", "basic", "--hands", "4", "--seed", "j")
    alone = duel_json(capsys, *args)
    shared = duel_json(capsys, *args, "--jobs", "2")
    assert without_times(shared) == without_times(alone)
    assert shared["decisions"] == alone["decisions"] > 0


@pytest.mark.parametrize(("lineup", "heroes_each_time"), [("one", 1), ("all", 3)])
def test_each_deal_seats_the_hero_in_every_seat_on_the_same_cards(
    lineup: str, heroes_each_time: int
) -> None:
    result = duel.duel("dagong", None, "normal", "basic", 2, "rotate", lineup)
    players = result.config.players
    assert len(result.deals) == 2
    for rotation in result.deals:
        assert len(rotation) == players  # the deal played once per seat
        assert len({seating.dealt for seating in rotation}) == 1  # on the same cards
        assert rotation[0].dealt and all(rotation[0].dealt)
        held = [seat for seating in rotation for seat in seating.heroes]
        assert all(len(seating.heroes) == heroes_each_time for seating in rotation)
        # one: the hero in each seat once; all: the field's one seat in each seat once
        assert sorted(held) == sorted(list(range(players)) * heroes_each_time)
    assert result.deals[0][0].dealt != result.deals[1][0].dealt  # deals differ


def test_the_report_is_printed_in_the_language_asked_for(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ("guanpai", "--hero", "normal", "--field", "basic", "--hands", "2")
    status, out, _ = run(capsys, *args)
    assert status == EXIT_OK
    assert "关牌" in out and "普通 对 入门" in out and "95% 置信区间" in out and "CI" not in out
    status, out, _ = run(capsys, *args, "--lang", "en")
    assert status == EXIT_OK
    assert "Normal against Beginner" in out and "95% CI" in out and "置信" not in out


@pytest.mark.parametrize(
    ("argv", "zh", "en"),
    [
        (
            ["guanpai", "--hero", "grandmaster", "--field", "basic"],
            "没有机器人等级",
            "no bot level",
        ),
        (["guanpai", "--hero", "normal", "--field", "expertt"], "没有机器人等级", "no bot level"),
        (["nosuch", "--hero", "normal", "--field", "basic"], "没有这个游戏", "No such game"),
        (["guanpai:x", "--hero", "normal", "--field", "basic"], "没有玩法", "has no variant"),
    ],
)
def test_an_unknown_level_game_or_variant_is_refused_in_words_with_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], zh: str, en: str
) -> None:
    status, out, err = run(capsys, *argv, "--hands", "2")
    assert status == EXIT_UNREADABLE and not out
    assert zh in err and "Traceback" not in err
    status, _, err = run(capsys, *argv, "--hands", "2", "--lang", "en")
    assert status == EXIT_UNREADABLE and en in err
    if "level" in en:  # the levels that exist are named, with their names
        assert "basic (Beginner)" in err and "normal (Normal)" in err


def test_too_few_deals_or_jobs_or_a_wrong_lineup_are_refused_with_status_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, _, err = run(capsys, "guanpai", "--hero", "normal", "--field", "basic", "--hands", "1")
    assert status == EXIT_UNREADABLE and "至少要 2 副牌" in err
    status, _, err = run(
        capsys, "guanpai", "--hero", "normal", "--field", "basic", "--hands", "2", "--jobs", "0"
    )
    assert status == EXIT_UNREADABLE and "--jobs 至少为 1" in err
    with pytest.raises(SystemExit) as exit_:
        main(
            [
                "duel",
                "guanpai",
                "--hero",
                "normal",
                "--field",
                "basic",
                "--hands",
                "2",
                "--lineup",
                "x",
            ]
        )
    assert exit_.value.code == EXIT_UNREADABLE


def own_view_only(state: TableState, seat: int) -> bool:
    """Whether ``state`` is one that ``seat``'s view rebuilds: every other hand a stand-in."""
    return state_from_view(state.config, api.view(state, seat)).hands == state.hands


def test_every_bot_decides_from_its_own_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each level is wrapped to check what it is given: the table's state, with the other seats'
    real cards, would fail (as the second half shows)."""
    seen: list[int] = []

    def watched(level: levels.Level) -> levels.Level:
        def choose(state: TableState, seat: int) -> Command:
            assert own_view_only(state, seat), f"{level.id} saw more than seat {seat}'s view"
            seen.append(seat)
            return level.choose(state, seat)

        return levels.Level(level.id, level.name_zh, level.name_en, choose)

    monkeypatch.setattr(
        levels, "LEVELS", {id_: watched(level) for id_, level in levels.LEVELS.items()}
    )
    duel.duel("banzipao", None, "normal", "basic", 1, "view")
    assert set(seen) == {0, 1, 2, 3}

    config = duel.duel_config("banzipao")
    game = get_game("banzipao")
    state = game.initial_state(config)
    while (command := table_command(state, "view")) is not None:
        state, _ = game.apply(state, command)
    seat = game.to_move(state)
    assert seat is not None and not own_view_only(state, seat)  # the check sees the real cards


def test_a_game_whose_later_hands_differ_plays_every_other_deal_as_a_second_hand() -> None:
    """打棒's later hands declare with level cards and overcall (issue 30): its odd deals are a
    match's second hand, after a first hand the field plays at every seat, and every rotation
    starts from that same table; the other games play first hands only."""
    config = duel.duel_config("dabang")
    assert [duel.second_hand(config, n) for n in range(4)] == [False, True, False, True]
    others = ("guanpai", "dabei", "tiaoshu", "banzipao", "dagong")
    assert not any(duel.second_hand(duel.duel_config(game), 1) for game in others)

    start = duel.opening(duel.duel_config("dabang", hands=2), "duel:later:1", "basic")
    assert start is not None and start.hand_no == 1 and start.phase != "over"
    rotation, _, _ = duel.play_deal(config, "later", 1, "normal", "basic", "one")
    assert len(rotation) == 4 and len({seating.dealt for seating in rotation}) == 1
    first, _, _ = duel.play_seating(config, "duel:later:1", (0,), "basic", "basic")
    assert rotation[0].dealt != first.dealt  # the second hand's cards, not the first's


def test_dabang_reports_its_declarations_by_kind_and_no_pick_as_a_bid() -> None:
    """亮主, 反主 (another's show, or his own in another suit), 加固 (his own suit), 扣王 whatever
    the jokers; a pass and 捡 (a choice of the kitty's equal cards) are no bid."""
    game: Any = get_game("dabang")
    state = game.initial_state(duel.duel_config("dabang", hands=2))
    declare = dataclasses.replace(state, phase="declare", hand_no=2)
    on_top = dataclasses.replace(declare, declaration="1xS", declarer=0)
    assert game.bid_kind(declare, 1, "pass") is None
    assert game.bid_kind(declare, 1, "liang") == "liang"
    assert game.bid_kind(declare, 1, "1xH") == "declare"
    assert game.bid_kind(on_top, 1, "2xS") == "overcall"
    assert game.bid_kind(on_top, 0, "2xH") == "overcall"
    assert game.bid_kind(on_top, 0, "2xS") == "reinforce"
    exchange = dataclasses.replace(state, phase="exchange")
    assert [game.bid_kind(exchange, 1, w) for w in ("pass", "bury1", "bury3")] == [
        None,
        "exchange",
        "exchange",
    ]
    assert game.bid_kind(dataclasses.replace(state, phase="pick"), 1, "take4C") is None
    assert duel.kind_name(game, "overcall", "declare") == ("反主", "Overcalled")
    assert duel.kind_name(game, "exchange", "exchange") == ("扣王", "Buried jokers")


def test_a_word_the_hero_could_say_and_never_said_is_reported_as_offered() -> None:
    """板子炮's 反包 is offered to the 下家 of a 包: a hero who declines every time shows it with
    no mean, and how often he could have said it."""
    game: Any = get_game("banzipao")
    state = game.initial_state(duel.duel_config("banzipao"))
    while (command := table_command(state, "offered")) is not None:
        state, _ = game.apply(state, command)
    bidder = game.to_move(state)
    state, _ = game.apply(state, Bid(seat=bidder, bid="bao"))
    answerer = game.to_move(state)
    assert duel.words_offered(game, state, answerer) == ["fanbao"]
    seating = duel.Seating(
        heroes=(answerer,),
        dealt=(),
        scores=tuple(-3 if s == answerer else 0 for s in range(4)),
        declared=((bidder, "bao"),),
        offered=((answerer, "fanbao"),),
    )
    result = duel.Duel(
        duel.duel_config("banzipao"),
        "expert",
        "normal",
        "one",
        "offered",
        ((seating, seating),),
        (),
        {"fanbao": ("反包", "Counter")},
    )
    bids = duel_report.summary(result)["bids"]
    assert bids == {
        "fanbao": {
            "count": 0,
            "offered": 2,
            "rate": 0.0,
            "hero_mean": None,
            "zh": "反包",
            "en": "Counter",
        }
    }
    lines = list(duel_report.report_lines(duel_report.summary(result)))
    assert (
        "  反包：主角有 2 手可以叫，一手也没叫",
        "  Counter: offered in 2 of the hero's hands, never made",
    ) in lines
