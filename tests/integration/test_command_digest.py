"""A seat's command leaves a fingerprint in the log (``Paiju-Digest``), so that its id, reused
with another command long after JetStream's dedup window, is refused (``id_reused``) rather than
taken for a retry. The stream republishes the headers of what it stores to the gateway
(``paiju.stored.<table>``), so the fingerprint is an HMAC keyed by the table's secret: a plain
sha256 let anyone with the gateway's credentials test guesses of a hidden command (打棒's buried
kitty) against it. A log written before keeps its plain sha256 and its meaning: a command retried
across the upgrade is still a duplicate, and another command under its id still ``id_reused``."""

from __future__ import annotations

import contextlib
import hashlib
import re
from collections.abc import AsyncIterator
from typing import Any

import msgspec
import nats
import pytest

from integration.harness import Stack, raw_log
from paiju import api, bots
from paiju.protocol import encode
from paiju_services.config import Settings
from paiju_services.errors import ServiceError
from paiju_services.messages import CreateTable, Join, SeatCommand
from paiju_services.streams import ensure
from paiju_services.tables import TableService, ids

NO_CLOCK = dict.fromkeys(api.clock_defaults("guanpai"), 0)


@contextlib.asynccontextmanager
async def copy(nats_url: str, name: str) -> AsyncIterator[TableService]:
    """A table service copy in this process (its own connection and memory), called directly."""
    nc = await nats.connect(nats_url)
    try:
        await ensure(nc.jetstream())  # the stream and buckets, as the service's start makes them
        svc = TableService(Settings(nats_url=nats_url, instance=name), nc, nc.jetstream())
        await svc.open()
        try:
            yield svc
        finally:
            await svc.clock.stop()
    finally:
        await nc.close()


def plain_sha256(command: dict[str, Any]) -> str:
    return hashlib.sha256(msgspec.json.encode(command, order="sorted")).hexdigest()


async def move_of(svc: TableService, table_id: str) -> tuple[int, dict[str, Any]]:
    """The seat to move and a legal move of its."""
    state = (await svc.writer.table(table_id)).state
    seat = api.to_move(state)
    assert seat is not None
    return seat, encode(bots.choose(state, seat))


async def digests(nats_url: str, table_id: str) -> dict[str, str]:
    """Command id → the fingerprint its first event carries in the stream."""
    out: dict[str, str] = {}
    for headers, _ in await raw_log(nats_url, table_id):
        if "Paiju-Digest" in headers:
            out.setdefault(headers["Paiju-Command"], headers["Paiju-Digest"])
    return out


async def test_a_command_s_fingerprint_is_keyed_and_an_older_log_s_still_counts(
    nats_only: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = nats_only.nats_url
    # the version before: the plain sha256 of the command
    monkeypatch.setattr(ids, "command_mac", lambda _, c: ids.digest(c))
    async with copy(url, "before") as old:
        made = await old.create(CreateTable(game="guanpai", clock=NO_CLOCK))
        table_id = made.table
        tokens = [
            (await old.join(table_id, Join(name=f"P{seat}", seat=seat))).token for seat in range(3)
        ]
        seat, first = await move_of(old, table_id)
        await old.command(table_id, SeatCommand(id="straddle", token=tokens[seat], command=first))
    monkeypatch.undo()
    assert (await digests(url, table_id))[f"seat{seat}.straddle"] == plain_sha256(first)

    async with copy(url, "after") as new:  # this version, reading that log from the stream
        retried = SeatCommand(id="straddle", token=tokens[seat], command=first)
        done = await new.command(table_id, retried)
        assert done.duplicate and done.count >= 1
        assert first["type"] != "pass"  # the hand's first move: a play
        other = {"type": "pass", "seat": seat}
        with pytest.raises(ServiceError) as reused:
            await new.command(
                table_id, SeatCommand(id="straddle", token=tokens[seat], command=other)
            )
        assert reused.value.code == "id_reused"
        seat2, second = await move_of(new, table_id)
        await new.command(table_id, SeatCommand(id="keyed", token=tokens[seat2], command=second))
        # this version's own: retried, a duplicate; reused with another command, refused
        again = await new.command(
            table_id, SeatCommand(id="keyed", token=tokens[seat2], command=second)
        )
        assert again.duplicate
    fingerprint = (await digests(url, table_id))[f"seat{seat2}.keyed"]
    assert re.fullmatch(r"hmac-sha256:[0-9a-f]{64}", fingerprint), fingerprint
    assert plain_sha256(second) not in fingerprint  # no plain digest of the command to test
    async with copy(url, "later") as later:  # read back from the stream by a fresh copy
        # another command of the same seat (when the second move was a pass, the first one made
        # this seat's: the id is refused before the command is decided)
        other = first | {"seat": seat2}
        changed = {"type": "pass", "seat": seat2} if second["type"] != "pass" else other
        with pytest.raises(ServiceError) as reused:
            await later.command(
                table_id, SeatCommand(id="keyed", token=tokens[seat2], command=changed)
            )
        assert reused.value.code == "id_reused"
