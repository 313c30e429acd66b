"""The table service's sweeps cost what is in play, not what ever existed. Each copy keeps the
directory entries of the tables in play from one watch of the ``paiju_tables`` bucket, and both
sweeps (the steps a crashed copy left; the clock's deadlines and abandoned tables) go over that
index: with two hundred closed tables and a few open ones, a pass reads only the tables in play,
never lists the bucket, and makes no consumer on the server. A table entering or leaving play on
one copy is seen by the others' indexes, a copy started later rebuilds its index from the watch,
and the index survives a restart of nats-server (its watch resumes within two missed heartbeats,
10 to 20 s: the slowest test here)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import nats
import pytest
from nats.aio.client import Client
from nats.js.kv import KeyValue

from integration.harness import (
    Stack,
    assert_clean_log,
    raw_log,
)
from integration.harness import until as poll
from paiju import api
from paiju_services import bus, subjects
from paiju_services.config import Settings
from paiju_services.messages import CreateTable, Join
from paiju_services.tables import TableService

CLOSED = 200  # tables created and closed by their owner: in the directory, never in play
PLAYERS = api.make_config("guanpai", None, None).players
NO_CLOCK = dict.fromkeys(api.clock_defaults("guanpai"), 0)  # a table in play stays as it is


@pytest.fixture
def system(tmp_path: Path) -> Iterator[Stack]:
    """nats-server and one table service copy (a process that sweeps every 0.5 s)."""
    s = Stack(tmp_path)
    s.start_nats()
    try:
        s.start("tables")
    except Exception:
        s.stop()
        raise
    yield s
    s.stop()


@contextlib.asynccontextmanager
async def copy(nats_url: str, name: str) -> AsyncIterator[TableService]:
    """A copy of the table service in this process, with its own connection, that serves no
    request (the test calls it) and whose index of the tables in play is started, as ``start``
    starts it."""
    nc = await nats.connect(nats_url, reconnect_time_wait=0.2, max_reconnect_attempts=-1)
    try:
        svc = TableService(Settings(nats_url=nats_url, instance=name), nc, nc.jetstream())
        await svc.open()
        assert svc.in_play is not None
        await svc.in_play.start()
        try:
            yield svc
        finally:
            await svc.clock.stop()
            await svc.in_play.stop()
    finally:
        await nc.close()


class Reads:
    """The directory entries a copy reads one by one (KV gets); a listing of the bucket fails
    the test."""

    def __init__(self, kv: KeyValue) -> None:
        self.gets: list[str] = []
        get = kv.get

        async def counted(key: str, *args: Any, **kwargs: Any) -> KeyValue.Entry:
            self.gets.append(key)
            return await get(key, *args, **kwargs)

        async def listing(*args: Any, **kwargs: Any) -> list[str]:
            raise AssertionError("a sweep listed the directory")

        kv.get = counted  # type: ignore[method-assign]
        kv.keys = listing  # type: ignore[method-assign]


async def ask(nc: Client, subject: str, body: dict[str, Any]) -> dict[str, Any]:
    """A request to the table service, as any client of it may make; its answer."""
    reply = await bus.ask(nc, subject, json.dumps(body).encode(), timeout=20)  # sealed reply
    data: dict[str, Any] = json.loads(reply)
    assert data.get("error") is None, data
    return data


async def consumers(nc: Client) -> int:
    """The consumers the server holds on the directory's stream."""
    info = await nc.jetstream().stream_info(f"KV_{subjects.TABLES_BUCKET}")
    assert info.state.consumer_count is not None
    return info.state.consumer_count


async def until(check: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout}s: {what}")
        await asyncio.sleep(0.02)


async def in_play(svc: TableService) -> str:
    """A table made by ``svc`` and filled by people, dealt: it waits for its first move for ever
    (no clock)."""
    made = await svc.create(CreateTable(game="guanpai", clock=NO_CLOCK))
    for seat in range(PLAYERS):
        await svc.join(made.table, Join(name=f"P{seat}", seat=seat))
    return made.table


def index_of(svc: TableService) -> set[str]:
    assert svc.in_play is not None
    return set(svc.in_play.tables)


