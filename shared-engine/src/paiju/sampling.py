"""Deals a seat cannot tell from the true one: the hidden cards dealt again, at random, in every way
consistent with what the seat's view shows (the 高手 bot's sampler, ``paiju.search``).

The input is the state a seat's view rebuilds (``paiju.client.state_from_view``): the seat's own
hand is real, every other hand a stand-in of the right size. A state's cards lie in three piles —
the hands, ``rest`` (what the deal left undealt: 打棒's kitty) and ``discards`` (played, or buried)
— which together hold the pack. What the seat knows of them (``knowledge``):

- its own hand, and how many cards every other seat holds;
- the cards it sees played: the trick on the table and, in a trick-taking game, the last trick
  (a view shows no earlier trick, so the rest of what was played this hand is unknown: those
  cards are dealt to the played pile at random, like the hidden hands);
- the kitty, where the view shows it (打棒's dealer sees what he buried; a kitty turned up);
- the cards a seat has shown and holds still (打棒's declarations while they are being made:
  ``shown_held``), dealt to that seat;
- the cards a side is made of while their holder is secret (大北's ♠3 and ♠A, 板子炮's and 打拱's
  called card, ``Sides.marks``): one not played yet is in a hand, never in the played pile, and
  with two decks in the hand of a seat other than the one who called it; a mark of one copy is
  never in a public member's hand (板子炮's dealer calls a card he does not hold);
- voids, in a game with following suit (打棒, ``paiju.tricks``): a seat that followed the trick on
  the table with fewer cards of the led suit than it was led with holds none of that suit now;
- the points among the cards played before (the game's ``points_played``): 打棒's and 打拱's views show the
  points each seat took and those on the table, so the unseen played cards hold exactly the
  points those tell, and the hidden hands the rest (without it, the played pile is dealt the
  pool's average and the hands guess wrong what is left to take: a hand's outcome).

``sample`` deals the unknown cards: first a copy of each unplayed mark to a seat that may hold it,
then the played pile where its points are known, then the hands of the seats with voids or
barred cards from the cards they may hold, then the other hands, the kitty and the played pile
from what is left, each from one shuffled order. It
guesses the rules' private fields a play-out needs that no view shows (who speaks next in a
speaking round, 打棒's first-hand grabs, who played 板子炮's called card). A sample is a full state,
good for playing the hand out (a guess, not the truth). ``problems`` lists how a state breaks
what the seat knows (the tests check that no sample does, nor the true deal).
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from paiju.cards import Card, Hand
from paiju.registry import get_game
from paiju.table import TableGame, TableState
from paiju.trick_rules import lead_of

# a view key that shows the seat the cards of ``rest`` (打棒: the dealer, what he buried)
REST_SHOWN = {"dabang": "buried"}
# games whose rebuilt state does not say whether a mark was played (板子炮's view shows the
# partner, but its ``state_from_view_extra`` does not rebuild ``marks_played`` from it): their
# marks are not placed
MARKS_UNKNOWN = frozenset({"banzipao"})


def _value(card: Card, values: Mapping[int, int]) -> int:
    return values.get(card >> 2, 0) if card < 52 else 0


def _points(cards: Iterable[Card], values: Mapping[int, int]) -> int:
    return sum(_value(c, values) for c in cards)


@dataclass(frozen=True, slots=True)
class Knowledge:
    """Where the seat knows the cards to be, and what it does not know.

    seat: the seat. own: its hand. seen: the cards it saw played (in the played pile).
    rest: the kitty's cards when known (None: unknown, ``rest_size`` cards).
    counts: the cards each seat holds. pool: the cards whose place is unknown (sorted).
    voids: each seat's effective suits it holds none of (``suit_of`` gives a card's).
    marks: (card, seats that may hold it) for each unplayed mark that must be in a hand.
    barred: each seat's cards it cannot hold (a side's public member, a mark of one copy: 板子炮's
    dealer calls a card he does not hold).
    hidden_points: the points among the played cards the seat did not see (None: not known), and
    ``values`` the points of each rank: in 打棒 and 打拱 the view shows the points each seat took
    and those on the table, so the earlier tricks' cards hold that many points, no more, no fewer.
    """

    seat: int
    own: Hand
    seen: Hand
    rest: Hand | None
    rest_size: int
    counts: tuple[int, ...]
    pool: Hand
    voids: tuple[frozenset[int], ...]
    marks: tuple[tuple[Card, frozenset[int]], ...]
    suit_of: tuple[int, ...] = ()
    barred: tuple[frozenset[Card], ...] = ()
    hidden_points: int | None = None
    values: Mapping[int, int] | None = None

    @property
    def unknown_played(self) -> int:
        """How many cards were played that the seat did not see (the played pile's unknown part)."""
        hidden = sum(n for s, n in enumerate(self.counts) if s != self.seat)
        return len(self.pool) - hidden - (self.rest_size if self.rest is None else 0)


def _cards(groups: Iterable[Iterable[Card] | None]) -> list[Card]:
    return [c for group in groups if group for c in group]


def _seen(state: TableState) -> list[Card]:
    """The cards the seat's view shows played: the trick on the table and the last trick."""
    actions: Any = getattr(state, "actions", ())
    last: Any = getattr(state, "last_trick", ())
    return _cards([*actions, *last])


def _voids(
    game: TableGame[Any], state: TableState
) -> tuple[tuple[frozenset[int], ...], tuple[int, ...]]:
    """Each seat's known voids in the trick on the table, and the effective suit of every card
    code (empty outside a game that follows suit)."""
    n = state.config.players
    leader = getattr(state, "trick_leader", None)
    rules_of, trump_order = getattr(game, "rules_of", None), getattr(game, "trump_order", None)
    if rules_of is None or trump_order is None or state.phase != "play":
        return tuple(frozenset() for _ in range(n)), ()
    rules, order = rules_of(state), trump_order(state)
    suits, _ = order.tables()
    voids: list[set[int]] = [set() for _ in range(n)]
    actions: Any = getattr(state, "actions", ())
    lead = lead_of(rules, order, actions[leader] or ()) if leader is not None else None
    if lead is not None:
        kind, suit = lead
        size = sum(rules.leads[kind])
        for s, cards in enumerate(actions):
            if s != leader and cards and sum(suits[c] == suit for c in cards) < size:
                voids[s].add(suit)  # it had to play all it held of the suit
    return tuple(frozenset(v) for v in voids), suits


def _barred(
    game: TableGame[Any], state: TableState, seat: int, pack: Counter[Card]
) -> tuple[frozenset[Card], ...]:
    """Each seat's cards it cannot hold: a mark of one copy is never a public member's."""
    n = state.config.players
    sides = game.hand_sides(state) if state.phase == "play" else None
    if sides is None or not sides.marks:
        return tuple(frozenset() for _ in range(n))
    single = frozenset(m for m in sides.marks if pack[m] == 1)
    return tuple(single if s in sides.first and s != seat else frozenset() for s in range(n))


def _marks(
    game: TableGame[Any], state: TableState, seat: int, pack: Counter[Card]
) -> tuple[tuple[Card, frozenset[int]], ...]:
    """The unplayed marks another seat must hold, with the seats that may hold them."""
    sides = game.hand_sides(state) if state.phase == "play" else None
    if sides is None or not sides.marks or state.config.game in MARKS_UNKNOWN:
        return ()
    played = dict(getattr(state, "marks_played", ()))
    n = state.config.players
    own = state.hands[seat]
    found = []
    for mark in sides.marks:
        if mark in played or (mark in own and seat not in sides.first):
            continue  # played (public), or the seat itself is the secret holder
        if pack[mark] > 1 and (seat not in sides.first or own.count(mark) >= pack[mark]):
            continue  # with two decks a copy may lie anywhere: only the caller knows more
        seats = frozenset(s for s in range(n) if s != seat and s not in sides.first)
        found.append((mark, seats))
    return tuple(found)


def _shown(
    game: TableGame[Any], state: TableState, seat: int
) -> tuple[tuple[Card, frozenset[int]], ...]:
    """The cards another seat has shown and still holds (``shown_held``), as marks of that seat
    alone, a copy each."""
    return tuple((card, frozenset({s})) for s, card in game.shown_held(state) if s != seat)


def knowledge(state: TableState, seat: int) -> Knowledge:
    """What ``seat`` knows of where the cards are, from the state its view rebuilds."""
    game: TableGame[Any] = get_game(state.config.game)
    pack = Counter(game.pack(state.config))
    own = state.hands[seat]
    seen = _seen(state)
    key = REST_SHOWN.get(state.config.game)
    kitty: Any = getattr(state, "kitty", ())
    rest: Hand | None = None
    if key is not None and game.view(state, seat).get(key) is not None:
        rest = state.rest
    elif kitty and len(kitty) == len(state.rest):
        rest = tuple(sorted(kitty))  # a kitty turned up for all to see
    unknown = pack - Counter(own) - Counter(seen) - Counter(rest or ())
    voids, suit_of = _voids(game, state)
    counted = game.points_played(state) if state.phase == "play" else None
    hidden_points, values = None, None
    if counted is not None:
        values, played_points = counted
        hidden_points = played_points - _points(seen, values)
    return Knowledge(
        seat=seat,
        own=own,
        seen=tuple(sorted(seen)),
        rest=rest,
        rest_size=len(state.rest),
        counts=tuple(len(h) for h in state.hands),
        pool=tuple(sorted(unknown.elements())),
        voids=voids,
        marks=_marks(game, state, seat, pack) + _shown(game, state, seat),
        suit_of=suit_of,
        barred=_barred(game, state, seat, pack),
        hidden_points=hidden_points,
        values=values,
    )


def _allowed(know: Knowledge, seat: int, card: Card) -> bool:
    if know.barred and card in know.barred[seat]:
        return False
    return not know.voids[seat] or know.suit_of[card] not in know.voids[seat]


def _limited(know: Knowledge, seat: int) -> bool:
    return bool(know.voids[seat] or (know.barred and know.barred[seat]))


def deal_unknown(
    know: Knowledge, rng: random.Random
) -> tuple[list[list[Card]], list[Card], list[Card]]:
    """The hidden hands (the seat's own left empty), the unknown kitty and the unseen played
    cards, dealt from ``know.pool`` at random within what the seat knows."""
    n = len(know.counts)
    order = list(know.pool)
    rng.shuffle(order)
    hands: list[list[Card]] = [[] for _ in range(n)]
    others = [s for s in range(n) if s != know.seat]
    missing: list[Card] = []  # marks no seat had room for
    for mark, seats in know.marks:
        room = [
            s for s in sorted(seats) if len(hands[s]) < know.counts[s] and _allowed(know, s, mark)
        ]
        if room and mark in order:
            order.remove(mark)
            hands[rng.choice(room)].append(mark)
        else:
            missing.append(mark)
    played: list[Card] = []
    if know.hidden_points is not None and know.values is not None:
        hidden = len(order) - sum(know.counts[s] - len(hands[s]) for s in others)
        hidden -= 0 if know.rest is not None else know.rest_size
        played, order = _played(order, hidden, know.hidden_points, know.values)
    for s in sorted(others, key=lambda s: -len(know.voids[s])):
        if not _limited(know, s):
            continue
        keep: list[Card] = []
        for card in order:
            if len(hands[s]) < know.counts[s] and _allowed(know, s, card):
                hands[s].append(card)
            else:
                keep.append(card)
        order = keep
    marked = {mark for mark, _ in know.marks}
    for s in others:
        want = know.counts[s] - len(hands[s])
        hands[s] += order[:want]
        order = order[want:]
    rest = [] if know.rest is not None else order[: know.rest_size]
    order = order[len(rest) :] + played
    for mark in missing:  # a mark left over (no seat had room): swap it into a hand
        if mark in order:
            i = order.index(mark)
            holder = next((s for s in others if hands[s] and hands[s][-1] not in marked), None)
            if holder is not None:
                order[i], hands[holder][-1] = hands[holder][-1], mark
    return hands, rest, order


def _played(
    order: list[Card], size: int, points: int, values: Mapping[int, int]
) -> tuple[list[Card], list[Card]]:
    """``size`` cards of ``order`` (shuffled) for the played pile that hold ``points`` points:
    point cards taken in order while they fit, then cards without points; the rest of ``order``.
    Where the cards cannot make the points exactly (the pool is short of one value), as near as
    they come."""
    if size <= 0:
        return [], order
    taken = [False] * len(order)
    left, count = points, 0
    for i, card in enumerate(order):
        value = _value(card, values)
        if value and value <= left and count < size:
            taken[i], left, count = True, left - value, count + 1
    while left > 0:  # short (a value ran out): trade a taken card for a dearer one still free
        trade = next(
            (
                (i, j)
                for i, a in enumerate(order)
                if taken[i]
                for j, b in enumerate(order)
                if not taken[j] and 0 < _value(b, values) - _value(a, values) <= left
            ),
            None,
        )
        if trade is None:
            break
        i, j = trade
        taken[i], taken[j] = False, True
        left -= _value(order[j], values) - _value(order[i], values)
    for plain in (True, False):  # cards without points first; others only if those run out
        for i, card in enumerate(order):
            if count >= size:
                break
            if not taken[i] and (not _value(card, values)) == plain:
                taken[i], count = True, count + 1
    played = [c for c, t in zip(order, taken, strict=True) if t]
    return played, [c for c, t in zip(order, taken, strict=True) if not t]


def speaking_order(game: TableGame[Any], state: TableState) -> tuple[int, ...]:
    """Who speaks next in a speaking round, as far as the seat can tell: a view does not show
    ``to_speak``, so each seat from the one to move on, up to the round's first speaker (打棒's
    exchange: up to the dealer, who does not speak in it)."""
    if state.phase not in game.speaking_phases or state.to_speak or state.turn is None:
        return state.to_speak
    n = state.config.players
    stop = state.said[0][0] if state.said else None
    if state.config.game == "dabang" and state.phase == "exchange":
        stop = getattr(state, "dealer", None)
    order = [state.turn]
    for i in range(1, n):
        nxt = (state.turn + i) % n
        if nxt == stop:
            break
        order.append(nxt)
    return tuple(order)


def _guessed(
    game: TableGame[Any], state: TableState, seat: int, rng: random.Random
) -> dict[str, Any]:
    """The rules' private fields a view does not rebuild, guessed where a play-out needs them:
    the speaking order, and 打棒's first-hand grabs (the suit each big joker names: the seat's
    own where it drew the card that names it, else drawn at random)."""
    changes: dict[str, Any] = {"to_speak": speaking_order(game, state)}
    if (
        state.config.game == "dabang"
        and state.phase == "declare"
        and not getattr(state, "grabs", ())
    ):
        own = dict(getattr(state, "grab_cards", ()))
        speakers = dict.fromkeys([s for s, _ in state.said] + list(changes["to_speak"]))
        changes["grabs"] = tuple(
            (s, own[s] & 3 if s in own else rng.randrange(4)) for s in speakers
        )
    return changes


def sample(
    state: TableState, seat: int, rng: random.Random, know: Knowledge | None = None
) -> TableState:
    """A full state the seat cannot tell from ``state``: the hidden cards dealt at random (and
    the private fields of the rules that a play-out needs guessed, ``_guessed``)."""
    know = know or knowledge(state, seat)
    game: TableGame[Any] = get_game(state.config.game)
    hands, rest, unseen = deal_unknown(know, rng)
    hands[seat] = list(know.own)
    guessed = _guessed(game, state, seat, rng)
    unseen = sorted(unseen)
    changes: dict[str, Any] = {}
    marks = _unplaced_marks(game, state, unseen)
    if marks:  # 板子炮: a called card played, by the seat whose play shows it or by someone
        firsts = marks[0][2]
        players = [s for s in range(state.config.players) if s != seat and s not in firsts]
        played = tuple(
            (m, rng.choice(players) if by is None else by) for m, by, _ in marks if players
        )
        changes["marks_played"] = (*getattr(state, "marks_played", ()), *played)
    changes |= {
        "hands": tuple(tuple(sorted(h)) for h in hands),
        "rest": know.rest if know.rest is not None else tuple(sorted(rest)),
        "discards": (*know.seen, *unseen),  # every game's state has this pile
    }
    return dataclasses.replace(state, **guessed, **changes)


def _unplaced_marks(
    game: TableGame[Any], state: TableState, unseen: list[Card]
) -> list[tuple[Card, int | None, tuple[int, ...]]]:
    """The played marks of a game whose rebuilt state does not record who played them
    (``MARKS_UNKNOWN``), which a play-out needs: (mark, the seat whose play on the table shows
    it, else None, the side's public members)."""
    if state.config.game not in MARKS_UNKNOWN or state.phase != "play":
        return []
    sides = game.hand_sides(state)
    if sides is None:
        return []
    played = dict(getattr(state, "marks_played", ()))
    actions: Any = getattr(state, "actions", ())
    found: list[tuple[Card, int | None, tuple[int, ...]]] = []
    for mark in sides.marks:
        if mark in played:
            continue
        by = next((s for s, cards in enumerate(actions) if cards and mark in cards), None)
        if by is not None or mark in unseen:
            found.append((mark, by, sides.first))
    return found


def problems(
    sampled: TableState, state: TableState, seat: int, know: Knowledge | None = None
) -> list[str]:
    """How ``sampled`` breaks what ``seat`` knows in ``state`` (empty: it does not)."""
    know = know or knowledge(state, seat)
    game: TableGame[Any] = get_game(state.config.game)
    found = []
    if sampled.hands[seat] != state.hands[seat]:
        found.append("the seat's own hand changed")
    if tuple(len(h) for h in sampled.hands) != know.counts:
        found.append("a hand has the wrong number of cards")
    discards: Hand = getattr(sampled, "discards", ())
    piles = Counter(_cards([*sampled.hands, sampled.rest, discards]))
    if piles != Counter(game.pack(state.config)):
        found.append("the piles do not hold the pack exactly")
    if know.rest is not None and sampled.rest != know.rest:
        found.append("the known kitty changed")
    if Counter(know.seen) - Counter(discards):
        found.append("a card seen played is not in the played pile")
    for s, hand in enumerate(sampled.hands):
        if s != seat and any(not _allowed(know, s, c) for c in hand):
            found.append(f"seat {s} holds a card it cannot hold (a void, a mark)")
    for mark, seats in know.marks:
        if not any(mark in sampled.hands[s] for s in seats):
            found.append(f"mark {mark} is not in a hand that may hold it")
    if know.hidden_points is not None and know.values is not None:
        unseen = Counter(discards) - Counter(know.seen)
        if _points(unseen.elements(), know.values) != know.hidden_points:
            found.append("the played cards not seen hold other points than the view tells")
    return found


__all__ = [
    "MARKS_UNKNOWN",
    "REST_SHOWN",
    "Knowledge",
    "deal_unknown",
    "knowledge",
    "problems",
    "sample",
    "speaking_order",
]
