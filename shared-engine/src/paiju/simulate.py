"""Whole games without a server: random games for property tests and benchmarks, and the table's
own steps (commit, deal, reveal) that a server, a test or the terminal game drives.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import random
from collections.abc import Callable
from typing import Any

from paiju import bots
from paiju.fairness import commitment_of
from paiju.protocol import (
    Command,
    CommitDeal,
    Deal,
    Event,
    HandEnded,
    Play,
    RevealSeed,
    encode,
)
from paiju.registry import get_game
from paiju.table import Config, TableGame, TableState

Chooser = Callable[[TableState, int, list[Command]], Command]


def hand_seed(base: str, hand_no: int) -> str:
    """The server seed of one hand of a match: ``HMAC-SHA256(base, "paiju-hand/<n>")`` in hex,
    derived from one secret per table. Revealing one hand's seed reveals nothing of the secret,
    so nothing of any other hand's deal."""
    return hmac.new(base.encode(), f"paiju-hand/{hand_no}".encode(), hashlib.sha256).hexdigest()


def table_command(state: TableState, base_seed: str) -> Command | None:
    """The table's own next command (commit, deal or reveal), or None when a seat is to act or the
    match is over. ``base_seed`` is the server's secret for this table."""
    if state.phase == "commit":
        return CommitDeal(commitment=commitment_of(hand_seed(base_seed, state.hand_no + 1)))
    if state.phase == "seeding":
        return Deal(seed=hand_seed(base_seed, state.hand_no))
    if state.phase == "reveal":
        return RevealSeed(seed=hand_seed(base_seed, state.hand_no))
    return None


def play_game(
    config: Config[Any], base_seed: str, choose: Chooser, max_steps: int = 100_000
) -> tuple[TableState, list[Event]]:
    """Play a whole match: the table's steps, and ``choose`` for each seat's decisions."""
    game: TableGame[Any] = get_game(config.game)
    state = game.initial_state(config)
    events: list[Event] = []
    for _ in range(max_steps):
        if state.phase == "over":
            return state, events
        command = table_command(state, base_seed)
        if command is None:
            seat = game.to_move(state)
            assert seat is not None, f"nobody to move in phase {state.phase}"
            command = choose(state, seat, game.legal_moves(state, seat))
        state, new = game.apply(state, command)
        events.extend(new)
    raise RuntimeError("game did not end")


CHECK_STEPS = 5000  # commands of a check hand at most


@functools.lru_cache(maxsize=256)
def hand_problem(config: Config[Any]) -> str | None:
    """Why one hand of ``config``, played by bots from a fixed seed, does not end cleanly (None:
    it does). ``make_config`` checks each option alone (its type, its choices, its bounds); this
    checks them together, as only playing can (a game's options that deal or play wrongly side by
    side). The answer depends on the settings alone: it is kept for the 256 asked most recently.
    Up to ``CHECK_STEPS`` commands: a server runs it off its event loop."""
    game: TableGame[Any] = get_game(config.game)
    try:
        state = game.initial_state(config)
        for _ in range(CHECK_STEPS):
            command = table_command(state, "settings-check")
            if command is None:
                seat = game.to_move(state)
                if seat is None:
                    raise ValueError(f"nobody to move in phase {state.phase}")
                command = bots.choose(state, seat)
            state, events = game.apply(state, command)
            if any(isinstance(e, HandEnded) for e in events):
                return None
        raise ValueError("a hand did not end")
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}" if not str(exc) else str(exc)


def log_digest(config: Config[Any], events: list[Event]) -> str:
    """SHA-256 of the canonical JSON lines of a log (header and events)."""
    h = hashlib.sha256(json.dumps(config.to_dict(), sort_keys=True).encode())
    for event in events:
        h.update(json.dumps(encode(event), sort_keys=True, separators=(",", ":")).encode())
    return h.hexdigest()


def random_chooser(rng: random.Random) -> Chooser:
    return lambda state, seat, moves: rng.choice(moves)


def random_play(
    game: str, variant: str | None = None, seed: int = 0, players: int | None = None
) -> tuple[Config[Any], TableState, list[Event]]:
    """One whole game with uniformly random legal moves: the engine alone, nothing serialised."""
    config = get_game(game).config(variant, players)
    state, events = play_game(config, f"random-{seed}", random_chooser(random.Random(seed)))
    return config, state, events


def random_game(
    game: str, variant: str | None = None, seed: int = 0, players: int | None = None
) -> dict[str, Any]:
    """One whole game with uniformly random legal moves; the same dict on every Python."""
    config, state, events = random_play(game, variant, seed, players)
    last = state.last_hand
    assert last is not None
    return {
        "game": config.game,
        "variant": config.variant,
        "seed": seed,
        "result": encode(last),
        "totals": list(state.totals),
        "events": len(events),
        "digest": log_digest(config, events),
    }


def timed_random_game(
    game: str, variant: str | None, seed: int, clock: Callable[[], float]
) -> tuple[list[float], list[float]]:
    """Durations of every ``legal_moves`` call and of every ``decide`` of a play in one random game
    (each call on a fresh state: nothing is served from a memo)."""
    g: TableGame[Any] = get_game(game)
    rng = random.Random(seed)
    legal: list[float] = []
    decide: list[float] = []
    base_seed = f"random-{seed}"
    state = g.initial_state(g.config(variant))
    while state.phase != "over":
        command = table_command(state, base_seed)
        if command is None:
            seat = g.to_move(state)
            assert seat is not None
            t0 = clock()
            moves = g.legal_moves(state, seat)
            legal.append(clock() - t0)
            command = rng.choice(moves)
            if isinstance(command, Play):
                t0 = clock()
                g.decide(state, command)
                decide.append(clock() - t0)
        state, _ = g.apply(state, command)
    return legal, decide