async def test_a_sweep_reads_the_tables_in_play_and_nothing_else(system: Stack) -> None:
    nc = await nats.connect(system.nats_url)
    try:

        async def closed() -> None:
            made = await ask(nc, subjects.TABLES_CREATE, {"game": "guanpai"})
            close = f"paiju.tables.{made['table']}.close"
            done = await ask(nc, close, {"owner_token": made["owner_token"]})
            assert done["status"] == "closed"

        for _ in range(CLOSED // 20):
            await asyncio.gather(*(closed() for _ in range(20)))
        for _ in range(2):  # open: made, nobody seated
            await ask(nc, subjects.TABLES_CREATE, {"game": "guanpai"})
        playing = set()
        for _ in range(3):
            made = await ask(nc, subjects.TABLES_CREATE, {"game": "guanpai", "clock": NO_CLOCK})
            for seat in range(PLAYERS):
                await ask(nc, f"paiju.tables.{made['table']}.join", {"name": "P", "seat": seat})
            playing.add(made["table"])
        info = await nc.request(f"$JS.API.STREAM.INFO.KV_{subjects.TABLES_BUCKET}", b"", 5)
        keys = json.loads(info.data)["state"]["num_subjects"]
        assert keys == CLOSED + 2 + 3  # what a listing of the directory would read, one by one

        async with copy(system.nats_url, "sweeper") as sweeper:
            reads = Reads(sweeper.writer.tables_kv)

            # started after them all: its index is rebuilt from the watch, the tables in play only.
            # Polled: nats-py's watch can say "all read" before the entries it has already been
            # sent (its first consumer info finds none pending and none delivered yet: kv.py's
            # watch), so the index may be complete a moment after it says it is ready
            async def indexed() -> bool:
                return {listed.meta.id for listed in await sweeper.writer.playing()} == playing

            await poll("the sweeper's index to hold the tables in play, only them", indexed, 10)
            assert index_of(sweeper) == playing
            before = await consumers(nc)
            passes = 4
            for _ in range(passes):
                assert await sweeper.sweep() == len(playing)
                assert await sweeper.clock.sweep() == len(playing)
                await asyncio.sleep(0.5)  # the service's own sweeps run meanwhile
            await until(lambda: sweeper.clock.idle, "the clock's deadlines computed")
            # one watch per copy (the process's, this one's), and no consumer made by any pass
            after = await consumers(nc)
            assert (before, after) == (2, 2)
            # no entry read at all: the index holds every table in play's entry (the clock's
            # deadline of each is computed from it and the stream's last messages)
            assert reads.gets == []
    finally:
        await nc.close()


async def test_every_copy_sees_a_table_enter_and_leave_play(bare: Stack) -> None:
    async with copy(bare.nats_url, "maker") as maker, copy(bare.nats_url, "other") as other:
        await other.writer.playing()  # its first full read: the directory is empty
        assert index_of(other) == set()
        opened = await maker.create(CreateTable(game="guanpai"))
        first, second = await in_play(maker), await in_play(maker)
        # the other copy never served them: its watch tells it
        await until(lambda: index_of(other) == {first, second}, "both tables in play seen")
        assert await other.sweep() == 2
        assert await other.clock.sweep() == 2

        # the first ends on the maker (abandoned: the engine's end, then the entry `finished`)
        assert await maker.clock.abandon(first)
        # each copy learns it from its own watch of the directory, in its own time
        await until(lambda: index_of(other) == {second}, "the finished table gone")
        await until(lambda: index_of(maker) == {second}, "the finished table gone on the maker")
        # and from the maker's memory, its lock too (held by the step that ended it)
        await until(
            lambda: first not in maker.writer.locks and first not in maker.cache,
            "the ended table forgotten",
        )
        assert await other.sweep() == 1

        # a copy started now rebuilds its index from the watch: the table in play, no other
        async with copy(bare.nats_url, "restarted") as restarted:
            assert [listed.meta.id for listed in await restarted.writer.playing()] == [second]
            assert opened.table not in index_of(restarted)
            assert await restarted.sweep() == 1


async def test_a_table_left_before_its_deal_is_dealt_by_another_copys_sweep(bare: Stack) -> None:
    """A copy killed between the last seat's directory write (status ``playing``) and the deal it
    would have run next: the table is in play, yet nothing moves until a sweep deals it."""
    async with copy(bare.nats_url, "killed") as killed, copy(bare.nats_url, "survivor") as survivor:
        made = await killed.create(CreateTable(game="guanpai", clock=NO_CLOCK))
        table = made.table
        entry = await killed.writer.meta(table, fresh=True)
        for seat in range(PLAYERS):
            entry.meta.seats[seat].kind = "human"
            entry.meta.seats[seat].name = f"P{seat}"
            entry.meta.seats[seat].joined_at = time.time()
        entry.meta.status = "playing"
        assert await killed.writer.update(entry)  # the join's write; then the copy died
        before = await raw_log(bare.nats_url, table)
        assert "dealt" not in [e["type"] for _, e in before]

        await until(lambda: table in index_of(survivor), "the table in play seen")
        assert await survivor.sweep() == 1
        after = await raw_log(bare.nats_url, table)
        assert_clean_log(after)
        assert [e["type"] for _, e in after].count("dealt") == 1
        dealt = next(h for h, e in after if e["type"] == "dealt")
        assert dealt["Paiju-Command"] == "table.deal.1"


async def test_the_index_outlives_a_restart_of_nats_server(bare: Stack) -> None:
    async with copy(bare.nats_url, "maker") as maker, copy(bare.nats_url, "other") as other:
        first = await in_play(maker)
        await until(lambda: index_of(other) == {first}, "the table in play seen")

        assert bare.nats is not None
        bare.nats.stop()  # nats-server goes away, and comes back on its port with its store
        restart_nats(bare)
        await until(lambda: maker.nc.is_connected and other.nc.is_connected, "reconnected")
        await jetstream_back(maker.nc)

        second = await in_play(maker)  # in play after the restart: the watch must go on
        await until(lambda: index_of(other) == {first, second}, "a table in play after it", 40)
        assert await other.sweep() == 2


async def jetstream_back(nc: Client, timeout: float = 30.0) -> None:
    """Wait until the restarted server's JetStream answers for the directory's stream."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            await nc.jetstream(timeout=1).stream_info(f"KV_{subjects.TABLES_BUCKET}")
            return
        except (nats.errors.Error, TimeoutError):
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.2)


def restart_nats(stack: Stack) -> None:
    """nats-server again on the stack's port and store."""
    stack.start_nats(again=True)
