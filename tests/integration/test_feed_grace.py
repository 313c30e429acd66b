"""A feed asks the table service for a view only when it is missing: its version was stored
``grace`` seconds ago or more, and its views never came. A version stored a moment before the
check has its views on their way still; asking for them then was one view request every 50 moves
of a closed loop (issue 28).

The feed here is the gateway's own ``TableFeed``; what it holds of the gateway is a stand-in that
counts the views it is asked for (the feed's protocol, ``FeedHost``), and the stream's stored
headers are given to it as the republish brings them. The real path, with NATS and the services,
is tests/integration/test_view_gaps.py.
"""

from __future__ import annotations

import asyncio

from nats.aio.msg import Msg

from integration.harness import until
from paiju_services import subjects
from paiju_services.config import Settings
from paiju_services.gateway.feeds import TableFeed
from paiju_services.gateway.presence import PresenceBook
from paiju_services.messages import ViewAt, ViewNow

BODY = b'{"view":{"phase":"play"}}'  # a view's body, as much of it as a feed reads
GRACE = 2.0  # seconds (the gateway's is 1): room for this machine's stalls


class Gateway:
    """What the feed needs of its gateway copy, answering every view asked with the newest."""

    def __init__(self) -> None:
        self.settings = Settings()
        self.presence = PresenceBook("gateway-1", 10.0)
        self.asked: list[int | None] = []  # the ``after`` of each view asked for
        self.version = 0

    def follow(self, feed: TableFeed) -> None: ...

    def unfollow(self, feed: TableFeed) -> None: ...

    def feed_idle(self, feed: TableFeed) -> None: ...

    def seats_changed(self, feed: TableFeed) -> None: ...

    async def view_now(self, table_id: str, token: str | None, after: int | None) -> ViewNow:
        self.asked.append(after)
        return ViewNow(now=ViewAt(index=self.version, event="played", data=BODY))


def stored(version: int) -> Msg:
    """The republished headers of a message whose last event makes the log ``version`` long."""
    headers = {subjects.H_INDEX: str(version - 1), subjects.H_TYPE: "played"}
    return Msg(None, subject="paiju.stored.t", headers=headers)  # type: ignore[arg-type]


def pushed(feed: TableFeed, gateway: Gateway, version: int) -> None:
    """The table service's views message of ``version``, come."""
    gateway.version = max(gateway.version, version)
    feed.view(version, "played", {None: BODY})


async def test_a_view_is_asked_for_only_once_its_version_s_grace_is_over() -> None:
    gateway = Gateway()
    feed = TableFeed(gateway, "t", grace=GRACE)  # type: ignore[arg-type]
    spectators = feed.audiences[None]
    pushed(feed, gateway, 5)
    await until("the first view taken", lambda: spectators.index == 5, 5)
    feed.stored(stored(5))  # the republish may trail the views

    feed.stored(stored(6))
    pushed(feed, gateway, 6)  # its views come at once
    await asyncio.sleep(GRACE / 4)
    feed.stored(stored(7))  # stored a quarter of a grace later: its views come after 6's check
    feed.stored(stored(8))  # and these never come
    gateway.version = 8
    await until("the check of version 6", lambda: feed.checking >= 6, 10)
    assert gateway.asked == []  # neither 7 nor 8 was stored a grace ago yet
    pushed(feed, gateway, 7)
    await until("the lost view taken", lambda: spectators.index == 8, 10)
    assert gateway.asked == [7]  # one fetch, for what came after the last view taken
    await until("no check left", lambda: feed.checker is None, 10)
    assert gateway.asked == [7] and feed.checking == 8
