"""``paiju play``: a game in the terminal, one person against bots, with no server.

The table's own steps (the deal's commitment and seeds) are played as the table service plays them
(``paiju.simulate.table_command``), every other seat by the engine's bots; the person's seat is
asked for its move, which is checked by the rules (a refusal is explained, and asked again). What
it prints is what the person at the table may know: a bot's play shown on the table by its cards,
a word by its name in the game's words, a buried kitty only as its events tell it. ``h`` prints a
hint in a form that may be typed back, ``q`` (or a closed input, or Ctrl-C) leaves the game
unfinished with the exit status that says so (``paiju.console``).

Separate from ``paiju.cli`` (the command line, the audit, the catalogue, export): this module is
the game's dialogue, what a person types and what the terminal answers.
"""

from __future__ import annotations

import argparse
import dataclasses
import secrets
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from paiju import api, bots
from paiju.cards import (
    card_name,
    format_card,
    parse_card,
    parse_cards,
)
from paiju.console import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_UNREADABLE,
    cannot_read,
    card_texts,
    say,
)
from paiju.errors import NotationError, RuleError
from paiju.log.file import write_log
from paiju.log.prose import event_line, result_lines, seat_name
from paiju.protocol import Command, Event, HandEnded, Pass, Play, Reading
from paiju.registry import get_game
from paiju.simulate import table_command
from paiju.table import TableState
from paiju.words import Text, Words


def _words(game: str) -> Words:
    """A game's words (``paiju.words``): every name the game prints comes from them."""
    return get_game(game).words


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


PASS_WORDS = ("p", "pass", "不要", "过")  # what a person types to pass, as players say it


def _reply_command(state: TableState, seat: int, reply: str) -> Command:
    """The command a person's reply stands for now.

    Raises:
        NotationError: a card code is wrong.
    """
    spoken = [m for m in api.legal_moves(state, seat) if _word_field(m) is not None]
    if not spoken:
        if reply.lower() in PASS_WORDS:
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
        return f"{text}（{say(name, lang)}）" if name else text
    if isinstance(command, Pass):
        return f"p（{say(('不要', 'pass'), lang)}）"
    cards = getattr(command, "cards", ())
    return say(card_texts(cards), "en" if lang == "en" else "zh")


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
        return say(name, lang)
    if isinstance(command, Pass):
        return say(("不要", "pass"), lang)
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
        return "；".join(say(event_line(e, words, seat_names), lang) for e in events)
    said = _earlier(words, api.view(state, None), command.TYPE)
    who = seat_name(seat, seat_names)
    return f"{say(who, lang)}: {_done_text(command, words, lang, said, state.phase)}"


def _table_line(state: TableState, view: dict[str, Any], human: int, lang: str) -> str:
    words = _words(state.config.game)
    left = [
        (seat_name(s, _seat_names(state, human)), n) for s, n in enumerate(view.get("counts") or ())
    ]
    counts = ("，".join(f"{n[0]} {c}" for n, c in left), ", ".join(f"{n[1]} {c}" for n, c in left))
    lead = view.get("lead")
    if not lead:
        return say(("剩牌：" + counts[0], "cards left: " + counts[1]), lang, "\n")
    kind = words.kinds.get(lead["kind"], (lead["kind"], lead["kind"]))
    cards = card_texts(parse_cards(lead["cards"]))
    who = seat_name(lead["seat"], _seat_names(state, human))
    zh = f"剩牌：{counts[0]} | 桌上：{who[0]} 出的 {cards[0]}（{kind[0]}）"
    en = f"cards left: {counts[1]} | on the table: {cards[1]} ({kind[1]}) by {who[1]}"
    return say((zh, en), lang, "\n")


def _seat_names(state: TableState, human: int) -> list[str | Text]:
    return [("你", "you") if s == human else "" for s in range(state.config.players)]


def _prompt(
    state: TableState, view: dict[str, Any], human: int, moves: Sequence[Command], lang: str
) -> str:
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
        leading = state.phase == "play" and not view.get("lead")
        rest = (
            ("p 不要，h 提示，q 退出", "p to pass, h for a hint, q to quit")
            if can_pass
            else (
                "h 提示，q 退出（你先出，不能不要）",
                "h for a hint, q to quit (you lead: no pass)",
            )
            if leading  # else no pass is the game's rule (a trick followed, a kitty buried)
            else ("h 提示，q 退出", "h for a hint, q to quit")
        )
    text = (f"{lead[0]}：{how[0]}；{rest[0]}", f"{lead[1]}: {how[1]}; {rest[1]}")
    return say(text, lang, "\n") + "\n> "


def _readings_offered(state: TableState, seat: int, play: Play) -> list[tuple[Text, Play]]:
    """Each reading under which ``seat`` may play the cards of ``play`` (a selection refused as
    ``ambiguous_reading``), named by its ranks and its kind ("7788 连对"), with the play that
    chooses it."""
    out: list[tuple[Text, Play]] = []
    for offer in api.readings(state, seat, play.cards):
        stands_for = parse_cards(" ".join(offer["reading"]["stands_for"]))
        reading = Reading(offer["reading"]["kind"], stands_for)
        said = offer["said"]
        name = (f"{said} {offer['name']['zh']}", f"{said} {offer['name']['en']}")
        out.append((name, dataclasses.replace(play, reading=reading)))
    return out


