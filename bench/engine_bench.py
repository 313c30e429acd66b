"""Engine measurements shared by CPython and Pyodide.

bench/run.py imports this module and calls measure() in-process for the CPython numbers, and
runs this same file inside Pyodide with tools/pyodide/run.mjs (which sets the global ARG to
measure()'s keyword arguments) for the Pyodide numbers. Only the standard library and paiju.
"""

from __future__ import annotations

import dataclasses
import platform
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from paiju import api
from paiju.cards import is_joker
from paiju.simulate import random_play, table_command, timed_random_game

Clock = Callable[[], float]


def clock_overhead(clock: Clock, calls: int = 20_000) -> float:
    """Median cost of one clock() call in seconds: part of every timed call below."""
    diffs = []
    for _ in range(calls):
        start = clock()
        diffs.append(clock() - start)
    return statistics.median(diffs)


def games_per_second(
    game: str, variant: str | None, budget: float, batches: int, seed: int, clock: Clock
) -> dict[str, Any]:
    """Whole random games per second (the engine alone: deal, legal_moves, decide, evolve): median over `batches` batches sharing `budget` seconds."""
    random_play(game, variant, seed=seed)  # warm-up: imports, caches, JIT tiers in Pyodide
    seed += 1
    rates = []
    games = 0
    for _ in range(batches):
        count = 0
        start = now = clock()
        deadline = start + budget / batches
        while now < deadline:
            random_play(game, variant, seed=seed)
            seed += 1
            count += 1
            now = clock()
        rates.append(count / (now - start))
        games += count
    return {"games_per_s": statistics.median(rates), "batch_rates": rates, "rate_games": games}


SAME_GAMES_ROUNDS = 3


def same_games(
    game: str, variant: str | None, games: int, seed: int, clock: Clock
) -> dict[str, Any]:
    """The same ``games`` random games (seeds ``seed`` on), played through ``SAME_GAMES_ROUNDS``
    times: the quickest round. Both runtimes play these very games, so their times compare the
    engines and not two draws of games (a 打棒 match runs from a few hundred decisions to
    thousands); the quickest round is the one the machine's other work disturbed least."""
    random_play(game, variant, seed=seed - 1)  # warm-up: imports, caches, JIT tiers in Pyodide
    best = float("inf")
    for _ in range(SAME_GAMES_ROUNDS):
        start = clock()
        for n in range(seed, seed + games):
            random_play(game, variant, seed=n)
        best = min(best, clock() - start)
    return {"same_games": games, "same_seed": seed, "same_games_s": best}


def decision_times(
    game: str, variant: str | None, budget: float, seed: int, clock: Clock
) -> dict[str, Any]:
    """Median legal_moves time per decision and decide time per play, pooled over the games
    played within `budget` seconds."""
    timed_random_game(game, variant, seed, clock)  # warm-up
    seed += 1
    legal: list[float] = []
    decide: list[float] = []
    games = 0
    start = clock()
    while clock() - start < budget or not games:
        legal_times, decide_times = timed_random_game(game, variant, seed, clock)
        legal.extend(legal_times)
        decide.extend(decide_times)
        seed += 1
        games += 1
    return {
        "legal_moves_median_s": statistics.median(legal) if legal else None,
        "legal_moves_p99_s": p99(legal),
        "decide_median_s": statistics.median(decide) if decide else None,
        "legal_moves_calls": len(legal),
        "decide_calls": len(decide),
        "games": games,
    }


def p99(values: list[float]) -> float | None:
    return sorted(values)[int(0.99 * (len(values) - 1))] if values else None


def first_play_state(game: str, variant: str | None, seed: int) -> Any:
    """A random hand at its first play decision: the deal done, any speaking round spoken with
    each seat's first (cautious) word."""
    state = api.initial_state(api.make_config(game, variant))
    while True:
        command = table_command(state, f"lead-{seed}")
        if command is None:
            if state.phase == "play":
                return state
            seat = api.to_move(state)
            command = api.legal_moves(state, seat)[0]
        state, _ = api.apply(state, command)


