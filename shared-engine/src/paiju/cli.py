"""The ``paiju`` command: ``audit`` a log offline, ``play`` a terminal game against bots, list
``games``."""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from paiju import api, bots
from paiju.cards import format_card, format_cards, parse_card, parse_cards
from paiju.errors import NotationError, RuleError
from paiju.log import Audit, audit, write_log
from paiju.protocol import Bid, CallCard, Command, Event, HandEnded, Pass, Play
from paiju.simulate import table_command
from paiju.table import TableState


def _print_result(result: HandEnded | None, out: TextIO) -> None:
    if result is None:
        print("结果 result: (no hand scored yet)", file=out)
        return
    print(f"第{result.hand_no}局 hand {result.hand_no}: order {list(result.order)}", file=out)
    for line in result.lines:
        print(f"  seat {line.payer} pays seat {line.payee} {line.amount} ({line.reason})", file=out)
    print(f"  scores {list(result.scores)}", file=out)


def cmd_audit(args: argparse.Namespace, out: TextIO) -> int:
    with open(args.log, encoding="utf-8") as f:
        report = audit(f)
    if args.json:
        print(json.dumps(_audit_json(report), ensure_ascii=False, indent=2), file=out)
        return 0 if report.ok else 1
    if report.config is not None:
        cfg = report.config
        print(
            f"game {cfg.game} / {cfg.variant}, {cfg.players} players, {len(report.events)} events",
            file=out,
        )
    for deal in report.deals:
        print(f"deal of hand {deal.hand_no}: {deal.status}", file=out)
    if report.state is not None:
        state = report.state
        print(f"final phase: {state.phase}, totals {list(state.totals)}", file=out)
        _print_result(state.last_hand, out)
    if report.error is not None:
        where = (
            "header"
            if report.bad_index is None
            else f"event #{report.bad_index} (line {report.bad_index + 2})"
        )
        print(f"BAD {where}: {report.error.code}: {report.error.en} / {report.error.zh}", file=out)
    print("audit: OK" if report.ok else "audit: FAILED", file=out)
    return 0 if report.ok else 1


def _audit_json(report: Audit) -> dict[str, Any]:
    state = report.state
    return {
        "ok": report.ok,
        "events": len(report.events),
        "deals": [{"hand_no": d.hand_no, "status": d.status} for d in report.deals],
        "bad_index": report.bad_index,
        "error": report.error.to_dict() if report.error else None,
        "totals": list(state.totals) if state else None,
        "result": api.view(state, None)["last_hand"] if state else None,
    }


def cmd_games(args: argparse.Namespace, out: TextIO) -> int:
    for game in api.list_games():
        variants = ", ".join(
            f"{v['id']} ({v['name_zh']}, {v['players']} players)" for v in game["variants"]
        )
        print(f"{game['id']}: {game['name_zh']} {game['name_en']} — {variants}", file=out)
    return 0


def _describe(state: TableState, view: dict[str, Any], human: int) -> str:
    lead = view.get("lead")
    counts = " ".join(f"[{s}]{'*' if s == human else ''}:{n}" for s, n in enumerate(view["counts"]))
    on_table = f"{' '.join(lead['cards'])} ({lead['kind']}) by seat {lead['seat']}" if lead else "—"
    return f"cards left {counts} | on the table: {on_table}"


# What a person types, by phase: a bid word (包 / 反包 / 不包 in Chinese or pinyin), a card to call,
# or cards to play ('p' passes).
BID_WORDS = {"包": "bao", "反包": "fanbao", "不包": "pass", "不反包": "pass", "p": "pass"}


def _reply_command(state: TableState, seat: int, reply: str) -> Command:
    """The command a person's reply stands for in the current phase.

    Raises:
        NotationError: a card code is wrong.
    """
    if state.phase == "bid":
        return Bid(seat=seat, bid=BID_WORDS.get(reply, reply.lower()))
    if state.phase == "call":
        return CallCard(seat=seat, card=parse_card(reply))
    if reply.lower() in ("p", "pass"):
        return Pass(seat=seat)
    return Play(seat=seat, cards=parse_cards(reply))


