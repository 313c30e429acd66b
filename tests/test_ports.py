"""The test stacks' ports: drawn below the kernel's ephemeral range (where an outgoing connection
may take a port before the server meant for it binds it), never the same twice."""

from __future__ import annotations

import socket

from paiju_services.ports import EPHEMERAL, free_port


def test_ports_are_free_distinct_and_never_ones_the_kernel_gives_connections() -> None:
    ports = [free_port() for _ in range(200)]
    assert len(set(ports)) == len(ports)
    assert not any(port in EPHEMERAL for port in ports)
    assert all(1024 < port < 32_768 for port in ports)
    with socket.socket() as s:  # free when given: a server can listen on it
        s.bind(("127.0.0.1", free_port()))
        s.listen()
