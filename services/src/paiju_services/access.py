"""Who may do what on NATS: one user per service role, each allowed only the subjects its work
needs, and the credentials the launcher generates for a run (never committed).

The permission table (docs/services.md, "NATS users and permissions") is ``ROLES`` below. What it
guarantees:

- only the table service appends to the event stream (``paiju.events.>``) and reads or writes the
  table secrets (bucket ``paiju_secrets``); it alone creates the stream and the buckets, writes
  the archive of retired tables (Object Store ``paiju_archive``) and purges a retired table's
  subject (paiju_services.archive);
- the gateway, which faces the internet, may send requests to the table service, receive the
  views the table service publishes (a seat's sealed with the key of its token: views.py) and
  the headers of what the stream stores, read the archive (ended tables' logs) and the table
  directory (``paiju_tables``), publish and read presence (``paiju.presence.>``: which seats hold
  a socket), and nothing else: no read of the event stream (so no hidden card), no append, no
  secret, no bot token, no change to any bucket or to the archive, no stream created, deleted or
  purged;
- the bots service reads the turns the table service offers its seats (stream PAIJU_TURNS: each
  the seat's own view, through its durable consumer, which the table service makes: the bots may
  pull and acknowledge, not make, change or delete it), the directory and its bots' seat tokens
  (which the table service writes as it seats a bot: the bots may not write them), sends commands
  and joins, and nothing else: no log, so no card its seats may not see.

Each role receives replies on its own inbox prefix (``_INBOX_<role>``), so none reads another's
answers; and as any connection of a user may read all of that user's inbox, every reply is
sealed with a key only its request carried (bus.py), so none reads another connection's either. A subject not allowed is refused by nats-server itself: a publish is dropped with a permissions
violation, and a request on it gets no answer.
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path

from paiju_services import subjects
from paiju_services.store import ARCHIVE_BUCKET, ARCHIVE_STREAM
from paiju_services.views import VIEWS_ALL

STREAM = subjects.STREAM
DIRECTORY = f"KV_{subjects.TABLES_BUCKET}"
BOT_TOKENS = f"KV_{subjects.BOT_TOKENS_BUCKET}"
BOTS_CONSUMER = subjects.BOTS_CONSUMER


def _reads(stream: str) -> list[str]:
    """Reading a stream's messages by direct get (single and batched) and by message get. For
    the archive's stream that is all a read of a retired table needs (store.EventStore reads an
    object's meta by message get and its chunks by batched direct gets: no consumer)."""
    return [
        f"$JS.API.DIRECT.GET.{stream}",
        f"$JS.API.DIRECT.GET.{stream}.>",
        f"$JS.API.STREAM.MSG.GET.{stream}",
        f"$JS.API.STREAM.INFO.{stream}",
    ]


def _consumers(stream: str, name: str = "*") -> list[str]:
    """Creating, reading, pulling from, acknowledging and deleting consumers of a stream (all of
    them, or the one named)."""
    return [
        f"$JS.API.CONSUMER.CREATE.{stream}",
        f"$JS.API.CONSUMER.CREATE.{stream}.>",
        f"$JS.API.CONSUMER.DURABLE.CREATE.{stream}.{name}",
        f"$JS.API.CONSUMER.INFO.{stream}.{name}",
        f"$JS.API.CONSUMER.DELETE.{stream}.{name}",
        f"$JS.API.CONSUMER.MSG.NEXT.{stream}.{name}",
        f"$JS.ACK.{stream}.{name}.>",
        "$JS.FC.>",
    ]


def _pulls(stream: str, name: str) -> list[str]:
    """Pulling from and acknowledging through one consumer, and reading its information: no
    creation, change (a create with its name) or deletion (the table service makes it)."""
    return [
        f"$JS.API.CONSUMER.INFO.{stream}.{name}",
        f"$JS.API.CONSUMER.MSG.NEXT.{stream}.{name}",
        f"$JS.ACK.{stream}.{name}.>",
        "$JS.FC.>",
    ]


def inbox(role: str) -> str:
    """The replies a role's connections may receive: its own inbox prefix (``bus.connect`` sets
    it), so no other role reads its answers — a join's token, a sealed view."""
    return f"{inbox_prefix(role)}.>"


def answers(*askers: str) -> list[str]:
    """The inboxes of the roles whose requests a role answers. ``allow_responses`` lets a reply
    through only on the connection (and node) the request came in on; a responder that
    reconnected to another node meanwhile needs the asker's inbox allowed outright (a reply
    subject is unguessable: being able to publish there reads nothing)."""
    return [inbox(asker) for asker in askers]


