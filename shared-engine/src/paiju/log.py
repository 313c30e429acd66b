"""Event logs: export, import, verification of the deal, and the audit that replays a log through
the rules. The format (one JSON object per line, a header first) is documented in
docs/log-format.md.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from paiju import fairness
from paiju.cards import Card, card_names
from paiju.errors import PaijuError, RuleError
from paiju.protocol import (
    DEAL_SCHEMES,
    SCHEMA_VERSION,
    AutoPlayed,
    AutoSet,
    Command,
    Continued,
    Deal,
    DealCommitted,
    Dealt,
    Event,
    HandEnded,
    MatchEnded,
    Played,
    SeedAdded,
    SeedRevealed,
    TableAbandoned,
    TableAtLimit,
    TrickWon,
    decode,
    encode,
)
from paiju.registry import get_game
from paiju.table import Config, TableState
from paiju.words import Text, Words

HEADER_TYPE = "paiju_log"


def header(
    config: Config[Any], table_id: str | None = None, names: Names | None = None
) -> dict[str, Any]:
    """The header line's object; ``names`` (the players' names, one per seat) only when given."""
    data = {"type": HEADER_TYPE, "v": SCHEMA_VERSION, "table": table_id, "config": config.to_dict()}
    if names is not None:
        data["names"] = list(names)
    return data


def dump_lines(
    config: Config[Any],
    events: Iterable[Event],
    table_id: str | None = None,
    names: Names | None = None,
) -> list[str]:
    """The log as JSON lines: the header, then one event per line."""
    lines = [json.dumps(header(config, table_id, names), ensure_ascii=False)]
    lines += [json.dumps(encode(e), ensure_ascii=False) for e in events]
    return lines


def write_log(
    path: str,
    config: Config[Any],
    events: Iterable[Event],
    table_id: str | None = None,
    names: Names | None = None,
) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(dump_lines(config, events, table_id, names)) + "\n")


def header_names(line: str, players: int) -> tuple[str, ...] | None:
    """The players' names a header line gives (its optional ``names``: one text per seat), or
    None when it gives none (or not one per seat)."""
    try:
        names = json.loads(line).get("names")
    except (ValueError, AttributeError):
        return None
    if isinstance(names, list) and len(names) == players and all(isinstance(n, str) for n in names):
        return tuple(names)
    return None


def read_header(line: str) -> Config[Any]:
    """The config of a log from its header line.

    Raises:
        RuleError: ``log_header``.
    """
    return read_log_header(line)[0]


def read_log_header(line: str) -> tuple[Config[Any], int]:
    """The config of a log and its schema version (1 … ``SCHEMA_VERSION``) from its header line.
    A config of an older log lacks options added since: they take their defaults, which are the
    rules such a log was played under.

    Raises:
        RuleError: ``log_header``.
    """
    from paiju.api import config_from_dict

    try:
        data = json.loads(line)
        version = data.get("v")
        if data.get("type") != HEADER_TYPE or version not in range(1, SCHEMA_VERSION + 1):
            raise ValueError(f"expected type {HEADER_TYPE!r} version 1 to {SCHEMA_VERSION}")
        return config_from_dict(data["config"]), version
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise RuleError("log_header", detail=str(exc)[:200]) from None


def decode_event(line: str) -> Event:
    """One event from its JSON line.

    Raises:
        RuleError: ``log_corrupt``.
    """
    try:
        message = decode(json.loads(line))
    except (ValueError, RuleError) as exc:
        raise RuleError("log_corrupt", detail=str(exc)[:200]) from None
    if not isinstance(message, Event):
        raise RuleError("log_corrupt", detail=f"{message.TYPE} is a command, not an event")
    return message


# --- the deal -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealCheck:
    hand_no: int
    status: str  # "verified", "unrevealed" (the hand is not over yet), or what is wrong


def verify_deal(
    config: Config[Any], events: Iterable[Event], revealed: Mapping[int, str] | None = None
) -> list[DealCheck]:
    """For each hand dealt: does the revealed seed match the commitment, and does the deal follow
    from it and the players' seeds — every seat's cards in the order drawn, the rest in pack order
    (``fairness.deal`` by the event's scheme, from the seat the game lets draw first or draws by
    lot)? A hand whose seed is not revealed yet is "unrevealed". ``revealed``: seeds revealed elsewhere (hand number →
    seed; the audit's, from events after the ones checked), taken as ``events``' own; each is
    checked against its commitment all the same."""
    game = get_game(config.game)
    events = list(events)
    committed: dict[int, str] = {}
    seeds: dict[int, list[str | None]] = {}
    revealed = dict(revealed or {}) | {
        e.hand_no: e.seed for e in events if isinstance(e, SeedRevealed)
    }
    dealt: list[tuple[Dealt, TableState]] = []  # each deal with the state it was dealt in
    state = game.initial_state(config)
    for event in events:
        if isinstance(event, DealCommitted):
            committed[event.hand_no] = event.commitment
            seeds[event.hand_no] = [None] * config.players
        elif isinstance(event, SeedAdded) and state.hand_no in seeds:
            seeds[state.hand_no][event.seat] = event.seed
        elif isinstance(event, Dealt):
            dealt.append((event, state))
        state = game.evolve(state, event)
    checks = []
    for event, before in dealt:
        no, seed = event.hand_no, revealed.get(event.hand_no)
        if no not in committed:
            status = "no commitment before the deal"
        elif seed is None:
            status = "unrevealed"
        elif fairness.commitment_of(seed) != committed[no]:
            status = "the revealed seed does not match the commitment"
        else:
            hands, rest = fairness.deal(
                game.pack(config),
                config.players,
                game.hand_size(config),
                seed,
                seeds[no],
                event.scheme if event.scheme in DEAL_SCHEMES else "round",
                game.seat_drawing_first(before, seed),
            )
            status = (
                "verified"
                if (hands, rest) == (event.hands, event.rest)
                else "the dealt hands do not follow from the seeds"
            )
        checks.append(DealCheck(no, status))
    return checks


# --- the audit -----------------------------------------------------------------------------------


@dataclass
class Audit:
    """The outcome of replaying a log: the state reached, the deal checks and the first bad event.

    ``ok``: nothing in the log is against the rules (so far as it goes); ``complete``: it also goes
    to the end of the match. ``verdict`` says both at once: ``"sound"``, ``"incomplete"`` (nothing
    wrong, but the log stops before the match ends, so what follows could not be checked) or
    ``"failed"``. ``describe(report)`` tells it in words.
    """

    config: Config[Any] | None
    state: TableState | None
    schema: int = SCHEMA_VERSION
    events: list[Event] = field(default_factory=list)
    deals: list[DealCheck] = field(default_factory=list)
    bad_index: int | None = (
        None  # index of the first bad event (0 = the first line after the header)
    )
    error: RuleError | None = None
    expected: Event | None = None  # what the rules produce where the log has the bad event
    names: tuple[str, ...] | None = None  # the players' names, when the header gives them
    cut_off: RuleError | None = None  # the last line cannot be read: the file stops mid-line

    @property
    def ok(self) -> bool:
        return self.error is None and all(
            d.status in ("verified", "unrevealed") for d in self.deals
        )

    @property
    def complete(self) -> bool:
        """Whether the log goes to the end of the match (its last event ends it)."""
        return self.state is not None and self.state.phase == "over" and self.cut_off is None

    @property
    def verdict(self) -> str:
        if not self.ok or self.config is None:
            return "failed"
        return "sound" if self.complete else "incomplete"


def _same_deal_shape(game: Any, state: TableState, event: Dealt) -> bool:
    pack = game.pack(state.config)
    dealt = [c for hand in event.hands for c in hand] + list(event.rest)
    sizes_ok = len(event.hands) == state.config.players and all(
        len(h) == game.hand_size(state.config) for h in event.hands
    )
    if game.draws_first_by_lot(state):  # a lot, drawn from the seed not revealed yet
        leader_ok = 0 <= event.leader < state.config.players
    else:
        hands = tuple(tuple(sorted(h)) for h in event.hands)
        leader_ok = event.leader == game.first_turn(state, hands)
    return sizes_ok and event.hand_no == state.hand_no and sorted(dealt) == list(pack) and leader_ok


def audit(lines: Iterable[str]) -> Audit:
    """Replay a log through ``decide``: every event must be exactly what the rules produce from
    the command it records. Stops at the first bad event (unreadable, illegal or not following).
    An unreadable last line is taken as the file cut off there (``cut_off``), not as a bad event:
    every event before it is checked, and the log is incomplete."""
    kept = [line for line in lines if line.strip()]
    if not kept:
        return Audit(None, None, error=RuleError("log_header", detail="empty log"))
    try:
        config, schema = read_log_header(kept[0])
    except RuleError as err:
        return Audit(None, None, error=err)
    report = Audit(config, None, schema, names=header_names(kept[0], config.players))
    unreadable: RuleError | None = None
    for n, line in enumerate(kept[1:], start=1):
        try:
            report.events.append(decode_event(line))
        except RuleError as err:
            if n == len(kept) - 1:
                report.cut_off = err
            else:
                unreadable = err
            break
    replayed = _replay(config, report.events, schema)
    report.state, report.bad_index, report.error, report.expected = replayed
    if report.error is None and unreadable is not None:
        report.bad_index, report.error = len(report.events), unreadable
    if report.error is not None:
        report.cut_off = None
    good = report.events if report.bad_index is None else report.events[: report.bad_index]
    seeds = {e.hand_no: e.seed for e in report.events if isinstance(e, SeedRevealed)}
    report.deals = verify_deal(config, good, seeds)
    return report


# Event types a log of an older schema did not record although the rules produced them: the audit
# of such a log takes them as implied (schema 1 had no ``trick_won``).
IMPLIED_BEFORE: dict[type[Event], int] = {TrickWon: 2}


def _replay(
    config: Config[Any], events: list[Event], schema: int = SCHEMA_VERSION
) -> tuple[TableState, int | None, RuleError | None, Event | None]:
    """The state reached, and at the first bad event: its index, the error and (when the log
    has another event than the rules produce) the event the rules produce there."""
    game = get_game(config.game)
    seeds = {e.hand_no: e.seed for e in events if isinstance(e, SeedRevealed)}
    state = game.initial_state(config)
    i = 0
    while i < len(events):
        event = events[i]
        try:
            produced = _produce(game, state, event, seeds, schema)
        except PaijuError as err:
            if not isinstance(err, RuleError):
                err = RuleError("log_corrupt", detail=str(err))
            return state, i, err, None
        for expected in produced:
            if i < len(events) and events[i] == expected:
                i += 1
            elif schema >= IMPLIED_BEFORE.get(type(expected), 1):
                if i == len(events):  # the log stops before what the rules produce next
                    return state, None, None, None
                return state, i, RuleError("unexpected_event", event=events[i].TYPE), expected
            state = game.evolve(state, expected)
    return state, None, None, None


def _produce(
    game: Any, state: TableState, event: Event, seeds: dict[int, str], schema: int
) -> list[Event]:
    """The events the rules produce from the command that ``event`` records."""
    if isinstance(event, Dealt) and schema >= 2 and event.scheme != "round":
        raise RuleError("deal_mismatch")  # the hand-out is not the server's to choose
    if isinstance(event, Dealt) and (
        event.hand_no not in seeds
        or fairness.commitment_of(seeds[event.hand_no]) != state.commitment
    ):
        # the seed is not (correctly) revealed: the deal can only be checked for its shape here;
        # the reveal itself is checked at its own event
        if state.phase != "seeding" or not _same_deal_shape(game, state, event):
            raise RuleError("deal_mismatch")
        return [event, *game.deal_consequences(game.evolve(state, event))]
    command: Command | None
    if isinstance(event, Dealt):
        seed = seeds.get(event.hand_no)
        command = None if seed is None else Deal(seed=seed, scheme=event.scheme)
    else:
        command = event.as_command()
    if command is None:
        raise RuleError("unexpected_event", event=event.TYPE)
    produced: list[Event] = game.decide(state, command)
    return produced


# --- the audit in words ---------------------------------------------------------------------------
# What ``paiju audit`` prints (and what a page that audits a log in the browser may show): every
# sentence a pair (zh, en), seats numbered from 1 as the table shows them (1号位 / Seat 1, with
# the player's name when the header gives it), cards by their names (``paiju.cards.card_names``),
# every code by its name in the game's words.

VERDICTS: dict[str, Text] = {
    "sound": (
        "审核通过：日志完整，每一步都符合规则",
        "audit: OK — the log is complete and every step follows the rules",
    ),
    "incomplete": (
        "审核未完成：日志不完整，已有部分符合规则，但没到比赛结束",
        "audit: INCOMPLETE — what the log holds follows the rules, but it stops before the match ends",
    ),
    "failed": ("审核失败：日志有误", "audit: FAILED — the log is wrong"),
}

DEAL_STATUS: dict[str, Text] = {
    "verified": (
        "发牌与承诺值和种子相符",
        "the deal follows from the commitment and the seeds",
    ),
    "unrevealed": (
        "种子还没公开，发牌无法核对",
        "the seed is not revealed, so the deal cannot be checked",
    ),
    "no commitment before the deal": ("发牌前没有承诺值", "no commitment was made before the deal"),
    "the revealed seed does not match the commitment": (
        "公开的种子与承诺值不符",
        "the revealed seed does not match the commitment",
    ),
    "the dealt hands do not follow from the seeds": (
        "发的牌与种子不符",
        "the dealt hands do not follow from the seeds",
    ),
}


Names = Sequence[str | Text]  # a name per seat ("" for none): one text, or one per language


def seat_name(seat: int, names: Names | None = None) -> Text:
    """A seat as the table shows it: numbered from 1, with its player's name when known (a name
    may be a pair (zh, en), as "you" is).

    >>> seat_name(0), seat_name(2, ["甲", "乙", "Carol"]), seat_name(0, [("你", "you")])
    (('1号位', 'Seat 1'), ('3号位（Carol）', 'Seat 3 (Carol)'), ('1号位（你）', 'Seat 1 (you)'))
    """
    n = seat + 1
    name = names[seat] if names is not None and 0 <= seat < len(names) else ""
    zh, en = (name, name) if isinstance(name, str) else name
    if zh or en:
        return f"{n}号位（{zh}）", f"Seat {n} ({en})"
    return f"{n}号位", f"Seat {n}"


def _pair(template: Text, **params: Any) -> Text:
    """A sentence in both languages: each param is a Text (one value per language) or a value
    shown alike in both."""

    def pick(lang: int) -> dict[str, Any]:
        return {k: v[lang] if isinstance(v, tuple) else v for k, v in params.items()}

    return template[0].format(**pick(0)), template[1].format(**pick(1))


def payment_text(line: Any, words: Words, names: Names | None) -> Text:
    """A payment line as a sentence: "1号位 付给 2号位 3（包牌成功）"."""
    return _pair(
        ("{payer} 付给 {payee} {amount}（{reason}）", "{payer} pays {payee} {amount} ({reason})"),
        payer=seat_name(line.payer, names),
        payee=seat_name(line.payee, names),
        amount=line.amount,
        reason=_name(words.reasons, line.reason),
    )


def _cards(cards: Iterable[Card]) -> Text:
    cards = list(cards)
    return card_names(cards, "zh"), card_names(cards, "en")


def _name(words: Mapping[str, Text], code: str) -> Text:
    return words.get(code, (code, code))


def _seats(seats: Iterable[int], names: Names | None, zh_sep: str = "、") -> Text:
    named = [seat_name(s, names) for s in seats]
    return zh_sep.join(n[0] for n in named), ", ".join(n[1] for n in named)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _per_seat(values: Sequence[int], names: Names | None) -> Text:
    """A number per seat, signed: ``1号位 +3，2号位 -3`` / ``Seat 1 +3, Seat 2 -3``."""
    named = [(seat_name(s, names), _signed(v)) for s, v in enumerate(values)]
    return "，".join(f"{n[0]} {v}" for n, v in named), ", ".join(f"{n[1]} {v}" for n, v in named)


def result_lines(result: HandEnded, words: Words, names: Names | None = None) -> list[Text]:
    """A scored hand in words: the finishing order, every payment and result, the net scores."""
    out = [
        _pair(
            ("第{no}局 出完顺序：{order}", "hand {no}, finishing order: {order}"),
            no=result.hand_no,
            order=_seats(result.order, names, " → "),
        )
    ]
    for line in result.lines:
        zh, en = payment_text(line, words, names)
        out.append((f"  {zh}", f"  {en}"))
    for res in result.results:
        out.append(
            _pair(
                ("  {seat}：{reason} {value}", "  {seat}: {reason} {value}"),
                seat=seat_name(res.seat, names),
                reason=_name(words.reasons, res.reason),
                value=res.value,
            )
        )
    out.append(
        _pair(("  得分：{scores}", "  scores: {scores}"), scores=_per_seat(result.scores, names))
    )
    return out


# events that record the table's own steps or a seat's presence (托管, 继续); every other event
# records a move
_TABLE_EVENTS = (
    DealCommitted,
    SeedAdded,
    Dealt,
    HandEnded,
    SeedRevealed,
    MatchEnded,
    TrickWon,
    AutoSet,
    AutoPlayed,
    Continued,
    TableAbandoned,
    TableAtLimit,
)


def describe(report: Audit) -> list[Text]:
    """The audit in words, sentence by sentence (zh, en): the log, each hand checked (its deal,
    its moves, its score), the first bad event explained, what an incomplete log leaves
    unchecked, and the verdict last."""
    if report.config is None:
        assert report.error is not None
        return [
            _pair(
                ("第 1 行不是牌局日志的头：{zh}", "line 1 is not a Paiju log header: {en}"),
                zh=report.error.zh,
                en=report.error.en,
            ),
            VERDICTS["failed"],
        ]
    config, names = report.config, report.names
    game = get_game(config.game)
    words: Words = game.words
    variant = game.info.variant(config.variant)
    out = [
        _pair(
            (
                "{game}（{variant}），{players} 人，{events} 个事件",
                "{game} ({variant}), {players} players, {events} events",
            ),
            game=(game.info.name_zh, game.info.name_en),
            variant=(variant.name_zh, variant.name_en),
            players=config.players,
            events=len(report.events),
        )
    ]
    good = report.events if report.bad_index is None else report.events[: report.bad_index]
    deals = {d.hand_no: d.status for d in report.deals}
    hand_no, moves, ended = 0, 0, False
    cut: Text | None = None  # how a hand cut short by an early ending is told

    def close_hand() -> None:
        if not hand_no:
            return
        out.append(
            _pair(
                (
                    "第{no}局：{deal}；{moves} 步出牌/叫牌都符合规则；{score}",
                    "hand {no}: {deal}; {moves} moves follow the rules; {score}",
                ),
                no=hand_no,
                deal=DEAL_STATUS.get(deals.get(hand_no, ""), (deals.get(hand_no, "?"),) * 2),
                moves=moves,
                score=(
                    ("计分与规则相符", "its score follows the rules")
                    if ended
                    else cut
                    if cut is not None
                    else ("之后出错，见下", "then it goes wrong, see below")
                    if report.error is not None
                    else ("日志在计分前中断", "the log stops before its score")
                ),
            )
        )

    for event in good:
        if isinstance(event, Dealt):
            close_hand()
            hand_no, moves, ended = event.hand_no, 0, False
        elif isinstance(event, HandEnded):
            ended = True
            close_hand()
            out.extend(result_lines(event, words, names))
            hand_no = 0
        elif isinstance(event, TableAbandoned | TableAtLimit):
            cut = CUT_HAND[event.TYPE]
            close_hand()
            hand_no = 0
            out.append(event_line(event, words, names))
        elif not isinstance(event, _TABLE_EVENTS):
            moves += 1
    close_hand()
    if report.error is not None:
        out.extend(_explain(report, words))
    else:
        out.extend(_bad_deals(report))
        if not report.complete:
            out.extend(_unchecked(report, words))
        elif report.state is not None:
            totals = _per_seat(report.state.totals, names)
            out.append(_pair(("总分：{totals}", "totals: {totals}"), totals=totals))
    out.append(VERDICTS[report.verdict])
    return out


def _bad_deals(report: Audit) -> list[Text]:
    return [
        _pair(
            ("第{no}局的发牌有误：{status}", "the deal of hand {no} is wrong: {status}"),
            no=d.hand_no,
            status=DEAL_STATUS.get(d.status, (d.status, d.status)),
        )
        for d in report.deals
        if d.status not in ("verified", "unrevealed")
    ]


def _unchecked(report: Audit, words: Words) -> list[Text]:
    """What an incomplete log leaves unchecked."""
    out: list[Text] = []
    if report.cut_off is not None:
        line = len(report.events) + 2
        out.append(
            _pair(
                (
                    "第 {line} 行（最后一行）不完整，无法读取：文件在这里中断",
                    "line {line}, the last, is cut short and cannot be read: the file stops there",
                ),
                line=line,
            )
        )
    if not report.events:
        out.append(
            (
                "日志只有牌局头，没有任何事件：发牌、出牌和计分都无法核对",
                "the log has its header and no event: no deal, move or score could be checked",
            )
        )
        return out
    state = report.state
    assert state is not None
    last = len(report.events) + 1  # the file's line of the last event
    phase = _name(words.phases, state.phase)
    if state.phase in ("commit", "seeding") or state.hand_no == 0:
        out.append(
            _pair(
                (
                    "日志在第 {line} 行后中断，下一局还没发牌（{phase}）",
                    "the log stops after line {line}, before the next deal ({phase})",
                ),
                line=last,
                phase=phase,
            )
        )
    elif state.phase == "reveal":
        out.append(
            _pair(
                (
                    "日志在第 {line} 行后中断：第{no}局已计分，但种子没有公开，这一局的发牌无法核对",
                    "the log stops after line {line}: hand {no} is scored, but its seed is not "
                    "revealed, so its deal cannot be checked",
                ),
                line=last,
                no=state.hand_no,
            )
        )
    else:
        out.append(
            _pair(
                (
                    "日志在第 {line} 行后中断，第{no}局还在进行（{phase}）：之后的出牌和这一局的计分"
                    "没有记录，种子没有公开，这一局的发牌无法核对",
                    "the log stops after line {line}, in the middle of hand {no} ({phase}): the rest "
                    "of its moves and its score are not recorded, and its seed is not revealed, so "
                    "its deal cannot be checked",
                ),
                line=last,
                no=state.hand_no,
                phase=phase,
            )
        )
    out.append(("比赛的结果（总分）无法核对", "the match's result (the totals) cannot be checked"))
    return out


def _explain(report: Audit, words: Words) -> list[Text]:
    """The first bad event in words: what the log says, and what the rules say instead."""
    err, i, state, names = report.error, report.bad_index, report.state, report.names
    assert err is not None and i is not None and state is not None
    line = i + 2
    if i >= len(report.events):
        return [
            _pair(
                ("第 {line} 行无法读取：{zh}", "line {line} cannot be read: {en}"),
                line=line,
                zh=err.zh,
                en=err.en,
            )
        ]
    event, expected = report.events[i], report.expected
    seat = getattr(event, "seat", None)
    who = seat_name(seat, names) if isinstance(seat, int) else ("", "")
    if isinstance(event, Played) and err.code == "not_in_hand" and isinstance(seat, int):
        held = list(state.hands[seat]) if seat < len(state.hands) else []
        rest = list(held)
        missing = []
        for c in event.cards:
            if c in rest:
                rest.remove(c)
            else:
                missing.append(c)
        return [
            _pair(
                (
                    "第 {line} 行：{who} 出了 {cards}，但这手牌里没有 {missing}；按发牌，这时这手牌是 {held}",
                    "line {line}: {who} played {cards}, but {missing} is not in that hand; by the "
                    "deal it held {held}",
                ),
                line=line,
                who=who,
                cards=_cards(event.cards),
                missing=_cards(missing),
                held=_cards(held),
            )
        ]
    if isinstance(event, Dealt) and isinstance(expected, Dealt):
        return _deal_differs(line, event, expected, names)
    if isinstance(event, Dealt):
        return [
            _pair(
                (
                    "第 {line} 行：第{no}局的发牌不对：{zh}",
                    "line {line}: the deal of hand {no} is wrong: {en}",
                ),
                line=line,
                no=event.hand_no,
                zh=err.zh,
                en=err.en,
            )
        ]
    if isinstance(event, SeedRevealed):
        return [
            _pair(
                (
                    "第 {line} 行：公开的第{no}局种子与发牌前的承诺值不符",
                    "line {line}: the seed revealed for hand {no} does not match the commitment "
                    "made before its deal",
                ),
                line=line,
                no=event.hand_no,
            )
        ]
    said = event_line(event, words, names, _automatic(report.events[i - 1] if i else None, event))
    turn = get_game(state.config.game).to_move(state)
    if err.code == "not_your_turn" and isinstance(seat, int) and isinstance(turn, int):
        return [
            _pair(
                (
                    "第 {line} 行：“{said}”，但这时轮到的是 {turn}，不是 {who}",
                    "line {line}: “{said}”, but it was {turn}'s turn, not {who}'s",
                ),
                line=line,
                said=said,
                turn=seat_name(turn, names),
                who=who,
            )
        ]
    if expected is None:  # the rules refuse the command the event records
        return [
            _pair(
                (
                    "第 {line} 行：“{said}”不合规则：{zh}",
                    "line {line}: “{said}” is against the rules: {en}",
                ),
                line=line,
                said=said,
                zh=err.zh,
                en=err.en,
            )
        ]
    if type(expected) is not type(event):
        return [
            _pair(
                (
                    "第 {line} 行记录了“{said}”，但按规则这里应当是“{rules}”",
                    "line {line} records “{said}”, but by the rules what comes here is “{rules}”",
                ),
                line=line,
                said=said,
                rules=event_line(expected, words, names),
            )
        ]
    out = [
        _pair(
            (
                "第 {line} 行：“{said}”与规则推导的不符",
                "line {line}: “{said}” does not follow from the rules",
            ),
            line=line,
            said=said,
        )
    ]
    for f in dataclasses.fields(event):
        logged, ruled = getattr(event, f.name), getattr(expected, f.name)
        if logged != ruled:
            out.append(
                _pair(
                    (
                        "  {field}：日志记的是 {logged}，按规则是 {ruled}",
                        "  {field}: the log has {logged}, the rules give {ruled}",
                    ),
                    field=FIELD_NAMES.get(f.name, (f.name, f.name)),
                    logged=_value(event, f.name, logged, words, names),
                    ruled=_value(expected, f.name, ruled, words, names),
                )
            )
    return out


def _deal_differs(line: int, event: Dealt, expected: Dealt, names: Names | None) -> list[Text]:
    out = [
        _pair(
            (
                "第 {line} 行：第{no}局的发牌与种子推导的不符",
                "line {line}: the deal of hand {no} does not follow from the seeds",
            ),
            line=line,
            no=event.hand_no,
        )
    ]

    def differ(logged: Sequence[Card], ruled: Sequence[Card], whose: Text) -> None:
        if list(logged) == list(ruled):
            return
        extra, missing = list(logged), []
        for c in ruled:
            if c in extra:
                extra.remove(c)
            else:
                missing.append(c)
        if not extra and not missing:
            out.append(
                _pair(
                    (
                        "  {whose}的牌相同，但不是按发牌的顺序",
                        "  {whose}: the same cards, but not in the order dealt",
                    ),
                    whose=whose,
                )
            )
            return
        out.append(
            _pair(
                (
                    "  {whose}：日志里有 {extra}，按种子应当是 {missing}",
                    "  {whose}: the log has {extra} where the seeds give {missing}",
                ),
                whose=whose,
                extra=_cards(extra) if extra else ("（无）", "nothing"),
                missing=_cards(missing) if missing else ("（无）", "nothing"),
            )
        )

    for seat in range(max(len(event.hands), len(expected.hands))):
        logged = event.hands[seat] if seat < len(event.hands) else ()
        ruled = expected.hands[seat] if seat < len(expected.hands) else ()
        differ(logged, ruled, seat_name(seat, names))
    differ(event.rest, expected.rest, ("底牌", "the undealt cards"))
    differ(event.face_up, expected.face_up, ("翻开的牌", "the cards turned face up"))
    if event.leader != expected.leader:
        out.append(
            _pair(
                (
                    "  日志记 {logged} 先出，按规则是 {ruled}",
                    "  the log has {logged} to lead, the rules give {ruled}",
                ),
                logged=seat_name(event.leader, names),
                ruled=seat_name(expected.leader, names),
            )
        )
    return out


class _Blank(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


AUTO_MARK: Text = ("（托管）", " (auto)")  # after the seat's name, on a play the server made
# lines of the table's life that every game tells alike and no game's words name (yet): used when
# the game's words have no line for the key
CORE_LINES: dict[str, Text] = {
    "auto_set.on.left": ("{name}离座，由托管代打", "{name} left; auto-play takes over"),
    "table_abandoned": (
        "牌桌无人在线，已结束（按当前比分）",
        "Nobody was connected: the table ended (scores as they stand)",
    ),
}
# the score of a hand in progress when its match ended early: none (the scores stand as they were)
CUT_HAND: dict[str, Text] = {
    "table_abandoned": ("牌桌无人在线，本局不计分", "nobody was connected: the hand is not scored"),
    "table_at_limit": (
        "牌局的事件数已达上限，本局不计分",
        "the table reached its limit of events: the hand is not scored",
    ),
}


def event_line(event: Event, words: Words, names: Names | None, auto: bool = False) -> Text:
    """An event told as the game's words tell it (``Words.events``, by the event's ``line_key``,
    else its type), or by its type. ``auto``: the server decided it for the seat (it follows an
    ``auto_played``): the seat is named with 托管, "3号位（托管）出 ♠5"."""
    key = event.line_key()
    template = words.events.get(key) or CORE_LINES.get(key) or words.events.get(event.TYPE)
    seat = getattr(event, "seat", getattr(event, "leader", None))
    who = seat_name(seat, names) if isinstance(seat, int) else ("", "")
    if auto and isinstance(seat, int):
        who = who[0] + AUTO_MARK[0], who[1] + AUTO_MARK[1]
    if template is None:
        return f"{who[0]} {event.TYPE}".strip(), f"{who[1]} {event.TYPE}".strip()
    out = []
    for lang, text in enumerate(template):
        params = _Blank(name=who[lang], hand=getattr(event, "hand_no", ""))
        cards = getattr(event, "cards", None)
        if isinstance(cards, tuple):
            params["cards"] = _cards(cards)[lang]
        card = getattr(event, "card", None)
        if isinstance(card, int):
            params["card"] = _cards([card])[lang]
        kind = getattr(event, "kind", None)
        if isinstance(kind, str):
            params["kind"] = _name(words.kinds, kind)[lang]
        for command, named in words.commands.items():
            value = getattr(event, command, None)
            if isinstance(value, str) and value in named:
                params[command] = named[value].badge[lang]
        out.append(text.format_map(params))
    return out[0], out[1]


def event_lines(events: Sequence[Event], words: Words, names: Names | None = None) -> list[Text]:
    """Events told one by one (``event_line``), each event a seat's command the server decided
    for it (the one after an ``auto_played`` of that seat) marked 托管."""
    return [
        event_line(e, words, names, auto=_automatic(events[i - 1] if i else None, e))
        for i, e in enumerate(events)
    ]


def _automatic(before: Event | None, event: Event) -> bool:
    return isinstance(before, AutoPlayed) and getattr(event, "seat", None) == before.seat


# the fields of the core's events, named
FIELD_NAMES: dict[str, Text] = {
    "seat": ("座位", "seat"),
    "cards": ("牌", "cards"),
    "card": ("牌", "card"),
    "kind": ("牌型", "combination"),
    "key": ("大小", "rank"),
    "stands_for": ("代替的牌", "what the wildcards stand for"),
    "hand_no": ("局数", "hand number"),
    "order": ("出完顺序", "finishing order"),
    "lines": ("付分", "payments"),
    "scores": ("得分", "scores"),
    "results": ("结果", "results"),
    "totals": ("总分", "totals"),
    "leader": ("先出", "first to play"),
    "bid": ("叫的话", "bid"),
    "on": ("开启", "on"),
    "reason": ("原因", "reason"),
}


def _value(event: Event, name: str, value: Any, words: Words, names: Names | None) -> Text:
    """A field's value in words: cards by their names, a seat by its number, a kind by its name,
    anything else in its JSON form."""
    encoded = encode(event).get(name)
    if name in ("seat", "leader", "payer", "payee") and isinstance(value, int):
        return seat_name(value, names)
    if name == "kind" and isinstance(value, str):
        return _name(words.kinds, value)
    if isinstance(value, int) and isinstance(encoded, str) and not isinstance(value, bool):
        return _cards([value])
    if (
        isinstance(value, tuple)
        and all(isinstance(c, int) for c in value)
        and isinstance(encoded, list)
        and all(isinstance(c, str) for c in encoded)
    ):
        return _cards(value) if value else ("（无）", "none")
    if name == "order" and isinstance(value, tuple):
        return _seats(value, names, " → ")
    if name == "lines" and isinstance(value, tuple):
        told = [payment_text(line, words, names) for line in value]
        return "；".join(t[0] for t in told), "; ".join(t[1] for t in told)
    if name in ("scores", "totals") and isinstance(value, tuple):
        return _per_seat(value, names)
    text = json.dumps(encoded, ensure_ascii=False)
    text = text if len(text) <= 160 else text[:157] + "…"
    return text, text
