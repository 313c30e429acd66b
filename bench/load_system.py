"""The system under load (bench/load.py, bench/floor.py, bench/bot_ways.py): a system of the
project's launcher started on free ports in a temporary folder, its static copies made first, and
its processes' CPU and memory read from /proc."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from paiju_services.config import Settings
from paiju_services.gateway.static import StaticFiles
from paiju_services.ports import free_port

ROOT = Path(__file__).resolve().parent.parent
TICKS = os.sysconf("SC_CLK_TCK")


def warm_static_cache(settings: list[str], timeout: float = 900.0) -> None:
    """Every compressed copy the system's gateway would make (in its cache folder, at its brotli
    quality: the defaults, ``var/static/`` at 11, unless ``settings`` name others), made before
    it starts: a run is shorter than the brotli copy of a changed Pyodide or wheel, so each run's
    gateway started that copy again in the background and was stopped before it ended, and the
    run counted it as the gateway's CPU per move (bench/profile.py: brotli was 58% of the
    gateway's busy samples). Once per content: a warm cache costs the hashing only."""
    given = tomllib.loads("\n".join(settings))
    cache = {k: given[k] for k in ("static_cache", "brotli_quality") if k in given}
    if not StaticFiles.of(Settings(**cache)).make_every_copy(timeout):
        raise SystemExit(f"the static copies were not made in {timeout:.0f}s")


@dataclass
class System:
    """A system started by the launcher in a temporary folder."""

    folder: Path
    gateway: str
    nats_url: str
    proc: subprocess.Popen[bytes]
    copies: int = 1

    @property
    def gateways(self) -> list[str]:
        """Every gateway copy's URL (the launcher gives copy i the port after copy i - 1's)."""
        host, _, port = self.gateway.rpartition(":")
        return [f"{host}:{int(port) + i}" for i in range(self.copies)]

    @property
    def operator_url(self) -> str:
        """The NATS URL with the operator's credentials the launcher generated for this run."""
        password = (self.folder / "secrets" / "operator.password").read_text().strip()
        return self.nats_url.replace("nats://", f"nats://operator:{password}@", 1)

    @classmethod
    def start(cls, copies: int, settings: list[str]) -> System:
        warm_static_cache(settings)
        folder = Path(tempfile.mkdtemp(prefix="paiju-load-"))
        nats_port, monitor_port, http_port = free_port(), free_port(), free_port()
        conf = folder / "nats.conf"
        conf.write_text(
            f"listen: 127.0.0.1:{nats_port}\nhttp: 127.0.0.1:{monitor_port}\n"
            f"max_payload: 1MB\njetstream {{\n  store_dir: {json.dumps(str(folder / 'js'))}\n"
            "  max_file_store: 10GB\n  max_memory_store: 256MB\n}\n"
        )
        toml = folder / "load.toml"
        processes = "".join(
            f'[[process]]\nname = "{name}"\nservice = "{name}"\ncopies = {copies}\n{extra}\n'
            for name, extra in (
                ("tables", ""),
                ("bots", ""),
                ("gateway", f"port = {http_port}\n"),
            )
        )
        defaults = (
            "replicas = 1\nbot_delay = 0.0\nhttp_rate = 100000.0\nhttp_burst = 100000\n"
            "frame_rate = 1000.0\nframe_burst = 1000\n"
            "ws_rate = 100000.0\nws_burst = 100000"  # every socket comes from one address
        ).splitlines()
        given = {
            line.split("=")[0].strip() for line in settings
        }  # a setting given replaces its default
        toml.write_text(
            f"logs = {json.dumps(str(folder / 'logs'))}\n\n"
            f'[nats]\nurl = "nats://127.0.0.1:{nats_port}"\nservers = [{json.dumps(str(conf))}]\n\n'
            "[settings]\n"
            + "".join(f"{line}\n" for line in defaults if line.split("=")[0].strip() not in given)
            + "".join(f"{line}\n" for line in settings)
            + "\n"
            + processes
        )
        proc = subprocess.Popen(
            [sys.executable, "-m", "paiju_services.launcher", str(toml)],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        gateway, nats_url = f"http://127.0.0.1:{http_port}", f"nats://127.0.0.1:{nats_port}"
        system = cls(folder, gateway, nats_url, proc, copies)
        system.wait_ready()
        return system

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"the launcher exited with {self.proc.returncode}")
            with contextlib.suppress(httpx.HTTPError):
                if all(
                    httpx.get(g + "/api/health", timeout=1).status_code == 200
                    for g in self.gateways
                ):
                    return
            time.sleep(0.2)
        raise SystemExit("the system did not become healthy")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGINT)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


def processes_of(root_pid: int) -> dict[int, str]:
    """Every descendant of ``root_pid``: pid → a short name (nats-server, tables-0, gateway-0 …)."""
    children: dict[int, list[int]] = {}
    names: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            stat = (entry / "stat").read_text()
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry.name))
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            names[int(entry.name)] = process_name([a.decode(errors="replace") for a in argv])
    found: dict[int, str] = {}
    todo = list(children.get(root_pid, []))
    while todo:
        pid = todo.pop()
        found[pid] = names.get(pid, str(pid))
        todo.extend(children.get(pid, []))
    return found


def process_name(argv: list[str]) -> str:
    if argv and argv[0].endswith("nats-server"):
        return "nats-server"
    if "--instance" in argv:
        return argv[argv.index("--instance") + 1]
    return Path(argv[0]).name if argv else "?"


def kill_services(root: int) -> None:
    """Every service process of the system, killed -9 (its launcher starts them again)."""
    for pid, name in processes_of(root).items():
        if name != "nats-server":
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def cpu_seconds(pid: int) -> float:
    with contextlib.suppress(OSError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS
    return 0.0


def rss_mb(pid: int) -> float:
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


async def sample_processes(
    root: int, every: float, samples: list[dict[str, Any]], stop: asyncio.Event
) -> None:
    """Every ``every`` seconds until ``stop``: each process's resident memory (MB) and the cores it
    used since the last sample (a soak's plateau or growth, process by process)."""
    pids = processes_of(root)
    before = {pid: cpu_seconds(pid) for pid in pids}
    start = last = time.monotonic()
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), every)
        now = time.monotonic()
        pids = processes_of(root)
        cpu_now = {pid: cpu_seconds(pid) for pid in pids}
        rss: dict[str, float] = {}
        cores: dict[str, float] = {}
        for pid, name in pids.items():
            rss[name] = rss.get(name, 0.0) + rss_mb(pid)
            used = cpu_now[pid] - before.get(pid, cpu_now[pid])
            cores[name] = cores.get(name, 0.0) + used / max(1e-9, now - last)
        samples.append({"t_s": round(now - start, 1), "rss_mb": rss, "cores": cores})
        before, last = cpu_now, now
