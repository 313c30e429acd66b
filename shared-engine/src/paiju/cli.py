"""The ``paiju`` command: ``audit`` a log offline, ``play`` a terminal game against bots, list
``games``."""

from __future__ import annotations

import argparse
import dataclasses
import json
import secrets
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from paiju import api, bots
from paiju.cards import format_card, format_cards, parse_card, parse_cards
from paiju.errors import NotationError, RuleError
from paiju.log import Audit, audit, write_log
from paiju.protocol import Command, Event, HandEnded, Pass, Play
from paiju.registry import GAMES, get_game
from paiju.simulate import table_command
from paiju.table import TableState
from paiju.words import Text, Words


def _words(game: str) -> Words:
    """A game's words (``paiju.words``): every name this command prints comes from them."""
    return get_game(game).words


def _both(text: Text | None, code: str) -> str:
    """A name in both languages (``对子 pair``), or the code when the words have none."""
    return code if text is None else f"{text[0]} {text[1]}"


def _print_result(result: HandEnded | None, out: TextIO, words: Words) -> None:
    if result is None:
        print("结果 result: (no hand scored yet)", file=out)
        return
    print(f"第{result.hand_no}局 hand {result.hand_no}: order {list(result.order)}", file=out)
    for line in result.lines:
        reason = _both(words.reasons.get(line.reason), line.reason)
        print(f"  seat {line.payer} pays seat {line.payee} {line.amount} ({reason})", file=out)
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
        _print_result(state.last_hand, out, _words(state.config.game))
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
    on_table = "—"
    if lead:
        kind = _both(_words(state.config.game).kinds.get(lead["kind"]), lead["kind"])
        on_table = f"{' '.join(lead['cards'])} ({kind}) by seat {lead['seat']}"
    return f"cards left {counts} | on the table: {on_table}"


# What a person types: cards to play ('p' passes), or, where a seat speaks instead (an auction, a
# call), a word — its value or any of its names in the game's words (包 / 不包 / bao / pass) — or a
# card (for a command whose value is a card). "bid pass", as a hint prints it, works too.


def _word_field(command: Command) -> str | None:
    """The field that holds what a seat says in a command other than a play or a pass (a bid's
    word, a called card), or None."""
    if isinstance(command, Play | Pass):
        return None
    names = [f.name for f in dataclasses.fields(command) if f.name != "seat"]
    return names[0] if len(names) == 1 else None


def _names_a_card(command: Command, field: str) -> bool:
    """Whether what the seat says is a card (a card to call): a card travels as an int."""
    value = getattr(command, field)
    return isinstance(value, int) and not isinstance(value, bool)


def _earlier(words: Words, view: dict[str, Any], command_type: str) -> list[str]:
    """The words said so far in the auction of ``command_type`` (an answer is named by them)."""
    for key, said_by in words.auctions.items():
        if said_by == command_type:
            return [str(word) for _, word in view.get(key) or ()]
    return []


def _word_name(words: Words, command: Command, earlier: Sequence[str]) -> Text | None:
    field = _word_field(command)
    if field is None:
        return None
    value = getattr(command, field)
    if _names_a_card(command, field):
        template = words.said(command.TYPE, "")
        card = format_card(value)
        if template is None:
            return None
        return template[0].format(card=card), template[1].format(card=card)
    return words.said(command.TYPE, str(value), earlier)


def _reply_command(state: TableState, seat: int, reply: str) -> Command:
    """The command a person's reply stands for now.

    Raises:
        NotationError: a card code is wrong.
    """
    spoken = [m for m in api.legal_moves(state, seat) if _word_field(m) is not None]
    if not spoken:
        if reply.lower() in ("p", "pass"):
            return Pass(seat=seat)
        return Play(seat=seat, cards=parse_cards(reply))
    template = spoken[0]
    field = _word_field(template)
    assert field is not None
    tokens = reply.replace("(", " ").replace(")", " ").split()
    if _names_a_card(template, field):
        for token in reversed(tokens):
            try:
                card = parse_card(token)
            except NotationError:
                continue
            return dataclasses.replace(template, **{field: card})
        raise NotationError(reply)
    words = _words(state.config.game)
    earlier = _earlier(words, api.view(state, seat), template.TYPE)
    names: dict[str, str] = {"p": "pass"}
    for value in words.commands.get(template.TYPE, {}):
        names[value] = value
        for said in (words.said(template.TYPE, value), words.said(template.TYPE, value, earlier)):
            for text in said or ():
                names[text] = value
    for move in spoken:
        names[str(getattr(move, field))] = str(getattr(move, field))
    for candidate in (reply, reply.lower(), *tokens, *(t.lower() for t in tokens)):
        if candidate in names:
            return dataclasses.replace(template, **{field: names[candidate]})
    return dataclasses.replace(template, **{field: reply.lower()})


def _move_text(command: Command, words: Words, earlier: Sequence[str] = ()) -> str:
    """A move as the terminal prints it (and a person may type it back): the cards of a play,
    ``pass 不要``, or a spoken command's type, its value and its name (``bid pass (不包)``)."""
    field = _word_field(command)
    if field is not None:
        value = getattr(command, field)
        text = format_card(value) if _names_a_card(command, field) else str(value)
        name = _word_name(words, command, earlier)
        return f"{command.TYPE} {text}" + (f" ({name[0]})" if name else "")
    if isinstance(command, Pass):
        return "pass 不要"
    return format_cards(getattr(command, "cards", ()))


def cmd_play(args: argparse.Namespace, out: TextIO, ask: Callable[[str], str] = input) -> int:
    config = api.make_config(args.game, args.variant)
    human = args.seat
    base_seed = args.seed or secrets.token_hex(16)
    state = api.initial_state(config)
    words = _words(config.game)
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
                _print_result(event, out, words)

    while state.phase != "over":
        command: Command | None = table_command(state, base_seed)
        if command is None:
            seat = api.to_move(state)
            assert seat is not None
            if seat != human:
                command = bots.choose(state, seat)
                said = _earlier(words, api.view(state, None), command.TYPE)
                print(f"seat {seat}: {_move_text(command, words, said)}", file=out)
            else:
                view = api.view(state, human)
                print(_describe(state, view, human), file=out)
                print(f"your hand 手牌: {' '.join(view['hand'])}", file=out)
                moves = api.legal_moves(state, human)
                said = _earlier(words, view, moves[0].TYPE) if moves else []
                spoken = [m for m in moves if _word_field(m) is not None]
                if spoken:
                    help_text = words.help.get(state.phase)
                    if help_text:
                        print(f"{help_text[0]}\n{help_text[1]}", file=out)
                    options = ", ".join(_move_text(m, words, said) for m in spoken[:6])
                    more = " …" if len(spoken) > 6 else ""
                    print(f"{state.phase}: {options}{more}", file=out)
                reply = ask("> ").strip()
                if reply.lower() in ("q", "quit"):
                    return 1
                if reply.lower() in ("h", "hint"):
                    move = moves[hints % len(moves)]
                    hints += 1
                    print(f"hint 提示: {_move_text(move, words, said)}", file=out)
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
    first_game = next(iter(GAMES))  # the catalogue's first game
    p_play.add_argument("game", nargs="?", default=first_game, help=f"default: {first_game}")
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
