"""Sides: who plays with whom in a hand, and what each seat may know of it — one value for every
game with partners: fixed teams (opposite seats), one player against three (包, 明独), a duel
while two sit out (反包), and partners hidden behind cards (大北's ♠3 and ♠A, a called card). It
feeds the bots' ``allies``, the cards a view may name (``named_cards``), the secrecy check
(``indistinguishable``) and a game's scoring.

A side is made of public members (``first``: a dealer, a bidder) and the holders of ``marks``:
cards whose holder joins the first side and stays secret until the card is played (``played``
records who played it). The second side is everyone else, unless given (a duel).

>>> from paiju.cards import parse_card, parse_cards
>>> sides = Sides(first=(0,), marks=(parse_card("2H"),), named=True)
>>> hands = (parse_cards("3S"), parse_cards("4S"), parse_cards("2H 5S"), parse_cards("6S"))
>>> teams(sides, hands, {})
((0, 2), (1, 3))
>>> known_allies(sides, hands, {}, 2), known_allies(sides, hands, {}, 0)
(frozenset({0}), frozenset())
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from paiju.cards import Card, Hand


@dataclass(frozen=True, slots=True)
class Sides:
    """Who plays with whom this hand (see the module docstring).

    first: seats publicly on the first side from the start.
    marks: cards whose holders join the first side, secretly until played.
    second: the second side when it is not everyone else (a duel; the others sit out).
    named: the marks are named in public (a called card): a view may show their codes.
    """

    first: tuple[int, ...] = ()
    marks: tuple[Card, ...] = ()
    second: tuple[int, ...] | None = None
    named: bool = False


def mark_holders(
    sides: Sides, hands: tuple[Hand, ...], played: Mapping[Card, int]
) -> tuple[int, ...]:
    """The seats the marks bring to the first side: who played each mark, else who holds it.
    A public member's own copy of a mark brings nobody (with two decks the dealer may hold the
    other copy of the card he calls)."""
    found: list[int] = []
    for mark in sides.marks:
        seat = played.get(mark)
        if seat is None:
            seat = next(
                (s for s, hand in enumerate(hands) if mark in hand and s not in sides.first), None
            )
        if seat is not None and seat not in found:
            found.append(seat)
    return tuple(found)


def teams(
    sides: Sides, hands: tuple[Hand, ...], played: Mapping[Card, int]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The two sides as they truly are, each in seat order."""
    first = tuple(sorted({*sides.first, *mark_holders(sides, hands, played)}))
    second = (
        tuple(sorted(sides.second))
        if sides.second is not None
        else tuple(s for s in range(len(hands)) if s not in first)
    )
    return first, second


def is_public(sides: Sides, played: Mapping[Card, int]) -> bool:
    """Whether everyone can tell the sides: every mark has been played."""
    return all(mark in played for mark in sides.marks)


def known_allies(
    sides: Sides, hands: tuple[Hand, ...], played: Mapping[Card, int], seat: int
) -> frozenset[int]:
    """The seats ``seat`` knows to be on its side, from what it may see: its own cards, the public
    members and the marks already played. The second side knows its members only once the first
    side is public (or has no marks)."""
    first, second = teams(sides, hands, played)
    if seat in first:
        own = {mark for mark in sides.marks if mark in hands[seat] and seat not in sides.first}
        if own and len(own) == len(set(sides.marks) - set(played)):
            return frozenset(first) - {seat}  # holds every secret mark: knows the whole side
        shown = {played[m] for m in sides.marks if m in played}
        return frozenset({*sides.first, *shown}) - {seat}
    if seat in second and is_public(sides, played):
        return frozenset(second) - {seat}
    return frozenset()


def twins(
    sides: Sides, hands: tuple[Hand, ...], played: Mapping[Card, int]
) -> list[tuple[tuple[Hand, ...], tuple[int, ...]]]:
    """Deals that differ only in who holds an unplayed mark: for each, the hands with the mark
    moved to another seat (in exchange for one of its cards) and the seats that must not tell the
    two apart (all but the two involved; a spectator too)."""
    out: list[tuple[tuple[Hand, ...], tuple[int, ...]]] = []
    for mark in sides.marks:
        if mark in played:
            continue
        holder = next(
            (s for s, hand in enumerate(hands) if mark in hand and s not in sides.first), None
        )
        if holder is None:
            continue
        for other, hand in enumerate(hands):
            swap = next((c for c in hand if c not in sides.marks), None)
            if other == holder or other in sides.first or swap is None:
                continue
            moved = list(hands)
            moved[holder] = _sorted_swap(hands[holder], mark, swap)
            moved[other] = _sorted_swap(hand, swap, mark)
            watchers = tuple(s for s in range(len(hands)) if s not in (holder, other))
            out.append((tuple(moved), watchers))
    return out


def _sorted_swap(hand: Hand, out: Card, into: Card) -> Hand:
    rest = list(hand)
    rest.remove(out)
    return tuple(sorted((*rest, into)))


__all__ = ["Sides", "is_public", "known_allies", "mark_holders", "teams", "twins"]
