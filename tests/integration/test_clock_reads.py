"""What the turn clock reads. After a seat's command the copy that appended computes the table's
deadline once, from memory: a command's steps poke the clock twice, and a poke made while the
first computation waits for the table's lock is answered by it. After the command that ends the
match, the clock computes no deadline and nothing reads the log back (the archive is written
from memory, and a sweep passes a table the copy saw end): the table left the copy's memory and
stays out of it (before this, the clock's poke read the whole log back to find it over). And a create whose settings were checked before plays no check hand again.
"""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec
import pytest

from paiju import api, bots, simulate
from paiju.protocol import encode
from paiju_services.directory import Listed
from paiju_services.errors import ServiceError
from paiju_services.messages import CreateTable, Join, SeatCommand
from paiju_services.tables import TableService
from paiju_services.tables import clock as clocks

PLAYERS = api.make_config("guanpai", None, None).players
NO_CLOCK = dict.fromkeys(api.clock_defaults("guanpai"), 0)


class Counted:
    """Calls of the clock's computation and of its reads of the stream (``wait_start``), and
    every read of a table's log."""

    def __init__(self, svc: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
        self.computes: list[str] = []
        self.stream_reads: list[str] = []
        self.loads: list[str] = []
        compute, wait_start, read = svc.clock.compute, clocks.wait_start, svc.store.read

        async def counted_compute(table_id: str) -> Any:
            self.computes.append(table_id)
            return await compute(table_id)

        async def counted_wait_start(nc: Any, table_id: str, *args: Any) -> Any:
            self.stream_reads.append(table_id)
            return await wait_start(nc, table_id, *args)

        async def counted_read(table_id: str, *args: Any, **kwargs: Any) -> Any:
            self.loads.append(table_id)
            return await read(table_id, *args, **kwargs)

        monkeypatch.setattr(svc.clock, "compute", counted_compute)
        monkeypatch.setattr(clocks, "wait_start", counted_wait_start)
        monkeypatch.setattr(svc.store, "read", counted_read)

    def clear(self) -> None:
        self.computes.clear()
        self.stream_reads.clear()
        self.loads.clear()


async def settled(svc: TableService) -> None:
    """The clock has computed every deadline it was poked for."""
    for _ in range(500):
        await asyncio.sleep(0.01)
        if svc.clock.idle and not svc.clock.tasks:
            return
    raise AssertionError("the clock kept computing")


async def test_one_computation_from_memory_per_command_and_none_after_the_end(
    svc: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = await svc.create(CreateTable(game="guanpai", clock=NO_CLOCK, options={"hands": 1}))
    table = made.table
    tokens = [
        (await svc.join(table, Join(name=f"P{seat}", seat=seat))).token for seat in range(PLAYERS)
    ]
    await settled(svc)
    counted = Counted(svc, monkeypatch)
    commands = 0
    log = await svc.writer.table(table)
    while True:
        seat = api.to_move(log.state)
        assert seat is not None
        move = bots.choose(log.state, seat)
        counted.clear()
        await svc.command(
            table, SeatCommand(id=f"c{commands}", token=tokens[seat], command=encode(move))
        )
        commands += 1
        await settled(svc)
        if table not in svc.cache:
            break  # the match ended: the copy forgot the table
        assert counted.computes == [table], commands  # once, from memory: nothing read
        assert counted.stream_reads == [] and counted.loads == [], commands
        log = await svc.writer.table(table)
    # the last command ended the match (archived from the copy's memory: no read of the log):
    # the clock read nothing and the table stays out of memory
    assert commands > 10
    assert counted.loads == []
    assert counted.stream_reads == [] and table not in svc.cache
    counted.clear()

    # a later computation (a sweep's poke) answers none without reading the log either
    assert await svc.clock.compute(table) is None
    assert counted.loads == [] and table not in svc.cache

    # nor does a sweep while the copy's index of the directory still lists the table in play (its
    # watch not yet told of the end, as happens under load)
    entry = await svc.writer.meta(table, fresh=True)
    assert entry.meta.status == "finished"

    async def stale_index() -> list[Listed]:
        return [Listed(msgspec.structs.replace(entry.meta, status="playing"), entry.revision)]

    monkeypatch.setattr(svc.writer, "playing", stale_index)
    assert await svc.sweep() == 0  # passed over
    assert counted.loads == [] and table not in svc.cache


async def test_a_create_with_settings_checked_before_plays_no_check_hand(
    svc: TableService,
) -> None:
    simulate.hand_problem.cache_clear()
    await svc.create(CreateTable(game="guanpai", clock=NO_CLOCK))
    first = simulate.hand_problem.cache_info()
    assert (first.misses, first.hits) == (1, 0)
    await svc.create(CreateTable(game="guanpai", clock=NO_CLOCK))
    second = simulate.hand_problem.cache_info()
    assert (second.misses, second.hits) == (1, 0)  # the copy's own answer: not even a thread
    await svc.create(CreateTable(game="guanpai", clock=NO_CLOCK, options={"hands": 2}))
    assert simulate.hand_problem.cache_info().misses == 2  # other settings: checked
    bad = CreateTable(
        game="guanpai", variant="suzhou", players=2, options={"plane_wings": [19, 3, 5, 0, 23]}
    )
    for _ in range(2):  # settings that do not play: refused each time, checked once
        with pytest.raises(ServiceError) as refused:
            await svc.create(bad)
        assert refused.value.code == "bad_config"
    assert simulate.hand_problem.cache_info().misses == 3
