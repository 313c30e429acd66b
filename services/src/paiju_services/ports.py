"""A free local port for a server about to start: the test stacks' and the load tool's."""

from __future__ import annotations

import random
import socket
from pathlib import Path


def _ephemeral_ports() -> range:
    """The ports the kernel gives outgoing connections (Linux: ip_local_port_range)."""
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return range(int(low), int(high) + 1)
    except (OSError, ValueError):
        return range(32768, 61000)


EPHEMERAL = _ephemeral_ports()
_given: set[int] = set()


def free_port() -> int:
    """A port free now for a server a test starts, drawn below the kernel's ephemeral range: a
    port the kernel hands out (bind to port 0) may be taken as the local end of any outgoing
    connection before the server binds it (CI: a nats-server node that could not listen), and
    one drawn at random from the other ports is not. Never the same port twice in a process."""
    draw = random.Random()
    high = min(EPHEMERAL.start, 32_768)
    low = 10_000 if high > 11_000 else 1_025  # a system whose ephemeral range starts low
    for _ in range(1000):
        port = draw.randrange(low, high)
        if port in _given or port in EPHEMERAL:
            continue
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
        _given.add(port)
        return port
    raise RuntimeError("no free port below the ephemeral range")
