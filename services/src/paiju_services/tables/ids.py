"""What a table's secret and its requests derive: the ids of created and rematch tables, the join
and owner tokens, the fingerprints of requests and commands, and who may do what with a seat.

Each is a pure function, so a retried request, on any copy, derives the same table, token or
fingerprint as its first try (docs/services.md, "Idempotency"); nothing here is stored but hashes.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from typing import Any

import msgspec

from paiju_services.messages import CreateTable, Join, Seat, TableMeta
from paiju_services.tokens import token_hash


def digest(value: Any) -> str:
    """A request's or a command's fingerprint: sha256 of its JSON with sorted keys."""
    return hashlib.sha256(msgspec.json.encode(value, order="sorted")).hexdigest()


MAC_PREFIX = "hmac-sha256:"  # a command's digest keyed by its table's secret (Paiju-Digest)


def command_mac(secret: str, command: dict[str, Any]) -> str:
    """A seat's command's fingerprint in the log (``Paiju-Digest``): an HMAC keyed by the table's
    secret, so the gateway, which reads the stored headers (``paiju.stored.<table>``), cannot
    test guesses of a hidden command (打棒's buried kitty) against it, as it could a plain
    sha256."""
    data = msgspec.json.encode(command, order="sorted")
    return MAC_PREFIX + hmac.new(secret.encode(), data, hashlib.sha256).hexdigest()


def same_command(stored: str, secret: str, command: dict[str, Any]) -> bool:
    """Whether ``command`` is the one whose fingerprint the log holds: an HMAC (``command_mac``),
    or, in a log written before them, the plain sha256 (``digest``), so a command retried across
    the upgrade is still a duplicate, not ``id_reused``."""
    mine = command_mac(secret, command) if stored.startswith(MAC_PREFIX) else digest(command)
    return hmac.compare_digest(stored, mine)


def request_digest(req: CreateTable | Join) -> str:
    """What a retry must repeat: the request as sent, but for its id."""
    return digest(msgspec.structs.replace(req, request_id=None))


def created_table_id(request_id: str) -> str:
    """The table a create with this request id makes: a retry names the same table."""
    return hashlib.sha256(f"paiju-create/{request_id}".encode()).hexdigest()[:16]


def join_token(secret: str, request_id: str) -> str:
    """The seat token of a join with this request id: a retry gets the same token, and nobody
    without the table's secret (which never leaves the table service) can compute it."""
    mac = hmac.new(secret.encode(), f"paiju-join/{request_id}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).rstrip(b"=").decode()


def owner_token(secret: str, table_id: str) -> str:
    """The owner token of a table: derived from its secret like a join's token, so a retried
    create answers the same one, and only its sha256 is ever stored."""
    mac = hmac.new(secret.encode(), f"paiju-owner/{table_id}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).rstrip(b"=").decode()


def rematch_table_id(table_id: str) -> str:
    """The table 再来一局 at ``table_id`` opens: every player who presses it lands at this one."""
    return hashlib.sha256(f"paiju-rematch/{table_id}".encode()).hexdigest()[:16]


def seats_ready(seats: list[Seat]) -> bool:
    """Every seat taken, and no rematch seat still waiting for its player: the deal may come."""
    return all(s.kind != "empty" and not s.waiting for s in seats)


def is_owner(meta: TableMeta, token: str | None) -> bool:
    return (
        token is not None
        and meta.owner_sha256 is not None
        and hmac.compare_digest(meta.owner_sha256, token_hash(token))
    )
