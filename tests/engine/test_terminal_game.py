"""`paiju play` (what `make run` starts until the services exist): a person plays a whole hand
against two bots in the terminal, with hints, refusals explained in both languages, and a log that
`paiju audit` accepts."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

from paiju.cli import cmd_play, main


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
            answer = "p" if hint == "pass" else hint
        answers.append(answer)
        return answer

    args = argparse.Namespace(game="guanpai", variant="boke", seat=0, seed="terminal", log=str(log))
    assert cmd_play(args, out, person) == 0
    text = out.getvalue()
    assert "✗ not a card: 'ZZ'" in text
    assert "scores [" in text and "totals 总分" in text
    assert main(["audit", str(log)]) == 0
