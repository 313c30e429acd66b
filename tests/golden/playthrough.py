"""The golden playthroughs: one seeded match of every game, variant and player count, played by the
deterministic bot, as three texts — the exported log, every viewer's view after every event, and
after every event the step as OpenSpiel's playthroughs record it: the seat to act, its legal
moves, and the hand's result (its game's record, ``paiju.results``) on the event that ends a hand.

Imported by tests/engine/test_golden.py and tests/golden/regen.py on CPython, and run from its
source text inside Pyodide by tests/engine/test_pyodide.py, so it uses only the standard library
and the public engine API, and is valid Python 3.11 to 3.14.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from paiju import api, bots
from paiju.log.file import dump_lines
from paiju.simulate import play_game

SEED = "golden"
TABLE_ID = "golden"
HANDS = 2  # matches of two hands, where the game has a ``hands`` option (Tiaoshu's is a cap)


def cases() -> list[tuple[str, str, int, str]]:
    """``(game, variant, players, name)`` for every playthrough; ``name`` is the file stem,
    ``<game>-<variant>`` with ``-<players>p`` when the variant allows several player counts."""
    found = []
    for game in api.list_games():
        for variant in game["variants"]:
            counts = list(variant["players"])
            for players in counts:
                name = f"{game['id']}-{variant['id']}"
                if len(counts) > 1:
                    name += f"-{players}p"
                found.append((game["id"], variant["id"], players, name))
    return found


def match_config(game: str, variant: str, players: int) -> api.Config:
    """The configuration of a golden match: the variant's rules, ``hands=2`` where there is one."""
    options: dict[str, Any] = {}
    catalogue = next(g for g in api.list_games() if g["id"] == game)
    entry = next(v for v in catalogue["variants"] if v["id"] == variant)
    if any(option["name"] == "hands" for option in entry["options"]):
        options["hands"] = HANDS
    return api.make_config(game, variant, players, options)


def bot(state: api.State, seat: int, moves: list[Any]) -> Any:
    return bots.choose(state, seat)


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def play(game: str, variant: str, players: int, seed: str = SEED) -> tuple[api.Config, list[Any]]:
    """The match's configuration and events."""
    config = match_config(game, variant, players)
    _, events = play_game(config, seed, bot)
    return config, events


def log_text(config: api.Config, events: list[Any], table_id: str = TABLE_ID) -> str:
    """The log as a file holds it (``paiju.log.file.write_log``): dump_lines, one per line."""
    return "\n".join(dump_lines(config, events, table_id=table_id)) + "\n"


def views_text(config: api.Config, events: list[Any]) -> str:
    """After every event ``i``, one line per viewer (each seat, then the spectator None)."""
    viewers: list[int | None] = [*range(config.players), None]
    state = api.initial_state(config)
    lines = []
    for i, event in enumerate(events):
        state = api.evolve(state, event)
        for seat in viewers:
            lines.append(canonical({"i": i, "seat": seat, "view": api.view(state, seat)}))
    return "\n".join(lines) + "\n"


def steps_text(config: api.Config, events: list[Any]) -> str:
    """After every event ``i``, one line: the seat to act (``to_move``, None while the table
    acts), every command it may send (``legal``, as JSON, in the engine's order) and, on the event
    that ends a hand, the hand's result as its game's record (``result``, else None)."""
    state = api.initial_state(config)
    lines = []
    for i, event in enumerate(events):
        state = api.evolve(state, event)
        seat = api.to_move(state)
        legal = api.legal_moves_json(state, seat) if seat is not None else []
        ended = api.hand_result(state) if event.TYPE == "hand_ended" else None
        result = ended.to_json() if ended is not None else None
        lines.append(canonical({"i": i, "to_move": seat, "legal": legal, "result": result}))
    return "\n".join(lines) + "\n"


def texts(game: str, variant: str, players: int) -> dict[str, str]:
    """``{file name: text}`` of one playthrough."""
    config, events = play(game, variant, players)
    name = next(c[3] for c in cases() if c[:3] == (game, variant, players))
    return {
        f"{name}.log.jsonl": log_text(config, events),
        f"{name}.views.jsonl": views_text(config, events),
        f"{name}.steps.jsonl": steps_text(config, events),
    }


def all_texts() -> dict[str, str]:
    """Every golden file: ``{file name: text}``."""
    found: dict[str, str] = {}
    for game, variant, players, _ in cases():
        found.update(texts(game, variant, players))
    return found


def digests() -> dict[str, str]:
    """``{file name: sha256 hex of its UTF-8 bytes}`` of every golden file (what Pyodide reports)."""
    return {
        name: hashlib.sha256(text.encode("utf-8")).hexdigest() for name, text in all_texts().items()
    }
