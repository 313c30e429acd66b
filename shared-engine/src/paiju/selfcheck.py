"""Invariants every game keeps, checkable anywhere the engine runs (the property tests on CPython,
the same checks inside Pyodide): every card is in exactly one place, no view shows a card of
another seat's hand while the hand is played, every hand ends with what its game declares of its
result (``paiju.results``: zero-sum payments, or 打棒's levels and blood), and replaying the events
rebuilds the very state.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from typing import Any

from paiju.cards import build_deck, card_codes
from paiju.protocol import Command, HandEnded, decode, encode
from paiju.registry import get_game
from paiju.results import ResultType
from paiju.simulate import log_digest, play_game
from paiju.table import TableState

CARD_CODES = frozenset(card_codes(build_deck(jokers=True)))


class InvariantBroken(AssertionError):
    """An invariant of the engine does not hold."""


def strings_in(value: Any) -> set[str]:
    """Every string anywhere in a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        found: set[str] = set()
        for item in value:
            found |= strings_in(item)
        return found
    return set()


def check_cards_conserved(state: TableState) -> None:
    game = get_game(state.config.game)
    held: Counter[int] = Counter(c for hand in state.hands for c in hand)
    held.update(state.rest)
    held.update(getattr(state, "discards", ()))
    if state.hands and held != Counter(game.pack(state.config)):
        raise InvariantBroken(f"cards not conserved at version {state.version}")


def codes_in(value: Any) -> Counter[str]:
    """How many times each card code occurs as a string anywhere in a JSON value."""
    found: Counter[str] = Counter()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item in CARD_CODES:
                found[item] += 1
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


def without_hidden_hands(state: TableState, seat: int | None) -> TableState:
    """The state with every hand but ``seat``'s emptied: nothing in it is hidden from ``seat``."""
    hands = tuple(hand if other == seat else () for other, hand in enumerate(state.hands))
    return dataclasses.replace(state, hands=hands)


def check_views_hide_hands(state: TableState) -> None:
    """While a hand is played, no seat (nor a spectator) sees a card of another seat's hand.

    Counted by copies, so that with several decks a second copy of a code is caught too: the card
    codes in a viewer's view (a multiset: every place a code occurs counts) may not exceed those in
    its view of the same state with every other seat's hand emptied. That view holds exactly what
    the viewer may see (its own hand, the played cards, a card named in public while its holder
    stays secret, such as a called card), each as many times as the view shows it (the last play
    is both in ``actions`` and ``lead.cards``), and nothing hidden, as no hidden card is left to
    show. A copy beyond it is a card of another seat's hand, whatever the place that shows it.
    Only whole strings that are card codes are counted.

    And no view tells a state from one that differs only in a secret (who holds the called card).
    """
    game = get_game(state.config.game)
    if state.phase not in game.seat_phases:
        return
    views = {seat: game.view(state, seat) for seat in [None, *range(state.config.players)]}
    for seat, view in views.items():
        if json.loads(json.dumps(view)) != view:
            raise InvariantBroken("a view is not plain JSON")
        seen = codes_in(view)
        others = {c for o, hand in enumerate(state.hands) if o != seat for c in card_codes(hand)}
        if others.isdisjoint(seen):
            continue  # no code held by another seat shows at all (the usual case with one deck)
        leaked = seen - codes_in(game.view(without_hidden_hands(state, seat), seat))
        if leaked:
            holders = {
                code: [o for o, h in enumerate(state.hands) if o != seat and code in card_codes(h)]
                for code in sorted(leaked)
            }
            raise InvariantBroken(
                f"seat {seat} sees {sorted(leaked.elements())} beyond its own hand and the public"
                f" cards at version {state.version} (held by seats {holders})"
            )
    for twin, watchers in game.indistinguishable(state):
        for seat in watchers:
            if game.view(twin, seat) != views[seat]:
                raise InvariantBroken(f"seat {seat} can tell a secret at version {state.version}")


def check_result(result_type: ResultType, event: HandEnded, players: int) -> None:
    """A hand's end holds what its game declares of its result (``paiju.results``): a zero-sum
    record's scores sum to zero and are its payments' net, with a finishing order of every seat;
    打棒's levels and blood have no order, payment nor score, and one side climbs."""
    found = result_type.problems(event, players)
    if found:
        raise InvariantBroken(f"hand {event.hand_no} ({result_type.KIND}): " + "; ".join(found))


def checked_random_game(
    game_id: str,
    variant: str | None = None,
    seed: int = 0,
    players: int | None = None,
    hands: int = 2,
    every: int = 1,
) -> dict[str, Any]:
    """A random match with every invariant checked (views every ``every`` decisions); returns a
    summary. Raises InvariantBroken."""
    game = get_game(game_id)
    config = game.config(variant, players, hands=hands)
    rng = random.Random(seed)
    steps = 0

    def choose(state: TableState, seat: int, moves: list[Command]) -> Command:
        nonlocal steps
        if not moves:
            raise InvariantBroken(f"seat {seat} is to move but has no legal move")
        check_cards_conserved(state)
        if steps % every == 0:
            check_views_hide_hands(state)
        steps += 1
        return rng.choice(moves)

    state, events = play_game(config, f"checked-{seed}", choose)
    if state.phase != "over" or state.last_hand is None:
        raise InvariantBroken("the match did not end scored")
    for event in events:
        if isinstance(event, HandEnded):
            check_result(game.result_type, event, config.players)
    if game.result_type.ZERO_SUM and sum(state.totals) != 0:
        raise InvariantBroken(f"totals do not sum to zero: {state.totals}")
    replayed = game.initial_state(config)
    for event in events:
        replayed = game.evolve(replayed, decode(json.loads(json.dumps(encode(event)))))  # type: ignore[arg-type]
    if replayed != state:
        raise InvariantBroken("replaying the events does not rebuild the state")
    return {
        "game": game_id,
        "variant": config.variant,
        "seed": seed,
        "decisions": steps,
        "totals": list(state.totals),
        "digest": log_digest(config, events),
    }
