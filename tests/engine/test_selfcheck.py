"""The leak check counts copies: with two decks, a view that shows one more copy of a code than the
viewer holds (or than the table shows in public) is caught, though the code itself is one the
viewer may see. The states are built by hand with two copies of cards, as no game deals two decks
yet; the other checks of paiju.selfcheck are tested in test_properties.py."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from paiju.cards import card_codes, parse_cards
from paiju.climbing import Combo
from paiju.registry import get_game
from paiju.selfcheck import InvariantBroken, check_views_hide_hands

GAME = get_game("guanpai")
CONFIG = GAME.config("boke")


def two_deck_state(*hands: str, **fields: Any) -> Any:
    """A 关牌 state in play with these hands, in which a code may occur twice."""
    return dataclasses.replace(
        GAME.initial_state(CONFIG),
        phase="play",
        hand_no=1,
        turn=0,
        hands=tuple(parse_cards(h) for h in hands),
        **fields,
    )


def show_in_views(monkeypatch: pytest.MonkeyPatch, extra: Any) -> None:
    """Views that also show ``extra(state, seat)`` (card codes) in a field of their own."""
    original = type(GAME).view

    def patched(self: Any, state: Any, seat: int | None) -> dict[str, Any]:
        return original(self, state, seat) | {"extra": extra(state, seat)}

    monkeypatch.setattr(type(GAME), "view", patched)


def copies_of_own_codes(other: int) -> Any:
    """A leak: the cards of seat ``other`` whose codes the viewer holds too."""

    def leak(state: Any, seat: int | None) -> list[str]:
        own = card_codes(state.hands[seat]) if seat is not None else []
        return [c for c in card_codes(state.hands[other]) if c in own]

    return leak


# seat 0 and seat 1 each hold a 5S; seat 2 played the other copy of 9H, and seat 1 holds one
HELD = ("5S 7D", "5S 9H KC", "3C 4C")
PLAYED = {
    "lead": Combo(kind="single", key=parse_cards("9H")[0] >> 2, size=1),
    "lead_seat": 2,
    "discards": parse_cards("9H"),
    "actions": (None, None, parse_cards("9H")),
}


def test_honest_views_of_two_decks_pass() -> None:
    """Seat 0 sees its 5S once, and everyone the played 9H twice (``actions`` and ``lead``)."""
    state = two_deck_state(*HELD, **PLAYED)
    assert GAME.view(state, None)["lead"]["cards"] == ["9H"]
    check_views_hide_hands(state)


def test_a_second_copy_of_a_held_code_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 0 holds one 5S; a view showing a second 5S shows seat 1's (a set of the codes held or
    played would not catch it: 5S is one of seat 0's own codes)."""
    state = two_deck_state(*HELD, **PLAYED)
    show_in_views(monkeypatch, copies_of_own_codes(1))
    with pytest.raises(InvariantBroken, match=r"seat 0 sees \['5S'\].*\{'5S': \[1\]\}"):
        check_views_hide_hands(state)


def test_a_copy_beyond_the_played_ones_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The played 9H is shown twice; a third 9H in a spectator's view is seat 1's copy."""
    state = two_deck_state(*HELD, **PLAYED)
    show_in_views(
        monkeypatch, lambda st, seat: [c for c in card_codes(st.hands[1]) if c in ("9H",)]
    )
    with pytest.raises(InvariantBroken, match=r"seat None sees \['9H'\]"):
        check_views_hide_hands(state)


def test_showing_own_and_public_cards_again_is_no_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    """A view may show the viewer's own cards and the played ones in more places."""
    state = two_deck_state(*HELD, **PLAYED)
    show_in_views(
        monkeypatch,
        lambda st, seat: (
            card_codes(st.discards) + (card_codes(st.hands[seat]) if seat is not None else [])
        ),
    )
    check_views_hide_hands(state)