def with_every_joker(state: Any) -> Any:
    """The same state with every joker of the deal in the hand of the seat to move, swapped one
    for one with its non-jokers (hand sizes unchanged): a wildcard game's hardest decision."""
    seat = api.to_move(state)
    hands = [list(hand) for hand in state.hands]
    mine = hands[seat]
    for other, hand in enumerate(hands):
        if other == seat:
            continue
        for i, card in enumerate(hand):
            if is_joker(card):
                j = next(j for j, c in enumerate(mine) if not is_joker(c))
                hand[i], mine[j] = mine[j], card
    return dataclasses.replace(state, hands=tuple(tuple(sorted(h)) for h in hands))


def heavy_leads(
    game: str, variant: str | None, deals: int, seed: int, clock: Clock
) -> dict[str, Any]:
    """``legal_moves`` at the first lead of ``deals`` random hands, every joker of the deal in the
    leader's hand: the median and p99 of one call each."""
    times = []
    jokers = []
    for n in range(deals):
        state = with_every_joker(first_play_state(game, variant, seed + n))
        seat = api.to_move(state)
        jokers.append(sum(map(is_joker, state.hands[seat])))
        start = clock()
        api.legal_moves(state, seat)
        times.append(clock() - start)
    return {
        "median_s": statistics.median(times),
        "p99_s": p99(times),
        "deals": deals,
        "hand_size": len(state.hands[seat]),
        "jokers": min(jokers),
    }


def measure_leads(
    game: str, variants: list[str | None], deals: int, seed: int = 7
) -> dict[str, Any]:
    clock = time.perf_counter
    heavy_leads(game, variants[0], 2, seed, clock)  # warm-up
    return {
        "python": platform.python_version(),
        "variants": {str(v): heavy_leads(game, v, deals, seed, clock) for v in variants},
    }


def measure(
    game: str,
    variants: list[str | None],
    budget: float,
    batches: int,
    seed: int = 1,
    same: dict[str, int] | None = None,
) -> dict[str, Any]:
    """Every measurement for every variant; `budget` seconds for each of the two kinds. ``same``
    (variant → games): the games the other runtime timed as a whole, to time here too; without
    it (the first runtime), as many as a quarter of the budget played at the measured rate."""
    clock = time.perf_counter
    out: dict[str, Any] = {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": sys.platform,
        "clock_overhead_s": clock_overhead(clock),
        "variants": {},
    }
    for variant in variants:
        rate = games_per_second(game, variant, budget, batches, seed, clock)
        games = (same or {}).get(str(variant)) or max(1, round(rate["games_per_s"] * budget / 4))
        out["variants"][str(variant)] = {
            **rate,
            **same_games(game, variant, games, seed + 2_000_000, clock),
            **decision_times(game, variant, budget, seed + 1_000_000, clock),
        }
    return out


def time_same(game: str, same: dict[str, int], seed: int = 1) -> dict[str, float]:
    """``same_games`` again (variant → its games): each variant's quickest round, in seconds. The
    bench alternates the runtimes, CPython, Pyodide, CPython, Pyodide, so that a spell of other
    work on the machine falls on both; each keeps its quickest."""
    clock = time.perf_counter
    return {
        variant: same_games(
            game, None if variant == "None" else variant, games, seed + 2_000_000, clock
        )["same_games_s"]
        for variant, games in same.items()
    }


_ARG = globals().get("ARG")
if _ARG is not None:  # run as a script by tools/pyodide/run.mjs
    _ARG = dict(_ARG)
    if "leads" in _ARG:
        RESULT = measure_leads(**_ARG["leads"])
    elif "same_again" in _ARG:
        RESULT = time_same(**_ARG["same_again"])
    else:
        RESULT = measure(**_ARG)
