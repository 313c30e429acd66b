"""The practice table's wire (``paiju.practice``): the frames a table page sends over its socket,
checked as the gateway checks them, and the frames it gets, written field for field as the gateway
and the table service write them, so that the page cannot tell a practice table from a server's.

Where each comes from at a server table:

- ``client_frame``: ``gateway/ws.parse_frame`` (JSON, a known type, exactly its fields);
  ``seat_command``: the checks of a seat's command (``ws.Session.command``, ``inputs.command_seat``,
  the table service's ``_command`` and ``clock.client_check``);
- ``state_frame``: ``views.frame`` (table, event, connected) in front of the table service's
  ``views.ViewBody`` (``tables/publish.body``: index, view, settled, moves, deadline,
  deadline_seat);
- ``welcome``, ``ack``, ``error_frame``, ``over_frame``: ``gateway/schemas`` (``Welcome``, ``Ack``,
  ``ErrorFrame``, ``Over``; the over frame's totals and result are the ended view's, as
  ``gateway/feeds`` reads them);
- ``hands_sheet`` and ``table_entry``: the HTTP answers the page reads beside the socket
  (``HandsOut``: every hand scored with its running totals, ``tablelog.hands_so_far``; ``TableOut``:
  the table's directory entry).

The refusals that are the gateway's, not the rules', keep its codes and words (``paiju.errors.
WIRE_MESSAGES``, which the gateway's catalogue takes too); the rules' are ``RuleError``'s own.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from paiju import api
from paiju.errors import WIRE_MESSAGES
from paiju.protocol import AutoMove, AutoPlay, Command, Event, HandEnded, SetAuto, decode, encode
from paiju.table import Config, TableState

Frame = dict[str, Any]

MAX_FRAME = 4096  # the gateway's max_frame, said in the welcome
COMMAND_ID = re.compile(r"[A-Za-z0-9_.:-]{1,64}")
# the client frames: type -> (its required fields, its optional ones)
CLIENT_FRAMES: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "hello": (frozenset({"token"}), frozenset()),
    "command": (frozenset({"id", "command"}), frozenset()),
    "ping": (frozenset(), frozenset({"nonce"})),
    "sync": (frozenset(), frozenset()),
}
_FIELD_TYPES: dict[str, type] = {"token": str, "id": str, "command": dict}


class FrameError(Exception):
    """A frame refused before the rules see it, by one of the gateway's codes (``WIRE_MESSAGES``);
    like a ``RuleError``, it has ``code``, ``zh``, ``en`` and ``cards`` (none)."""

    def __init__(self, code: str, **params: Any) -> None:
        zh, en = WIRE_MESSAGES[code]
        self.code, self.zh, self.en = code, zh.format(**params), en.format(**params)
        self.cards: list[str] = []
        super().__init__(f"{code}: {self.en}")


def short(text: object, limit: int = 160) -> str:
    """A detail for an error message: one line, bounded."""
    out = " ".join(str(text).split())
    return out if len(out) <= limit else out[: limit - 1] + "…"


# --- frames in -----------------------------------------------------------------------------------


def client_frame(frame: Mapping[str, Any] | str) -> dict[str, Any]:
    """A frame from the page (a dict, or its JSON text), checked as the gateway checks one: JSON,
    a known ``type``, exactly that type's fields, each of its type.

    Raises:
        FrameError: ``bad_json``, ``unknown_frame`` or ``bad_frame``.
    """
    if isinstance(frame, str):
        try:
            frame = json.loads(frame)
        except (ValueError, RecursionError) as exc:
            raise FrameError("bad_json", detail=short(exc)) from None
    tag = frame.get("type") if isinstance(frame, Mapping) else None
    if not isinstance(frame, Mapping) or not isinstance(tag, str) or tag not in CLIENT_FRAMES:
        raise FrameError("unknown_frame", frame=short(tag, 40))
    required, optional = CLIENT_FRAMES[tag]
    fields = set(frame) - {"type"}
    if not required <= fields <= required | optional:
        wrong = sorted((required - fields) | (fields - required - optional))
        raise FrameError("bad_frame", detail=f"{tag}: fields {wrong}")
    for name in required:
        if not isinstance(frame[name], _FIELD_TYPES[name]):
            expected = _FIELD_TYPES[name].__name__
            raise FrameError("bad_frame", detail=f"{tag}.{name}: expected {expected}")
    nonce = frame.get("nonce")
    if nonce is not None and (isinstance(nonce, bool) or not isinstance(nonce, int | str)):
        raise FrameError("bad_frame", detail="ping.nonce: expected int, str or null")
    return dict(frame)


def seat_command(command_id: str, data: Mapping[str, Any], seat: int) -> Command:
    """The command of a ``command`` frame from ``seat``'s page, checked as a server table checks
    a seat's: the id's form, the seat it names (an integer, its own), a command of the rules and
    not one of the table's own (an automatic play, 托管 for another reason than the seat's).

    Raises:
        FrameError: ``bad_request``, ``forbidden_command``, ``not_your_seat``.
        RuleError: ``unknown_command``, ``bad_command``.
    """
    if not COMMAND_ID.fullmatch(command_id):
        raise FrameError("bad_request", detail="a command id is 1-64 of A-Z a-z 0-9 _ . : -")
    claimed = data.get("seat")
    if claimed is None:
        raise FrameError("forbidden_command", command=short(data.get("type"), 40))
    if type(claimed) is not int:
        raise FrameError("bad_request", detail="a command's seat is an integer")
    if claimed != seat:
        raise FrameError("not_your_seat", seat=claimed)
    message = decode(dict(data))
    if not isinstance(message, Command):
        raise FrameError("forbidden_command", command=message.TYPE)
    if isinstance(message, AutoPlay | AutoMove) or (
        isinstance(message, SetAuto) and message.reason != "self"
    ):
        raise FrameError("forbidden_command", command=message.TYPE)  # the table's own to send
    return message


def fingerprint(command: Command) -> str:
    """What a command id, once used, stands for: the command in its one form."""
    return json.dumps(encode(command.normalised()), sort_keys=True)


# --- frames out ----------------------------------------------------------------------------------


def welcome(table: str, seat: int) -> Frame:
    return {"type": "welcome", "table": table, "seat": seat, "max_frame": MAX_FRAME}


def ack(command_id: str, duplicate: bool, index: int, count: int, version: int) -> Frame:
    """A command accepted: the index of its first event, how many it caused, the version after
    them (a duplicate: the first time's index and count, the version now)."""
    return {
        "type": "ack",
        "id": command_id,
        "duplicate": duplicate,
        "index": index,
        "count": count,
        "version": version,
    }


def error_frame(err: Any, command_id: str | None = None) -> Frame:
    """An ``error`` frame of a ``FrameError`` or a ``RuleError`` (``code``, ``zh``, ``en``,
    ``cards``), answering the command ``command_id`` if any."""
    return {
        "type": "error",
        "code": err.code,
        "zh": err.zh,
        "en": err.en,
        "cards": list(err.cards),
        "id": command_id,
    }


def state_frame(
    table: str,
    seat: int,
    event: str | None,
    state: TableState,
    settled: bool,
    deadline: tuple[int, int | None] | None,
) -> Frame:
    """``seat``'s ``state`` frame after ``event`` (None: the view now, a snapshot): its view, its
    legal moves when settled and its turn, and the pending deadline (epoch ms, and the seat that
    must act by then; None: the next deal)."""
    moves = None
    if settled and api.to_move(state) == seat:
        moves = api.legal_moves_json(state, seat)
    return {
        "type": "state",
        "table": table,
        "event": event,
        "connected": [seat],  # the person's page holds the table; the bots hold no socket
        "index": state.version,
        "view": api.view(state, seat),
        "settled": settled,
        "moves": moves,
        "deadline": None if deadline is None else deadline[0],
        "deadline_seat": None if deadline is None else deadline[1],
    }


def over_frame(table: str, state: TableState, seat: int) -> Frame:
    """The match's end: the totals and the last hand's sheet, as the ended view shows them. No
    address of the log: a practice table's log is its host's (``PracticeTable.log_text``)."""
    view = api.view(state, seat)
    return {
        "type": "over",
        "table": table,
        "totals": view["totals"],
        "result": view.get("last_hand"),
        "log": "",
    }


# --- what the page reads beside the socket -------------------------------------------------------


def hands_sheet(table: str, config: Config[Any], events: Sequence[Event]) -> Frame:
    """Every hand scored so far, each its ``hand_ended`` with the running totals after it."""
    state = api.initial_state(config)
    rows = []
    for event in events:
        state = api.evolve(state, event)
        if isinstance(event, HandEnded):
            rows.append({**encode(event), "totals": list(state.totals)})
    return {
        "table": table,
        "version": state.version,
        "finished": state.phase == "over",
        "hands": rows,
        "totals": list(state.totals),
    }


def table_entry(
    table: str,
    state: TableState,
    seat: int,
    names: Sequence[str],
    clock: Mapping[str, int],
    times: tuple[int, int | None],
) -> Frame:
    """The table as the lobby lists a server table: ``seat`` the person's, every other a bot's;
    ``times``: when it was made and when its match ended (epoch ms; None: playing)."""
    config = state.config.to_dict()
    over = state.phase == "over"
    seats = [
        {
            "seat": s,
            "kind": "human" if s == seat else "bot",
            "name": names[s],
            "waiting": False,
            "left": s in state.left,
        }
        for s in range(state.config.players)
    ]
    return {
        "id": table,
        "game": config["game"],
        "variant": config["variant"],
        "players": config["players"],
        "options": config["options"],
        "status": "finished" if over else "playing",
        "seats": seats,
        "created_at": times[0] / 1000,
        "finished_at": None if times[1] is None else times[1] / 1000,
        "totals": list(state.totals) if over else None,
        "ws": "",  # no socket: the engine worker is the table
        "rematch": None,
        "rematch_of": None,
        "clock": dict(clock),
        "expires_at": None,
    }
