"""The services' NATS contracts: requests and replies as msgspec Structs (JSON on the wire).

Every reply has an ``error`` that is None on success. Subjects are in ``subjects.py``; the table
directory record (``TableMeta``) lives in the ``paiju_tables`` KV bucket.
"""

from __future__ import annotations

import hmac
from typing import Annotated, Any, Literal, TypeVar

import msgspec

from paiju_services.errors import ErrorBody, RemoteError

SeatKind = Literal["empty", "human", "bot"]
# a client's id of a create or a join: a retry with the same id has the effect of one request
RequestId = Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9_.:-]{16,64}$")]
# closed: an open table its owner closed before the match started (it never dealt); expired: an
# open table nobody joined in time (tables.expiry: its entry is soon gone)
Status = Literal["open", "playing", "finished", "closed", "expired"]


class Request(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    pass


class Reply(msgspec.Struct, kw_only=True):
    error: ErrorBody | None = None


# --- table directory (KV) ------------------------------------------------------------------------


class Seat(msgspec.Struct, kw_only=True):
    kind: SeatKind = "empty"
    name: str | None = None
    token_sha256: str | None = None  # never leaves the services
    joined_at: float | None = None
    # the join that took the seat, when it had a request id: sha256 of the id, and of the request
    request_sha256: str | None = None
    request_digest: str | None = None
    # seated at a rematch table, not yet pressed 再来一局: the deal waits for every such seat
    waiting: bool = False
    # its player left during the match: 托管 plays it to the end (its token is gone; the seat
    # still counts as a human's for the clock, as a bot's for the 继续 gate)
    left: bool = False
    # the seed its join brought for the first deal: the table's steps add it to the log before
    # that deal, whichever copy runs them (a join could otherwise fill the table and lose the
    # race to another copy's deal); public once added, as every seat's seed is
    seed: str | None = None
    # a bot's level (``paiju.levels``: basic, normal, expert), chosen by the owner as he filled the
    # seat; the table's steps record it in the log before the first deal (``bot_seated``), and
    # the bots service plays the seat at it. None: a person, or a bot seated before levels (normal)
    level: str | None = None


class TableMeta(msgspec.Struct, kw_only=True):
    id: str
    config: dict[str, Any]
    created_at: float
    status: Status = "open"
    seats: list[Seat] = msgspec.field(default_factory=list)
    totals: list[int] | None = None
    finished_at: float | None = None
    request_digest: str | None = None  # of the create that made it, when it had a request id
    owner_sha256: str | None = None  # sha256 of the owner token (None: a table made before them)
    rematch: str | None = None  # the table its players went on to with 再来一局
    rematch_of: str | None = None  # the finished table this one is the rematch of
    # "<seat>:<sha256 of its token>" of the last 64 seats left (before the start or during the
    # match): a retried leave is answered again with its seat
    left: list[str] = msgspec.field(default_factory=list)
    # the turn clock: seconds per kind of decision (play, bid, bury, continue; 0: no limit);
    # None: the game's defaults (a table made before clocks)
    clock: dict[str, int] | None = None
    # when its log left the event stream for the archive (paiju_services.archive); None: hot
    retired_at: float | None = None

    def open_since(self) -> float:
        """When the table's wait for players began: its creation, or its last seat taken (an open
        table expires ``open_expiry`` seconds after it, tables.expiry)."""
        return max([self.created_at, *(s.joined_at or 0.0 for s in self.seats)])

    def seat_holding(self, token_digest: str) -> int | None:
        """The seat whose token has this SHA-256 (``token_sha256``), if any."""
        for seat, info in enumerate(self.seats):
            if info.token_sha256 and hmac.compare_digest(info.token_sha256, token_digest):
                return seat
        return None


# --- table service ---------------------------------------------------------------------------------


class CreateTable(Request):
    game: str
    variant: str | None = None
    players: int | None = None
    options: dict[str, Any] = msgspec.field(default_factory=dict)
    request_id: RequestId | None = None  # a retry with the same id creates nothing new
    # the turn clock: seconds per kind of decision (``GET /api/games`` lists each game's kinds
    # and defaults); a kind not given takes its default; 0: no limit
    clock: dict[str, int] | None = None


class TableCreated(Reply):
    table: str = ""
    # the owner's token: fills seats with bots, closes the table; only its sha256 is stored
    owner_token: str = ""


class Join(Request):
    name: str
    kind: Literal["human", "bot"] = "human"
    seat: int | None = None
    seed: str | None = None  # a player's seed for the deal (provably fair shuffle)
    request_id: RequestId | None = None  # a retry with the same id takes no second seat
    level: str | None = None  # a bot's level (kind "bot" only; None: the default, normal)


class Joined(Reply):
    seat: int = -1
    token: str = ""


class SeatCommand(Request):
    id: str  # the command id: a retried command with the same id is applied once
    token: str
    command: dict[str, Any]  # the engine's JSON form of a command, e.g. {"type": "pass", "seat": 0}


class CommandDone(Reply):
    duplicate: bool = False  # this command id was applied before; nothing new was appended
    index: int = 0  # the index of the first event the command caused
    count: int = 0  # how many events it caused
    version: int = 0  # events in the table log after it
    retries: int = 0  # lost races before it was appended


class AddBots(Request):
    seats: list[int] | None = None  # None: every empty seat
    # the bots' level (``paiju.levels``), for every seat filled (None: the default, normal), and
    # a level of its own for some of them (seat → level)
    level: str | None = None
    levels: dict[int, str] | None = None
    owner_token: str | None = None  # only the owner may fill seats (``not_owner``)


class BotsAdded(Reply):
    seats: list[int] = msgspec.field(default_factory=list)


class CloseTable(Request):
    owner_token: str | None = None


class TableClosed(Reply):
    status: str = ""


class LeaveSeat(Request):
    token: str  # the seat's token


class SeatLeft(Reply):
    seat: int = -1


class StartRematch(Request):
    token: str  # a seat token of the finished table


class ViewWanted(Request):
    """An audience's view of a table now (``paiju.tables.<table>.view``): a seat's with its token,
    else the spectators'. ``after``: the version the asker has; the views of the versions between
    it and now come too (at most ``views.MAX_FILL`` of them), so that no event is skipped."""

    token: str | None = None
    after: int | None = None


class ViewAt(msgspec.Struct, kw_only=True):
    """``data``: the ``views.ViewBody`` (JSON) at ``index``, sealed with the seat's view key for a
    seat (``views.seal``), in clear for the spectators; ``event``: the type of the event that led
    to it (None: the table's first state)."""

    index: int
    event: str | None = None
    data: bytes = b""


class ViewNow(Reply):
    """The audience's view now, and before it those of the versions the asker missed."""

    seat: int | None = None
    missed: list[ViewAt] = msgspec.field(default_factory=list)
    now: ViewAt | None = None


class StateWanted(Request):
    """A spectator's view of a live table after its first ``at`` events (None: now)."""

    at: int | None = None


class PublicState(Reply):
    """What anybody may see of a table at an index: the spectators' view; every seat's hand once
    the table is over. Answered by the table service for a live table, by the gateway from the
    archived log for an ended one (``tablelog.public_state``)."""

    table: str = ""
    index: int = 0  # events applied (0: before the first event)
    events: int = 0  # events in the log now
    finished: bool = False
    view: dict[str, Any] = msgspec.field(default_factory=dict)
    hands: list[list[str]] | None = None


class ArchiveWanted(Request):
    """An ended table's log into the archive now, if it is not there yet
    (``paiju.tables.<table>.archive``): ``not_finished`` for a live table."""


class Archived(Reply):
    events: int = 0


class HandsWanted(Request):
    pass


class HandsSoFar(Reply):
    """Every hand scored so far (each a public ``hand_ended``) with the running totals after it."""

    table: str = ""
    version: int = 0  # events in the log read
    finished: bool = False
    hands: list[dict[str, Any]] = msgspec.field(default_factory=list)
    totals: list[int] = msgspec.field(default_factory=list)


class RematchStarted(Reply):
    table: str = ""  # the new table: the same seat there, with the same token
    seat: int = -1
    waiting: list[int] = msgspec.field(default_factory=list)  # human seats yet to press


class Health(Reply):
    instance: str = ""
    tables: int = 0


# --- bots service ---------------------------------------------------------------------------------


class FillSeats(Request):
    table: str
    seats: list[int]
    levels: list[str] = msgspec.field(default_factory=list)  # one per seat (empty: normal)


class BotTurn(msgspec.Struct, kw_only=True):
    """A bot seat is to act (``paiju.turns.<table>``, stream PAIJU_TURNS): what that seat may see
    and nothing more — its view at the table's ``version`` — and the table's config, from which
    the bots service rebuilds a state of its own (``paiju.client.state_from_view``) to choose in,
    at the seat's ``level``."""

    table: str
    seat: int
    version: int
    config: dict[str, Any]
    view: dict[str, Any]
    level: str = "normal"  # the seat's level (``Seat.level``, which the log records too)


class SeatsFilled(Reply):
    seats: list[int] = msgspec.field(default_factory=list)


R = TypeVar("R", bound=Reply)

encoder = msgspec.json.Encoder()


def decode_reply(data: bytes, kind: type[R]) -> R:
    """A reply, or ``RemoteError`` when the reply carries an error."""
    reply = msgspec.json.decode(data, type=kind)
    if reply.error is not None:
        raise RemoteError(reply.error)
    return reply


class Presence(msgspec.Struct, kw_only=True):
    """What a gateway copy says of one table every ``presence_interval`` (and at once on a
    change), on ``paiju.presence.<table>``: the seats it holds a socket for that said hello with
    the seat's token. An empty list: none any more. ``proofs``: for each seat, in order, the proof
    that the sender holds its token (``views.presence_proof``); the table service ignores a seat
    without one (any holder of the gateway's NATS credentials may publish here)."""

    instance: str
    seats: list[int]
    proofs: list[str] = msgspec.field(default_factory=list)
