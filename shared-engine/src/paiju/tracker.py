"""记牌器, the card counter: for each rank (and each joker), how many cards of the game's pack are
neither in a seat's hand nor played yet, worked out from that seat's own views alone.

A view shows the seat its hand, every seat's number of cards and the plays of the trick on the
table, never the cards of earlier tricks. So the counter follows the views one by one, as the
browser's engine worker receives them (one after every event): a seat whose number of cards fell
by as many cards as its play on the table now shows has played those cards. A card that leaves a
hand in any other way (given or buried face down) is not played, and stays counted as unseen.

The counts are exact when the counter saw the hand from before its first play and missed no event
since (``complete``) — from before the deal, or from a view in which the hands hold the whole pack
or all the deal gives them (a kitty aside) and nothing is on the table; a counter that started in the middle of a hand, or skipped an event (the
view's ``version`` jumped), says it is not complete rather than guess.

    >>> from paiju import api
    >>> from paiju.simulate import table_command
    >>> config = api.make_config("guanpai", "boke")
    >>> state = api.initial_state(config)
    >>> counter = CardCounter(config)
    >>> while state.phase != "play":
    ...     state, _ = api.apply(state, table_command(state, "doc"))
    ...     counter.update(api.view(state, 0))
    >>> sum(counter.counts().values()) == 48 - 16  # the other two hands, not a card played
    True

``tests/engine/test_tracker.py`` checks, over random games of every game, that the counts from
the views equal the pack minus the seat's hand minus the cards of every play of the hand, as the
true log gives them, and that every card another seat holds is among those counted.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from paiju.cards import card_codes
from paiju.client import as_config, display_order
from paiju.registry import get_game
from paiju.table import Config

__all__ = ["CardCounter", "TrackerClient", "rank_key"]


def rank_key(code: str) -> str:
    """The rank a card code is counted under: its rank letter, or the joker's own code."""
    return code if code in ("BJ", "RJ") else code[0]


class CardCounter:
    """The counts of one seat's unseen cards, fed the seat's views in order (``update``)."""

    def __init__(self, config: Config[Any] | Mapping[str, Any]) -> None:
        self.config = as_config(config)
        game = get_game(self.config.game)
        pack = card_codes(game.pack(self.config))
        self.pack: Counter[str] = Counter(rank_key(code) for code in pack)
        # the cards in the hands before any play: the whole pack, or (a kitty set aside at the
        # deal, 打棒's eight) what the deal gives the hands
        self.unplayed = {len(pack), game.hand_size(self.config) * self.config.players}
        # one card per rank, in the game's display order (strongest first)
        firsts: dict[str, str] = {}
        for code in pack:
            firsts.setdefault(rank_key(code), code)
        self.ranks: list[str] = [
            rank_key(code) for code in display_order(self.config, list(firsts.values()), "rank")
        ]
        self.samples = firsts
        self.hand_no: int | None = None
        self.played: Counter[str] = Counter()
        self.complete = False
        self.version: int | None = None
        self.counts_seen: list[int] | None = None
        self.hand: list[str] = []

    def update(self, view: Mapping[str, Any]) -> None:
        """Take the seat's next view (``api.view`` as JSON, or as it is)."""
        version = view.get("version")
        counts = list(view.get("counts") or [])
        if view.get("hand_no") != self.hand_no:
            self.hand_no = view.get("hand_no")
            self.played = Counter()
            # seen before the deal, or dealt with every card still in a hand (or in a kitty):
            # nothing missed
            self.complete = not counts or (sum(counts) in self.unplayed and not _any_play(view))
            self.counts_seen = None
        elif version is not None and self.version is not None and version > self.version + 1:
            self.complete = False  # an event was missed: a play may have gone by unseen
        if version is not None and self.version is not None and version <= self.version:
            return  # the same view again (a resync), or an older one
        self.version = version
        actions: Sequence[Any] = view.get("actions") or []
        if self.counts_seen is not None and len(counts) == len(self.counts_seen):
            for seat, (before, now) in enumerate(zip(self.counts_seen, counts, strict=True)):
                action = actions[seat] if seat < len(actions) else None
                if before - now > 0 and action and len(action) == before - now:
                    self.played.update(rank_key(code) for code in action)
        self.counts_seen = counts if counts else None
        self.hand = list(view.get("hand") or [])

    def counts(self) -> dict[str, int]:
        """Unseen cards per rank (``"T"`` for tens, ``"BJ"``/``"RJ"`` for the jokers), in the
        game's order: the pack minus the seat's hand minus every card played this hand."""
        mine = Counter(rank_key(code) for code in self.hand)
        return {
            rank: max(0, self.pack[rank] - mine[rank] - self.played[rank]) for rank in self.ranks
        }

    def to_json(self) -> dict[str, Any]:
        """``{"hand_no", "complete", "ranks": [{"rank", "card", "left", "total"}, ...]}``: the
        counts with a card code of each rank (to draw its label) and the pack's number of it."""
        counts = self.counts()
        return {
            "hand_no": self.hand_no,
            "complete": self.complete,
            "ranks": [
                {"rank": r, "card": self.samples[r], "left": counts[r], "total": self.pack[r]}
                for r in self.ranks
            ],
        }


def _any_play(view: Mapping[str, Any]) -> bool:
    return any(action for action in view.get("actions") or [])


class TrackerClient:
    """The browser worker's entry point: JSON text in and out (cheap across Pyodide)."""

    def __init__(self, config_json: str) -> None:
        self.counter = CardCounter(json.loads(config_json))

    def update(self, view_json: str) -> str:
        """Take the next view; returns the counts as ``CardCounter.to_json``, as JSON."""
        self.counter.update(json.loads(view_json))
        return json.dumps(self.counter.to_json())
