"""The ``paiju`` command: ``audit`` a log offline, ``play`` a terminal game against bots, list
``games``.

Everything it prints is for a person: seats numbered from 1 as the table shows them (1号位 /
Seat 1), cards by their names (``paiju.cards.card_names``: ♠A / A♠), every code of a game by its
name in the game's words (``paiju.words``), in Chinese, English or both (``--lang``). A file that
cannot be read, a closed input or Ctrl-C end the command with a message and an exit status, never
a traceback. The exit statuses are ``EXIT_*`` below (and in ``paiju --help``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import secrets
import sys
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from paiju import api, bots
from paiju.cards import card_name, card_names, format_card, parse_card, parse_cards
from paiju.errors import NotationError, PaijuError, RuleError
from paiju.log.file import write_log
from paiju.log.prose import event_line, result_lines, seat_name
from paiju.log.replay import Audit, audit
from paiju.log.report import describe
from paiju.protocol import Command, Event, HandEnded, Pass, Play
from paiju.registry import GAMES, get_game
from paiju.simulate import table_command
from paiju.table import TableState
from paiju.words import Text, Words

EXIT_OK = 0  # audit: the log is complete and sound; play: the match was played to its end
EXIT_FAILED = 1  # audit: the log is wrong (see what it prints); play: the person quit (q)
EXIT_UNREADABLE = 2  # a file cannot be read, the input closed, or the command line is wrong
EXIT_INCOMPLETE = 3  # audit: nothing wrong, but the log stops before the match ends
EXIT_INTERRUPTED = 130  # Ctrl-C

EXIT_STATUS_HELP = """exit status:
  0  audit: the log is complete and every step follows the rules; play: played to the end
  1  audit: the log is wrong (the first wrong line is explained); play: you quit (q)
  2  a file cannot be read, the input was closed (Ctrl-D), or the command line is wrong
  3  audit: incomplete — nothing wrong so far, but the log stops before the match ends
     (a header-only log, or one cut off mid-hand): what could not be checked is listed
  130  interrupted (Ctrl-C)"""

AUDIT_EXIT = {"sound": EXIT_OK, "failed": EXIT_FAILED, "incomplete": EXIT_INCOMPLETE}

LANGS = ("zh", "en", "both")


def _words(game: str) -> Words:
    """A game's words (``paiju.words``): every name this command prints comes from them."""
    return get_game(game).words


def _say(text: Text, lang: str, sep: str = " / ") -> str:
    """A text in the chosen language, or both (Chinese first)."""
    if lang == "zh":
        return text[0]
    if lang == "en":
        return text[1]
    return text[0] if text[0] == text[1] else f"{text[0]}{sep}{text[1]}"


def _names(cards: Sequence[int]) -> Text:
    return card_names(cards, "zh"), card_names(cards, "en")


# --- audit ----------------------------------------------------------------------------------------


def cmd_audit(args: argparse.Namespace, out: TextIO) -> int:
    try:
        with open(args.log, encoding="utf-8") as f:
            report = audit(f)
    except FileNotFoundError:
        return _cannot_read(args.log, ("没有这个文件", "no such file"))
    except IsADirectoryError:
        return _cannot_read(
            args.log, ("这是一个目录，不是日志文件", "it is a directory, not a log")
        )
    except UnicodeDecodeError:
        return _cannot_read(args.log, ("不是 UTF-8 文本", "it is not UTF-8 text"))
    except OSError as err:
        return _cannot_read(args.log, (err.strerror or str(err), err.strerror or str(err)))
    if args.json:
        print(json.dumps(_audit_json(report), ensure_ascii=False, indent=2), file=out)
    else:
        for text in describe(report):
            print(_say(text, getattr(args, "lang", "both"), "\n    "), file=out)
    return AUDIT_EXIT[report.verdict]


def _cannot_read(path: str, why: Text) -> int:
    print(f"paiju: 无法读取 {path}：{why[0]} / cannot read {path}: {why[1]}", file=sys.stderr)
    return EXIT_UNREADABLE


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


