"""Where a move's CPU goes: the load tool's closed loop (bench/load.py) with the table service and
the gateway sampled by py-spy, and a summary of each: the functions the samples were in (their
own time) and the project's functions with everything they called, as shares of the process's
busy samples and as microseconds of CPU per accepted move.

    python bench/profile.py                      # 100 tables, closed loop, 15 s sampled
    python bench/profile.py --tables 50 --top 25 --raw /tmp/stacks   # also keep the stacks

py-spy (pinned below) samples a running process from outside at ``--rate`` Hz: the services carry
no profiling code, and, unlike cProfile, a sampler does not slow every small call it sees (which
made nats-py's header parsing look like a fifth of the gateway). It is installed in .venv-bench
(the bench's own venv, never the project's) on first use. Only busy samples count (py-spy leaves
out a thread waiting in the event loop); the microseconds per move are the busy share of the
process's CPU that the load tool measured over the same window, divided by the moves accepted in
it. ``--raw DIR`` keeps each process's collapsed stacks (py-spy's ``raw`` format, a flame graph's
text) for a closer look.
"""

from __future__ import annotations

import argparse
import collections
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH_VENV = ROOT / ".venv-bench"
PY_SPY = "py-spy==0.4.3"
SERVICES = ("tables", "gateway")
OURS = ("paiju_services/", "paiju/")  # the project's own code, for the list with callees
WARM = 6.0  # seconds from the load tool's start to its measured window (ramp, warm-up)


def py_spy() -> Path:
    """The pinned py-spy in .venv-bench, installed on first use."""
    binary = BENCH_VENV / "bin" / "py-spy"
    if not binary.exists():
        if not (BENCH_VENV / "bin" / "python").exists():
            subprocess.run([sys.executable, "-m", "venv", str(BENCH_VENV)], check=True)
        pip = [str(BENCH_VENV / "bin" / "python"), "-m", "pip", "install", "-q", PY_SPY]
        subprocess.run(pip, check=True)
    return binary


def descendants(pid: int) -> dict[int, str]:
    """Every process below ``pid``, with its command line."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    out: dict[int, str] = {}
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        for child, ppid in parents.items():
            if ppid == parent and child not in out:
                try:
                    out[child] = (Path("/proc") / str(child) / "cmdline").read_bytes().decode()
                except OSError:
                    continue
                frontier.append(child)
    return out


def service_pids(load: subprocess.Popen[str], timeout: float = 900.0) -> dict[str, int]:
    """The table service's and the gateway's process ids, once the load tool's system runs (after
    it has made the static copies its gateway lacks: minutes, once per content)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = {}
        for pid, cmdline in descendants(load.pid).items():
            args = cmdline.split("\0")
            for service in SERVICES:
                if "paiju_services" in args and service in args:
                    found[service] = pid
        if len(found) == len(SERVICES):
            return found
        time.sleep(0.2)
    raise SystemExit("the load tool's system did not start its services")


def summary(stacks: Path, per_sample_us: float, top: int) -> list[str]:
    """The busy samples of one process: the largest own-time functions, and the project's largest
    functions with their callees, each as a share and as µs per move."""
    own: collections.Counter[str] = collections.Counter()
    inclusive: collections.Counter[str] = collections.Counter()
    total = 0
    for line in stacks.read_text().splitlines():
        frames_text, _, count_text = line.rpartition(" ")
        if not frames_text:
            continue
        count = int(count_text)
        frames = [f for f in frames_text.split(";") if f.strip()]
        if not frames or frames[0].startswith("thread"):
            frames = frames[1:] if frames else frames
        if not frames:
            continue
        total += count
        own[short(frames[-1])] += count
        for name in {short(f) for f in frames if any(o in f for o in OURS)}:
            inclusive[name] += count
    lines = [f"  {total} busy samples; the functions they were in (own time):"]

    def row(name: str, count: int) -> str:
        return f"    {100 * count / total:5.1f}%  {count * per_sample_us:7.1f} µs/move  {name}"

    lines += [row(name, count) for name, count in own.most_common(top)]
    lines.append("  the project's functions, with what they called:")
    lines += [row(name, count) for name, count in inclusive.most_common(top)]
    return lines


def short(frame: str) -> str:
    """``function (path/to/file.py:12)`` as ``function (file.py)``: a function, not a line."""
    name, _, where = frame.strip().partition(" (")
    path = where.rstrip(")").rsplit(":", 1)[0]
    parts = Path(path).parts
    shown = "/".join(parts[-2:]) if len(parts) > 1 else path
    return f"{name} ({shown})"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--duration", type=float, default=15.0, help="seconds sampled")
    parser.add_argument("--rate", type=int, default=200, help="samples a second")
    parser.add_argument("--top", type=int, default=15, help="rows per list")
    parser.add_argument("--raw", type=Path, default=None, help="keep the collapsed stacks here")
    args = parser.parse_args()
    spy = py_spy()
    argv = [sys.executable, str(ROOT / "bench" / "load.py"), "--tables", str(args.tables)]
    argv += ["--pace", "0", "--duration", str(args.duration), "--raw", "0", "--json"]
    argv += ["--warmup", str(WARM - 2.0), "--ramp", "2"]
    with tempfile.TemporaryDirectory(prefix="paiju-profile-") as tmp:
        folder = args.raw or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        load = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)
        pids = service_pids(load)
        time.sleep(WARM)  # the tables made, the warm-up over: the measured window begins
        record = [str(spy), "record", "--duration", str(int(args.duration)), "--rate"]
        record += [str(args.rate), "--format", "raw", "--nonblocking"]
        spies = {
            service: subprocess.Popen(
                [*record, "--pid", str(pid), "--output", str(folder / f"{service}.txt")],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for service, pid in pids.items()
        }
        for spied in spies.values():
            spied.wait()
        out, _ = load.communicate()
        report = json.loads(out.strip().splitlines()[-1])
        moves_per_s = float(report["moves_per_s"])
        print(
            f"{args.tables} tables, closed loop: {moves_per_s:.0f} moves/s, CPU (cores) "
            + ", ".join(f"{k} {v:.2f}" for k, v in sorted(report["cpu_cores"].items()))
        )
        for service in SERVICES:
            cores = sum(v for k, v in report["cpu_cores"].items() if k.startswith(service))
            print(f"\n== {service}: {1000 * cores / moves_per_s:.2f} ms of CPU per move ==")
            lines = (folder / f"{service}.txt").read_text().splitlines()
            samples = sum(int(line.rpartition(" ")[2]) for line in lines if line.strip())
            if not samples:
                print("  no samples")
                continue
            # the samples are the process's busy time: its CPU per move spread over them
            per_sample_us = 1e6 * cores / moves_per_s / samples
            print("\n".join(summary(folder / f"{service}.txt", per_sample_us, args.top)))


if __name__ == "__main__":
    main()
