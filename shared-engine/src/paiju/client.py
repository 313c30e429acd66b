"""The engine on a player's side: a seat's state rebuilt from the seat's own view, so that the
browser can check a selection with ``decide`` the instant it is made, before anything is sent.

A seat must never receive another seat's hand, so the browser cannot replay a table's private log.
What it does receive after every event is its own view, ``api.view(state, seat)``. From that view
and the table's config, ``state_from_view`` builds a state on which ``decide`` and ``legal_moves``
answer for that seat exactly as they do on the table's true state:

- the seat's own hand is the real one; every other hand is a stand-in of the right size (only the
  number of cards a seat holds is public, and no rule of a seat's own move looks further);
- the public facts come from the view: phase, turn, leader, totals, the last score sheet, who is
  out, and the trick on the table (the leading play's combination is re-read from its cards);
- the number of cards played this hand is public (dealt minus held), so rules that depend on
  whether anything was played yet (大北's ♦4 opening) see the truth; which cards went out in
  earlier tricks is not in the view, and no rule of a seat's move depends on it;
- a game's own public fields (大北's ``spade_three``, 条数's ``lost``) are copied from the view when
  it shows them under the state's field name; fields that only scoring reads keep the values a
  fresh hand starts with.

The stand-ins make the state good for the seat's own checks and hints, nothing else: scoring it
(a play that ends the hand) may compute a score that is not the table's. The services stay the
authority. ``tests/engine/test_client.py`` checks, over whole random games of every game, that
``legal_moves`` and ``check_command`` on the rebuilt state equal those on the true state.

The JSON entry points at the end (``SeatClient``, ``replay_json``) are what the browser's engine
worker calls; JSON strings cross the Pyodide boundary faster than proxied objects. (The audit of a
log for the page that verifies a game is ``paiju.log.audit_json``, which the worker imports at its
first audit.)

>>> from paiju import api
>>> from paiju.simulate import table_command
>>> config = api.make_config("guanpai", "boke")
>>> state = api.initial_state(config)
>>> while state.phase != "play":
...     state, _ = api.apply(state, table_command(state, "doc"))
>>> seat = api.to_move(state)
>>> mine = state_from_view(config, api.view(state, seat))
>>> api.legal_moves(mine, seat) == api.legal_moves(state, seat)
True
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from paiju import api
from paiju.cards import Card, Hand, card_codes, parse_cards
from paiju.errors import PaijuError, RuleError
from paiju.protocol import HandEnded, Played, decode, encode
from paiju.registry import get_game
from paiju.table import Config, TableGame, TableState

# The fields every state has, which are rebuilt one by one (as are those of the game's core, by its
# ``public_state``); any other field of a game's state is copied from a view key of the same name,
# when there is one.
_TABLE_FIELDS = frozenset(f.name for f in dataclasses.fields(TableState))


def as_config(config: Config[Any] | Mapping[str, Any]) -> Config[Any]:
    """A ``Config``, or the JSON form of one (``Config.to_dict``, a log header's config)."""
    return config if isinstance(config, Config) else api.config_from_dict(config)


def state_from_view(config: Config[Any] | Mapping[str, Any], view: Mapping[str, Any]) -> TableState:
    """The state of the table as the seat ``view["seat"]`` knows it (see the module docstring).

    ``view`` is ``api.view(state, seat)`` as JSON; ``config`` the table's config (the view names
    the game and variant but not a table's option overrides). A spectator's view (seat None) gives
    a state with every hand a stand-in.

    Raises:
        ValueError: the view is not of this config's game, or not a view at all.
    """
    config = as_config(config)
    game: TableGame[Any] = get_game(config.game)
    if view.get("game") != config.game or view.get("players") != config.players:
        raise ValueError(f"a view of {view.get('game')!r} does not fit a {config.game} config")
    n = config.players
    seat = view.get("seat")
    base: TableState = game.initial_state(config)
    counts = [int(c) for c in view.get("counts") or ()]
    dealt = len(counts) == n
    changes: dict[str, Any] = {}
    if dealt:
        changes |= game.start_hand(base)
    changes |= {
        "phase": view["phase"],
        "version": int(view.get("version", 0)),
        "hand_no": int(view.get("hand_no", 0)),
        "commitment": view.get("commitment"),
        "turn": view.get("turn"),
        "leader": view.get("leader"),
        "totals": tuple(view.get("totals") or base.totals),
        # the view shows the last revealed seed only (the earlier ones are in the log)
        "revealed": (view["revealed_seed"],) if view.get("revealed_seed") else (),
        "talk": tuple((int(s), str(w), int(i)) for s, w, i in view.get("talk") or ()),
    }
    last = view.get("last_hand")
    if last is not None:
        ended = decode(last)
        if not isinstance(ended, HandEnded):
            raise ValueError(f"last_hand is a {ended.TYPE}, not a hand_ended")
        changes["last_hand"] = ended
    played: list[Card] = []
    core_fields: frozenset[str] = frozenset()
    if dealt:
        core = game.public_state(config, view)
        core_fields = frozenset(core)
        played = [c for a in core.get("actions") or () if a for c in a]
        changes |= core | _hands(game, config, view, seat, counts, played)
    fields = {f.name for f in dataclasses.fields(base)}
    for name in fields - _TABLE_FIELDS - core_fields:
        if name in view:
            changes[name] = _frozen(view[name])
    changes |= game.state_from_view_extra(view)
    return dataclasses.replace(base, **changes)


def _hands(
    game: TableGame[Any],
    config: Config[Any],
    view: Mapping[str, Any],
    seat: int | None,
    counts: Sequence[int],
    played: Sequence[Card],
) -> dict[str, Any]:
    """Hands, discards and the undealt rest: real where the view shows them, else stand-ins."""
    shown = view.get("hands")
    if shown is not None:  # the hand has ended: every hand is public
        hands = tuple(parse_cards(h) for h in shown)
    else:
        own = parse_cards(view["hand"]) if seat is not None and view.get("hand") else ()
        pool = Counter(game.pack(config))
        pool.subtract(own)
        pool.subtract(played)
        spare = sorted(pool.elements())
        stand_in: list[Hand] = []
        for s, count in enumerate(counts):
            if s == seat:
                stand_in.append(own)
                continue
            taken, spare = spare[:count], spare[count:]
            taken += [min(game.pack(config))] * (count - len(taken))
            stand_in.append(tuple(sorted(taken)))
        hands = tuple(stand_in)
    held = sum(len(h) for h in hands)
    gone = max(0, game.hand_size(config) * config.players - held)
    everything = Counter(game.pack(config))
    for h in hands:
        everything.subtract(h)
    others = Counter(everything)
    others.subtract(played)
    extra = sorted(others.elements())[: max(0, gone - len(played))]
    discards = (*played, *extra)[:gone] if gone else ()
    rest_pool = Counter(everything)
    rest_pool.subtract(discards)
    return {
        "hands": hands,
        "discards": tuple(discards),
        "rest": tuple(sorted(rest_pool.elements())),
    }


def _frozen(value: Any) -> Any:
    """A view's JSON value as a state field holds it: lists become tuples, all the way down."""
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


# --- the order a hand is shown in -------------------------------------------------------------


def display_order(
    config: Config[Any] | Mapping[str, Any],
    cards: Iterable[str] | str,
    mode: str = "rank",
    state: TableState | None = None,
) -> list[str]:
    """``cards`` in the order players of the game hold them: strongest on the left, by the game's
    own order of single cards (大北: ♠3 highest), suits together in notation order within a rank;
    given the ``state`` of a hand whose order depends on it (trumps), by ``hand_strength``.

    ``mode="count"`` puts ranks held several times first (bombs, triples, pairs, then singles),
    each group strongest first, the way 理牌 groups a hand for shapes.

    Raises:
        NotationError: a card code is wrong. ValueError: ``mode`` is unknown.
    """
    config = as_config(config)
    hand = parse_cards(cards)
    strength = {c: _single_strength(config, c) for c in set(hand)}
    if state is not None:
        game: TableGame[Any] = get_game(config.game)
        for c in strength:
            now = game.hand_strength(state, c)
            strength[c] = strength[c] if now is None else now
    if mode == "rank":
        ordered = sorted(hand, key=lambda c: (-strength[c], c))
    elif mode == "count":
        per_rank = Counter(c >> 2 for c in hand)
        rank_strength: dict[int, int] = {}
        for c in hand:
            rank_strength[c >> 2] = max(rank_strength.get(c >> 2, -1), strength[c])
        ordered = sorted(
            hand, key=lambda c: (-per_rank[c >> 2], -rank_strength[c >> 2], -strength[c], c)
        )
    else:
        raise ValueError(f"unknown order {mode!r}: 'rank' or 'count'")
    return card_codes(ordered)


_STRENGTH_MEMO: dict[tuple[str, str, str], dict[Card, int]] = {}


def _single_strength(config: Config[Any], card: Card) -> int:
    """How strong ``card`` is alone in this game: its key as a single where the game has singles,
    else its notation rank."""
    memo_key = (config.game, config.variant, repr(config.options))
    memo = _STRENGTH_MEMO.setdefault(memo_key, {})
    known = memo.get(card)
    if known is not None:
        return known
    value: int = get_game(config.game).single_strength(config, card)
    memo[card] = value
    return value


# --- the browser's entry points (JSON in, JSON out) ---------------------------------------------


class SeatClient:
    """One seat's engine in the browser worker: the state of the latest view, checks, hints.

    Every method takes and returns JSON text, the cheapest thing to pass through Pyodide.

    >>> from paiju import api
    >>> config = api.make_config("guanpai", "boke")
    >>> client = SeatClient(json.dumps(config.to_dict()))
    >>> json.loads(client.check(json.dumps(["3D"])))["error"]["code"]  # no view yet
    'not_your_turn'
    """

    def __init__(self, config_json: str) -> None:
        self.config = as_config(json.loads(config_json))
        self.seat: int | None = None
        self.state: TableState = api.initial_state(self.config)

    def update(self, view_json: str) -> str:
        """Take the seat's latest view; returns ``{"seat", "turn", "moves"}`` where ``moves`` is
        ``legal_moves_json`` for the seat (empty when it is not its turn)."""
        view = json.loads(view_json)
        self.state = state_from_view(self.config, view)
        self.seat = view.get("seat")
        return json.dumps(
            {"seat": self.seat, "turn": api.to_move(self.state), "moves": self._moves()}
        )

    def _moves(self) -> list[dict[str, Any]]:
        return [] if self.seat is None else api.legal_moves_json(self.state, self.seat)

    def moves(self) -> str:
        return json.dumps(self._moves())

    def command(
        self, cards: list[str] | None, reading: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """The command a selection stands for: ``None`` is a pass, a list of codes a play (with
        the reading the player chose, if any)."""
        if cards is None:
            return {"type": "pass", "seat": self.seat}
        command: dict[str, Any] = {"type": "play", "seat": self.seat, "cards": list(cards)}
        if reading is not None:
            command["reading"] = dict(reading)
        return command

    def check(self, cards_json: str, reading_json: str = "null") -> str:
        """``api.check_command`` of a selection (a JSON list of codes, or ``null`` for a pass)
        read as ``reading_json`` (``{"kind", "stands_for"}``, or ``null``), as JSON:
        ``{"ok": true, "command": ...}`` or ``{"ok": false, "error": {...}}``. A selection the
        player must read (``ambiguous_reading``) gets the choice too: ``"readings"``."""
        cards = json.loads(cards_json)
        if self.seat is None:  # a spectator never plays
            return json.dumps({"ok": False, "error": RuleError("not_your_turn").to_dict()})
        command = self.command(cards, json.loads(reading_json))
        out = check_command(self.state, command)
        if not out["ok"] and out["error"]["code"] == "ambiguous_reading":
            out["readings"] = api.readings(self.state, self.seat, cards)
        if out["ok"]:
            out["command"] = command
        return json.dumps(out, ensure_ascii=False)

    def readings(self, cards_json: str) -> str:
        """``api.readings`` of a selection for this seat, as JSON (empty for a spectator)."""
        if self.seat is None:
            return "[]"
        return json.dumps(
            api.readings(self.state, self.seat, json.loads(cards_json)), ensure_ascii=False
        )

    def order(self, cards_json: str, mode: str = "rank") -> str:
        """``display_order`` of a JSON list of codes, as JSON."""
        return json.dumps(display_order(self.config, json.loads(cards_json), mode, self.state))


def check_command(state: TableState, command: Mapping[str, Any]) -> dict[str, Any]:
    """``api.check_command`` on a state from ``state_from_view``, and for a legal play the kind of
    combination it is: ``{"ok": true, "kind": "straight"}``.

    One difference: a play of the seat's whole hand makes ``decide`` score the hand after every
    rule has accepted the play, and scoring may read the other hands (大北 looks for the holders of
    ♠3 and ♠A), which here are stand-ins. If that scoring fails, the play was legal: ``{"ok": true}``.
    A card code the engine cannot read is a ``bad_command`` error.
    """
    try:
        events = api.decide_own(state, command)  # as the table service decides a seat's command
    except RuleError as err:
        return {"ok": False, "error": err.to_dict()}
    except PaijuError as err:
        return {"ok": False, "error": RuleError("bad_command", detail=str(err)).to_dict()}
    except Exception:
        seat = command.get("seat")
        cards = command.get("cards")
        hands = state.hands
        going_out = (
            command.get("type") == "play"
            and isinstance(seat, int)
            and 0 <= seat < len(hands)
            and isinstance(cards, list)
            and len(cards) == len(hands[seat])
        )
        if not going_out:
            raise
        return {"ok": True}
    played = next((e for e in events if isinstance(e, Played)), None)
    return {"ok": True, "kind": played.kind} if played is not None else {"ok": True}


def replay_steps(
    config: Config[Any] | Mapping[str, Any], events: Iterable[Any]
) -> list[dict[str, Any]]:
    """Every step of a finished table for the replay viewer: for ``i`` = 0 … len(events), the
    spectator's view after the first ``i`` events with every hand added in display order (a
    finished game is public in full), and the event that led there (None for step 0)."""
    config = as_config(config)
    game: TableGame[Any] = get_game(config.game)
    state = game.initial_state(config)
    steps = [_step(game, state, None)]
    for raw in events:
        event = raw if not isinstance(raw, Mapping) else decode(dict(raw))
        state = game.evolve(state, event)  # type: ignore[arg-type]
        steps.append(_step(game, state, encode(event)))
    return steps


def _step(game: TableGame[Any], state: TableState, event: dict[str, Any] | None) -> dict[str, Any]:
    view = game.view(state, None)
    hands = [display_order(state.config, card_codes(h), state=state) for h in state.hands]
    view["hands"] = hands if state.hands else None
    return {"event": event, "view": view}


def replay_json(config_json: str, events_json: str) -> str:
    """``replay_steps`` from and to JSON text (the browser worker's entry point)."""
    return json.dumps(
        replay_steps(json.loads(config_json), json.loads(events_json)), ensure_ascii=False
    )


__all__ = [
    "SeatClient",
    "as_config",
    "check_command",
    "display_order",
    "replay_json",
    "replay_steps",
    "state_from_view",
]
