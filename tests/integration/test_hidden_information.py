"""No frame a spectator or a seat receives shows a card of another seat's hand (or of the undealt
rest) before the hand ends: every frame of a whole game is recorded and checked against the hands
as the finished log shows them at that frame's index."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from integration.harness import Stack, logged_states, new_table, play_watched
from paiju.cards import card_codes
from paiju.protocol import HandEnded

CARD = re.compile(r"^(?:[3-9TJQKA2][SHCD]|RJ|BJ)$")


def cards_in(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value} if CARD.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    return set()


@pytest.mark.parametrize(("variant", "players"), [("boke", 3), ("mainstream", 2)])
async def test_no_frame_shows_another_seats_cards_before_the_hand_ends(
    stack: Stack, http: httpx.AsyncClient, variant: str, players: int
) -> None:
    table = await new_table(http, variant=variant, players=players)
    spectator, seats = await play_watched(stack, http, table, players)
    events, states = await logged_states(http, table)
    ended = next(i for i, e in enumerate(events) if isinstance(e, HandEnded))

    checked = 0
    for who, sock in [(None, spectator), *enumerate(seats)]:
        index = 0
        for frame in sock.frames:
            index = frame.get("index", index)  # frames without an index come at the last one
            if index > ended:  # the hand's score is out: all hands are public
                continue
            state = states[index]
            hidden: set[str] = set(card_codes(state.rest))
            for seat, hand in enumerate(state.hands):
                if seat != who:
                    hidden |= set(card_codes(hand))
            leaked = cards_in(frame) & hidden
            assert not leaked, (who, frame["type"], index, sorted(leaked))
            checked += 1
        await sock.close()
    assert checked > 4 * players * 10
