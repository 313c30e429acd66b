"""What each audience of a table may see, written by the authority: the table service publishes,
after every event it appends, the view of each human seat and the spectators' view; the gateway
forwards them and holds no hidden card it could read without the seat's token.

**Audiences and the message.** After each event the table service publishes one message on
``paiju.views.<table>`` that holds every audience's view: the spectators' (``watch``), in clear
(it is public), and each human seat's (``s<N>``), **sealed** (AES-256-GCM) with the seat's view
key, ``view_key(token)`` — a hash of the seat's token. The table service keeps each key in the
secrets bucket (``view.<table>.<sha256 of the token>``, written when the token is issued or
carried into a rematch, dropped when the table is retired); the gateway
derives it from the token a socket says hello with. So a process holding the gateway's NATS
credentials reads every view and still sees no card but the public ones: a seat's view opens only
with that seat's token, which reaches the gateway only from the seat's own player. A bot's seat
is not published (its turns go to the bots service alone). One message, not one per audience:
each message costs every process it passes through (the table service, nats-server, each gateway
copy) the same whatever its size, and a gateway copy takes every table's views anyway.

**A message** (``pack``) is a head line, ``[index, event, [[audience, bytes], ...]]`` (JSON,
then ``\n``), followed by each audience's part, in the head's order: a ``ViewBody`` (JSON), a
seat's sealed. ``index`` is the version (events applied) and ``event`` the event's type, so a
reader orders and drops stale views without opening them, and takes only the parts of the
audiences it serves. The gateway makes a socket's frame by splicing the table id, the event and
who is connected in front of the body (``frame``): one encoding per audience, by the authority,
none per socket.

**Nothing here is stored**: views are core NATS messages, derived from the log. A reader that
missed one (a reconnection, a copy that crashed between its append and its publish) asks the
table service for the audience's view now (``paiju.tables.<table>.view``; a seat's answer is
sealed the same way), which it learns from the stream's header-only republish of every stored
event (``paiju.stored.<table>``: the version, no body).
"""

from __future__ import annotations

import hashlib
import hmac
import os
from typing import Any

import msgspec
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

VIEWS_PREFIX = "paiju.views"
VIEWS_ALL = f"{VIEWS_PREFIX}.>"
WATCH = "watch"
# secrets bucket: view.<table>.<sha256 of a seat token> → the seat's view key (hex); a key written
# before keys were named by their table is view.<sha256 of the token>
KEY_PREFIX = "view."
NONCE_BYTES = 12
MAX_FILL = 64  # missed versions a reader is sent one by one; beyond, the latest view alone


class ViewBody(msgspec.Struct, forbid_unknown_fields=True):
    """One audience's view of a table at a version (a frame's body, without the table, the
    event and who is connected: the gateway adds those)."""

    index: int  # events applied
    view: dict[str, Any]
    # False on an event that is not the last its command caused, or in a state the table leaves
    # at once by its own step (api.passing): nobody may act on it
    settled: bool = True
    moves: list[dict[str, Any]] | None = None  # the seat's legal moves when it is to act
    deadline: int | None = None  # epoch ms of the pending deadline
    deadline_seat: int | None = None  # the seat that must act by then (None: the next deal)


encoder = msgspec.json.Encoder()


def audience(seat: int | None) -> str:
    return WATCH if seat is None else f"s{seat}"


def seat_of(name: str) -> int | None:
    """The seat of an audience's name (None: the spectators').

    Raises:
        ValueError: no audience has that name.
    """
    if name == WATCH:
        return None
    if not (name[:1] == "s" and name[1:].isascii() and name[1:].isdigit()):
        raise ValueError(f"no audience {name!r}")
    return int(name[1:])


def views_subject(table_id: str) -> str:
    return f"{VIEWS_PREFIX}.{table_id}"


