"""`paiju audit` replays an exported log through the rules: an honest log prints its scores; a
tampered or corrupt one names its first bad event by index with the rule error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from paiju import bots
from paiju.cli import main
from paiju.games.guanpai import GAME
from paiju.log import audit, dump_lines
from paiju.simulate import play_game


@pytest.fixture(scope="module")
def recorded() -> list[str]:
    """A recorded two-hand mainstream match played by bots."""
    config = GAME.config("mainstream", 3, hands=2)
    state, events = play_game(config, "recorded", lambda s, seat, moves: bots.choose(s, seat))
    assert state.phase == "over"
    return dump_lines(config, events, table_id="t-1")


def index_of(lines: list[str], event_type: str, nth: int = 0) -> int:
    """The event index (0 = first line after the header) of the nth event of a type."""
    hits = [i - 1 for i, line in enumerate(lines) if json.loads(line)["type"] == event_type]
    return hits[nth]


def with_event(lines: list[str], index: int, **changes: object) -> list[str]:
    data = json.loads(lines[index + 1]) | changes
    return [*lines[: index + 1], json.dumps(data), *lines[index + 2 :]]


def test_an_honest_log_replays_to_its_scores(recorded: list[str]) -> None:
    report = audit(recorded)
    assert report.ok and report.error is None and report.bad_index is None
    assert report.state is not None and report.state.phase == "over"
    ended = [json.loads(line) for line in recorded if '"hand_ended"' in line]
    assert list(report.state.totals) == [sum(e["scores"][s] for e in ended) for s in range(3)]
    assert [d.status for d in report.deals] == ["verified", "verified"]


def test_an_illegal_play_is_named_by_its_index(recorded: list[str]) -> None:
    i = index_of(recorded, "played", 3)
    seat = json.loads(recorded[i + 1])["seat"]
    bad = with_event(recorded, i, seat=(seat + 1) % 3)
    report = audit(bad)
    assert report.bad_index == i and report.error is not None
    assert report.error.code == "not_your_turn"


def test_a_play_of_cards_not_in_hand_is_named(recorded: list[str]) -> None:
    i = index_of(recorded, "played", 5)
    bad = with_event(recorded, i, cards=["2S"] if "2S" not in recorded[i + 1] else ["3S"])
    report = audit(bad)
    assert report.bad_index == i and report.error is not None
    assert report.error.code in ("not_in_hand", "does_not_beat", "invalid_combination")


def test_a_forged_score_is_named(recorded: list[str]) -> None:
    i = index_of(recorded, "hand_ended")
    data = json.loads(recorded[i + 1])
    bad = with_event(recorded, i, scores=[s * 2 for s in data["scores"]])
    report = audit(bad)
    assert report.bad_index == i and report.error is not None
    assert report.error.code == "unexpected_event"


def test_a_tampered_deal_seed_or_commitment_is_named(recorded: list[str]) -> None:
    dealt = index_of(recorded, "dealt")
    hands = json.loads(recorded[dealt + 1])["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    report = audit(with_event(recorded, dealt, hands=hands))
    assert (report.bad_index, report.error and report.error.code) == (dealt, "unexpected_event")

    reveal = index_of(recorded, "seed_revealed")
    report = audit(with_event(recorded, reveal, seed="forged"))
    assert (report.bad_index, report.error and report.error.code) == (reveal, "seed_mismatch")

    commit = index_of(recorded, "deal_committed", 1)
    report = audit(with_event(recorded, commit, commitment="ab" * 32))
    assert report.error is not None and not report.ok
    assert report.bad_index is not None and report.bad_index > commit


def test_a_corrupt_line_or_header_is_named(recorded: list[str]) -> None:
    bad = [*recorded[:6], "{not json", *recorded[7:]]
    report = audit(bad)
    assert (report.bad_index, report.error and report.error.code) == (5, "log_corrupt")
    report = audit(['{"type": "something else"}', *recorded[1:]])
    assert report.error is not None and report.error.code == "log_header"


def test_the_command_line_prints_scores_and_names_the_bad_event(
    recorded: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.jsonl"
    good.write_text("\n".join(recorded) + "\n")
    assert main(["audit", str(good)]) == 0
    out = capsys.readouterr().out
    assert "audit: OK" in out and "deal of hand 2: verified" in out and "scores" in out

    i = index_of(recorded, "passed")
    bad = tmp_path / "bad.jsonl"
    data = json.loads(recorded[i + 1])
    bad.write_text("\n".join(with_event(recorded, i, seat=(data["seat"] + 1) % 3)) + "\n")
    assert main(["audit", str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"BAD event #{i} (line {i + 2}): not_your_turn" in out and "audit: FAILED" in out


def test_python_dash_m_paiju_runs_the_same_audit(recorded: list[str], tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join(recorded) + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "paiju", "audit", "--json", str(path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["ok"] and report["events"] == len(recorded) - 1


# --- 板子炮: the auction and the call are commands too ---------------------------------------------


def banzipao_log(want: str) -> list[str]:
    """A recorded random 板子炮 hand whose auction ended in ``want`` (bao, fanbao or call)."""
    import random

    from paiju.games.banzipao import GAME as BANZIPAO
    from paiju.games.banzipao import mode_of
    from paiju.simulate import random_chooser

    config = BANZIPAO.config()
    for seed in range(200):
        state, events = play_game(config, f"audit-{seed}", random_chooser(random.Random(seed)))
        if mode_of(state) == want:  # type: ignore[arg-type]
            return dump_lines(config, events, table_id="t-bzp")
    raise AssertionError(f"no random hand ended in {want}")


@pytest.mark.parametrize("mode", ["bao", "fanbao", "call"])
def test_a_banzipao_log_replays_through_its_auction(mode: str) -> None:
    lines = banzipao_log(mode)
    report = audit(lines)
    assert report.ok and report.state is not None and report.state.phase == "over"
    assert index_of(lines, "bid_made") >= 0


def test_a_forged_bid_or_call_is_named() -> None:
    lines = banzipao_log("call")
    first_bid = index_of(lines, "bid_made")
    report = audit(with_event(lines, first_bid, bid="fanbao"))  # nobody has bid 包 yet
    assert report.bad_index == first_bid and report.error is not None
    assert report.error.code == "bid_not_allowed"
    call = index_of(lines, "card_called")
    dealer_hand = next(json.loads(line)["hands"] for line in lines if '"dealt"' in line)[
        json.loads(lines[call + 1])["seat"]
    ]
    report = audit(with_event(lines, call, card=dealer_hand[0]))  # a card the dealer holds
    assert report.bad_index == call and report.error is not None
    assert report.error.code == "call_own_card"


def test_a_tianpai_deal_ends_the_hand_in_the_log_with_or_without_the_seed() -> None:
    """板子炮's 十三烂 wins at the deal: the log has no auction, the score follows the deal, and
    the audit derives it both from the revealed seed and (seed withheld) from the dealt hands."""
    from paiju.games.banzipao import GAME as BANZIPAO

    config = BANZIPAO.config()
    state, events = play_game(config, "tianpai-3539", lambda s, seat, moves: moves[0])
    lines = dump_lines(config, events)
    kinds = [json.loads(line)["type"] for line in lines[1:]]
    assert kinds == ["deal_committed", "dealt", "hand_ended", "seed_revealed", "match_ended"]
    assert {line.reason for line in state.last_hand.lines} == {"shisanlan"}  # type: ignore[union-attr]
    assert audit(lines).ok
    withheld = [line for line in lines if '"seed_revealed"' not in line]
    report = audit(withheld[:-1])  # the match cannot end before the reveal
    assert report.error is None and [d.status for d in report.deals] == ["unrevealed"]
    assert report.state is not None and report.state.last_hand == state.last_hand
