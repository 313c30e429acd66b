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

from nats.aio.msg import Msg

from integration.harness import until
from paiju_services import subjects
from paiju_services.config import Settings
from paiju_services.gateway.feeds import TableFeed
from paiju_services.gateway.presence import PresenceBook
from paiju_services.messages import ViewAt, ViewNow

BODY = b'{"view":{"phase":"play"}}'  # a view's body, as much of it as a feed reads
GRACE = 3600.0  # seconds: the checks here come when the test says (``check_now``)


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
    gateway.version = version
    feed.view(version, "played", {None: BODY})


def check_now(feed: TableFeed) -> None:
    """The armed check's time has come."""
    assert feed.checker is not None
    feed.checker.cancel()
    feed._check()


async def test_views_on_their_way_are_not_asked_for_and_a_lost_one_is() -> None:
    gateway = Gateway()
    feed = TableFeed(gateway, "t", grace=GRACE)  # type: ignore[arg-type]
    spectators = feed.audiences[None]
    pushed(feed, gateway, 5)
    await until("the first view taken", lambda: spectators.index == 5, 5)

    feed.stored(stored(6))
    assert feed.checking == 6
    pushed(feed, gateway, 6)  # its views come within the grace
    feed.stored(stored(7))  # and another is stored a moment before the check
    check_now(feed)
    assert gateway.asked == [] and feed.checking == 7 and feed.checker is not None
    pushed(feed, gateway, 7)  # its views come within its own grace
    check_now(feed)
    assert gateway.asked == [] and feed.checker is None and spectators.index == 7

    # a version whose views never come is asked for once its grace is over
    feed.stored(stored(8))
    gateway.version = 8
    check_now(feed)
    await until("the lost view taken", lambda: spectators.index == 8, 5)
    assert gateway.asked == [7] and feed.checker is None


async def test_a_version_whose_views_came_first_is_not_asked_for() -> None:
    gateway = Gateway()
    feed = TableFeed(gateway, "t", grace=GRACE)  # type: ignore[arg-type]
    pushed(feed, gateway, 3)
    await until("the view taken", lambda: feed.audiences[None].index == 3, 5)
    feed.stored(stored(3))  # the republish may trail the views
    check_now(feed)
    assert gateway.asked == [] and feed.checker is None
