"""Reference point: RLCard's Dou Dizhu engine playing uniformly random legal moves.

Run by bench/run.py with the .venv-bench interpreter (RLCard lives only there). It drives the
game object alone -- no env, agent or state encoding: init_game(), then step() with a uniformly
random action from the game's own legal-action list (state["actions"]) until is_over().
Prints one JSON object on stdout.

    .venv-bench/bin/python bench/rlcard_doudizhu.py --budget 3 --batches 6
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time
from importlib.metadata import version

import numpy as np
from rlcard.games.doudizhu.game import DoudizhuGame


def play(game: DoudizhuGame, rng: random.Random) -> int:
    """One whole game; returns the number of decisions (steps) taken."""
    state, _ = game.init_game()
    steps = 0
    while not game.is_over():
        state, _ = game.step(rng.choice(state["actions"]))
        steps += 1
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--budget", type=float, default=3.0, help="seconds in all")
    parser.add_argument("--batches", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    game = DoudizhuGame()
    game.np_random = np.random.RandomState(args.seed)  # the deal (and RLCard's own choices)
    rng = random.Random(args.seed)  # our move choices
    play(game, rng)  # warm-up

    clock = time.perf_counter
    rates = []
    games = steps = 0
    for _ in range(args.batches):
        count = 0
        start = now = clock()
        deadline = start + args.budget / args.batches
        while now < deadline:
            steps += play(game, rng)
            count += 1
            now = clock()
        rates.append(count / (now - start))
        games += count
    result = {
        "games_per_s": statistics.median(rates),
        "batch_rates": rates,
        "games": games,
        "decisions_per_game": steps / games,
        "rlcard": version("rlcard"),
        "numpy": np.__version__,
        "python": platform.python_version(),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
