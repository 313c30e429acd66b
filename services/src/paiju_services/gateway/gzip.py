"""The API's JSON answers gzipped when the client accepts it and they are big enough to gain (the
catalogue is 82 kB raw, a lobby page of 200 tables some 100 kB): one ``gzip.compress`` of the
whole body, nothing kept between requests. (Litestar's compression middleware made a gzip
compressor — some 256 kB of zlib state — for every request that accepts gzip, kept until the
cyclic garbage collector freed it, whatever the answer's size.) Static files are served
precompressed by ``static.py`` (copies made once by ``precompressed.py``) and pass through
untouched, as do streamed answers."""

from __future__ import annotations

import gzip
from typing import Any

from litestar.enums import ScopeType
from litestar.types import ASGIApp, Message, Receive, Scope, Send

API_PREFIX = "/api/"
MINIMUM_SIZE = 1024  # bytes: below this an answer is sent as it is
LEVEL = 6


def accepts_gzip(scope: Scope) -> bool:
    for name, value in scope.get("headers", ()):
        if name == b"accept-encoding":
            codings = [part.split(b";")[0].strip() for part in value.lower().split(b",")]
            return b"gzip" in codings
    return False


def gzip_api(app: ASGIApp) -> ASGIApp:
    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != ScopeType.HTTP
            or not scope["path"].startswith(API_PREFIX)
            or not accepts_gzip(scope)
        ):
            await app(scope, receive, send)
            return
        start: Any = None  # an ASGI message (a TypedDict litestar types loosely)

        async def send_wrapper(event: Message) -> None:
            nonlocal start
            message: Any = event
            if message["type"] == "http.response.start":
                start = message  # held until the body says whether to compress
                return
            if start is None or message["type"] != "http.response.body":
                await send(message)
                return
            held, start = start, None
            body: bytes = message.get("body", b"")
            headers = list(held.get("headers", ()))
            encoded = any(name.lower() == b"content-encoding" for name, _ in headers)
            if message.get("more_body") or encoded or len(body) < MINIMUM_SIZE:
                await send(held)
                await send(message)
                return
            body = gzip.compress(body, LEVEL, mtime=0)
            headers = [(n, v) for n, v in headers if n.lower() != b"content-length"]
            headers += [
                (b"content-encoding", b"gzip"),
                (b"content-length", str(len(body)).encode()),
                (b"vary", b"Accept-Encoding"),
            ]
            held["headers"] = headers
            message["body"] = body
            await send(held)
            await send(message)

        await app(scope, receive, send_wrapper)

    return middleware
