"""`paiju play` (what `make run` starts until the services exist): a person plays a whole hand
against two bots in the terminal, with hints, refusals explained in both languages, and a log that
`paiju audit` accepts."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

from paiju.cli import cmd_play, main


def reply_to(hint: str) -> str:
    """What a person types to follow a hint: "pass 不要", "bid bao", "calls 叫 2S" or cards."""
    if hint == "pass 不要":
        return "p"
    return hint.removeprefix("bid ").removeprefix("calls 叫 ")


def test_a_person_plays_a_whole_hand_against_bots(tmp_path: Path) -> None:
    out = io.StringIO()
    log = tmp_path / "game.jsonl"
    answers: list[str] = []

    def person(prompt: str) -> str:
        """First a bad code, then ask for a hint and play it, again and again."""
        if not answers:
            answer = "ZZ"
        elif answers[-1] != "h":
            answer = "h"
        else:
            hint = out.getvalue().splitlines()[-3].removeprefix("hint 提示: ")
            answer = reply_to(hint)
        answers.append(answer)
        return answer

    args = argparse.Namespace(game="guanpai", variant="boke", seat=0, seed="terminal", log=str(log))
    assert cmd_play(args, out, person) == 0
    text = out.getvalue()
    assert "✗ not a card: 'ZZ'" in text
    assert "scores [" in text and "totals 总分" in text
    assert main(["audit", str(log)]) == 0


def test_a_person_bids_calls_and_plays_banzipao_in_the_terminal(tmp_path: Path) -> None:
    """板子炮 in the terminal: the auction in Chinese words (不包), a refused call of one's own card
    explained, then hints followed to the end of the hand."""
    out = io.StringIO()
    log = tmp_path / "banzipao.jsonl"
    answers: list[str] = []

    def person(prompt: str) -> str:
        lines = out.getvalue().splitlines()
        if lines[-1].startswith("bid:"):
            answer = "不包"
        elif lines[-1].startswith("call:") and "✗" not in out.getvalue():
            hand = next(line for line in reversed(lines) if line.startswith("your hand"))
            answer = hand.split()[-1]  # a card of one's own: refused
        elif not answers or answers[-1] != "h":
            answer = "h"
        else:
            hint = next(line for line in reversed(lines) if line.startswith("hint 提示: "))
            answer = reply_to(hint.removeprefix("hint 提示: "))
        answers.append(answer)
        return answer

    for seed in range(200):  # until seat 0 deals a hand nobody bids on
        out.truncate(0)
        out.seek(0)
        answers.clear()
        args = argparse.Namespace(
            game="banzipao", variant=None, seat=0, seed=f"t{seed}", log=str(log)
        )
        assert cmd_play(args, out, person) == 0
        if "✗" in out.getvalue():
            break
    text = out.getvalue()
    assert "不包" in answers
    assert (
        "✗ 叫牌必须叫一张自己手里没有的牌" in text
    )  # the dealer (seat 0 here) called his own card
    assert any('"card_called"' in line for line in log.read_text().splitlines())
    assert "scores [" in text and main(["audit", str(log)]) == 0
