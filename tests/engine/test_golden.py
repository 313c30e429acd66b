"""The engine plays the golden playthroughs (tests/golden/) exactly as they were recorded: every
event of each bot-played match, every viewer's view after every event, and after every event the
seat to act, its legal moves and the result of a hand that ended (the steps), byte for byte; and
the decision playthroughs (``playthrough.DECISIONS``) hold the decisions and scoring lines they
were made for.

A failure means observable behaviour changed. If that is deliberate, regenerate the files with
tests/golden/regen.py (its docstring says when that is allowed); otherwise it is a regression.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def load_playthrough() -> ModuleType:
    """tests/golden/playthrough.py as a module (tests/golden is not a package)."""
    name = "paiju_golden_playthrough"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, GOLDEN / "playthrough.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


playthrough = load_playthrough()
CASES = playthrough.cases()
DECISIONS = {case.name: case for case in playthrough.DECISIONS}
# every playthrough, the bot's and the decisions', as (game, variant, players, name)
EVERY = CASES + [(c.game, c.variant, c.players, c.name) for c in DECISIONS.values()]


def differences(expected: Any, got: Any, path: str = "") -> list[str]:
    """Where two JSON values differ, as ``path: expected != got`` lines (the first few)."""
    if isinstance(expected, dict) and isinstance(got, dict):
        found = []
        for key in sorted(expected.keys() | got.keys()):
            if key not in got:
                found.append(f"{path}.{key}: missing (expected {expected[key]!r})")
            elif key not in expected:
                found.append(f"{path}.{key}: unexpected {got[key]!r}")
            else:
                found += differences(expected[key], got[key], f"{path}.{key}")
        return found
    if isinstance(expected, list) and isinstance(got, list) and len(expected) == len(got):
        return [
            d
            for i, (e, g) in enumerate(zip(expected, got, strict=True))
            for d in differences(e, g, f"{path}[{i}]")
        ]
    return (
        []
        if expected == got and type(expected) is type(got)
        else [f"{path or '.'}: {expected!r} != {got!r}"]
    )


def first_difference(name: str, expected: str, got: str) -> str:
    """A message naming the first line that differs: the event index (and viewer) and what in it."""
    old, new = expected.splitlines(), got.splitlines()
    n = next((k for k, pair in enumerate(zip(old, new, strict=False)) if pair[0] != pair[1]), None)
    if n is None:
        return (
            f"{name}: {len(old)} lines recorded, {len(new)} produced, the common ones equal"
            " (line endings or a missing last line?)"
        )
    try:
        e_json, g_json = json.loads(old[n]), json.loads(new[n])
    except ValueError:
        e_json = g_json = None
    if name.endswith(".views.jsonl") and isinstance(e_json, dict) and isinstance(g_json, dict):
        where = f"after event {e_json.get('i')}, viewer seat {e_json.get('seat')!r}"
        if (e_json.get("i"), e_json.get("seat")) != (g_json.get("i"), g_json.get("seat")):
            where += f" (produced: event {g_json.get('i')}, seat {g_json.get('seat')!r})"
    elif name.endswith(".steps.jsonl") and isinstance(e_json, dict):
        where = f"the step after event {e_json.get('i')}"
    else:
        where = "the header" if n == 0 else f"event {n - 1}"
    detail = differences(e_json, g_json) if e_json is not None else []
    lines = [f"{name} line {n + 1}: {where} differs"]
    lines += [f"  {d}"[:300] for d in detail[:8]] or [
        f"  recorded: {old[n][:300]}",
        f"  produced: {new[n][:300]}",
    ]
    return "\n".join(lines)


def assert_recorded(texts: dict[str, str]) -> None:
    for file_name, text in texts.items():
        path = GOLDEN / file_name
        assert path.exists(), f"{path.name} is missing: see tests/golden/regen.py"
        recorded = path.read_bytes()
        if recorded != text.encode("utf-8"):
            pytest.fail(first_difference(file_name, recorded.decode("utf-8"), text), pytrace=False)


@pytest.mark.parametrize(("game", "variant", "players", "name"), CASES, ids=[c[3] for c in CASES])
def test_playthrough_matches_the_golden_files(
    game: str, variant: str, players: int, name: str
) -> None:
    assert_recorded(playthrough.texts(game, variant, players))


@pytest.mark.parametrize("name", DECISIONS)
def test_decision_playthrough_matches_the_golden_files(name: str) -> None:
    assert_recorded(playthrough.decision_texts(DECISIONS[name]))


def recorded_missed(case: Any, log: str | None = None) -> list[str]:
    """``playthrough.missed`` of the case's files (``log``: another text for its log)."""
    steps = (GOLDEN / f"{case.name}.steps.jsonl").read_text(encoding="utf-8")
    log = (GOLDEN / f"{case.name}.log.jsonl").read_text(encoding="utf-8") if log is None else log
    return list(playthrough.missed(case, log, steps))


