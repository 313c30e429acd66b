"""The built wheel plays the same random games in Pyodide (under node) as the engine on CPython,
for every game and variant, with every invariant of paiju.selfcheck checked inside Pyodide.

`make unit` builds dist/paiju-*.whl and installs Pyodide (web-client/node_modules) before
pytest runs. Missing node, Pyodide or wheel fail the test: they are never a reason to skip.
One node process plays every case: starting Pyodide takes seconds.
"""

from __future__ import annotations

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
SEEDS = range(1, 5)

PYODIDE_SCRIPT = """\
import sys
from paiju.selfcheck import checked_random_game

RESULT = {
    "platform": sys.platform,
    "games": [checked_random_game(game, variant, seed, every=3) for game, variant, seed in ARG["cases"]],
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
def pyodide_games(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str, int], Any]:
    node = shutil.which("node")
    assert node, "node is not on PATH: Pyodide runs under node 20+"
    assert PYODIDE.exists(), f"{PYODIDE.relative_to(ROOT)} is missing: run `make`"
    wheel = built_wheel()
    script = tmp_path_factory.mktemp("pyodide") / "random_games.py"
    script.write_text(PYODIDE_SCRIPT)
    cases = [[game, variant, seed] for game, variant in VARIANTS for seed in SEEDS]
    arg = json.dumps({"cases": cases})
    cmd = [node, str(HARNESS), "--wheel", str(wheel), "--script", str(script), "--arg", arg]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"Pyodide run failed (exit {proc.returncode}):\n{proc.stderr}"
    out = json.loads(proc.stdout)
    assert out["platform"] == "emscripten", out["platform"]
    return {(g, v, s): game for (g, v, s), game in zip(cases, out["games"], strict=True)}


@pytest.mark.parametrize(("game", "variant"), VARIANTS)
def test_random_games_keep_invariants_and_match_cpython(
    pyodide_games: dict[tuple[str, str, int], Any], game: str, variant: str
) -> None:
    for seed in SEEDS:
        # Through JSON, as the Pyodide side was: tuples become lists, and so on.
        expected = json.loads(json.dumps(checked_random_game(game, variant, seed, every=3)))
        got = pyodide_games[(game, variant, seed)]
        assert got == expected, f"{game}/{variant} seed {seed}: Pyodide and CPython differ"