# --- play -----------------------------------------------------------------------------------------

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


def _word_name(
    words: Words, command: Command, earlier: Sequence[str], phase: str | None = None
) -> Text | None:
    """A spoken command's name in the game's words, as said after the ``earlier`` words of its
    auction in ``phase`` (a word two rounds share, such as a pass, is named for each)."""
    field = _word_field(command)
    if field is None:
        return None
    value = getattr(command, field)
    if _names_a_card(command, field):
        template = words.said(command.TYPE, "")
        if template is None:
            return None
        return template[0].format(card=card_name(value, "zh")), template[1].format(
            card=card_name(value, "en")
        )
    return words.said(command.TYPE, str(value), earlier, phase=phase)


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
    tokens = reply.translate(str.maketrans("()（）", "    ")).split()
    if _names_a_card(template, field):
        for candidate in (reply, *reversed(tokens)):
            try:
                card = parse_card(candidate)
            except NotationError:
                continue
            return dataclasses.replace(template, **{field: card})
        raise NotationError(reply)
    words = _words(state.config.game)
    earlier = _earlier(words, api.view(state, seat), template.TYPE)
    names: dict[str, str] = {"p": "pass"}
    for value in words.commands.get(template.TYPE, {}):
        names[value] = value
        for said in (
            words.said(template.TYPE, value),
            words.said(template.TYPE, value, earlier),
            words.said(template.TYPE, value, earlier, phase=state.phase),
        ):
            for text in said or ():
                names[text] = value
    for move in spoken:
        names[str(getattr(move, field))] = str(getattr(move, field))
    for candidate in (reply, reply.lower(), *tokens, *(t.lower() for t in tokens)):
        if candidate in names:
            return dataclasses.replace(template, **{field: names[candidate]})
    return dataclasses.replace(template, **{field: reply.lower()})


def _move_text(
    command: Command,
    words: Words,
    lang: str,
    earlier: Sequence[str] = (),
    phase: str | None = None,
) -> str:
    """A move as the terminal prints it (and a person may type it back): the cards of a play by
    their names, ``p（不要 / pass）``, or a spoken command's value and its name
    (``pass（不包 / No bid (不包)）``, ``AS（叫 ♠A / Call A♠）``)."""
    field = _word_field(command)
    if field is not None:
        value = getattr(command, field)
        text = format_card(value) if _names_a_card(command, field) else str(value)
        name = _word_name(words, command, earlier, phase)
        return f"{text}（{_say(name, lang)}）" if name else text
    if isinstance(command, Pass):
        return f"p（{_say(('不要', 'pass'), lang)}）"
    cards = getattr(command, "cards", ())
    return _say(_names(cards), "en" if lang == "en" else "zh")


def _done_text(
    command: Command,
    words: Words,
    lang: str,
    earlier: Sequence[str] = (),
    phase: str | None = None,
) -> str:
    """What a seat did, as the others read it: the cards by their names, 不要 / pass, or the
    word said by its name (in ``phase``, the phase it was said in)."""
    name = _word_name(words, command, earlier, phase)
    if name is not None:
        return _say(name, lang)
    if isinstance(command, Pass):
        return _say(("不要", "pass"), lang)
    return _move_text(command, words, lang, earlier, phase)


def _bot_line(
    state: TableState,
    command: Command,
    events: Sequence[Event],
    seat: int,
    seat_names: list[str | Text],
    words: Words,
    lang: str,
) -> str:
    """What a bot did, as the person at the table may know it: a play shown on the table (a
    ``played`` event) by its cards, a word by its name; any other play (burying a kitty) only as
    its events tell it in the game's words, never by the cards the command names. ``state`` is
    the table before the command, ``events`` what it caused."""
    if isinstance(command, Play) and not any(e.TYPE == "played" for e in events):
        return "；".join(_say(event_line(e, words, seat_names), lang) for e in events)
    said = _earlier(words, api.view(state, None), command.TYPE)
    who = seat_name(seat, seat_names)
    return f"{_say(who, lang)}: {_done_text(command, words, lang, said, state.phase)}"


