"""The audit: a log replayed through the rules. Every event must be exactly what ``decide``
produces from the command it records; the replay stops at the first bad event and says what the
rules produce there instead. ``Audit`` is its report (``paiju.log.report.describe`` tells it in
words).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from paiju import fairness
from paiju.errors import PaijuError, RuleError
from paiju.log.deals import DealCheck, verify_deal
from paiju.log.file import decode_event, header_names, read_log_header
from paiju.protocol import (
    SCHEMA_VERSION,
    Command,
    Deal,
    Dealt,
    Event,
    HandEnded,
    SeedRevealed,
    TrickWon,
)
from paiju.registry import get_game
from paiju.table import Config, TableState


@dataclass
class Audit:
    """The outcome of replaying a log: the state reached, the deal checks and the first bad event.

    ``ok``: nothing in the log is against the rules (so far as it goes); ``complete``: it also goes
    to the end of the match. ``verdict`` says both at once: ``"sound"``, ``"incomplete"`` (nothing
    wrong, but the log stops before the match ends, so what follows could not be checked) or
    ``"failed"``. ``paiju.log.report.describe(report)`` tells it in words.
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
            if i < len(events) and events[i] in (expected, *_earlier_forms(game, state, expected)):
                expected = events[i]  # the state goes on from the event as the log has it
                i += 1
            elif schema >= IMPLIED_BEFORE.get(type(expected), 1):
                if i == len(events):  # the log stops before what the rules produce next
                    return state, None, None, None
                return state, i, RuleError("unexpected_event", event=events[i].TYPE), expected
            state = game.evolve(state, expected)
    return state, None, None, None


def _earlier_forms(game: Any, state: TableState, event: Event) -> tuple[Event, ...]:
    """The forms in which an older engine wrote the same event, which a log stored then holds:
    a hand's end as its game wrote it before it declared its result's record
    (``paiju.results``: 打棒's made-up finishing order and ±levels as scores)."""
    if not isinstance(event, HandEnded):
        return ()
    forms: tuple[Event, ...] = game.result_type.earlier_forms(event, state.config.players)
    return forms


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
