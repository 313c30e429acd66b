"""The ``paiju`` command as a person meets it: ``audit`` says in words what it checked and what is
wrong, with an exit status for each verdict (0 sound, 1 wrong, 2 unreadable, 3 incomplete) that
``--help`` lists; a missing file, a closed input or Ctrl-C end with a message and a status, never a
traceback; ``games`` prints a table; ``play``'s refusals and prompts are for people."""

from __future__ import annotations

import argparse
import io
import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from paiju import bots
from paiju.cli import main
from paiju.console import (
    EXIT_FAILED,
    EXIT_INCOMPLETE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_UNREADABLE,
)
from paiju.games.guanpai import GAME
from paiju.log.file import dump_lines
from paiju.registry import GAMES
from paiju.simulate import play_game
from paiju.terminal import cmd_play

HAN = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def recorded() -> list[str]:
    """A recorded two-hand mainstream 关牌 match played by bots."""
    config = GAME.config("mainstream", 3, hands=2)
    state, events = play_game(config, "cli", lambda s, seat, moves: bots.choose(s, seat))
    assert state.phase == "over"
    return dump_lines(config, events, table_id="t-cli")


def write(tmp_path: Path, name: str, lines: list[str]) -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def index_of(lines: list[str], event_type: str, nth: int = 0) -> int:
    return [i - 1 for i, line in enumerate(lines) if json.loads(line)["type"] == event_type][nth]


def run_audit(capsys: pytest.CaptureFixture[str], path: Path, *flags: str) -> tuple[int, str, str]:
    status = main(["audit", str(path), *flags])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# --- audit: verdicts and exit statuses -------------------------------------------------------------


