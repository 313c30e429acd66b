"""Payloads of the HTTP API and frames of the WebSocket, as msgspec Structs.

Create and read shapes are separate. WebSocket frames are a tagged union on ``type``: the gateway
decodes every client frame itself (``ws.parse_frame``: Litestar does not validate frames). The
``state`` frame is not here: it is the table service's view (``views.ViewBody``), which the
gateway's feeds forward (a seat's unsealed first). ``table_out`` and ``answer_out`` make the
HTTP answers of a directory entry and of a table service's reply.
"""

from __future__ import annotations

from typing import Any, Literal, TypeVar

import msgspec

from paiju.levels import DEFAULT_LEVEL
from paiju_services.deadlines import table_clock
from paiju_services.messages import Reply, RequestId, SeatKind, Status, TableMeta

# --- HTTP ---------------------------------------------------------------------------------------


class In(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A request body: no unknown field, and every field of exactly its JSON type (the gateway
    decodes bodies again with ``strict=True``: ``"1"`` is not a number)."""


class CreateTableIn(In):
    game: str
    variant: str | None = None
    players: int | None = None
    options: dict[str, Any] = msgspec.field(default_factory=dict)
    # the turn clock: seconds per kind of decision (play, bid, bury, continue; `GET /api/games`
    # lists each game's defaults); a kind not given takes its default; 0: no limit
    clock: dict[str, int] | None = None
    # your id of this request (16-64 of A-Z a-z 0-9 _ . : -, e.g. a UUID): a retry with the same id
    # returns the same table; the same id with a different body is refused (id_reused)
    request_id: RequestId | None = None


class SeatOut(msgspec.Struct, kw_only=True):
    seat: int
    kind: SeatKind
    name: str | None
    waiting: bool = False  # a rematch seat whose player has not pressed 再来一局 yet
    left: bool = False  # its player left during the match: 托管 plays it to the end
    level: str | None = None  # a bot's level (``GET /api/games``: each game's ``levels``)


class TableOut(msgspec.Struct, kw_only=True):
    id: str
    game: str
    variant: str
    players: int
    options: dict[str, Any]
    status: Status
    seats: list[SeatOut]
    created_at: float
    finished_at: float | None = None
    totals: list[int] | None = None
    ws: str  # the table's WebSocket path
    rematch: str | None = None  # the table its players went on to (再来一局)
    rematch_of: str | None = None  # the finished table this one is the rematch of
    # the turn clock: seconds per kind of decision (0: no limit), the game's defaults included
    clock: dict[str, int] | None = None
    # an open table: when it expires if its seats are not all taken (a rematch's: if its players
    # have not all pressed 再来一局), epoch seconds; None once the match started
    expires_at: float | None = None


class CreatedOut(TableOut, kw_only=True):
    # keep it: it is the table's ownership (fill seats with bots, close the table), sent as
    # Authorization: Bearer <owner token>; a retried create with the same request id answers it again
    owner_token: str


class JoinIn(In):
    name: str  # trimmed; 1 to 32 characters, no control or format characters
    seat: int | None = None  # None: the first empty seat
    seed: str | None = None  # your own seed for the deal (optional; see docs/services.md)
    # your id of this request (16-64 of A-Z a-z 0-9 _ . : -, a random UUID): a retry with the same
    # id returns the same seat and token, so keep it as secret as the token
    request_id: RequestId | None = None


class JoinOut(msgspec.Struct, kw_only=True):
    table: str
    seat: int
    token: str  # keep it secret: it is the seat; send it in a WebSocket hello frame
    ws: str


class BotsIn(In):
    seats: list[int] | None = None  # None: every empty seat
    # the bots' level, an id of the catalogue's ``levels`` (basic, normal, expert; None: normal),
    # for every seat filled; ``levels``: a level of its own for some of them ({"2": "expert"});
    # an unknown level is refused (422 unknown_level) and no seat is filled
    level: str | None = None
    levels: dict[int, str] | None = None


class BotsOut(msgspec.Struct, kw_only=True):
    table: str
    seats: list[int]


class CloseOut(msgspec.Struct, kw_only=True):
    table: str
    status: str


class LeaveOut(msgspec.Struct, kw_only=True):
    table: str
    seat: int  # the seat given up, now empty


class RematchOut(msgspec.Struct, kw_only=True):
    table: str  # the new table: sit at the same seat with the same token
    seat: int
    waiting: list[int]  # human seats that have not pressed 再来一局 yet: the deal waits for them
    ws: str


class HandsOut(msgspec.Struct, kw_only=True):
    table: str
    version: int  # events in the log read
    finished: bool
    # every hand scored so far: its hand_ended event (the engine's JSON form: hand_no, order,
    # lines, scores, results) and "totals", the running totals after it
    hands: list[dict[str, Any]]
    totals: list[int]  # the totals now


class CommandIn(In):
    # your command id (1-64 of A-Z a-z 0-9 _ . : -): a retry with the same id is applied once
    id: str
    # the engine's JSON form of a command, e.g. {"type": "play", "seat": 0, "cards": ["3D"]}
    command: dict[str, Any]


class CommandOut(msgspec.Struct, kw_only=True):
    id: str
    duplicate: bool
    index: int
    count: int
    version: int


class StateOut(msgspec.Struct, kw_only=True):
    table: str
    index: int  # events applied (0: before the first event)
    events: int  # events in the log now
    finished: bool
    view: dict[str, Any]  # the engine's view(state, None): what a spectator sees
    hands: list[list[str]] | None  # every seat's hand at that index, once the table is finished


class LogOut(msgspec.Struct, kw_only=True):
    table: str
    header: dict[str, Any]
    events: list[dict[str, Any]]
    result: dict[str, Any]
    deals: list[dict[str, Any]]


class HealthOut(msgspec.Struct, kw_only=True):
    status: Literal["ok", "degraded"]
    instance: str
    nats: bool
    jetstream: bool
    table_service: bool
    bots_service: bool


# --- WebSocket: client frames -------------------------------------------------------------------


class Frame(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, kw_only=True):
    pass


class Hello(Frame, tag="hello"):
    token: str  # a seat token from POST /api/tables/{id}/seats


class SendCommand(Frame, tag="command"):
    id: str
    command: dict[str, Any]


class Ping(Frame, tag="ping"):
    nonce: int | str | None = None


class Sync(Frame, tag="sync"):
    pass


ClientFrame = Hello | SendCommand | Ping | Sync
CLIENT_TAGS = frozenset({"hello", "command", "ping", "sync"})


# --- WebSocket: server frames -------------------------------------------------------------------


class Welcome(Frame, tag="welcome"):
    table: str
    seat: int | None  # None: a spectator
    max_frame: int


class Ack(Frame, tag="ack"):
    id: str
    duplicate: bool
    index: int
    count: int
    version: int


class ErrorFrame(Frame, tag="error"):
    code: str
    zh: str
    en: str
    cards: list[str] = msgspec.field(default_factory=list)
    id: str | None = None  # the command id it answers, if any
    # seconds to wait before trying again, where the code says when (overloaded); else left out
    retry_after: int | msgspec.UnsetType = msgspec.UNSET


class Over(Frame, tag="over"):
    table: str
    totals: list[int]
    result: dict[str, Any] | None
    log: str


class RematchOpened(Frame, tag="rematch"):
    """Pushed to a finished table's sockets when one of its players presses 再来一局."""

    table: str
    rematch: str  # the table they go on to


class Pong(Frame, tag="pong"):
    nonce: int | str | None = None


encoder = msgspec.json.Encoder()


def table_out(meta: TableMeta, open_expiry: float) -> TableOut:
    """A table's public entry (``GET /api/tables/{id}``, the lobby): no token hash, no id of
    a request. ``open_expiry``: the setting by which an open table expires (tables.expiry)."""
    config = meta.config
    return TableOut(
        id=meta.id,
        game=config["game"],
        variant=config["variant"],
        players=config["players"],
        options=config["options"],
        status=meta.status,
        seats=[
            SeatOut(
                seat=i,
                kind=s.kind,
                name=s.name,
                waiting=s.waiting,
                left=s.left,
                level=(s.level or DEFAULT_LEVEL) if s.kind == "bot" else None,
            )
            for i, s in enumerate(meta.seats)
        ],
        created_at=meta.created_at,
        finished_at=meta.finished_at,
        totals=meta.totals,
        ws=f"/ws/tables/{meta.id}",
        rematch=meta.rematch,
        rematch_of=meta.rematch_of,
        clock=table_clock(meta),
        expires_at=meta.open_since() + open_expiry if meta.status == "open" else None,
    )


Out = TypeVar("Out", bound=msgspec.Struct)


def answer_out(reply: Reply, out: type[Out]) -> Out:
    """An HTTP answer made of a table service's reply: its fields but ``error`` (always None
    here: a reply with an error raised)."""
    fields = msgspec.structs.asdict(reply)
    del fields["error"]
    return out(**fields)
