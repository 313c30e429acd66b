"""Fixtures of the integration tests: a whole Paiju system on free ports (nats-server with
JetStream in a temporary folder, the table service, the bots service and the gateway, each a real
process), shared by the tests of a session."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import nats
import pytest

from integration.harness import Stack, start_stack
from paiju_services import streams
from paiju_services.config import Settings
from paiju_services.tables import TableService


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    s = start_stack(Path(tmp_path_factory.mktemp("paiju")))
    yield s
    s.stop()


@pytest.fixture
async def http(stack: Stack) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=stack.http, timeout=20.0) as client:
        yield client


@pytest.fixture
def nats_only(tmp_path: Path) -> Iterator[Stack]:
    """nats-server alone, nothing made on it: the test's copies make the stream and buckets."""
    s = Stack(tmp_path)
    s.start_nats()
    yield s
    s.stop()


@pytest.fixture
async def bare(tmp_path: Path) -> AsyncIterator[Stack]:
    """nats-server alone, with the stream and the buckets: the test's copies are the only ones."""
    s = Stack(tmp_path)
    s.start_nats()
    try:
        nc = await nats.connect(s.nats_url)
        try:
            await streams.ensure(nc.jetstream(), 1, create=True)
        finally:
            await nc.close()
        yield s
    finally:
        s.stop()


@pytest.fixture
async def svc(bare: Stack) -> AsyncIterator[TableService]:
    """One table-service copy in this process, bound to ``bare``'s buckets but not serving, that
    the test calls directly (no turn clock runs unless the test pokes it)."""
    nc = await nats.connect(bare.nats_url)
    try:
        service = TableService(Settings(nats_url=bare.nats_url), nc, nc.jetstream())
        await service.open()
        try:
            yield service
        finally:
            await service.clock.stop()
    finally:
        await nc.close()
