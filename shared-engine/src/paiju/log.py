"""Event logs: export, import, verification of the deal, and the audit that replays a log through
the rules. The format (one JSON object per line, a header first) is documented in
docs/log-format.md.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from paiju import fairness
from paiju.errors import PaijuError, RuleError
from paiju.protocol import (
    DEAL_SCHEMES,
    SCHEMA_VERSION,
    Command,
    Deal,
    DealCommitted,
    Dealt,
    Event,
    SeedAdded,
    SeedRevealed,
    TrickWon,
    decode,
    encode,
)
from paiju.registry import get_game
from paiju.table import Config, TableState

HEADER_TYPE = "paiju_log"


def header(config: Config[Any], table_id: str | None = None) -> dict[str, Any]:
    return {"type": HEADER_TYPE, "v": SCHEMA_VERSION, "table": table_id, "config": config.to_dict()}


def dump_lines(
    config: Config[Any], events: Iterable[Event], table_id: str | None = None
) -> list[str]:
    """The log as JSON lines: the header, then one event per line."""
    lines = [json.dumps(header(config, table_id), ensure_ascii=False)]
    lines += [json.dumps(encode(e), ensure_ascii=False) for e in events]
    return lines


def write_log(
    path: str, config: Config[Any], events: Iterable[Event], table_id: str | None = None
) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(dump_lines(config, events, table_id)) + "\n")


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


def verify_deal(config: Config[Any], events: Iterable[Event]) -> list[DealCheck]:
    """For each hand dealt: does the revealed seed match the commitment, and does the deal follow
    from it and the players' seeds — every seat's cards in the order drawn, the rest in pack order
    (``fairness.deal`` by the event's scheme, from the seat the game lets draw first)? A hand whose
    seed is not revealed yet is "unrevealed"."""
    game = get_game(config.game)
    events = list(events)
    committed: dict[int, str] = {}
    seeds: dict[int, list[str | None]] = {}
    revealed = {e.hand_no: e.seed for e in events if isinstance(e, SeedRevealed)}
    dealt: list[tuple[Dealt, int]] = []  # each deal with the seat that drew first
    state = game.initial_state(config)
    for event in events:
        if isinstance(event, DealCommitted):
            committed[event.hand_no] = event.commitment
            seeds[event.hand_no] = [None] * config.players
        elif isinstance(event, SeedAdded) and state.hand_no in seeds:
            seeds[state.hand_no][event.seat] = event.seed
        elif isinstance(event, Dealt):
            dealt.append((event, game.first_to_draw(state)))
        state = game.evolve(state, event)
    checks = []
    for event, first in dealt:
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
                first,
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
    """The outcome of replaying a log: the state reached, the deal checks and the first bad event."""

    config: Config[Any] | None
    state: TableState | None
    schema: int = SCHEMA_VERSION
    events: list[Event] = field(default_factory=list)
    deals: list[DealCheck] = field(default_factory=list)
    bad_index: int | None = (
        None  # index of the first bad event (0 = the first line after the header)
    )
    error: RuleError | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and all(
            d.status in ("verified", "unrevealed") for d in self.deals
        )


def _same_deal_shape(game: Any, state: TableState, event: Dealt) -> bool:
    pack = game.pack(state.config)
    dealt = [c for hand in event.hands for c in hand] + list(event.rest)
    sizes_ok = len(event.hands) == state.config.players and all(
        len(h) == game.hand_size(state.config) for h in event.hands
    )
    return (
        sizes_ok
        and event.hand_no == state.hand_no
        and sorted(dealt) == list(pack)
        and event.leader == game.first_turn(state, tuple(tuple(sorted(h)) for h in event.hands))
    )


def audit(lines: Iterable[str]) -> Audit:
    """Replay a log through ``decide``: every event must be exactly what the rules produce from
    the command it records. Stops at the first bad event (unreadable, illegal or not following)."""
    it = iter(line for line in lines if line.strip())
    try:
        config, schema = read_log_header(next(it))
    except StopIteration:
        return Audit(None, None, error=RuleError("log_header", detail="empty log"))
    except RuleError as err:
        return Audit(None, None, error=err)
    report = Audit(config, None, schema)
    unreadable: RuleError | None = None
    for line in it:
        try:
            report.events.append(decode_event(line))
        except RuleError as err:
            unreadable = err
            break
    report.state, report.bad_index, report.error = _replay(config, report.events, schema)
    if report.error is None and unreadable is not None:
        report.bad_index, report.error = len(report.events), unreadable
    good = report.events if report.bad_index is None else report.events[: report.bad_index]
    report.deals = verify_deal(config, good)
    return report


# Event types a log of an older schema did not record although the rules produced them: the audit
# of such a log takes them as implied (schema 1 had no ``trick_won``).
IMPLIED_BEFORE: dict[type[Event], int] = {TrickWon: 2}


def _replay(
    config: Config[Any], events: list[Event], schema: int = SCHEMA_VERSION
) -> tuple[TableState, int | None, RuleError | None]:
    game = get_game(config.game)
    seeds = {e.hand_no: e.seed for e in events if isinstance(e, SeedRevealed)}
    state = game.initial_state(config)
    i = 0
    while i < len(events):
        event = events[i]
        try:
            produced = _produce(game, state, event, seeds, schema)
        except PaijuError as err:
            return (
                state,
                i,
                err if isinstance(err, RuleError) else RuleError("log_corrupt", detail=str(err)),
            )
        for expected in produced:
            if i < len(events) and events[i] == expected:
                i += 1
            elif schema >= IMPLIED_BEFORE.get(type(expected), 1):
                detail = json.dumps(encode(expected), ensure_ascii=False)[:300]
                return state, i, RuleError("unexpected_event", expected=detail)
            state = game.evolve(state, expected)
    return state, None, None


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
        raise RuleError("unexpected_event", expected="an event that starts a command")
    produced: list[Event] = game.decide(state, command)
    return produced