@pytest.mark.parametrize("name", DECISIONS)
def test_decision_playthrough_makes_its_decisions_and_scores_them(name: str) -> None:
    """Read from the files, so that a regeneration that lost a decision (a seed that no longer
    leads to it) fails here: tests/golden/seek.py finds another seed."""
    case = DECISIONS[name]
    assert any(hand.events or hand.result for hand in case.hands)
    assert recorded_missed(case) == []


def test_a_lost_decision_is_missed() -> None:
    """A 反包 of banzipao-guizhou-bids turned into a pass, and dabang's overcall turned into the
    declarer's own (a reinforcement, not an overcall), are missed."""
    case = DECISIONS["banzipao-guizhou-bids"]
    log = (GOLDEN / f"{case.name}.log.jsonl").read_text(encoding="utf-8")
    changed = log.replace('"bid": "fanbao"', '"bid": "pass"')
    assert changed != log and any("fanbao" in m for m in recorded_missed(case, changed))
    case = DECISIONS["dabang-huludao-overcall"]
    log = (GOLDEN / f"{case.name}.log.jsonl").read_text(encoding="utf-8")
    changed = log.replace('"seat": 2, "bid": "2x', '"seat": 1, "bid": "2x')
    assert changed != log and any("2x?" in m for m in recorded_missed(case, changed))
    assert recorded_missed(case, log) == []


def test_no_stale_golden_files() -> None:
    expected = {f"{c[3]}.{kind}.jsonl" for c in EVERY for kind in ("log", "views", "steps")}
    present = {p.name for p in GOLDEN.glob("*.jsonl")}
    assert present == expected, (
        f"golden files without a playthrough or missing: {present ^ expected}"
    )


def test_first_difference_names_the_event_and_viewer() -> None:
    name = CASES[0][3]
    views = (GOLDEN / f"{name}.views.jsonl").read_text(encoding="utf-8")
    lines = views.splitlines()
    changed = json.loads(lines[7])
    changed["view"]["totals"] = ["x"]
    tampered = "\n".join([*lines[:7], playthrough.canonical(changed), *lines[8:]]) + "\n"
    message = first_difference("x.views.jsonl", views, tampered)
    assert f"after event {changed['i']}, viewer seat {changed['seat']!r}" in message
    assert ".view.totals" in message
    log = (GOLDEN / f"{name}.log.jsonl").read_text(encoding="utf-8")
    message = first_difference("x.log.jsonl", log, log.replace('"seat": 1', '"seat": 2', 1))
    assert "event " in message and ".seat: 1 != 2" in message
    assert "line endings" in first_difference("x.log.jsonl", log, log.replace("\n", "\r\n"))


@pytest.mark.parametrize(("game", "variant", "players", "name"), EVERY, ids=[c[3] for c in EVERY])
def test_each_step_records_the_seat_to_act_its_legal_moves_and_each_hands_result(
    game: str, variant: str, players: int, name: str
) -> None:
    """As OpenSpiel's playthroughs do: after every event of the log, the seat to act and every
    move it may make (all of them that seat's; none while the table acts, nor in the middle of
    the events of one command), the seat whose command comes next being the one named with moves;
    and on each hand_ended the hand's result as the game declares it (``paiju.results``); no other
    step carries a result."""
    events = [json.loads(line) for line in (GOLDEN / f"{name}.log.jsonl").read_text().splitlines()]
    steps = [json.loads(line) for line in (GOLDEN / f"{name}.steps.jsonl").read_text().splitlines()]
    kind = next(g["result"]["kind"] for g in playthrough.api.list_games() if g["id"] == game)
    assert [step["i"] for step in steps] == list(range(len(events) - 1))
    for step, after, then in zip(steps, events[1:], [*events[2:], None], strict=True):
        seat = step["to_move"]
        assert step["legal"] == [] or seat is not None
        assert all(move["seat"] == seat for move in step["legal"])
        if then is not None and then["type"] in SEAT_COMMANDS and after["type"] in STABLE_AFTER:
            assert seat == then["seat"] and step["legal"], (step["i"], then)
        ended = after["type"] == "hand_ended"
        assert (step["result"] is not None) == ended
        if ended:
            assert step["result"]["kind"] == kind and step["result"]["hand_no"] == after["hand_no"]


# events a seat's own command starts with, and the last events of a command's batch (after which
# the state waits for the next decision)
SEAT_COMMANDS = frozenset({"played", "passed", "bid_made"})
STABLE_AFTER = frozenset({"played", "passed", "bid_made", "trick_won", "dealt", "seed_added"})
