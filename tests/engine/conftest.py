"""Fixtures for the engine's story tests: exact 关牌 positions and a table to play them on.

t = table("boke", "3D 5S 9H", "4S 7H", "6C KD", leader=0)
t.play(0, "5S")
t.refuses(Pass(seat=1), "must_beat")
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from story import Table, dealt

from paiju import api
from paiju.cards import Hand, build_deck, format_cards, parse_cards


def guanpai_config(variant: str, players: int | None = None, **options: Any) -> api.Config:
    return api.make_config("guanpai", variant, players, options)


def pack_of(config: api.Config) -> Hand:
    """The cards a table of this configuration deals from."""
    return build_deck(removed=config.options.removed)


def deal_position(
    variant: str, *hands: str, leader: int = 0, rest: str = "", **options: Any
) -> Table:
    """A hand of ``variant`` dealt exactly as given (one string per seat), ``leader`` to play.

    The cards must come from the variant's pack; options override the variant's.
    """
    config = guanpai_config(variant, len(hands), **options)
    every = Counter(c for h in (*hands, rest) for c in parse_cards(h))
    missing = every - Counter(pack_of(config))  # copies counted: a pack may hold a code twice
    assert not missing, (
        f"more copies than the {variant} pack holds: {format_cards(sorted(missing.elements()))}"
    )
    return dealt(config, hands, leader, rest)


@pytest.fixture
def table() -> Callable[..., Table]:
    """``table(variant, hand0, hand1, ..., leader=0, **options)``: an exact position to play on."""
    return deal_position