def test_an_honest_log_exits_0_and_says_ok(
    recorded: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_audit(capsys, write(tmp_path, "good.jsonl", recorded), "--lang", "en")
    assert status == EXIT_OK == 0
    lines = out.splitlines()
    assert lines[-1] == "audit: OK — the log is complete and every step follows the rules"
    assert lines[-2].startswith("totals: Seat 1 ")
    assert not HAN.search(out), out  # English only, when asked
    status, out, _ = run_audit(capsys, write(tmp_path, "good.jsonl", recorded), "--lang", "zh")
    assert out.splitlines()[-1] == "审核通过：日志完整，每一步都符合规则"
    assert "Seat" not in out and "1号位" in out


def test_both_languages_by_default_chinese_first(
    recorded: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = run_audit(capsys, write(tmp_path, "good.jsonl", recorded))
    assert out.splitlines()[-2:] == [
        "审核通过：日志完整，每一步都符合规则",
        "    audit: OK — the log is complete and every step follows the rules",
    ]


def test_a_truncated_log_exits_3_and_says_what_was_not_checked(
    recorded: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cut = recorded[: index_of(recorded, "played", 12) + 2]
    status, out, _ = run_audit(capsys, write(tmp_path, "cut.jsonl", cut), "--lang", "en")
    assert status == EXIT_INCOMPLETE == 3
    assert "in the middle of hand 1 (playing)" in out and "its deal cannot be checked" in out
    assert "the match's result (the totals) cannot be checked" in out
    assert out.splitlines()[-1].startswith("audit: INCOMPLETE")
    assert "OK" not in out


def test_a_header_only_log_exits_3(
    recorded: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_audit(capsys, write(tmp_path, "head.jsonl", recorded[:1]), "--lang", "en")
    assert status == EXIT_INCOMPLETE
    assert "the log has its header and no event" in out and "audit: INCOMPLETE" in out


def test_a_changed_card_exits_1_and_is_explained_in_words(
    recorded: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    i = index_of(recorded, "played", 5)
    data = json.loads(recorded[i + 1])
    bad = "2S" if "2S" not in data["cards"] else "3S"
    tampered = [*recorded[: i + 1], json.dumps(data | {"cards": [bad]}), *recorded[i + 2 :]]
    status, out, _ = run_audit(capsys, write(tmp_path, "bad.jsonl", tampered), "--lang", "en")
    assert status == EXIT_FAILED == 1
    name = {"2S": "2♠", "3S": "3♠"}[bad]
    assert (
        f"line {i + 2}: Seat {data['seat'] + 1} played {name}, but {name} is not in that hand"
        in out
    )
    assert "expected" not in out and bad not in out.replace(name, "")
    assert out.splitlines()[-1] == "audit: FAILED — the log is wrong"


def test_a_changed_deal_exits_1_and_names_seats_and_cards_not_json(
    recorded: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dealt = index_of(recorded, "dealt")
    data = json.loads(recorded[dealt + 1])
    data["hands"][1][0], data["hands"][2][0] = data["hands"][2][0], data["hands"][1][0]
    tampered = [*recorded[: dealt + 1], json.dumps(data), *recorded[dealt + 2 :]]
    status, out, _ = run_audit(capsys, write(tmp_path, "deal.jsonl", tampered), "--lang", "en")
    assert status == EXIT_FAILED
    assert f"line {dealt + 2}: the deal of hand 1 does not follow from the seeds" in out
    assert "  Seat 2: the log has " in out and "  Seat 3: the log has " in out
    assert "{" not in out and len(max(out.splitlines(), key=len)) < 120


def test_json_output_carries_the_verdict_and_the_messages(
    recorded: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_audit(capsys, write(tmp_path, "head.jsonl", recorded[:1]), "--json")
    report = json.loads(out)
    assert status == EXIT_INCOMPLETE
    assert (report["ok"], report["complete"], report["verdict"]) == (True, False, "incomplete")
    assert report["messages"]["en"][-1].startswith("audit: INCOMPLETE")
    assert report["messages"]["zh"][-1].startswith("审核未完成")
    status, out, _ = run_audit(capsys, write(tmp_path, "good.jsonl", recorded), "--json")
    assert status == EXIT_OK and json.loads(out)["verdict"] == "sound"


# --- audit: files that cannot be read ------------------------------------------------------------


def test_a_missing_file_exits_2_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_audit(capsys, tmp_path / "nowhere.jsonl")
    assert status == EXIT_UNREADABLE == 2 and out == ""
    assert err.strip() == (
        f"paiju: 无法读取 {tmp_path / 'nowhere.jsonl'}：没有这个文件 / cannot read "
        f"{tmp_path / 'nowhere.jsonl'}: no such file"
    )


def test_a_directory_or_a_binary_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run_audit(capsys, tmp_path)
    assert status == EXIT_UNREADABLE and "it is a directory, not a log" in err
    binary = tmp_path / "log.bin"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    status, _, err = run_audit(capsys, binary)
    assert status == EXIT_UNREADABLE and "it is not UTF-8 text" in err


def test_python_dash_m_paiju_reports_a_missing_file_without_a_traceback(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "paiju", "audit", str(tmp_path / "nowhere.jsonl")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == EXIT_UNREADABLE
    assert "Traceback" not in done.stderr and "no such file" in done.stderr


def test_python_dash_m_paiju_runs_the_same_audit(recorded: list[str], tmp_path: Path) -> None:
    path = write(tmp_path, "log.jsonl", recorded)
    done = subprocess.run(
        [sys.executable, "-m", "paiju", "audit", "--json", str(path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["ok"] and report["events"] == len(recorded) - 1


def test_help_lists_the_exit_statuses(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["audit", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    for line in (
        "  0  audit: the log is complete",
        "  1  audit: the log is wrong",
        "  3  audit: incomplete",
    ):
        assert line in out
    assert "  2  a file cannot be read" in out


# --- games -----------------------------------------------------------------------------------------


def test_games_prints_a_table_of_games_and_variants(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == EXIT_OK
    out = capsys.readouterr().out
    assert "(3,)" not in out and "players" in out.splitlines()[0]
    rows = [line.split() for line in out.splitlines()[1:] if line.strip()]
    for game in GAMES.values():
        assert [game.info.id, game.info.name_zh, *game.info.name_en.split()] in rows
        for variant in game.info.variants:
            players = "/".join(str(n) for n in variant.players)
            row = [variant.id, players, variant.name_zh, *variant.name_en.split()]
            assert row in rows, (row, rows)


# --- play: a closed input, Ctrl-C, quitting, a wrong seat ------------------------------------------


def play(ask: Callable[[str], str], seat: int = 1, lang: str = "en") -> tuple[int, str]:
    out = io.StringIO()
    args = argparse.Namespace(
        game="guanpai", variant="boke", seat=seat, seed="cli", log=None, lang=lang
    )
    return cmd_play(args, out, ask), out.getvalue()


def test_a_closed_input_ends_the_game_with_a_message_and_status_2() -> None:
    def closed(prompt: str) -> str:
        raise EOFError

    status, out = play(closed)
    assert status == EXIT_UNREADABLE
    assert out.splitlines()[-1] == "the input is closed: the game is left unfinished"


def test_ctrl_c_ends_the_game_with_a_message_and_status_130() -> None:
    def interrupted(prompt: str) -> str:
        raise KeyboardInterrupt

    status, out = play(interrupted, lang="zh")
    assert status == EXIT_INTERRUPTED == 130
    assert out.splitlines()[-1] == "已中断，牌局没有打完"


def test_quitting_ends_the_game_with_status_1() -> None:
    status, out = play(lambda prompt: "q")
    assert status == EXIT_FAILED
    assert out.splitlines()[-1] == "you quit: the game is left unfinished"


def test_a_seat_the_table_does_not_have_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    status, _ = play(lambda prompt: "q", seat=4)
    assert status == EXIT_UNREADABLE
    assert "a seat is 1 to 3" in capsys.readouterr().err
    status, _ = play(lambda prompt: "q", seat=0)
    assert status == EXIT_UNREADABLE


def test_an_unknown_game_or_variant_is_refused_with_the_choices_named(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """In the language asked for, with each game's (each variant's) id and name; no Python list."""
    args = argparse.Namespace(game="nosuch", variant=None, seat=1, seed="s", log=None, lang="zh")
    assert cmd_play(args, io.StringIO(), lambda prompt: "q") == EXIT_UNREADABLE
    err = capsys.readouterr().err
    assert "没有游戏“nosuch”" in err and "guanpai（关牌）" in err and "dabang（葫芦岛打棒）" in err
    assert "[" not in err and "known" not in err and "no game" not in err
    args = argparse.Namespace(game="guanpai", variant="x", seat=1, seed="s", log=None, lang="en")
    assert cmd_play(args, io.StringIO(), lambda prompt: "q") == EXIT_UNREADABLE
    err = capsys.readouterr().err
    assert "Guanpai has no variant “x”" in err and "boke (Boke City rules)" in err
    assert "[" not in err and "没有" not in err


def test_python_dash_m_paiju_play_with_no_input_ends_without_a_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "paiju", "play", "guanpai", "--seed", "x", "--lang", "en"],
        input="",
        capture_output=True,
        text=True,
    )
    assert done.returncode == EXIT_UNREADABLE
    assert "Traceback" not in done.stderr + done.stdout
    assert done.stdout.splitlines()[-1] == "the input is closed: the game is left unfinished"


def test_a_refused_play_names_the_cards_as_players_read_them() -> None:
    """Seat 1 leads the boke table here: two cards of different ranks are refused, and the
    refusal names them with their symbols in each language."""
    replies = iter(["10♠ 3h", "q"])
    status, out = play(lambda prompt: next(replies), lang="both")
    assert status == EXIT_FAILED
    refusal = next(line for line in out.splitlines() if line.startswith("✗"))
    assert "♠10" in refusal and "♥3" in refusal  # the Chinese half
    assert "10♠" in refusal and "3♥" in refusal  # the English half
    assert "TS" not in refusal and "3H" not in refusal
