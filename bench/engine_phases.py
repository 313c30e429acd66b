"""Where a whole random game's time goes, on CPython and in Pyodide: the same games in both, each
phase of the game loop timed on its own, and each phase's Pyodide slowdown.

    python bench/engine_phases.py guanpai --variant boke --games 300
    python bench/engine_phases.py dabang --games 5

The loop is ``simulate.play_game``'s, written out so that each call can be timed with
``perf_counter``: the table's own commands (commit, deal, reveal), ``to_move``, ``legal_moves``,
the random choice, ``decide`` and ``evolve`` (every event of the command). Three warm-up games,
then the games from seed 2 on, played through three times: the quickest pass is kept. The same
file runs in Pyodide through tools/pyodide/run.mjs (the global ARG holds the arguments), with
the wheel that ``make wheel`` built. docs/performance.md ("Engine in Pyodide") holds its tables.
Only the standard library and paiju, as in bench/engine_bench.py.
"""

from __future__ import annotations

import random
import time
from typing import Any

from paiju.registry import get_game
from paiju.simulate import random_chooser, table_command

PHASES = ("table_command", "to_move", "legal_moves", "choose", "decide", "evolve")
PASSES = 3


def timed_games(game_id: str, variant: str | None, seeds: range) -> dict[str, float]:
    """Seconds spent in each phase over the games of ``seeds``, and the games' whole time."""
    clock = time.perf_counter
    game = get_game(game_id)
    spent = dict.fromkeys(PHASES, 0.0)
    start = clock()
    for seed in seeds:
        choose = random_chooser(random.Random(seed))
        state = game.initial_state(game.config(variant, None))
        base = f"random-{seed}"
        while state.phase != "over":
            a = clock()
            command = table_command(state, base)
            b = clock()
            spent["table_command"] += b - a
            if command is None:
                seat = game.to_move(state)
                c = clock()
                moves = game.legal_moves(state, seat)
                d = clock()
                command = choose(state, seat, moves)
                e = clock()
                spent["to_move"] += c - b
                spent["legal_moves"] += d - c
                spent["choose"] += e - d
            a = clock()
            events = game.decide(state, command)
            b = clock()
            for event in events:
                state = game.evolve(state, event)
            spent["decide"] += b - a
            spent["evolve"] += clock() - b
    spent["whole"] = clock() - start
    return spent


def measure(game: str, variant: str | None, games: int) -> dict[str, float]:
    """The quickest of ``PASSES`` passes over the same ``games`` games, after three warm-up games."""
    timed_games(game, variant, range(-2, 1))
    passes = [timed_games(game, variant, range(2, 2 + games)) for _ in range(PASSES)]
    return min(passes, key=lambda spent: spent["whole"])


def main() -> None:
    import argparse
    from pathlib import Path

    from engine_sections import run_in_pyodide  # the bench's own node harness and wheel

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--variant", default=None)
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    arg = {"game": args.game, "variant": args.variant, "games": args.games}
    cpython = measure(**arg)
    pyodide = run_in_pyodide(Path(__file__), arg, timeout=600)
    print(f"{'phase':14} {'CPython':>10} {'Pyodide':>10} {'slowdown':>9} {'of Pyodide':>11}")
    for phase in (*PHASES, "whole"):
        c, p = cpython[phase], pyodide[phase]
        print(
            f"{phase:14} {c * 1e3:8.1f}ms {p * 1e3:8.1f}ms {p / c:8.2f}x "
            f"{100 * p / pyodide['whole']:10.1f}%"
        )


_ARG: Any = globals().get("ARG")
if _ARG is not None:  # run in Pyodide by tools/pyodide/run.mjs
    RESULT = measure(**dict(_ARG))
elif __name__ == "__main__":
    main()
