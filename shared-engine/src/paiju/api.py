"""The public engine API: what the browser (in Pyodide), the services and the tools call.

Every function takes and returns either engine values (``Config``, states, ``Command``/``Event``
dataclasses) or their JSON forms, and says which. docs/engine.md documents each with examples.

Cards are named for people by ``card_name`` / ``card_names`` (from ``paiju.cards``): ``♠A``,
``♥10``, ``大王`` in Chinese, ``A♠``, ``10♥``, ``Big Joker`` in English.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

from paiju.cards import Hand, card_name, card_names, parse_cards
from paiju.climbing import ClimbingGame, Combo, said
from paiju.errors import RuleError
from paiju.levels import DEFAULT_LEVEL, LEVELS
from paiju.protocol import (
    AutoPlay,
    Command,
    Continue,
    Event,
    HandEnded,
    SetAuto,
    Talk,
    decode,
    encode,
    encode_value,
)
from paiju.registry import GAMES, get_game
from paiju.results import HandResult, declaration
from paiju.table import Config, TableState

State = TableState


def list_games() -> list[dict[str, Any]]:
    """The catalogue: every game with its names, region, description and variants, each variant
    with the ``options`` a table may choose (``TableGame.option_catalogue``), and the game's
    ``words`` (``paiju.words.Words.to_json``: what its codes and view keys are called), and its
    turn clock's default seconds per kind of decision (``clock``: ``{"play": 30, ...}``), and what
    its hands end with (``result``: ``{"kind": "payments", "zero_sum": true, "scored": true}``,
    ``paiju.results.declaration``), and the levels its bots play at (``levels``, the default
    first: ``paiju.levels``)."""
    games = []
    for game in GAMES.values():
        info = dataclasses.asdict(game.info)
        info["variants"] = [
            v | {"options": game.option_catalogue(v["id"])} for v in info["variants"]
        ]
        info["words"] = game.words.to_json()
        info["clock"] = dict(game.clock_defaults)
        info["result"] = declaration(game.result_type)
        info["levels"] = [LEVELS[DEFAULT_LEVEL].to_json()] + [
            level.to_json() for level in LEVELS.values() if level.id != DEFAULT_LEVEL
        ]
        games.append(info)
    return games


def make_config(
    game: str,
    variant: str | None = None,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
) -> Config[Any]:
    """A table configuration; ``options`` overrides the variant's defaults.

    Raises:
        ValueError: unknown game, variant or option, or a player count the variant does not allow.
    """
    return get_game(game).config(variant, players, **dict(options or {}))


def config_from_dict(data: Mapping[str, Any]) -> Config[Any]:
    """The inverse of ``Config.to_dict`` (a log header's config). A config stored before an
    option's default changed does not name it: it takes the reading it was played under
    (``options_before``), so that an old log replays to the same result."""
    before = get_game(data["game"]).options_before
    options = {**before, **(data.get("options") or {})}
    return make_config(data["game"], data["variant"], data["players"], options)


def initial_state(config: Config[Any]) -> State:
    state: State = get_game(config.game).initial_state(config)
    return state


def _command(command: Command | Mapping[str, Any]) -> Command:
    message = command if isinstance(command, Command) else decode(dict(command))
    if not isinstance(message, Command):
        raise RuleError("unknown_command", command=message.TYPE)
    return message


def decide(state: State, command: Command | Mapping[str, Any]) -> list[Event]:
    """The events a command (or its JSON form) causes.

    Raises:
        RuleError: the command is malformed or against the rules; nothing changes.
    """
    return get_game(state.config.game).decide(state, _command(command))


def decide_own(state: State, command: Command | Mapping[str, Any]) -> list[Event]:
    """The events of a seat's own command (what a player sends): ``decide``, preceded, when the
    seat is in 托管 and acts (anything but a 托管 switch, 继续 or table talk), by 托管 off
    (``auto_set``, reason ``acted``) in the same batch: acting takes the seat back from the server.

    Raises:
        RuleError: the command is malformed or against the rules; nothing changes.
    """
    message = _command(command)
    seat = getattr(message, "seat", None)
    acting = not isinstance(message, SetAuto | AutoPlay | Continue | Talk)
    if not (acting and isinstance(seat, int) and seat in state.auto):
        return decide(state, message)
    state, events = apply(state, SetAuto(seat=seat, on=False, reason="acted"))
    return events + decide(state, message)


def evolve(state: State, event: Event | Mapping[str, Any]) -> State:
    """The state after an event (or its JSON form)."""
    message = event if isinstance(event, Event) else decode(dict(event))
    if not isinstance(message, Event):
        raise RuleError("unknown_command", command=message.TYPE)
    new: State = get_game(state.config.game).evolve(state, message)
    return new


def apply(state: State, command: Command | Mapping[str, Any]) -> tuple[State, list[Event]]:
    """``decide`` then ``evolve``: the new state and the events."""
    return get_game(state.config.game).apply(state, _command(command))


def replay(config: Config[Any], events: Iterable[Event]) -> State:
    """Rebuild a state from its events: ``reduce(evolve, events, initial_state(config))``."""
    game = get_game(config.game)
    state = game.initial_state(config)
    for event in events:
        state = game.evolve(state, event)
    return state  # type: ignore[no-any-return]


def view(state: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) may see, as JSON."""
    return get_game(state.config.game).view(state, seat)


def legal_moves(state: State, seat: int) -> list[Command]:
    """What ``seat`` may do now (empty when it is not its turn)."""
    return get_game(state.config.game).legal_moves(state, seat)


def legal_moves_json(state: State, seat: int) -> list[dict[str, Any]]:
    return [encode(m) for m in legal_moves(state, seat)]


def to_move(state: State) -> int | None:
    """The seat whose turn it is (None while the table waits for the deal or the reveal)."""
    return get_game(state.config.game).to_move(state)


def passing(state: State) -> bool:
    """Whether the table leaves this state at once by its own step (``TableGame.passing``)."""
    return get_game(state.config.game).passing(state)


def clock_kind(state: State) -> str | None:
    """The kind of decision the table waits for (``play``, ``bid``, ``bury``, ``continue``),
    which its turn clock times; None when it waits for nobody (``TableGame.clock_kind``)."""
    return get_game(state.config.game).clock_kind(state)


def clock_defaults(game: str) -> dict[str, int]:
    """A game's default seconds per kind of decision (``TableGame.clock_defaults``)."""
    return dict(get_game(game).clock_defaults)


def result(state: State) -> HandEnded | None:
    """The last scored hand, or None."""
    return get_game(state.config.game).result(state)


def hand_result(state: State) -> HandResult | None:
    """The last scored hand as its game's record (``paiju.results``), or None."""
    game = get_game(state.config.game)
    ended = game.result(state)
    return None if ended is None else game.result_type.from_event(ended)


def _climbing(config: Config[Any]) -> ClimbingGame[Any]:
    game = get_game(config.game)
    if not isinstance(game, ClimbingGame):
        raise ValueError(f"{config.game} has no combinations")
    return game


def _cards(cards: Hand | str | Iterable[str]) -> Hand:
    if isinstance(cards, tuple) and all(isinstance(c, int) for c in cards):
        return tuple(sorted(cards))
    return parse_cards(cards)  # type: ignore[arg-type]


def classify(
    config: Config[Any], cards: Hand | str | Iterable[str], last_hand: bool = False
) -> Combo | None:
    """The combination ``cards`` make in this game (its preferred reading), or None.

    Raises:
        RuleError: the game names why the cards cannot be played (e.g. 三带一 not as a last hand).
        NotationError: a card code is wrong.
    """
    combos = _climbing(config).combinations(config, _cards(cards), last_hand)
    return combos[0] if combos else None


def compare(
    config: Config[Any], a: Hand | str | Iterable[str], b: Hand | str | Iterable[str]
) -> int:
    """1 if play ``a`` beats play ``b`` when ``b`` is on the table, -1 if ``b`` beats ``a``, 0 if
    neither beats the other (different kinds or lengths, or equal).

    Raises:
        ValueError: ``a`` or ``b`` is not a combination of the game.
    """
    game = _climbing(config)
    ca, cb = game.combinations(config, _cards(a)), game.combinations(config, _cards(b))
    if not ca or not cb:
        raise ValueError("both sides must be combinations of the game")
    if any(game.beats(x, cb[0]) for x in ca):
        return 1
    if any(game.beats(y, ca[0]) for y in cb):
        return -1
    return 0


def readings(state: State, seat: int, cards: Hand | str | Iterable[str]) -> list[dict[str, Any]]:
    """Every reading under which ``seat`` may play ``cards`` now (after the lead on the table), as
    JSON: ``{"reading": {"kind", "stands_for"}, "kind", "key", "name": {"zh", "en"}, "said"}``
    (``said``: the set as players say it, each wildcard as what it stands for: "7788"), the
    game's default first. More than one where the game lets the player choose is what the
    browser offers as a choice.

    A game without combinations (the trick games: a play is read by the lead) has no readings.

    Raises:
        NotationError: a card code is wrong.
    """
    if not isinstance(get_game(state.config.game), ClimbingGame):
        return []
    game = _climbing(state.config)
    hand = _cards(cards)
    try:
        combos = game.classify(state, seat, hand)
    except RuleError:
        return []
    lead = getattr(state, "lead", None)
    out: list[dict[str, Any]] = []
    seen = set()
    for combo in combos:
        if combo.reading in seen or (lead is not None and not game.beats(combo, lead)):
            continue
        seen.add(combo.reading)
        zh, en = game.words.kinds.get(combo.kind, (combo.kind, combo.kind))
        out.append(
            {
                "reading": encode_value(combo.reading),
                "kind": combo.kind,
                "key": combo.key,
                "name": {"zh": zh, "en": en},
                "said": said(hand, combo.stands_for),
            }
        )
    return out


def check_command(state: State, command: Mapping[str, Any]) -> dict[str, Any]:
    """For the browser: ``{"ok": true}`` or ``{"ok": false, "error": {code, zh, en, cards}}``."""
    try:
        decide(state, command)
    except RuleError as err:
        return {"ok": False, "error": err.to_dict()}
    return {"ok": True}


__all__ = [
    "Combo",
    "Config",
    "State",
    "apply",
    "card_name",
    "card_names",
    "check_command",
    "classify",
    "clock_defaults",
    "clock_kind",
    "compare",
    "config_from_dict",
    "decide",
    "evolve",
    "initial_state",
    "legal_moves",
    "legal_moves_json",
    "list_games",
    "make_config",
    "readings",
    "replay",
    "result",
    "to_move",
    "view",
]
