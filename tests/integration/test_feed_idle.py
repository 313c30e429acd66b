"""A table's live feed in a gateway outlives its last watcher by ``feed_idle_close`` seconds (a
reconnect reuses it). When the idle timer fires just as a new socket joins — the timer has
scheduled the close, the join runs before it — the feed stays open for the newcomer, who must not
be closed right after its welcome (as happened under load). Real parts: the stack's NATS, the
gateway's own Backend and TableFeed, in this process."""

from __future__ import annotations

import asyncio

import httpx
import nats

from integration.harness import Stack, new_table
from paiju_services import subjects
from paiju_services.config import Settings
from paiju_services.gateway.backend import Backend
from paiju_services.gateway.feeds import Watcher


async def test_a_watcher_joining_as_the_idle_timer_fires_keeps_the_feed(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    table = await new_table(http)
    nc = await nats.connect(stack.nats_url)
    try:
        js = nc.jetstream()
        backend = Backend(
            Settings(feed_idle_close=0.05), nc, js, await js.key_value(subjects.TABLES_BUCKET)
        )
        feed = await backend.feed(table)
        first = Watcher(None)
        feed.add(first)
        feed.remove(first)  # the last watcher leaves: the idle timer starts
        await asyncio.sleep(0.2)  # it fired: nobody joined, the feed is closed
        assert feed.closed and table not in backend.feeds

        feed = await backend.feed(table)  # a new feed for the next watcher
        second = Watcher(None)
        feed.add(second)
        feed.remove(second)
        closing = asyncio.ensure_future(feed.close_if_idle())  # what the fired timer scheduled
        third = Watcher(None)
        (await backend.feed(table)).add(third)  # joins before that close runs
        await closing
        assert not feed.closed and backend.feeds[table] is feed
        assert third.outbox.empty()  # no closing frame: the socket stays open
        await backend.close()
    finally:
        await nc.close()