def _table_line(state: TableState, view: dict[str, Any], human: int, lang: str) -> str:
    words = _words(state.config.game)
    left = [
        (seat_name(s, _seat_names(state, human)), n) for s, n in enumerate(view.get("counts") or ())
    ]
    counts = ("，".join(f"{n[0]} {c}" for n, c in left), ", ".join(f"{n[1]} {c}" for n, c in left))
    lead = view.get("lead")
    if not lead:
        return _say(("剩牌：" + counts[0], "cards left: " + counts[1]), lang, "\n")
    kind = words.kinds.get(lead["kind"], (lead["kind"], lead["kind"]))
    cards = _names(parse_cards(lead["cards"]))
    who = seat_name(lead["seat"], _seat_names(state, human))
    zh = f"剩牌：{counts[0]} | 桌上：{who[0]} 出的 {cards[0]}（{kind[0]}）"
    en = f"cards left: {counts[1]} | on the table: {cards[1]} ({kind[1]}) by {who[1]}"
    return _say((zh, en), lang, "\n")


def _seat_names(state: TableState, human: int) -> list[str | Text]:
    return [("你", "you") if s == human else "" for s in range(state.config.players)]


def _prompt(state: TableState, human: int, moves: Sequence[Command], lang: str) -> str:
    """What to type now, said before the ``>``: the words the seat may say, or how to play."""
    words = _words(state.config.game)
    spoken = [m for m in moves if _word_field(m) is not None]
    turn = words.turn_lines.get(state.phase)
    lead = ("轮到你", "your turn") if turn is None else turn[0]
    if spoken:
        field = _word_field(spoken[0])
        assert field is not None
        if _names_a_card(spoken[0], field):
            example = format_card(getattr(spoken[0], field))
            how = (f"输入一张牌，如 {example}", f"type a card, e.g. {example}")
        else:
            earlier = _earlier(words, api.view(state, human), spoken[0].TYPE)
            options = [
                (str(getattr(m, field)), _word_name(words, m, earlier, state.phase)) for m in spoken
            ]
            how = (
                "输入 " + " 或 ".join(f"{n[0]}（{v}）" if n else v for v, n in options),
                "type " + " or ".join(f"{v} ({n[1]})" if n else v for v, n in options),
            )
        rest = ("h 提示，q 退出", "h for a hint, q to quit")
    else:
        how = ("输入要出的牌，如 3S 3H 或 ♠10", "type the cards to play, e.g. 3S 3H or 10♠")
        can_pass = any(isinstance(m, Pass) for m in moves)
        rest = (
            ("p 不要，h 提示，q 退出", "p to pass, h for a hint, q to quit")
            if can_pass
            else (
                "h 提示，q 退出（你先出，不能不要）",
                "h for a hint, q to quit (you lead: no pass)",
            )
        )
    text = (f"{lead[0]}：{how[0]}；{rest[0]}", f"{lead[1]}: {how[1]}; {rest[1]}")
    return _say(text, lang, "\n") + "\n> "


