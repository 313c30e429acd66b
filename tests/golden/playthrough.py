"""The golden playthroughs: one seeded match of every game, variant and player count, played by the
deterministic bot, as three texts — the exported log, every viewer's view after every event, and
after every event the step as OpenSpiel's playthroughs record it: the seat to act, its legal
moves, and the hand's result (its game's record, ``paiju.results``) on the event that ends a hand.

The decision playthroughs (``DECISIONS``, files ``<game>-<variant>-<what>.*``) pin the big
decisions the bot never makes (issue 30): a match of a game's default variant played by the
eager policy (``eager``), which in each hand makes the moves its ``Pinned`` entry prefers when
they are legal (包; 包 then 反包; everyone 不包 and the dealer calls a card; 明独; 亮 one level card,
an opponent's overcall with two, a kitty buried with points) and else plays as the bot does, from
a seed chosen (tests/golden/seek.py) so that each decision happens and is scored. The same entry
says which events must be in the hand's log and what its result must carry (``missed``): 板子炮
``bao_*``, ``fanbao_*`` and two against two; 打拱 ``mingdu_*`` at 吼's 番 ×4; 打棒 the kitty's line
(保底 or 抠底) with the points buried. 大北's 独 (暗打, ♠3 and ♠A in one hand) is dealt, not
declared, and 条数 has no 独: their cases play as the bot does from a seed whose hand scores the
solo's lines (``solo_*``) and a multiplied count of cards left (``cards_left_x*``).

Imported by tests/engine/test_golden.py and tests/golden/regen.py on CPython, and run from its
source text inside Pyodide by tests/engine/test_pyodide.py, so it uses only the standard library
and the public engine API, and is valid Python 3.11 to 3.14.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any

from paiju import api, bots
from paiju.log.file import dump_lines
from paiju.protocol import Command, encode
from paiju.simulate import Chooser, play_game

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


def match_config(game: str, variant: str, players: int) -> api.Config[Any]:
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


def play(
    game: str, variant: str, players: int, seed: str = SEED
) -> tuple[api.Config[Any], list[Any]]:
    """The match's configuration and events."""
    config = match_config(game, variant, players)
    _, events = play_game(config, seed, bot)
    return config, events


def log_text(config: api.Config[Any], events: list[Any], table_id: str = TABLE_ID) -> str:
    """The log as a file holds it (``paiju.log.file.write_log``): dump_lines, one per line."""
    return "\n".join(dump_lines(config, events, table_id=table_id)) + "\n"


def views_text(config: api.Config[Any], events: list[Any]) -> str:
    """After every event ``i``, one line per viewer (each seat, then the spectator None)."""
    viewers: list[int | None] = [*range(config.players), None]
    state = api.initial_state(config)
    lines = []
    for i, event in enumerate(events):
        state = api.evolve(state, event)
        for seat in viewers:
            lines.append(canonical({"i": i, "seat": seat, "view": api.view(state, seat)}))
    return "\n".join(lines) + "\n"


def steps_text(config: api.Config[Any], events: list[Any]) -> str:
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
    return files(name, config, events)


def files(name: str, config: api.Config[Any], events: list[Any]) -> dict[str, str]:
    """``{file name: text}``: the three files of the playthrough ``name``."""
    return {
        f"{name}.log.jsonl": log_text(config, events),
        f"{name}.views.jsonl": views_text(config, events),
        f"{name}.steps.jsonl": steps_text(config, events),
    }


# --- the decision playthroughs ------------------------------------------------------------------


def matches(pattern: Any, value: Any) -> bool:
    """Whether the JSON ``value`` fits ``pattern``: each key of a dict fits (other keys may be
    there), each item of a list fits some item of the value's list, a set is any one of its items,
    a string is a glob (``fnmatchcase``: ``bao_*``, ``[1234]x?``), anything else is equal.

    >>> matches({"reason": "bao_*", "cards": ["K?"]}, {"reason": "bao_win", "cards": ["3S", "KH"]})
    True
    >>> matches({"reason": {"koudi", "baodi"}}, {"reason": "koudi_x4"})
    False
    """
    if isinstance(pattern, dict):
        return isinstance(value, dict) and all(
            key in value and matches(item, value[key]) for key, item in pattern.items()
        )
    if isinstance(pattern, list):
        return isinstance(value, list) and all(any(matches(p, v) for v in value) for p in pattern)
    if isinstance(pattern, set | frozenset):
        return any(matches(p, value) for p in pattern)
    if isinstance(pattern, str):
        return isinstance(value, str) and fnmatchcase(value, pattern)
    return bool(type(pattern) is type(value) and pattern == value)


@dataclass(frozen=True)
class Pinned:
    """One hand of a decision playthrough. ``prefer``: the moves the eager policy makes when one
    is legal, best first, as patterns (``matches``) of a move's JSON with the state's ``phase``
    beside its fields; ``events``: what they must leave in the hand's log, in this order;
    ``result``: what the hand's result (its game's record) must carry."""

    prefer: tuple[Any, ...] = ()
    events: tuple[Any, ...] = ()
    result: Any = field(default_factory=dict)


@dataclass(frozen=True)
class Decisions:
    """A match played by the eager policy from ``seed``, one ``Pinned`` a hand."""

    name: str
    game: str
    variant: str
    seed: str
    hands: tuple[Pinned, ...]
    players: int = 4


