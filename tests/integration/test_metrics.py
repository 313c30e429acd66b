"""Every service exposes Prometheus metrics (``--metrics-port``): a played game's commands are
counted by the table service exactly as its log holds them, the bots' moves by the bots service,
and the frames and sockets by the gateway."""

from __future__ import annotations

import asyncio
import contextlib
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from integration.harness import (
    Socket,
    Stack,
    free_port,
    join,
    new_table,
    owner,
    play_seat,
    raw_log,
    raw_messages,
)


@pytest.fixture(scope="module")
def metered(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Stack, dict[str, int]]]:
    """A stack of its own, so that nothing else moves its counters."""
    stack = Stack(Path(tmp_path_factory.mktemp("metrics")))
    ports = {name: free_port() for name in ("tables", "bots", "gateway")}
    stack.start_nats()
    try:
        for name, port in ports.items():
            stack.start(name, "--metrics-port", str(port))
    except Exception:
        stack.stop()
        raise
    yield stack, ports
    stack.stop()


def scrape(port: int) -> dict[str, float]:
    """The samples of a /metrics page: ``name{labels}`` → value."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as reply:
        text = reply.read().decode()
    samples = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            samples[name] = float(value)
    return samples


async def test_metrics_count_a_played_games_commands(
    metered: tuple[Stack, dict[str, int]],
) -> None:
    stack, ports = metered
    before = scrape(ports["tables"])
    assert before['paiju_commands_total{outcome="accepted"}'] == 0  # listed from the start
    async with httpx.AsyncClient(base_url=stack.http, timeout=20.0) as http:
        table = await new_table(http, game="guanpai", variant="boke")
        token = await join(http, table, "Ann", seat=0)
        assert (
            await http.post(f"/api/tables/{table}/bots", json={}, headers=owner(table))
        ).status_code == 200
        sock = await Socket.open(stack.ws, table, token)
        gateway_live = scrape(ports["gateway"])
        await play_seat(sock, 0)
        with contextlib.suppress(TimeoutError):  # the frames still on their way after "over"
            while True:
                await sock.recv(1.0)
        await sock.close()

    log = await raw_log(stack.nats_url, table)
    commands = {h["Paiju-Command"] for h, _ in log if h.get("Paiju-Command", "").startswith("seat")}
    mine = {c for c in commands if c.startswith("seat0.")}
    tables = scrape(ports["tables"])
    assert tables['paiju_commands_total{outcome="accepted"}'] == len(commands)
    assert tables["paiju_command_seconds_count"] == sum(
        v for k, v in tables.items() if k.startswith("paiju_commands_total")
    )
    appended = tables['paiju_appends_total{result="appended"}']
    assert appended >= len(commands)  # and the table's own steps: deals, reveals
    # a message an append: the header with the first commitment, then each command's events
    assert tables["paiju_appended_messages_total"] == len(await raw_messages(stack.nats_url, table))
    assert tables["paiju_append_seconds_count"] >= appended

    bots = scrape(ports["bots"])
    assert bots['paiju_bot_moves_total{result="accepted"}'] == len(commands) - len(mine)

    gateway = scrape(ports["gateway"])
    assert gateway_live["paiju_sockets"] == 1 and gateway["paiju_sockets"] == 0
    # the only watcher: every frame it received was counted, each state frame encoded once
    assert gateway["paiju_frames_out_total"] == len(sock.frames)
    states = [f for f in sock.frames if f["type"] == "state"]
    assert gateway["paiju_frame_encodings_total"] == len(states)
    assert gateway["paiju_frame_bytes_out_total"] > 100 * len(sock.frames)


async def test_an_idle_bots_service_waits_quietly(metered: tuple[Stack, dict[str, int]]) -> None:
    """Waiting for work is not a failure: an idle bots service's fetches that time out (nats-py
    raises its own TimeoutError or the plain one) are not logged as ``fetch failed``."""
    stack, _ = metered
    bots = next(p for p in stack.procs if p.name.startswith("bots"))
    await asyncio.sleep(4.0)  # a few fetch timeouts (1 s each) with nothing to do
    assert not [line for line in bots.lines() if line.get("msg") == "fetch failed"]