def inbox_prefix(role: str) -> str:
    return f"_INBOX_{role}"


# role → (subjects it may publish to, subjects it may subscribe to); replies to requests it
# receives are allowed by ``allow_responses``.
ROLES: dict[str, tuple[list[str], list[str]]] = {
    "tables": (
        [
            subjects.EVENTS_ALL,  # the one writer of the logs
            subjects.TURNS_ALL,  # bot seats' turns (their views) for the bots service
            "$JS.API.>",  # creates the stream and the buckets, reads, appends, purges
            "$KV.>",  # the directory, the secrets, the bots' tokens, the retirement schedule
            f"$O.{ARCHIVE_BUCKET}.>",  # the archive's chunks and metas (retired tables' logs)
            "paiju.bots.fill",
            VIEWS_ALL,  # every audience's view after every event (views.py)
            subjects.COPIES_TABLES,  # this copy is up, or leaving (affinity.py)
            inbox("tables"),
            *answers("gateway", "bots"),
        ],
        [subjects.TABLES_ALL, "paiju.health.tables", subjects.PRESENCE_ALL, inbox("tables")],
    ),
    "bots": (
        [
            "paiju.tables.*.command",  # to any copy of the table service
            "paiju.tables.*.join",
            "paiju.tables.*.command.*",  # to the copy that holds the table (affinity.py)
            "paiju.tables.*.join.*",
            "$JS.API.INFO",
            f"$JS.API.STREAM.INFO.{subjects.TURNS_STREAM}",
            *_reads(DIRECTORY),
            *_reads(BOT_TOKENS),  # its bots' seat tokens (the table service writes them)
            *_pulls(subjects.TURNS_STREAM, BOTS_CONSUMER),  # its seats' turns, their views only
            inbox("bots"),
            *answers("tables"),
        ],
        ["paiju.bots.fill", "paiju.health.bots", subjects.COPIES_TABLES, inbox("bots")],
    ),
    "gateway": (
        [
            subjects.TABLES_ALL,  # requests to the table service (create, join, command ...)
            "paiju.health.>",
            "$JS.API.INFO",
            f"$JS.API.STREAM.INFO.{STREAM}",  # that the store is up (its counts, no message)
            *_reads(ARCHIVE_STREAM),  # an ended table's log (export, replay, state, hands)
            *_reads(DIRECTORY),
            *_consumers(DIRECTORY),  # the lobby's listing
            subjects.PRESENCE_ALL,  # the seats its sockets hold (presence)
            inbox("gateway"),
        ],
        # the other copies' presence; the views of the watched tables (a seat's sealed with its
        # token's key); the headers (no body) of what the stream stored (gateway/feeds.py)
        # the table-service copies' announcements (each table's holder: affinity.py)
        [
            subjects.PRESENCE_ALL,
            VIEWS_ALL,
            subjects.STORED_ALL,
            subjects.COPIES_TABLES,
            inbox("gateway"),
        ],
    ),
    # people and tools outside the services (an operator's shell, the tests' checks, the load
    # tool's raw JetStream reference): everything
    "operator": ([">"], [">"]),
}


def permissions(role: str) -> dict[str, object]:
    publish, subscribe = ROLES[role]
    return {
        "publish": {"allow": publish},
        "subscribe": {"allow": subscribe},
        "allow_responses": True,
    }


def auth_conf(passwords: dict[str, str]) -> str:
    """The ``authorization`` block of a nats-server config for these users (JSON is valid NATS
    config syntax)."""
    users = [
        {"user": role, "password": password, "permissions": permissions(role)}
        for role, password in passwords.items()
    ]
    return "authorization " + json.dumps({"users": users}, indent=2) + "\n"


def write_credentials(folder: Path) -> dict[str, Path]:
    """New passwords for every role, written to ``folder`` (0700): ``auth.conf`` for nats-server and
    ``<role>.password`` (0600) for each service; returns role → its password file."""
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o700)
    passwords = {role: secrets.token_urlsafe(24) for role in ROLES}
    files: dict[str, Path] = {}
    for role, password in passwords.items():
        path = folder / f"{role}.password"
        _write_private(path, password + "\n")
        files[role] = path
    _write_private(folder / "auth.conf", auth_conf(passwords))
    return files


def server_conf(folder: Path, base: Path) -> Path:
    """A nats-server config in ``folder`` that is ``base`` plus the generated users."""
    path = folder / f"{base.stem}.conf"
    relative = os.path.relpath(base.resolve(), folder.resolve())
    _write_private(path, f'include "{relative}"\ninclude "auth.conf"\n')
    return path


def _write_private(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(text)