def cmd_play(args: argparse.Namespace, out: TextIO, ask: Callable[[str], str] = input) -> int:
    try:
        config = api.make_config(args.game, args.variant)
    except ValueError as err:
        print(f"paiju play: {err}", file=sys.stderr)
        return EXIT_UNREADABLE
    lang = getattr(args, "lang", "both")
    if not 1 <= args.seat <= config.players:
        print(
            f"paiju play: 座位是 1 到 {config.players} / a seat is 1 to {config.players}",
            file=sys.stderr,
        )
        return EXIT_UNREADABLE
    human = args.seat - 1
    base_seed = args.seed or secrets.token_hex(16)
    state = api.initial_state(config)
    words = _words(config.game)
    info = get_game(config.game).info
    variant = info.variant(config.variant)
    you = seat_name(human)
    intro = (
        f"{info.name_zh}（{variant.name_zh}），你坐 {you[0]}。出牌时输入牌（如 3S 3H、10♠、♠10、"
        "大王），p 不要，h 提示，q 退出（Ctrl-D 也退出）。",
        f"{info.name_en} ({variant.name_en}): you sit in {you[1]}. To play, type cards (e.g. "
        "3S 3H, 10♠, ♠10, Big Joker); p to pass, h for a hint, q to quit (or Ctrl-D).",
    )
    print(_say(intro, lang, "\n"), file=out)
    events: list[Event] = []
    hints = 0
    seat_names = _seat_names(state, human)

    def record(new: list[Event]) -> None:
        events.extend(new)
        for event in new:
            if isinstance(event, HandEnded):
                record = get_game(config.game).result_type.from_event(event)
                for text in result_lines(record, words, seat_names):
                    print(_say(text, lang), file=out)

    def left_unfinished(why: Text, status: int) -> int:
        print(file=out)
        print(_say(why, lang), file=out)
        return status

    while state.phase != "over":
        command: Command | None = table_command(state, base_seed)
        if command is None:
            seat = api.to_move(state)
            assert seat is not None
            if seat != human:
                command = bots.choose(state, seat)
                after, new = api.apply(state, command)  # decided once, told, then recorded
                print(_bot_line(state, command, new, seat, seat_names, words, lang), file=out)
                state = after
                record(new)
                continue
            else:
                view = api.view(state, human)
                print(_table_line(state, view, human, lang), file=out)
                hand = _names(parse_cards(view["hand"]))
                print(_say((f"你的手牌：{hand[0]}", f"your hand: {hand[1]}"), lang, "\n"), file=out)
                moves = api.legal_moves(state, human)
                said = _earlier(words, view, moves[0].TYPE) if moves else []
                help_text = words.help.get(state.phase)
                if help_text and any(_word_field(m) is not None for m in moves):
                    print(_say(help_text, lang, "\n"), file=out)
                try:
                    reply = ask(_prompt(state, human, moves, lang)).strip()
                except EOFError:
                    return left_unfinished(
                        (
                            "输入已关闭，牌局没有打完",
                            "the input is closed: the game is left unfinished",
                        ),
                        EXIT_UNREADABLE,
                    )
                except KeyboardInterrupt:
                    return left_unfinished(
                        ("已中断，牌局没有打完", "interrupted: the game is left unfinished"),
                        EXIT_INTERRUPTED,
                    )
                if reply.lower() in ("q", "quit"):
                    return left_unfinished(
                        ("你退出了，牌局没有打完", "you quit: the game is left unfinished"),
                        EXIT_FAILED,
                    )
                if reply.lower() in ("h", "hint") and moves:
                    move = moves[hints % len(moves)]
                    hints += 1
                    hint = _say(("提示", "hint"), lang, " ")
                    print(f"{hint}: {_move_text(move, words, lang, said, state.phase)}", file=out)
                    continue
                try:
                    state, new = api.apply(state, _reply_command(state, human, reply))
                except RuleError as err:
                    print(f"✗ {_say((err.zh, err.en), lang)}", file=out)
                    continue
                except NotationError as err:
                    bad = (f"“{err.text}” 不是一张牌", f"“{err.text}” is not a card")
                    print(f"✗ {_say(bad, lang)}", file=out)
                    continue
                hints = 0
                record(new)
                continue
        state, new = api.apply(state, command)
        record(new)
    totals = [(seat_name(s, seat_names), t) for s, t in enumerate(state.totals)]
    print(
        _say(
            (
                "总分：" + "，".join(f"{n[0]} {t:+d}" for n, t in totals),
                "totals: " + ", ".join(f"{n[1]} {t:+d}" for n, t in totals),
            ),
            lang,
            "\n",
        ),
        file=out,
    )
    if args.log:
        try:
            write_log(args.log, config, events)
        except OSError as err:
            return _cannot_read(args.log, (err.strerror or str(err), err.strerror or str(err)))
        print(f"log written to {args.log}; check it with: paiju audit {args.log}", file=out)
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
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args, sys.stdout)
    except KeyboardInterrupt:
        print("\npaiju: 已中断 / interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    return code
