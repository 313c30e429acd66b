"""The built wheel plays the same random games in Pyodide (under node) as the engine on CPython,
for every game and variant, with every invariant of paiju.selfcheck checked inside Pyodide, and
produces the golden playthroughs (tests/golden/) byte for byte: Pyodide reports the sha256 of each
file's text, made by tests/golden/playthrough.py (its source is passed in with the cases).

`make unit` builds dist/paiju-*.whl and installs Pyodide (web-client/node_modules) before
pytest runs. Missing node, Pyodide or wheel fail the test: they are never a reason to skip.
One node process plays every case: starting Pyodide takes seconds.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest

from paiju.api import list_games
from paiju.selfcheck import checked_random_game

ROOT = Path(__file__).resolve().parents[2]
HARNESS = ROOT / "tools" / "pyodide" / "run.mjs"
PYODIDE = ROOT / "web-client" / "node_modules" / "pyodide" / "pyodide.mjs"
ENGINE_SRC = ROOT / "shared-engine" / "src"
GOLDEN = ROOT / "tests" / "golden"
SEEDS = range(1, 5)

PYODIDE_SCRIPT = """\
import sys
import types
from paiju.selfcheck import checked_random_game

playthrough = types.ModuleType("playthrough")
sys.modules["playthrough"] = playthrough
exec(compile(ARG["playthrough"], "tests/golden/playthrough.py", "exec"), playthrough.__dict__)

RESULT = {
    "platform": sys.platform,
    "games": [checked_random_game(game, variant, seed, every=3) for game, variant, seed in ARG["cases"]],
    "golden": playthrough.digests(),
}
"""

VARIANTS = [(game["id"], variant["id"]) for game in list_games() for variant in game["variants"]]


def built_wheel() -> Path:
    wheels = sorted((ROOT / "dist").glob("paiju-*.whl"))
    assert len(wheels) == 1, (
        f"expected one dist/paiju-*.whl, found {[w.name for w in wheels]}: run `make wheel`"
    )
    wheel = wheels[0]
    with zipfile.ZipFile(wheel) as zf:
        built = {n: zf.read(n) for n in zf.namelist() if n.endswith(".py")}
    sources = {
        p.relative_to(ENGINE_SRC).as_posix(): p.read_bytes() for p in ENGINE_SRC.rglob("*.py")
    }
    stale = sorted(n for n in built.keys() | sources.keys() if built.get(n) != sources.get(n))
    assert not stale, f"{wheel.name} differs from shared-engine/src in {stale}: `make wheel`"
    return wheel


@pytest.fixture(scope="module")
def pyodide_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One node process for every case: the random games and the golden digests."""
    node = shutil.which("node")
    assert node, "node is not on PATH: Pyodide runs under node 20+"
    assert PYODIDE.exists(), f"{PYODIDE.relative_to(ROOT)} is missing: run `make`"
    wheel = built_wheel()
    script = tmp_path_factory.mktemp("pyodide") / "random_games.py"
    script.write_text(PYODIDE_SCRIPT)
    cases = [[game, variant, seed] for game, variant in VARIANTS for seed in SEEDS]
    playthrough = (GOLDEN / "playthrough.py").read_text(encoding="utf-8")
    arg = json.dumps({"cases": cases, "playthrough": playthrough})
    cmd = [node, str(HARNESS), "--wheel", str(wheel), "--script", str(script), "--arg", arg]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"Pyodide run failed (exit {proc.returncode}):\n{proc.stderr}"
    out = json.loads(proc.stdout)
    assert out["platform"] == "emscripten", out["platform"]
    games = {(g, v, s): game for (g, v, s), game in zip(cases, out["games"], strict=True)}
    return {"games": games, "golden": out["golden"]}


@pytest.fixture(scope="module")
def pyodide_games(pyodide_run: dict[str, Any]) -> dict[tuple[str, str, int], Any]:
    games: dict[tuple[str, str, int], Any] = pyodide_run["games"]
    return games


@pytest.mark.parametrize(("game", "variant"), VARIANTS)
def test_random_games_keep_invariants_and_match_cpython(
    pyodide_games: dict[tuple[str, str, int], Any], game: str, variant: str
) -> None:
    for seed in SEEDS:
        # Through JSON, as the Pyodide side was: tuples become lists, and so on.
        expected = json.loads(json.dumps(checked_random_game(game, variant, seed, every=3)))
        got = pyodide_games[(game, variant, seed)]
        assert got == expected, f"{game}/{variant} seed {seed}: Pyodide and CPython differ"


GOLDEN_FILES = sorted(p.name for p in GOLDEN.glob("*.jsonl"))


@pytest.mark.parametrize("name", GOLDEN_FILES)
def test_pyodide_produces_the_golden_playthroughs(pyodide_run: dict[str, Any], name: str) -> None:
    """Exactly the bytes of tests/golden/<name>; test_golden.py names the first difference."""
    recorded = hashlib.sha256((GOLDEN / name).read_bytes()).hexdigest()
    produced = pyodide_run["golden"].get(name)
    assert produced is not None, f"Pyodide produced no {name}"
    assert produced == recorded, f"{name}: Pyodide's playthrough differs from the golden file"


def test_pyodide_produces_no_other_golden_file(pyodide_run: dict[str, Any]) -> None:
    assert GOLDEN_FILES and sorted(pyodide_run["golden"]) == GOLDEN_FILES
