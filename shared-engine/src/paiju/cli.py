"""The ``paiju`` command: ``audit`` a log offline, ``play`` a terminal game against bots
(``paiju.terminal``), list ``games``, ``export`` a finished table's log, ``duel`` one bot level
against another (``paiju.duel``).

Everything it prints is for a person: seats numbered from 1 as the table shows them (1号位 /
Seat 1), cards by their names (``paiju.cards.card_names``: ♠A / A♠), every code of a game by its
name in the game's words (``paiju.words``), in Chinese, English or both (``--lang``). A file that
cannot be read, a closed input or Ctrl-C end the command with a message and an exit status, never
a traceback. The exit statuses are ``EXIT_*`` in ``paiju.console`` (and in ``paiju --help``).
"""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from collections.abc import Sequence
from typing import Any, TextIO

from paiju import api
from paiju.console import (
    EXIT_FAILED,
    EXIT_INCOMPLETE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_STATUS_HELP,
    EXIT_UNREADABLE,
    cannot_read,
    say,
)
from paiju.duel import DEFAULT_SEED, LINEUPS
from paiju.duel_report import cmd_duel
from paiju.errors import PaijuError, RuleError
from paiju.levels import LEVELS
from paiju.log.replay import Audit, audit
from paiju.log.report import describe
from paiju.registry import GAMES
from paiju.terminal import cmd_play

AUDIT_EXIT = {"sound": EXIT_OK, "failed": EXIT_FAILED, "incomplete": EXIT_INCOMPLETE}

LANGS = ("zh", "en", "both")


# --- audit ----------------------------------------------------------------------------------------


def cmd_audit(args: argparse.Namespace, out: TextIO) -> int:
    try:
        with open(args.log, encoding="utf-8") as f:
            report = audit(f)
    except FileNotFoundError:
        return cannot_read(args.log, ("没有这个文件", "no such file"))
    except IsADirectoryError:
        return cannot_read(args.log, ("这是一个目录，不是日志文件", "it is a directory, not a log"))
    except UnicodeDecodeError:
        return cannot_read(args.log, ("不是 UTF-8 文本", "it is not UTF-8 text"))
    except OSError as err:
        return cannot_read(args.log, (err.strerror or str(err), err.strerror or str(err)))
    if args.json:
        print(json.dumps(_audit_json(report), ensure_ascii=False, indent=2), file=out)
    else:
        for text in describe(report):
            print(say(text, getattr(args, "lang", "both"), "\n    "), file=out)
    return AUDIT_EXIT[report.verdict]


def _audit_json(report: Audit) -> dict[str, Any]:
    state = report.state
    text = describe(report)
    return {
        "ok": report.ok,
        "verdict": report.verdict,
        "complete": report.complete,
        "events": len(report.events),
        "deals": [{"hand_no": d.hand_no, "status": d.status} for d in report.deals],
        "bad_index": report.bad_index,
        "bad_line": None if report.bad_index is None else report.bad_index + 2,
        "error": report.error.to_dict() if report.error else None,
        "totals": list(state.totals) if state else None,
        "result": api.view(state, None)["last_hand"] if state else None,
        "messages": {"zh": [t[0] for t in text], "en": [t[1] for t in text]},
    }


# --- games ----------------------------------------------------------------------------------------


