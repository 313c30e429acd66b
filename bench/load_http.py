"""The load tool's HTTP client (bench/load_players.py): JSON requests to the gateway, over a few
kept-alive HTTP/1.1 connections, a few at a time.

The players create and fill a table with four requests a match (a table, then each seat), on the
same two cores as the system they measure, so what a request costs the tool is counted against
the system. httpx, with httpcore and anyio under it, spent most of the tool's CPU on them: its
pool looks over every waiting request and every pooled connection each time one is sent or
answered, and a request passes through a dozen layers (auth, redirects, cookies, streams). This
client does what the players need and nothing else: no TLS, no redirects, no cookies, a body of
``Content-Length`` bytes (what the gateway sends).
"""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import urlsplit

import msgspec

_Connection = tuple[asyncio.StreamReader, asyncio.StreamWriter]


class HttpError(OSError):
    """An answer other than 2xx, or one this client cannot read."""


class JsonClient:
    """Requests to one server (``base_url``, ``http://host:port``), at most ``at_once`` at a
    time, each on a connection kept open for the next, answered with the body's JSON.

    Raises ``OSError``: ``HttpError``, a refused or lost connection, ``TimeoutError`` after
    ``timeout`` seconds."""

    def __init__(self, base_url: str, at_once: int, timeout: float = 30.0) -> None:
        address = urlsplit(base_url)
        self.host, self.port = address.hostname or "127.0.0.1", address.port or 80
        self.netloc = address.netloc
        self.timeout = timeout
        self.slots = asyncio.Semaphore(at_once)
        self.idle: list[_Connection] = []

    async def post(self, path: str, body: Any, headers: dict[str, str] | None = None) -> Any:
        return await self.request("POST", path, msgspec.json.encode(body), headers or {})

    async def get(self, path: str) -> Any:
        return await self.request("GET", path, b"", {})

    async def request(self, method: str, path: str, body: bytes, headers: dict[str, str]) -> Any:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.netloc}"]
        lines += [f"Content-Length: {len(body)}", "Content-Type: application/json"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        head = ("\r\n".join(lines) + "\r\n\r\n").encode()
        async with self.slots, asyncio.timeout(self.timeout):
            status, data = await self.exchange(head + body)
        if not 200 <= status < 300:
            raise HttpError(f"{method} {path}: {status} {data[:200]!r}")
        return msgspec.json.decode(data) if data else None

    async def exchange(self, request: bytes) -> tuple[int, bytes]:
        """Send a request and read its answer, on an idle connection if there is one; one the
        server closed or reset while it was idle (its keep-alive timeout) is passed over."""
        while self.idle:
            try:
                answer = await self.over(self.idle.pop(), request)
            except ConnectionError:
                continue  # reset by the server while it was idle
            if answer is not None:
                return answer
        answer = await self.over(await asyncio.open_connection(self.host, self.port), request)
        if answer is None:
            raise HttpError("the server closed the connection without an answer")
        return answer

    async def over(self, connection: _Connection, request: bytes) -> tuple[int, bytes] | None:
        """The answer's status and body on this connection (None if it was closed before an
        answer began); the connection is kept for the next request unless the server closes it."""
        reader, writer = connection
        try:
            writer.write(request)
            status_line = await reader.readline()
            if not status_line:
                writer.close()
                return None
            status = int(status_line.split()[1])
            length, keep = 0, True
            while (line := await reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.partition(b":")
                name = name.strip().lower()
                if name == b"content-length":
                    length = int(value)
                elif name == b"connection":
                    keep = value.strip().lower() != b"close"
                elif name == b"transfer-encoding":
                    raise HttpError(f"a body in {value.strip().decode()} encoding")
            data = await reader.readexactly(length)
        except (ValueError, IndexError, asyncio.IncompleteReadError) as exc:
            writer.close()
            raise HttpError(f"an answer this client cannot read: {exc!r}") from exc
        except BaseException:
            writer.close()
            raise
        if keep:
            self.idle.append(connection)
        else:
            writer.close()
        return status, data

    def close(self) -> None:
        for _, writer in self.idle:
            writer.close()
        self.idle.clear()
