"""Table talk through the whole system: a seat's 快捷语 reaches the other seat and a spectator as
a bubble in their views, is appended to the log as table talk (not a move), buys nobody time on
the clock, and is refused, changing nothing, when it is not one of the table's words, claims
another seat, comes from a spectator or comes more often than the limit."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx

from integration.harness import Socket, Stack, assert_clean_log, join, new_table, raw_log
from paiju.table_life import TALK_MOST


def latest_state(sock: Socket) -> dict[str, Any]:
    return next(f for f in reversed(sock.frames) if f["type"] == "state")


async def state_where(
    sock: Socket, what: str, check: Callable[[dict[str, Any]], bool], timeout: float = 30.0
) -> dict[str, Any]:
    """The socket's first state frame, among those it has and those it receives, that ``check``
    accepts."""
    deadline = time.monotonic() + timeout
    for frame in sock.frames:
        if frame["type"] == "state" and check(frame):
            return frame
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"waited {timeout:.0f}s for {what}"
        try:
            frame = await sock.recv(left)
        except TimeoutError:
            continue
        if frame["type"] == "state" and check(frame):
            return frame


async def error_of(sock: Socket, command: dict[str, Any], command_id: str) -> dict[str, Any]:
    await sock.send({"type": "command", "id": command_id, "command": command})
    frame = await sock.expect("error")
    assert frame["id"] == command_id
    return frame


async def test_a_seat_s_word_reaches_the_table_and_the_log_and_is_limited(
    stack: Stack, http: httpx.AsyncClient
) -> None:
    table = await new_table(http, game="guanpai", variant="mainstream", players=2)
    tokens = [await join(http, table, name, seat=seat) for seat, name in enumerate(["甲", "乙"])]
    spectator = await Socket.open(stack.ws, table)
    me, friend = [await Socket.open(stack.ws, table, token) for token in tokens]
    try:
        # the deal, and a seat to move with its deadline running
        before = await state_where(
            me, "a seat to move", lambda f: f["view"]["hand"] and f.get("deadline") is not None
        )
        turn, deadline = before["view"]["turn"], before["deadline"]

        words = ["hello", "smile"][:TALK_MOST]
        for i, word in enumerate(words):
            await me.send(
                {
                    "type": "command",
                    "id": f"talk-{i}",
                    "command": {"type": "talk", "seat": 0, "talk": word},
                }
            )
            ack = await me.expect("ack")
            assert ack["id"] == f"talk-{i}" and not ack["duplicate"]
        heard = [[0, word] for word in words]

        def all_heard(frame: dict[str, Any]) -> bool:
            return [t[:2] for t in frame["view"].get("talk", [])] == heard

        said, _, _ = [await state_where(s, "the words", all_heard) for s in (friend, spectator, me)]
        # table talk changes no turn and no deadline: the clock of the seat to move runs on
        assert said["view"]["turn"] == turn and said["deadline"] == deadline
        assert latest_state(me)["view"]["hand"] == before["view"]["hand"]

        # refused, and nothing changes: over the limit, a word the table does not have, another
        # seat's name, a spectator
        too_often = await error_of(me, {"type": "talk", "seat": 0, "talk": "bye"}, "talk-x")
        assert too_often["code"] == "talk_too_often" and "最多说 2 句" in too_often["zh"]
        unknown = await error_of(friend, {"type": "talk", "seat": 1, "talk": "你好"}, "talk-y")
        assert unknown["code"] == "unknown_talk"
        forged = await error_of(friend, {"type": "talk", "seat": 0, "talk": "bye"}, "talk-z")
        assert forged["code"] == "not_your_seat"
        watching = await error_of(spectator, {"type": "talk", "seat": 0, "talk": "bye"}, "w")
        assert watching["code"] == "not_seated"
        # the other seat still may: the limit is each seat's own
        await friend.send(
            {
                "type": "command",
                "id": "talk-f",
                "command": {"type": "talk", "seat": 1, "talk": "nice"},
            }
        )
        assert (await friend.expect("ack"))["id"] == "talk-f"

        raw = await raw_log(stack.nats_url, table)
        assert_clean_log(raw)
        talked = [(event["seat"], event["talk"]) for _, event in raw if event["type"] == "talked"]
        assert talked == [*((0, w) for w in words), (1, "nice")]
    finally:
        for sock in (me, friend, spectator):
            await sock.close()