def _move_text(command: Command) -> str:
    if isinstance(command, Bid):
        return f"bid {command.bid}"
    if isinstance(command, CallCard):
        return f"calls 叫 {format_card(command.card)}"
    if isinstance(command, Pass):
        return "pass 不要"
    return format_cards(getattr(command, "cards", ()))


def cmd_play(args: argparse.Namespace, out: TextIO, ask: Callable[[str], str] = input) -> int:
    config = api.make_config(args.game, args.variant)
    human = args.seat
    base_seed = args.seed or secrets.token_hex(16)
    state = api.initial_state(config)
    events: list[Event] = []
    print(
        f"{config.game} / {config.variant}: you are seat {human}. Type cards (e.g. '3S 3H'), "
        "'p' to pass, 'h' for a hint, 'q' to quit. 输入牌、p 不要、h 提示、q 退出。",
        file=out,
    )
    hints = 0

    def record(new: list[Event]) -> None:
        events.extend(new)
        for event in new:
            if isinstance(event, HandEnded):
                _print_result(event, out)

    while state.phase != "over":
        command: Command | None = table_command(state, base_seed)
        if command is None:
            seat = api.to_move(state)
            assert seat is not None
            if seat != human:
                command = bots.choose(state, seat)
                print(f"seat {seat}: {_move_text(command)}", file=out)
            else:
                view = api.view(state, human)
                print(_describe(state, view, human), file=out)
                print(f"your hand 手牌: {' '.join(view['hand'])}", file=out)
                if state.phase != "play":
                    options = ", ".join(_move_text(m) for m in api.legal_moves(state, human)[:6])
                    print(
                        f"{state.phase}: {options}{' …' if state.phase == 'call' else ''}", file=out
                    )
                reply = ask("> ").strip()
                if reply.lower() in ("q", "quit"):
                    return 1
                moves = api.legal_moves(state, human)
                if reply.lower() in ("h", "hint"):
                    move = moves[hints % len(moves)]
                    hints += 1
                    print(f"hint 提示: {_move_text(move)}", file=out)
                    continue
                try:
                    state, new = api.apply(state, _reply_command(state, human, reply))
                except (RuleError, NotationError) as err:
                    message = f"{err.zh} / {err.en}" if isinstance(err, RuleError) else str(err)
                    print(f"✗ {message}", file=out)
                    continue
                hints = 0
                record(new)
                continue
        state, new = api.apply(state, command)
        record(new)
    print(f"totals 总分: {list(state.totals)}", file=out)
    if args.log:
        write_log(args.log, config, events)
        print(f"log written to {args.log}; check it with: paiju audit {args.log}", file=out)
    return 0


def cmd_export(args: argparse.Namespace, out: TextIO) -> int:
    import os

    from paiju.export import DEFAULT_GATEWAY, ExportError, export

    if args.nats:
        print(
            "export reads a table through a gateway (--gateway URL): the engine has no NATS client",
            file=sys.stderr,
        )
        return 2
    path = args.output or f"{args.table}.jsonl"
    try:
        count = export(
            args.gateway or os.environ.get("PAIJU_GATEWAY", DEFAULT_GATEWAY), args.table, path
        )
    except (ExportError, RuleError) as err:
        print(f"export failed: {err}", file=sys.stderr)
        return 1
    print(f"{count} events written to {path}; check them with: paiju audit {path}", file=out)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="paiju", description="Paiju (牌局) rules engine tools")
    sub = parser.add_subparsers(dest="command", required=True)
    p_audit = sub.add_parser("audit", help="replay and verify an exported event log (JSON lines)")
    p_audit.add_argument("log")
    p_audit.add_argument("--json", action="store_true", help="print the report as JSON")
    p_audit.set_defaults(run=cmd_audit)
    p_play = sub.add_parser("play", help="play a game in the terminal against bots")
    p_play.add_argument("game", nargs="?", default="guanpai")
    p_play.add_argument("--variant", default=None)
    p_play.add_argument("--seat", type=int, default=0)
    p_play.add_argument("--seed", default=None, help="the server seed (default: random)")
    p_play.add_argument("--log", default=None, help="write the game's event log here")
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
    args = parser.parse_args(argv)
    code: int = args.run(args, sys.stdout)
    return code
