"""A table's turn clock as data: the deadline it waits for, computed from its log and its
directory entry, and the stream time that deadline counts from.

Pure functions and one read of the stream (``wait_start``), shared by the table service (its
timers, ``tables.clock``, and the deadline in every view it publishes, ``tables.publish``) and the
gateway (a table's clock in its public entry), so that neither side imports the other.
docs/services.md ("Deadlines") tells the rules; ``tables/clock.py`` the timers that fire them.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
import nats.errors
from nats.aio.client import Client

from paiju import api
from paiju.protocol import Event
from paiju.table import TableState
from paiju.table_life import QUIET
from paiju_services import subjects
from paiju_services.inputs import clean_clock
from paiju_services.messages import TableMeta
from paiju_services.store import StoreError
from paiju_services.stored import line_types


def wait_version(events: Sequence[Event]) -> int:
    """The version after the last of ``events`` (a table's log) that is not ``QUIET`` (0: none):
    the version the current wait began at."""
    for index in range(len(events) - 1, -1, -1):
        if events[index].TYPE not in QUIET:
            return index + 1
    return 0


@dataclass(frozen=True, slots=True)
class Pending:
    """The deadline a table waits for: ``seat`` (None: the 继续 gate between hands) must decide
    a ``kind`` of decision by ``at`` (epoch seconds), computed on the log at ``version``; ``auto``:
    the seat is in 托管 (played after the ``auto_delay`` setting)."""

    seat: int | None
    kind: str
    version: int
    at: float
    auto: bool = False

    @property
    def at_ms(self) -> int:
        return round(self.at * 1000)


def table_clock(meta: TableMeta) -> dict[str, int]:
    """A table's seconds per kind of decision: its own (``TableMeta.clock``) over its game's
    defaults."""
    game = str(meta.config.get("game", ""))
    return api.clock_defaults(game) | dict(meta.clock or {})


def table_clock_of(game: str, asked: Any) -> dict[str, int]:
    """The clock a new table keeps in its directory entry: the game's defaults, with the kinds
    the request sets (``inputs.clean_clock``).

    Raises:
        ServiceError: ``bad_config``.
    """
    defaults = api.clock_defaults(game)
    return defaults if asked is None else defaults | clean_clock(asked, defaults)


def humans(meta: TableMeta) -> frozenset[int]:
    """The human seats: each is timed (a seat whose player left too: it is in 托管)."""
    return frozenset(i for i, s in enumerate(meta.seats) if s.kind == "human")


def abandon_since(meta: TableMeta, seen: float) -> float | None:
    """When a playing table's wait for a person began: the later of ``seen`` (the last sign of
    one the service knows) and the last time a human seat was taken; None for a table of bots
    only (never abandoned)."""
    people = [s for s in meta.seats if s.kind == "human"]
    if not people:
        return None
    return max([seen, *(s.joined_at or 0.0 for s in people)])


def present(meta: TableMeta) -> frozenset[int]:
    """The human seats whose players are still at the table: the 继续 gate waits for them (a
    seat whose player left counts as a bot's)."""
    return frozenset(i for i, s in enumerate(meta.seats) if s.kind == "human" and not s.left)


def pending(
    state: TableState,
    clock: Mapping[str, int],
    people: frozenset[int],
    since: float,
    auto_delay: float,
    gate: frozenset[int] | None = None,
) -> Pending | None:
    """The deadline the table waits for after its log's last event, whose wait began at
    ``since`` (the stream time of the last event that is not ``QUIET``); None: nobody is timed.
    ``people``: the human seats (bots are not timed); ``auto_delay``: the seconds before a seat
    in 托管 is played for; ``gate``: those the next hand waits for (``present``: not a bot's, nor
    one whose player left; default ``people``)."""
    kind = api.clock_kind(state)
    if kind is None:
        return None
    if kind == "continue":
        seconds = clock.get("continue", 0)
        if seconds <= 0 or (people if gate is None else gate) <= set(state.ready):
            return None
        return Pending(None, kind, state.version, since + seconds)
    seat = api.to_move(state)
    if seat is None or seat not in people:
        return None
    if seat in state.auto:
        return Pending(seat, kind, state.version, since + auto_delay, auto=True)
    seconds = clock.get(kind, 0)
    if seconds <= 0:
        return None
    return Pending(seat, kind, state.version, since + seconds)


def stream_time(stamp: str) -> float:
    """Epoch seconds of a JetStream time stamp (RFC 3339 with up to nanoseconds)."""
    head, _, rest = stamp.rstrip("Z").partition(".")
    digits = "".join(ch for ch in rest if ch.isdigit())
    moment = datetime.datetime.fromisoformat(head).replace(tzinfo=datetime.UTC)
    return moment.timestamp() + (int(digits[:9].ljust(9, "0")) / 1e9 if digits else 0.0)


async def wait_start(nc: Client, table_id: str, timeout: float = 5.0) -> tuple[int, float] | None:
    """The table's last stream sequence, and the stream time its current wait began at: that of
    its last message not ``QUIET`` (walking back over at most a few 继续 and 托管 switches, one
    direct get each). None: the table has no message.

    Raises:
        StoreError: the stream does not answer.
    """
    subject = subjects.events_subject(table_id)
    last: int | None = None
    up_to: int | None = None
    since = 0.0
    for _ in range(64):
        request: dict[str, Any] = {"multi_last": [subject], "batch": 1}
        if up_to is not None:
            request["up_to_seq"] = up_to
        try:
            reply = await nc.request(
                f"$JS.API.DIRECT.GET.{subjects.STREAM}", msgspec.json.encode(request), timeout
            )
        except (nats.errors.TimeoutError, nats.errors.NoRespondersError, TimeoutError) as exc:
            raise StoreError(f"last message of {table_id}: {exc!r}") from exc
        headers = reply.headers or {}
        seq = headers.get("Nats-Sequence")
        if seq is None:  # no message (a 404 status), or the walk went past the first
            return None if last is None else (last, since)
        since = stream_time(headers.get("Nats-Time-Stamp", ""))
        if last is None:
            last = int(seq)
        types = line_types(headers)
        if not types or not QUIET.issuperset(types):  # a message of anything but quiet events
            return last, since
        up_to = int(seq) - 1
    assert last is not None
    return last, since
