"""The WebSocket of a table: ``/ws/tables/{table_id}``.

A client starts as a spectator and gets the public view; a ``hello`` frame with a seat token makes
it that seat (a reconnect with the same token resumes the seat with the current view). A seat
sends ``command`` frames; every client gets a ``state`` frame with its own view after every event.
A socket that said hello holds its seat's presence (``connected`` in the frames, and
``paiju.presence.<table>`` for the other copies) until it closes.

Every frame is checked here before anything else: its size, the sender's rate, that it is JSON,
that its ``type`` is known, and that it has exactly the fields of that type (msgspec tagged
union). A bad frame gets an ``error`` frame and changes nothing; the connection stays open.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import msgspec
from litestar import WebSocket, websocket
from litestar.exceptions import WebSocketDisconnect

from paiju.errors import RuleError
from paiju_services import metrics
from paiju_services.errors import SERVICE_BUSY, RemoteError, ServiceError, error_body, short
from paiju_services.gateway.backend import Backend
from paiju_services.gateway.feeds import TableFeed, Watcher
from paiju_services.gateway.limits import PerClient, RateLimit, client_address
from paiju_services.gateway.schemas import (
    CLIENT_TAGS,
    Ack,
    ClientFrame,
    ErrorFrame,
    Hello,
    Ping,
    Pong,
    SendCommand,
    Sync,
    Welcome,
    encoder,
)
from paiju_services.inputs import check_depth, command_seat
from paiju_services.logs import log

logger = logging.getLogger("paiju.gateway.ws")

KNOWN_ERRORS = (ServiceError, RemoteError, RuleError)
_any = msgspec.json.Decoder()
_frames = msgspec.json.Decoder(ClientFrame)


def error_frame(err: BaseException, command_id: str | None = None) -> bytes:
    body = error_body(err)
    return encoder.encode(
        ErrorFrame(
            code=body.code,
            zh=body.zh,
            en=body.en,
            cards=body.cards,
            id=command_id,
            retry_after=body.retry_after,
        )
    )


def parse_frame(raw: str | bytes, limit: int) -> ClientFrame:
    """A client frame, checked.

    Raises:
        ServiceError: ``too_large``, ``bad_json``, ``unknown_frame`` or ``bad_frame``.
    """
    data = raw.encode() if isinstance(raw, str) else raw
    if len(data) > limit:
        raise ServiceError("too_large", limit=limit)
    check_depth(data)  # bad_json, before the parser recurses into it
    try:
        value: Any = _any.decode(data)
    except msgspec.DecodeError as exc:
        raise ServiceError("bad_json", detail=short(exc)) from None
    tag = value.get("type") if isinstance(value, dict) else None
    if not isinstance(tag, str) or tag not in CLIENT_TAGS:
        raise ServiceError("unknown_frame", frame=short(tag, 40))
    try:
        frame: ClientFrame = msgspec.convert(value, ClientFrame, strict=True)
    except msgspec.ValidationError as exc:
        raise ServiceError("bad_frame", detail=short(exc)) from None
    return frame


@websocket("/ws/tables/{table_id:str}")
async def table_socket(socket: WebSocket[Any, Any, Any], table_id: str) -> None:
    backend: Backend = socket.app.state.backend
    settings = backend.settings
    await socket.accept()
    openings: PerClient = socket.app.state.openings
    if not openings.allow(client_address(socket.scope)):  # before the socket watches anything
        metrics.RATE_LIMITED.labels("socket").inc()
        await socket.send_text(error_frame(ServiceError("rate_limited")).decode())
        await socket.close(code=1013)  # try again later
        return
    try:
        feed = await backend.feed(table_id)
    except Exception as exc:  # said to the client as what it is (not found, unavailable ...)
        code = error_body(exc).code
        if code not in ("table_not_found", "table_expired"):
            log(logger, "feed failed", logging.WARNING, table=table_id, error=repr(exc))
        await socket.send_text(error_frame(exc).decode())
        # 1013: try again later (NATS or the store unavailable, the table service overloaded);
        # 4404: no such table (or a bad id); 1011: a bug
        known = isinstance(exc, ServiceError | RemoteError)
        await socket.close(code=1013 if code in SERVICE_BUSY else 4404 if known else 1011)
        return
    watcher = Watcher(None)
    try:
        feed.add(watcher)
    except ServiceError as exc:
        await socket.send_text(error_frame(exc).decode())
        await socket.close(code=1013)
        return
    session = Session(socket, backend, feed, watcher)
    writer = asyncio.create_task(session.write())
    metrics.SOCKETS.inc()
    session.welcome()
    log(logger, "socket opened", table=table_id)
    try:
        limiter = RateLimit(settings.frame_rate, settings.frame_burst)
        while not watcher.dropped:
            message = await socket.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw: str | bytes = message.get("text") or message.get("bytes") or b""  # type: ignore[assignment]
            try:
                frame = parse_frame(raw, settings.max_frame)
            except ServiceError as exc:
                refusal = exc if limiter.allow() else ServiceError("rate_limited")
                watcher.push(error_frame(refusal))
                continue
            if not limiter.allow():  # refused; a command's error names it, to unlock its controls
                metrics.RATE_LIMITED.labels("frame").inc()
                command_id = frame.id if isinstance(frame, SendCommand) else None
                watcher.push(error_frame(ServiceError("rate_limited"), command_id))
                continue
            try:
                await session.handle(frame)
            except Exception as exc:  # NATS down ...: an error frame, and the socket stays open
                log(logger, "frame failed", logging.WARNING, table=table_id, error=repr(exc))
                command_id = frame.id if isinstance(frame, SendCommand) else None
                watcher.push(error_frame(exc, command_id))
    except WebSocketDisconnect:
        pass
    finally:
        metrics.SOCKETS.dec()
        feed.remove(watcher)
        watcher.push(b"")
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(writer, timeout=2.0)
        writer.cancel()
        log(logger, "socket closed", table=table_id, seat=watcher.seat)


class Session:
    """One connection: who it is (spectator or seat) and what it may do."""

    def __init__(
        self, socket: WebSocket[Any, Any, Any], backend: Backend, feed: TableFeed, watcher: Watcher
    ):
        self.socket = socket
        self.backend = backend
        self.feed = feed
        self.watcher = watcher  # its seat and token once a hello is accepted

    def welcome(self) -> None:
        seat = self.watcher.seat
        self.watcher.push(
            encoder.encode(
                Welcome(
                    table=self.feed.table_id, seat=seat, max_frame=self.backend.settings.max_frame
                )
            )
        )
        for frame in self.feed.snapshot(self.watcher):
            self.watcher.push(frame)

    async def write(self) -> None:
        while True:
            frame = await self.watcher.outbox.get()
            if not frame:  # None (too slow) or b"" (closing)
                with contextlib.suppress(Exception):
                    await self.socket.close(code=1013 if frame is None else 1000)
                return
            try:
                await self.socket.send_text(frame.decode())
            except Exception:
                return

    async def handle(self, frame: ClientFrame) -> None:
        if isinstance(frame, Hello):
            try:
                seat = await self.backend.seat_of(self.feed.table_id, frame.token)
            except ServiceError as exc:
                self.watcher.push(error_frame(exc))
                return
            try:
                await self.feed.sit(self.watcher, seat, frame.token)
            except Exception as exc:  # its view could not be had: it stays a spectator
                self.feed.add_spectator(self.watcher)
                self.watcher.push(error_frame(exc))
                return
            self.backend.seats_changed(self.feed)  # connected: the others see it at once
            self.welcome()
        elif isinstance(frame, SendCommand):
            await self.command(frame)
        elif isinstance(frame, Ping):
            self.watcher.push(encoder.encode(Pong(nonce=frame.nonce)))
        elif isinstance(frame, Sync):
            for out in self.feed.snapshot(self.watcher):
                self.watcher.push(out)

    async def command(self, frame: SendCommand) -> None:
        seat, token = self.watcher.seat, self.watcher.token
        if seat is None or token is None:
            self.watcher.push(error_frame(ServiceError("not_seated"), frame.id))
            return
        try:
            claimed = command_seat(frame.command)
            if claimed != seat:
                raise ServiceError("not_your_seat", seat=claimed)
        except ServiceError as exc:
            self.watcher.push(error_frame(exc, frame.id))
            return
        try:
            done = await self.backend.command(self.feed.table_id, token, frame.id, frame.command)
        except Exception as exc:
            if not isinstance(exc, KNOWN_ERRORS):
                log(
                    logger,
                    "command failed",
                    logging.ERROR,
                    table=self.feed.table_id,
                    error=repr(exc),
                )
            self.watcher.push(error_frame(exc, frame.id))
            return
        self.watcher.push(
            encoder.encode(
                Ack(
                    id=frame.id,
                    duplicate=done.duplicate,
                    index=done.index,
                    count=done.count,
                    version=done.version,
                )
            )
        )
