"""The launcher as a supervisor: a nats-server that dies is started again (the services reconnect
and the tables go on), instead of the whole system being stopped."""

from __future__ import annotations

import os
import re
import signal
import sys
from pathlib import Path

import pytest

from harness import free_port, running_launched, wait_until
from paiju_services.launcher import Child, nats_env, wait_health

STARTED = re.compile(r"started (nats-\S+) \(pid (\d+)\)")


def nats_pids(log: Path) -> list[int]:
    """The pids the launcher gave for its nats-server, in the order it started them."""
    return [int(m[2]) for m in STARTED.finditer(log.read_text())]


def go_threads(pid: int) -> str | None:
    """The ``GOMAXPROCS`` a process was started with."""
    for item in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0"):
        name, _, value = item.partition(b"=")
        if name == b"GOMAXPROCS":
            return value.decode()
    return None


def test_nats_server_gets_half_the_cores_unless_the_environment_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("GOMAXPROCS", raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(8)))
    assert nats_env() == {"GOMAXPROCS": "4"}
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    assert nats_env() == {"GOMAXPROCS": "1"}  # never none
    monkeypatch.setenv("GOMAXPROCS", "3")
    assert nats_env() == {}  # the operator's own, which the child inherits


def test_a_killed_nats_server_is_restarted_and_a_match_then_plays_to_the_end(
    tmp_path: Path,
) -> None:
    with running_launched(tmp_path, bot_delay=0) as stack:
        # the launcher supervises once it has seen the gateway healthy itself
        wait_until(lambda: "press Ctrl-C" in stack.log.read_text(), 30, "the launcher to be up")
        first = nats_pids(stack.log)
        assert len(first) == 1, stack.log.read_text()
        threads = os.environ.get("GOMAXPROCS") or nats_env()["GOMAXPROCS"]
        assert go_threads(first[0]) == threads
        os.kill(first[0], signal.SIGKILL)

        pids = wait_until(
            lambda: (p := nats_pids(stack.log)) and len(p) == 2 and p,
            30,
            "the launcher to start nats-server again",
        )
        assert pids[1] != pids[0]
        assert go_threads(pids[1]) == threads  # restarted as it was started
        assert stack.proc.poll() is None, "the launcher stopped"
        assert "restarting (#1)" in stack.log.read_text()

        def healthy() -> bool:
            try:
                return bool(stack.api("/api/health")["status"] == "ok")
            except OSError:
                return False

        wait_until(healthy, 60, "the services to reconnect to the restarted nats-server")
        created = stack.api("/api/tables", {"game": "guanpai", "players": 3})
        stack.api(f"/api/tables/{created['id']}/bots", {})  # as its owner (Launched.api)

        def finished() -> bool:
            return bool(stack.api(f"/api/tables/{created['id']}")["status"] == "finished")

        wait_until(finished, 90, "a bot match to finish after the restart", interval=0.3)
        totals = stack.api(f"/api/tables/{created['id']}")["totals"]
        assert sum(totals) == 0, totals  # a whole match was scored (guanpai pays zero-sum)


def test_a_copy_that_exits_during_the_start_is_started_again_and_said_once_a_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A copy that dies before the gateway is healthy (on a cluster still forming, say) is revived
    with the same back-off as later, and each exit is said once, with its log."""
    log = tmp_path / "tables-1.log"
    crashing = Child("tables-1", [sys.executable, "-c", "raise SystemExit(3)"], log, "tables")
    crashing.start()
    nobody = f"http://127.0.0.1:{free_port()}/api/health"
    assert not wait_health(nobody, 2.5, [crashing])  # the first restart is 1 s after the start
    exits = [line for line in capsys.readouterr().out.splitlines() if "exited" in line]
    assert crashing.restarts >= 1
    assert exits == [
        f"[paiju] tables-1 exited (3); restarting (#{n}); see {log}"
        for n in range(1, crashing.restarts + 1)
    ]
