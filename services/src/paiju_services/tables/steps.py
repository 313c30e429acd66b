"""A table's own steps: what the table does by itself between the seats' commands.

After every command (and at every sweep, for a table a crashed copy left waiting: a hand scored
but its seed not yet revealed) the service runs the table's steps with
``paiju.simulate.table_command`` (commit to a deal, deal, reveal the seed; before the first deal,
each bot's seat and level and each seat's seed from the directory) until a seat is to act
or the match is over. Each step is appended by the writer with a deterministic command id
(``writer.step_id``), so two copies that take the same step append it once. The deal waits for
every seat to be taken (and no rematch seat to wait for its player), and the next hand's deal for
the 继续 gate (``Clock.holds``). Then a bot seat to act is offered its turn (``tables.offers``), or
a match over is ended in the directory (``tables.ending``).

Each copy sweeps the tables in play (its index of the directory, no listing) at start and every
``sweep_interval`` seconds and runs their pending steps.
"""

from __future__ import annotations

import functools
import logging
from typing import TYPE_CHECKING

from paiju.errors import RuleError
from paiju.protocol import AddSeed, Command
from paiju.simulate import table_command
from paiju.table_life import bot_to_record
from paiju_services.errors import ServiceError
from paiju_services.logs import log
from paiju_services.store import StoreError
from paiju_services.tables.ids import seats_ready
from paiju_services.tables.writer import step_id

if TYPE_CHECKING:
    from paiju_services.messages import Seat
    from paiju_services.tablelog import TableLog
    from paiju_services.tables.clock import Clock
    from paiju_services.tables.ending import Ending
    from paiju_services.tables.offers import TurnOffers
    from paiju_services.tables.writer import TableWriter

logger = logging.getLogger("paiju.tables")

MAX_STEPS = 16  # table steps after one command (commit, deal, reveal, ... of a short match)


class TableSteps:
    """One copy's runner of the tables' own steps."""

    def __init__(
        self, writer: TableWriter, clock: Clock, offers: TurnOffers, ending: Ending
    ) -> None:
        self.writer = writer
        self.clock = clock
        self.offers = offers
        self.ending = ending

    def step(
        self, table_id: str, table: TableLog, *, seats: list[Seat] | None
    ) -> tuple[str, Command] | None:
        """The table's next own step (a bot's seat and level, a joined seat's seed, commit, deal,
        reveal), if it takes one now. ``seats``: the directory's, read for a deal (None
        otherwise)."""
        state = table.state
        if state.phase == "seeding" and seats is not None:
            if state.hand_no == 1:  # the bots' levels and the seats' seeds, from their joins
                bots = {
                    i: seat.level
                    for i, seat in enumerate(seats)
                    if seat.kind == "bot" and seat.level is not None
                }
                if (record := bot_to_record(state, bots)) is not None:
                    return f"table.{record.TYPE}.{record.seat}", record
                for i, seat in enumerate(seats):
                    if seat.seed is not None and state.player_seeds[i] is None:
                        return f"table.add_seed.{i}", AddSeed(seat=i, seed=seat.seed)
            if not seats_ready(seats):
                return None  # the deal waits for every seat to be taken
        if self.clock.holds(table_id, state):
            return None  # the next hand waits for 继续 (or its deadline)
        command = table_command(state, self.writer.secrets[table_id])  # per-hand seeds: HMAC of it
        return None if command is None else (step_id(state, command), command)

    async def run(self, table_id: str, again: bool = False) -> None:
        """Run the table's steps until a seat is to act or the match is over (caller holds the
        table's lock); a bot seat to act is offered its turn (``again``: the sweep offers it once
        more, a minute on, if nobody took it)."""
        self.clock.poke(table_id, hurry=not again)  # its deadline, once the lock is free
        table = await self.writer.table(table_id)
        if table.over:
            await self.ending.finish(table)
            return
        await self.writer.secret(table_id)
        await self.writer.meta(table_id)  # the seats, for the 继续 gate (clock.holds)
        for _ in range(MAX_STEPS):
            seats = None
            if table.state.phase == "seeding":
                seats = (await self.writer.meta(table_id, fresh=True)).meta.seats
            done = await self.writer.execute(
                table_id, functools.partial(self.step, table_id, seats=seats)
            )
            if done is None:
                break
            log(
                logger,
                "table step",
                logging.DEBUG,
                table=table_id,
                index=done.index,
                events=done.count,
                version=done.version,
            )
            table = await self.writer.table(table_id)
        if table.over:
            await self.ending.finish(table)
        else:
            await self.offers.offer(table, again)

    async def sweep(self) -> int:
        """Run the steps of every table in play (``playing``: this copy's index of them, no
        listing of the directory); returns how many tables were looked at."""
        count = 0
        for listed in await self.writer.playing():
            table_id = listed.meta.id
            if self.clock.forgotten(table_id):
                # finished here a moment ago, the index not told yet: reading its whole log again
                # to find it over was 2% of the table service's CPU in a closed loop
                continue
            self.writer.refresh(listed)
            count += 1
            async with self.writer.lock(table_id):
                try:
                    await self.run(table_id, again=True)
                except (ServiceError, RuleError, StoreError) as exc:
                    log(
                        logger,
                        "sweep of a table failed",
                        logging.WARNING,
                        table=table_id,
                        error=str(exc),
                    )
        return count