class Head(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    """The head line of a views message."""

    index: int  # the version: events applied
    event: str  # the type of the event the views follow
    parts: list[tuple[str, int]]  # each audience's name and its part's length in bytes


_head = msgspec.json.Decoder(Head)


def pack(index: int, event: str, parts: list[tuple[int | None, bytes]]) -> bytes:
    """One message with every audience's view after an event (``parts``: each audience's seat,
    None for the spectators, and its body, a seat's sealed)."""
    head = encoder.encode(Head(index, event, [(audience(seat), len(data)) for seat, data in parts]))
    return b"".join([head, b"\n", *(data for _, data in parts)])


def unpack(data: bytes) -> tuple[int, str, dict[int | None, bytes]]:
    """The version, the event and each audience's part of a views message.

    Raises:
        ValueError: not a views message (a bad head, or parts that do not add up).
    """
    line, newline, rest = data.partition(b"\n")
    try:
        head = _head.decode(line)
    except msgspec.DecodeError as exc:
        raise ValueError(f"views message: {exc}") from None
    parts: dict[int | None, bytes] = {}
    at = 0
    for name, size in head.parts:
        if size < 0:
            raise ValueError("views message: a part of negative length")
        parts[seat_of(name)] = rest[at : at + size]
        at += size
    if not newline or at != len(rest):
        raise ValueError("views message: its parts do not add up to its body")
    return head.index, head.event, parts


def view_key(token: str) -> bytes:
    """A seat's view key: whoever holds the seat's token can compute it, nobody else."""
    return hashlib.sha256(b"paiju view key\x00" + token.encode()).digest()


def key_name(table_id: str, token_sha256: str) -> str:
    return f"{KEY_PREFIX}{table_id}.{token_sha256}"


def legacy_key_name(token_sha256: str) -> str:
    """The name a key had before keys were named by their table (still read, never written)."""
    return KEY_PREFIX + token_sha256


def _aad(table_id: str, seat: int) -> bytes:
    return f"{table_id}.s{seat}".encode()


def seal(key: bytes, table_id: str, seat: int, body: bytes) -> bytes:
    """A seat's body, encrypted and bound to its table and seat (a sealed view moved to another
    table's or seat's subject does not open)."""
    return encrypt(key, _aad(table_id, seat), body)


class SealBroken(Exception):
    """A sealed view (or reply) that does not open with this key (another's, or altered)."""


def unseal(key: bytes, table_id: str, seat: int, data: bytes) -> bytes:
    """The body of a seat's sealed view.

    Raises:
        SealBroken: not sealed with this key for this table and seat, or altered.
    """
    try:
        return decrypt(key, _aad(table_id, seat), data)
    except SealBroken:
        raise SealBroken(f"the view of seat {seat} at {table_id} does not open") from None


def encrypt(key: bytes, aad: bytes, body: bytes) -> bytes:
    """AES-256-GCM: a fresh 12-byte nonce, then the ciphertext and its tag; ``aad`` binds it to
    what it is (a seat's view, a reply)."""
    nonce = os.urandom(NONCE_BYTES)
    return nonce + AESGCM(key).encrypt(nonce, body, aad)


def decrypt(key: bytes, aad: bytes, data: bytes) -> bytes:
    """What ``encrypt`` sealed.

    Raises:
        SealBroken: not encrypted with this key and ``aad``, or altered.
    """
    try:
        return AESGCM(key).decrypt(data[:NONCE_BYTES], data[NONCE_BYTES:], aad)
    except (InvalidTag, ValueError) as exc:
        raise SealBroken("does not open with this key") from exc


PRESENCE_WINDOW = 30.0  # seconds: a presence proof names the window it was made in


def presence_window(now: float) -> int:
    return int(now // PRESENCE_WINDOW)


def presence_proof(key: bytes, table_id: str, seat: int, window: int) -> str:
    """That the sender holds a socket for ``seat`` at ``table_id`` in ``window``: an HMAC keyed by
    the seat's view key, which only a holder of the seat's token (the gateway copy serving its
    socket) and the table service can make. Anyone may read a proof on ``paiju.presence.>`` and
    say it again, but only within its window and the next (``proves``): a deserted table is kept
    at most two windows longer, never for good."""
    text = f"paiju presence\x00{table_id}\x00{seat}\x00{window}".encode()
    return hmac.new(key, text, hashlib.sha256).hexdigest()[:32]


def proves(key: bytes, table_id: str, seat: int, proof: str, now: float) -> bool:
    """Whether ``proof`` was made with ``key`` for the seat in the window of ``now``, the one
    before or the one after (clocks a little apart, a message on a window's edge)."""
    if not proof.isascii():  # compare_digest takes ASCII text only
        return False
    window = presence_window(now)
    return any(
        hmac.compare_digest(proof, presence_proof(key, table_id, seat, w))
        for w in (window - 1, window, window + 1)
    )


def frame(table_id: str, event: str | None, connected: list[int], body: bytes) -> bytes:
    """A socket's ``state`` frame: the table, the event and the connected seats, then the
    body's fields (the body is a JSON object the authority encoded once for its audience)."""
    head = encoder.encode(
        {"type": "state", "table": table_id, "event": event, "connected": connected}
    )
    return head[:-1] + b"," + body[1:]
