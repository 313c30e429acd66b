"""A feed that misses views (core NATS messages: a reconnection, a table-service copy that crashed
between its append and its publish) sends its sockets every missed view, in order, with its event:
a spectator sees every index once, with no gap, to the end of the match. Two ways a miss is found:
the next pushed view shows a gap, or the stream's header-only republish says a version was stored
whose view did not come (views.py). Real parts: the stack's NATS and services, the gateway's own
Backend and TableFeed in this process, its pushed views dropped on arrival to lose them."""

from __future__ import annotations

import json

import httpx
import nats
from nats.aio.client import Client

from integration.harness import Stack, assert_every_index_once, new_table, owner, until
from paiju_services import subjects
from paiju_services.config import Settings
from paiju_services.gateway.backend import Backend
from paiju_services.gateway.feeds import TableFeed, Watcher
from paiju_services.store import EventStore


def frames_of(watcher: Watcher) -> list[dict[str, object]]:
    out = []
    while not watcher.outbox.empty():
        frame = watcher.outbox.get_nowait()
        if frame:
            out.append(json.loads(frame))
    return out


async def a_played_table(
    http: httpx.AsyncClient, backend: Backend
) -> tuple[TableFeed, Watcher, int]:
    table = await new_table(http, game="guanpai", players=3)
    feed = await backend.feed(table)
    watcher = Watcher(None, limit=100_000)
    feed.add(watcher)
    start = feed.audiences[None].index
    feed.view = lambda *pushed: None  # type: ignore[method-assign]  # its pushed views are lost
    r = await http.post(f"/api/tables/{table}/bots", json={}, headers=owner(table))
    assert r.status_code == 200, r.text
    await until(
        "events stored", lambda: feed.stored_version >= start + 8, 30
    )  # events stored, none pushed
    return feed, watcher, start


async def test_a_feed_that_misses_views_sends_every_one_in_order(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    nc: Client = await nats.connect(stack.nats_url)
    try:
        js = nc.jetstream()
        backend = Backend(Settings(), nc, js, await js.key_value(subjects.TABLES_BUCKET))
        await backend.start()
        # a feed that gets its pushed views again: the next one shows the gap
        pushed, pushed_watcher, pushed_start = await a_played_table(http, backend)
        del pushed.view  # type: ignore[method-assign]  # the feed's own again
        # a feed that never does: the stored headers tell it what it missed
        subscriptions = len(nc._subs)
        silent, silent_watcher, silent_start = await a_played_table(http, backend)
        # a feed holds no subscription: the gateway's two for all tables bring its messages
        assert len(nc._subs) == subscriptions
        await until("both matches over", lambda: pushed.over and silent.over, 120)
        # the last version is the stream's own: a feed's stored headers come by a subscription
        # of their own and may trail the last view (CI on 17a04e8: 35 stored when the view of 37
        # had come), and a feed stops following its table once it sees the match end (CI on
        # f8741ba: the last header came after that)
        store = EventStore(nc, js)
        for feed, watcher, start in (
            (pushed, pushed_watcher, pushed_start),
            (silent, silent_watcher, silent_start),
        ):
            _, last = await store.tip(feed.table_id)
            assert last is not None
            stored_version = last + 1
            frames = frames_of(watcher)
            assert_every_index_once(frames)  # type: ignore[arg-type]
            states = [f for f in frames if f["type"] == "state" and f.get("event")]
            assert states[0]["index"] == start + 1 and states[-1]["event"] == "match_ended"
            assert states[-1]["index"] == stored_version
            assert frames[-1]["type"] == "over"
        await backend.close()
    finally:
        await nc.close()