def _unknown_choice(game_id: str, variant_id: str | None) -> Text | None:
    """Why ``game_id`` or ``variant_id`` names nothing, with what may be chosen instead, in both
    languages (None: both exist)."""
    games = {g["id"]: g for g in api.list_games()}
    game = games.get(game_id)
    if game is None:
        return (
            f"没有游戏“{game_id}”，可选："
            + "、".join(f"{g['id']}（{g['name_zh']}）" for g in games.values()),
            f"no game “{game_id}”; the games: "
            + ", ".join(f"{g['id']} ({g['name_en']})" for g in games.values()),
        )
    variants = {v["id"]: v for v in game["variants"]}
    if variant_id is None or variant_id in variants:
        return None
    return (
        f"{game['name_zh']}没有玩法“{variant_id}”，可选："
        + "、".join(f"{v['id']}（{v['name_zh']}）" for v in variants.values()),
        f"{game['name_en']} has no variant “{variant_id}”; its variants: "
        + ", ".join(f"{v['id']} ({v['name_en']})" for v in variants.values()),
    )


def cmd_play(args: argparse.Namespace, out: TextIO, ask: Callable[[str], str] = input) -> int:
    """``paiju play``: a match of ``args.game`` (``variant``, ``seat`` from 1, ``seed``, ``log``,
    ``lang``) played to its end in the terminal, the person's replies read with ``ask``; the exit
    status (``paiju.console``), the log written to ``args.log`` if given."""
    lang = getattr(args, "lang", "both")
    unknown = _unknown_choice(args.game, args.variant)
    if unknown is not None:
        print(f"paiju play: {say(unknown, lang)}", file=sys.stderr)
        return EXIT_UNREADABLE
    config = api.make_config(args.game, args.variant)
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
    print(say(intro, lang, "\n"), file=out)
    events: list[Event] = []
    hints = 0
    offered: list[tuple[Text, Play]] = []  # the readings of a selection refused as ambiguous
    seat_names = _seat_names(state, human)

    def record(new: list[Event]) -> None:
        events.extend(new)
        for event in new:
            if isinstance(event, HandEnded):
                record = get_game(config.game).result_type.from_event(event)
                for text in result_lines(record, words, seat_names):
                    print(say(text, lang), file=out)

    def left_unfinished(why: Text, status: int) -> int:
        print(file=out)
        print(say(why, lang), file=out)
        written = logged()  # what was played, unfinished: the audit says so
        return status if written == EXIT_OK else written

    def logged() -> int:
        """The log written to ``args.log`` (if given), and said where; the exit status."""
        if not args.log:
            return EXIT_OK
        try:
            write_log(args.log, config, events)
        except OSError as err:
            return cannot_read(args.log, (err.strerror or str(err), err.strerror or str(err)))
        told = (
            f"牌局记录已写入 {args.log}，可用 paiju audit {args.log} 核对",
            f"log written to {args.log}; check it with: paiju audit {args.log}",
        )
        print(say(told, lang), file=out)
        return EXIT_OK

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
                hand = card_texts(parse_cards(view["hand"]))
                print(say((f"你的手牌：{hand[0]}", f"your hand: {hand[1]}"), lang, "\n"), file=out)
                moves = api.legal_moves(state, human)
                said = _earlier(words, view, moves[0].TYPE) if moves else []
                help_text = words.help.get(state.phase)
                if help_text and any(_word_field(m) is not None for m in moves):
                    print(say(help_text, lang, "\n"), file=out)
                try:
                    reply = ask(_prompt(state, view, human, moves, lang)).strip()
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
                    hint = say(("提示", "hint"), lang, " ")
                    print(f"{hint}: {_move_text(move, words, lang, said, state.phase)}", file=out)
                    continue
                chosen = int(reply) if reply.isdigit() else 0
                mine: Command | None = None
                try:
                    if 1 <= chosen <= len(offered):  # a reading of the selection just refused
                        mine = offered[chosen - 1][1]
                    else:
                        mine = _reply_command(state, human, reply)
                    offered = []
                    state, new = api.apply(state, mine)
                except RuleError as err:
                    print(f"✗ {say((err.zh, err.en), lang)}", file=out)
                    if err.code == "ambiguous_reading" and isinstance(mine, Play):
                        offered = _readings_offered(state, human, mine)
                        for number, (name, _) in enumerate(offered, 1):
                            print(f"  {number} {say(name, lang)}", file=out)
                        choose = (f"输入 1–{len(offered)} 选择读法", f"type 1–{len(offered)}")
                        print(say(choose, lang), file=out)
                    continue
                except NotationError as err:
                    bad = (f"“{err.text}” 不是一张牌", f"“{err.text}” is not a card")
                    print(f"✗ {say(bad, lang)}", file=out)
                    continue
                hints = 0
                record(new)
                continue
        state, new = api.apply(state, command)
        record(new)
    totals = [(seat_name(s, seat_names), t) for s, t in enumerate(state.totals)]
    print(
        say(
            (
                "总分：" + "，".join(f"{n[0]} {t:+d}" for n, t in totals),
                "totals: " + ", ".join(f"{n[1]} {t:+d}" for n, t in totals),
            ),
            lang,
            "\n",
        ),
        file=out,
    )
    return logged()
