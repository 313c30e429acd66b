"""A service's first connection to NATS when a TLS handshake fails in it. nats-py's own connect
never returns then: it closes the failed transport and waits for a close that never comes
(nats-io/nats.py#382 and #718; a CI run's bots copy hung so, its match played by the other copy).
``bus.connect`` bounds each first attempt (``FIRST_CONNECT_WITHIN``) and, after the services'
back-off, makes a new one."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from integration.harness import until
from paiju_services import bus, tls
from paiju_services.config import Settings


async def test_a_first_connect_stuck_on_a_failed_tls_handshake_is_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ca = tls.write_tls(tmp_path / "tls", {"node": ["127.0.0.1", "localhost"]})["node"].ca
    attempts = 0
    clients: list[asyncio.StreamWriter] = []

    async def speaks_in_clear(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """A server that answers the client's TLS hello with a NATS INFO line in clear (as a
        node does that was not told to start with TLS): the handshake fails; the socket stays
        open until the client goes."""
        nonlocal attempts
        attempts += 1
        clients.append(writer)
        writer.write(b'INFO {"server_id":"clear","tls_required":true}\r\n')
        await writer.drain()
        await reader.read()
        writer.close()

    server = await asyncio.start_server(speaks_in_clear, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    monkeypatch.setattr(bus, "FIRST_CONNECT_WITHIN", 1.0)
    settings = Settings(
        nats_url=f"nats://127.0.0.1:{port}", tls_ca=str(ca), retry_base=0.05, retry_cap=0.2
    )
    connecting = asyncio.create_task(bus.connect(settings, "first-connect"))
    try:
        await until(
            "three first attempts, each after the last one stuck", lambda: attempts >= 3, 15
        )
        assert not connecting.done()  # still trying: no server here speaks TLS
    finally:
        connecting.cancel()
        server.close()
        for client in clients:  # a stuck attempt ends once its socket is closed: none is left
            client.close()  # behind to hang the event loop's close (CI on 261f5a0)
        await until("every attempt ended", lambda: not attempts_left(), 15)


def attempts_left() -> list[asyncio.Task[Any]]:
    """nats-py's connects still running in this event loop."""
    return [
        task
        for task in asyncio.all_tasks()
        if not task.done()
        and getattr(task.get_coro(), "__qualname__", "") == "connect"
        and "nats" in task.get_coro().cr_code.co_filename  # type: ignore[union-attr]
    ]
