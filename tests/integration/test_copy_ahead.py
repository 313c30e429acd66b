"""A table-service copy whose memory runs ahead of its stream (events it recorded from an append's
acknowledgement, which the stream then lost through a leader's failover: issue 26) finds out at
its next doubt and reads the log again whole: it never answers ``duplicate`` for a move the stream
does not hold, and never refuses every append as a lost race. The lost acknowledgement is made
here by recording a move in the copy's memory that was never appended."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import nats
import pytest

from integration.harness import Stack, assert_clean_log, join, new_table, raw_log
from paiju import api
from paiju.protocol import Command, encode
from paiju_services.config import Settings
from paiju_services.messages import SeatCommand
from paiju_services.store import Stored
from paiju_services.tablelog import event_line
from paiju_services.tables import TableService


@pytest.fixture
async def copy(stack: Stack) -> AsyncIterator[TableService]:
    """A copy of the table service in this process: the test reaches into its memory."""
    nc = await nats.connect(stack.nats_url)
    svc = TableService(Settings(nats_url=stack.nats_url, instance="copy-ahead"), nc, nc.jetstream())
    await svc.open()
    yield svc
    await nc.close()


async def ghost_move(svc: TableService, table_id: str, command_id: str) -> tuple[int, Command]:
    """Record in the copy's memory the first legal move of the seat to act as if appended (its
    sequence far past the stream's), as a lost acknowledgement leaves it; returns (seat, move)."""
    table = await svc.writer.table(table_id)
    seat = api.to_move(table.state)
    assert seat is not None
    move = api.legal_moves(table.state, seat)[0]
    events = api.decide(table.state, move)
    ghost = Stored(table.last_seq + 1_000_000, b"\n".join(event_line(e) for e in events), {})
    table.applied(events, ghost, f"seat{seat}.{command_id}")
    return seat, move


async def test_a_copy_ahead_of_its_stream_reads_the_log_again(
    stack: Stack, http: httpx.AsyncClient, copy: TableService
) -> None:
    table_id = await new_table(http)
    tokens = [await join(http, table_id, f"P{seat}", seat=seat) for seat in range(3)]
    version = len(await raw_log(stack.nats_url, table_id)) - 1

    # the move whose acknowledgement was "lost", sent again: appended now, not a duplicate
    seat, move = await ghost_move(copy, table_id, "lost")
    done = await copy.command(
        table_id, SeatCommand(id="lost", token=tokens[seat], command=encode(move))
    )
    assert not done.duplicate and done.index == version, done
    raw = await raw_log(stack.nats_url, table_id)
    assert raw[done.index + 1][0]["Paiju-Command"] == f"seat{seat}.lost"

    # a ghost move of the next seat, which then plays another move: decided on the stream's log
    table = await copy.writer.table(table_id)
    at = table.version
    moves = api.legal_moves(table.state, api.to_move(table.state) or 0)
    seat, ghost = await ghost_move(copy, table_id, "ghost")
    other = next(m for m in moves if m != ghost)
    done = await copy.command(
        table_id, SeatCommand(id="real", token=tokens[seat], command=encode(other))
    )
    assert not done.duplicate and done.index == at, done
    raw = await raw_log(stack.nats_url, table_id)
    assert_clean_log(raw)
    commands = [h["Paiju-Command"] for h, _ in raw[1:]]
    assert f"seat{seat}.real" in commands and f"seat{seat}.ghost" not in commands
    assert (await copy.writer.table(table_id)).version == len(raw) - 1