def eager(hands: Sequence[Pinned]) -> Chooser:
    """The policy of a decision playthrough: in hand ``n``, the first of ``hands[n - 1].prefer``
    that a legal move fits (the first such move in the engine's order), else the bot's move."""

    def choose(state: api.State, seat: int, moves: list[Command]) -> Command:
        prefer = hands[state.hand_no - 1].prefer if 0 < state.hand_no <= len(hands) else ()
        offered = (
            [(move, encode(move) | {"phase": state.phase}) for move in moves] if prefer else []
        )
        for pattern in prefer:
            for move, shown in offered:
                if matches(pattern, shown):
                    return move
        return bots.choose(state, seat)

    return choose


def decision_texts(case: Decisions) -> dict[str, str]:
    """``{file name: text}`` of one decision playthrough."""
    config = api.make_config(case.game, case.variant, case.players, {"hands": len(case.hands)})
    _, events = play_game(config, case.seed, eager(case.hands))
    return files(case.name, config, events)


def missed(case: Decisions, log: str, steps: str) -> list[str]:
    """What a decision playthrough's files (``log``, ``steps``: their texts) lack of its pins:
    for each hand, an event of ``events`` not found in order in the hand's log, or a result that
    does not fit ``result``. Empty: every decision happened and was scored."""
    hands: list[list[Any]] = [[]]
    for line in log.splitlines()[1:]:
        event = json.loads(line)
        hands[-1].append(event)
        if event["type"] == "hand_ended":
            hands.append([])
    results = [json.loads(line)["result"] for line in steps.splitlines()]
    scored = {r["hand_no"]: r for r in results if r is not None}
    found = []
    for n, pinned in enumerate(case.hands, start=1):
        logged = iter(hands[n - 1] if n <= len(hands) else [])
        for pattern in pinned.events:
            if not any(matches(pattern, event) for event in logged):
                found.append(f"{case.name} hand {n}: no event {pattern} (in order)")
                break
        if not matches(pinned.result, scored.get(n)):
            found.append(f"{case.name} hand {n}: the result {scored.get(n)} is not {pinned.result}")
    return found


def all_texts() -> dict[str, str]:
    """Every golden file: ``{file name: text}``."""
    found: dict[str, str] = {}
    for game, variant, players, _ in cases():
        found.update(texts(game, variant, players))
    for case in DECISIONS:
        found.update(decision_texts(case))
    return found


def digests() -> dict[str, str]:
    """``{file name: sha256 hex of its UTF-8 bytes}`` of every golden file (what Pyodide reports)."""
    return {
        name: hashlib.sha256(text.encode("utf-8")).hexdigest() for name, text in all_texts().items()
    }


# The decision playthroughs: for each game, a match in which its big decisions happen and are
# scored; the seeds were found by tests/golden/seek.py.
DECISIONS: tuple[Decisions, ...] = (
    Decisions(
        "banzipao-guizhou-bids",
        "banzipao",
        "guizhou",
        "decisions-0",
        (
            Pinned(
                prefer=({"bid": "bao"},),
                events=({"type": "bid_made", "bid": "bao"},),
                result={"lines": [{"reason": "bao_*"}]},
            ),
            Pinned(
                prefer=({"bid": "bao"}, {"bid": "fanbao"}),
                events=({"type": "bid_made", "bid": "bao"}, {"type": "bid_made", "bid": "fanbao"}),
                result={"lines": [{"reason": "fanbao_*"}]},
            ),
            Pinned(
                prefer=({"bid": "pass"}, {"type": "call_card"}),
                events=({"type": "card_called"},),
                result={"lines": [{"reason": {"shuangfei", "more_cards"}}]},
            ),
        ),
    ),
    Decisions(
        "dagong-tongshan-mingdu",
        "dagong",
        "tongshan",
        "decisions-0",
        (
            Pinned(
                prefer=({"bid": "mingdu"},),
                events=({"type": "bid_made", "bid": "mingdu"},),
                result={"lines": [{"reason": "mingdu_*"}], "fan": {"value": 4}},  # 吼 ×4
            ),
        ),
    ),
    Decisions(
        "dabang-huludao-overcall",
        "dabang",
        "huludao",
        "decisions-0",
        (
            Pinned(),
            Pinned(
                prefer=(
                    {"bid": "1x?"},
                    {"bid": "2x?"},
                    {"phase": "bury", "cards": ["[5TK]?"]},
                ),
                events=(  # seat 1 shows one level card, seat 2 (an opponent) overcalls
                    {"type": "bid_made", "seat": 1, "bid": "1x?"},
                    {"type": "bid_made", "seat": 2, "bid": "2x?"},
                    {"type": "buried", "cards": ["[5TK]?"]},
                ),
                result={"kitty": {"reason": {"koudi", "baodi"}}},
            ),
        ),
    ),
    Decisions(
        "dabei-beihai-solo",
        "dabei",
        "beihai",
        "decisions-0",
        (Pinned(result={"lines": [{"reason": "solo_*"}]}),),
    ),
    Decisions(
        "tiaoshu-beihai-multiplied",
        "tiaoshu",
        "beihai",
        "decisions-2",
        (Pinned(result={"lines": [{"reason": "cards_left_x*"}]}),),
    ),
)