def _width(text: str) -> int:
    """Columns a text takes in a terminal: a wide (CJK) character takes two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - _width(text))


def _players(counts: Sequence[int]) -> str:
    return "/".join(str(n) for n in counts)


def cmd_games(args: argparse.Namespace, out: TextIO) -> int:
    head = ("game", "variant", "players", "名称 name")
    rows: list[tuple[str, str, str, str]] = []
    for game in api.list_games():
        rows.append((game["id"], "", "", f"{game['name_zh']} {game['name_en']}"))
        for v in game["variants"]:
            rows.append(("", v["id"], _players(v["players"]), f"  {v['name_zh']} {v['name_en']}"))
    widths = [max(_width(r[i]) for r in [head, *rows]) for i in range(3)]
    for row in [head, *rows]:
        cells = [_pad(cell, widths[i]) for i, cell in enumerate(row[:3])]
        print("  ".join([*cells, row[3]]).rstrip(), file=out)
    print(
        "\n开一局：paiju play GAME --variant VARIANT / to play: paiju play GAME --variant VARIANT",
        file=out,
    )
    return EXIT_OK


# --- export ---------------------------------------------------------------------------------------


def cmd_export(args: argparse.Namespace, out: TextIO) -> int:
    import os

    from paiju.export import DEFAULT_GATEWAY, ExportError, export

    if args.nats:
        print(
            "export reads a table through a gateway (--gateway URL): the engine has no NATS client",
            file=sys.stderr,
        )
        return EXIT_UNREADABLE
    path = args.output or f"{args.table}.jsonl"
    try:
        count = export(
            args.gateway or os.environ.get("PAIJU_GATEWAY", DEFAULT_GATEWAY), args.table, path
        )
    except RuleError as err:
        print(f"export failed: {err.en} / {err.zh}", file=sys.stderr)
        return EXIT_FAILED
    except (ExportError, PaijuError, OSError) as err:
        print(f"export failed: {err}", file=sys.stderr)
        return EXIT_FAILED
    print(f"{count} events written to {path}; check them with: paiju audit {path}", file=out)
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="paiju",
        description="Paiju (牌局) rules engine tools",
        epilog=EXIT_STATUS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p_audit = sub.add_parser(
        "audit",
        help="replay and verify an exported event log (JSON lines)",
        description="Replay an exported log through the rules: the deal against the commitment "
        "and the seeds, every move, every score. Says what it checked, explains the first wrong "
        "line, and says what an incomplete log leaves unchecked.",
        epilog=EXIT_STATUS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p_audit.add_argument("log", help="the log file (.jsonl)")
    p_audit.add_argument("--json", action="store_true", help="print the report as JSON")
    p_audit.add_argument(
        "--lang", choices=LANGS, default="both", help="the language to print (default: both)"
    )
    p_audit.set_defaults(run=cmd_audit)
    p_play = sub.add_parser(
        "play",
        help="play a game in the terminal against bots",
        epilog=EXIT_STATUS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    first_game = next(iter(GAMES))  # the catalogue's first game
    p_play.add_argument("game", nargs="?", default=first_game, help=f"default: {first_game}")
    p_play.add_argument("--variant", default=None, help="see: paiju games")
    p_play.add_argument(
        "--seat", type=int, default=1, help="your seat, numbered from 1 as at the table (default 1)"
    )
    p_play.add_argument("--seed", default=None, help="the server seed (default: random)")
    p_play.add_argument("--log", default=None, help="write the game's event log here")
    p_play.add_argument(
        "--lang", choices=LANGS, default="both", help="the language to print (default: both)"
    )
    p_play.set_defaults(run=cmd_play)
    p_export = sub.add_parser(
        "export", help="save a finished table's log from a running system (for audit)"
    )
    p_export.add_argument("table", help="the table id")
    p_export.add_argument(
        "--gateway",
        default=None,
        help="the gateway's base URL (default: $PAIJU_GATEWAY or http://127.0.0.1:8000)",
    )
    p_export.add_argument("--nats", default=None, help=argparse.SUPPRESS)
    p_export.add_argument("-o", "--output", default=None, help="the file (default: TABLE.jsonl)")
    p_export.set_defaults(run=cmd_export)
    p_games = sub.add_parser("games", help="list the games and variants")
    p_games.set_defaults(run=cmd_games)
    p_duel = sub.add_parser(
        "duel",
        help="measure one bot level against another over duplicate deals",
        description="Play N deals, each once per rotation of the seats (duplicate), the hero's "
        "bot level against the field's; report each side's mean score a hand with its 95% "
        "confidence interval, the hero's win rate, bids and decision times.",
        epilog=EXIT_STATUS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p_duel.add_argument("game", help="GAME or GAME:VARIANT (see: paiju games)")
    p_duel.add_argument("--hero", required=True, help=f"the hero's bot level: {', '.join(LEVELS)}")
    p_duel.add_argument("--field", required=True, help="the other seats' bot level")
    p_duel.add_argument("--hands", type=int, required=True, help="deals, each played by every seat")
    p_duel.add_argument("--seed", default=DEFAULT_SEED, help=f"default: {DEFAULT_SEED}")
    p_duel.add_argument(
        "--lineup",
        choices=LINEUPS,
        default="one",
        help="one: one hero seat among the field (default); all: every seat but one the hero",
    )
    p_duel.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="processes playing the deals (default 1): the same duel in less time on more cores",
    )
    p_duel.add_argument("--json", action="store_true", help="print the summary as JSON")
    p_duel.add_argument(
        "--lang", choices=LANGS, default="zh", help="the language to print (default: zh)"
    )
    p_duel.set_defaults(run=cmd_duel)
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args, sys.stdout)
    except KeyboardInterrupt:
        print("\npaiju: 已中断 / interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    return code
