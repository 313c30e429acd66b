"""The trick-taking core (打棒, and later the 升级/拖拉机 family): trumps and a level rank, what a
lead may be, how the others must follow, who wins a trick and the points it captures.

Everything a rule text varies is data:

- ``TrumpOrder(suit, level, fixed)``: the card order. Jokers on top (big over small), then the
  level cards (the trump suit's above the others, which are equal among themselves), then each
  rank that is always trump (常主: 打棒's 2s) in the same way, then the rest of the trump suit by
  rank; every other card belongs to its own side suit and is ranked by its rank there. Every trump
  is of one *effective suit*, ``TRUMP``.
- ``FollowRules``: the lead shapes (a kind → the sizes of its units of identical cards: a single
  ``(1,)``, a pair ``(2,)``) and, for each, the order of substitutes a follower must play when he
  has enough cards of the led suit (the first one his hand can make is required), and whether a
  substitute may only be drawn from groups of exactly its size (死棒: a player without a 棒 need
  not break a 三联 to answer one).
- a game's point values per rank.

The follow rule is the one of every trick game (cf. rbtying/shengji's ``TrickFormat``): a player
who holds at least as many cards of the led suit as were led plays only that suit, in the first
shape of the substitute order his hand can make; with fewer, he plays all of them and anything
else. A play wins the trick when it is of the led kind (the same units) in the led suit or in
trumps and ranks strictly above the play on top: of equal cards the first played stays on top.

``TrickGame`` plugs this into ``TableGame`` the way ``climbing.ClimbingGame`` plugs in climbing:
``Play`` and ``Played`` for the cards, a ``trick_won`` event for each trick taken (its winner, its
cards, its points), hooks for the game's order, its rules and its end.

>>> from paiju.cards import format_cards, parse_cards
>>> order = TrumpOrder(suit=1, level=0, fixed=(12,))  # hearts trump, level 3, 2s always trump
>>> [format_cards(sorted(parse_cards(t), key=order.strength)) for t in ["AH 3S 2H 3H 2S BJ"]]
['AH 2S 2H 3S 3H BJ']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar, TypeVar

from paiju.cards import (
    BIG_JOKER,
    SMALL_JOKER,
    Card,
    Hand,
    card_codes,
    parse_cards,
    remove_cards,
)
from paiju.errors import RuleError
from paiju.protocol import Command, Event, HandEnded, Play, Played, TrickWon, trusted_play
from paiju.table import Changes, Config, TableGame, TableState
from paiju.words import Words

TRUMP = 4  # the effective suit of every trump
NO_KEY = -1  # the key of a play that cannot win the trick
FOLLOW = "follow"  # the kind of a play that is not of the led kind (it follows, trumps short or discards)


@dataclass(frozen=True, slots=True)
class TrumpOrder:
    """The order of the cards in a hand with trumps: ``suit`` the trump suit (None: no trump
    suit), ``level`` the level rank (None: none), ``fixed`` the ranks that are always trump,
    strongest first (常主)."""

    suit: int | None
    level: int | None
    fixed: tuple[int, ...] = ()

    def strength(self, card: Card) -> int:
        """The card's place in the order: trumps above 100, a side suit's cards by rank."""
        return _tables(self.suit, self.level, self.fixed)[1][card]

    def suit_of(self, card: Card) -> int:
        """The card's effective suit: ``TRUMP`` for a trump, else its suit."""
        return _tables(self.suit, self.level, self.fixed)[0][card]

    def is_trump(self, card: Card) -> bool:
        return self.suit_of(card) == TRUMP

    def tables(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(effective suit, strength) of every card code, indexed by the code (the hot path)."""
        return _tables(self.suit, self.level, self.fixed)


@lru_cache(maxsize=256)
def _tables(
    suit: int | None, level: int | None, fixed: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    size = BIG_JOKER + 1
    suits = [0] * size
    strengths = [0] * size
    tiers: list[list[Card]] = [[BIG_JOKER], [SMALL_JOKER]]
    special = [r for r in (level, *fixed) if r is not None]
    for rank in dict.fromkeys(special):  # the level first, then the fixed ranks; each once
        own = [rank * 4 + suit] if suit is not None else []
        tiers += [own, [rank * 4 + s for s in range(4) if s != suit]]
    if suit is not None:
        tiers += [[r * 4 + suit] for r in range(12, -1, -1) if r not in special]
    top = 100 + len(tiers)
    for i, tier in enumerate(tiers):
        for card in tier:
            suits[card] = TRUMP
            strengths[card] = top - i
    for card in range(52):
        if suits[card] != TRUMP:
            suits[card] = card & 3
            strengths[card] = card >> 2
    return tuple(suits), tuple(strengths)


@dataclass(frozen=True, slots=True)
class FollowRules:
    """What a lead may be and how it is followed.

    leads: lead kind → its units, sizes of groups of identical cards, largest first.
    substitutes: lead kind → the shapes a follower holding enough of the led suit must play, in
        order (the first his hand can make is required; the last is usually all singles).
    exact: lead kinds whose substitutes draw only on groups of exactly their size (死棒: "没棒有
        三联、四联时可以不出").
    """

    leads: Mapping[str, tuple[int, ...]]
    substitutes: Mapping[str, tuple[tuple[int, ...], ...]]
    exact: frozenset[str] = field(default_factory=frozenset)

    def kind_of(self, units: tuple[int, ...]) -> str | None:
        for kind, shape in self.leads.items():
            if shape == units:
                return kind
        return None


def units_of(cards: Iterable[Card]) -> tuple[int, ...]:
    """The sizes of the groups of identical cards, largest first."""
    return tuple(sorted(Counter(cards).values(), reverse=True))


def can_make(shape: Sequence[int], groups: Sequence[int], exact: bool = False) -> bool:
    """Whether groups of identical cards (their sizes) hold ``shape``: each unit of two or more
    from a group of its own at least as large (``exact``: exactly as large); singles from any card
    left over."""
    free = sum(groups)
    if free < sum(shape):
        return False
    pool = sorted(groups, reverse=True)
    for unit in sorted(shape, reverse=True):
        if unit == 1:
            break
        fit = [g for g in pool if (g == unit if exact else g >= unit)]
        if not fit:
            return False
        pool.remove(fit[-1] if not exact else unit)  # the smallest group that fits
    return True


def lead_of(rules: FollowRules, order: TrumpOrder, cards: Sequence[Card]) -> tuple[str, int] | None:
    """(kind, effective suit) of a lead, or None when the cards are no lead (mixed suits, a shape
    that is not a lead kind)."""
    if not cards:
        return None
    suits, _ = order.tables()
    suit = suits[cards[0]]
    if any(suits[c] != suit for c in cards):
        return None
    kind = rules.kind_of(units_of(cards))
    return None if kind is None else (kind, suit)


def follow_error(
    rules: FollowRules,
    order: TrumpOrder,
    kind: str,
    suit: int,
    hand: Sequence[Card],
    cards: Sequence[Card],
) -> str | None:
    """Why ``cards`` may not follow a lead of ``kind`` in effective ``suit`` from ``hand`` (an error
    code), or None when they may. ``cards`` are in ``hand``."""
    size = sum(rules.leads[kind])
    if len(cards) != size:
        return "wrong_number_of_cards"
    suits, _ = order.tables()
    held = [c for c in hand if suits[c] == suit]
    played = [c for c in cards if suits[c] == suit]
    if len(played) < min(size, len(held)):
        return "must_follow_suit"
    if len(held) < size:
        return None  # all of the suit, and anything else
    shape = required_shape(rules, kind, held)
    if shape is None or can_make(shape, list(Counter(played).values())):
        return None
    return "must_follow_shape"


def required_shape(rules: FollowRules, kind: str, held: Sequence[Card]) -> tuple[int, ...] | None:
    """The first substitute for a lead of ``kind`` that the cards ``held`` of the led suit can make
    (what a follower must play), or None when none can (any cards of the suit will do). A play
    that makes an earlier substitute makes this one too: the substitutes go from the led shape
    down."""
    groups = list(Counter(held).values())
    exact = kind in rules.exact
    for shape in rules.substitutes[kind]:
        if can_make(shape, groups, exact):
            return shape
    return None


def play_key(
    rules: FollowRules, order: TrumpOrder, kind: str, suit: int, cards: Sequence[Card]
) -> int:
    """How a play ranks in a trick led with ``kind`` in ``suit``: the strength of its top card
    when it is of the led kind in the led suit or in trumps, else ``NO_KEY``."""
    suits, strengths = order.tables()
    own = suits[cards[0]]
    if (own != suit and own != TRUMP) or any(suits[c] != own for c in cards):
        return NO_KEY
    if units_of(cards) != rules.leads[kind]:
        return NO_KEY
    return max(strengths[c] for c in cards)  # a trump (above 100) beats every side-suit card


def trick_winner(
    rules: FollowRules, order: TrumpOrder, plays: Sequence[tuple[int, Hand]]
) -> tuple[int, int]:
    """(seat, key) of the winner of a trick, its plays in the order played (the lead first): the
    highest play of the led kind; of equal plays the first stays on top."""
    lead = lead_of(rules, order, plays[0][1])
    if lead is None:
        raise ValueError("the first play of a trick is not a lead")
    kind, suit = lead
    best_seat, best = plays[0][0], play_key(rules, order, kind, suit, plays[0][1])
    for seat, cards in plays[1:]:
        key = play_key(rules, order, kind, suit, cards)
        if key > best:
            best_seat, best = seat, key
    return best_seat, best


def points_of(cards: Iterable[Card], values: Mapping[int, int]) -> int:
    """The points among ``cards``: ``values`` maps a rank to its points."""
    return sum(values.get(c >> 2, 0) for c in cards)


def lead_candidates(rules: FollowRules, order: TrumpOrder, hand: Sequence[Card]) -> list[Hand]:
    """Every distinct lead in ``hand`` (one per card code and lead kind)."""
    counts = Counter(hand)
    out: list[Hand] = []
    for units in rules.leads.values():
        if len(units) != 1:
            continue  # leads of several units (a tractor) would be generated here
        n = units[0]
        out += [(c,) * n for c in sorted(counts) if counts[c] >= n]
    return out


def follow_candidates(
    rules: FollowRules,
    order: TrumpOrder,
    kind: str,
    suit: int,
    hand: Sequence[Card],
    values: Mapping[int, int],
) -> list[Hand]:
    """Legal follows of a lead to offer: every way of answering in the led suit (each distinct
    multiset), and when the suit runs short the required cards with a few fillers — each trump
    play of the led kind that could win, the lowest cards, and the most points. ``follow_error``
    accepts any legal follow; this lists what a player reasonably chooses among."""
    size = sum(rules.leads[kind])
    suits, strengths = order.tables()
    held = sorted(c for c in hand if suits[c] == suit)
    if len(held) >= size:
        shape = required_shape(rules, kind, held)
        return sorted(
            p
            for p in _multisets(held, size)
            if shape is None or can_make(shape, list(Counter(p).values()))
        )
    rest = remove_cards(tuple(hand), held) or ()
    need = size - len(held)
    fills: set[Hand] = set()
    if not held and suit != TRUMP:
        units = rules.leads[kind]
        trumps = Counter(c for c in rest if suits[c] == TRUMP)
        if len(units) == 1:
            fills |= {(c,) * units[0] for c, k in trumps.items() if k >= units[0]}
    by_low = sorted(
        rest, key=lambda c: (values.get(c >> 2, 0) > 0, suits[c] == TRUMP, strengths[c])
    )
    fills.add(tuple(by_low[:need]))
    by_points = sorted(
        rest, key=lambda c: (-values.get(c >> 2, 0), suits[c] == TRUMP, strengths[c])
    )
    fills.add(tuple(by_points[:need]))
    return sorted({tuple(sorted((*held, *f))) for f in fills if len(f) == need})


def _multisets(cards: Sequence[Card], size: int) -> set[Hand]:
    """Every distinct sub-multiset of ``size`` cards (by counts: fast with many copies)."""
    counts = sorted(Counter(cards).items())
    out: set[Hand] = set()

    def rec(i: int, left: int, acc: tuple[Card, ...]) -> None:
        if left == 0:
            out.add(acc)
            return
        if i == len(counts):
            return
        card, k = counts[i]
        for take in range(min(k, left), -1, -1):
            rec(i + 1, left - take, acc + (card,) * take)

    rec(0, size, ())
    return out


# the trick core's words, shared by its games (a game's words are merged(CORE_WORDS, TRICK_WORDS,
# its own))
TRICK_WORDS = Words(
    phases={"play": ("出牌中", "playing")},
    kinds={"single": ("单张", "single"), FOLLOW: ("跟牌/垫牌", "follow / discard")},
    events={
        "played": ("{name} 出 {cards}（{kind}）", "{name} plays {cards} ({kind})"),
        "trick_won": ("{name} 赢得这一圈", "{name} takes the trick"),
    },
    roles={"winning": ("大", "On top"), "last_winner": ("上圈最大", "Took the last trick")},
    seat_figures={"points_won": ("得分", "points"), "tricks_won": ("赢圈数", "tricks")},
    hidden={
        "trick_order": "the order of the plays in the trick area",
        "winning_key": "how high the play on top ranks (for the client's checks)",
        "last_trick": "the last trick, shown on request",
    },
)


# --- the core in the table ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TrickState(TableState):
    trump_suit: int | None = None
    level_rank: int | None = None
    actions: tuple[Hand | None, ...] = ()  # this trick: each seat's play, None nothing yet
    trick_leader: int | None = None
    trick_order: tuple[int, ...] = ()  # seats in the order they played this trick
    winning: int | None = None  # the seat on top of the trick so far
    winning_key: int = NO_KEY
    discards: Hand = ()  # every card played this hand, in order
    points_won: tuple[int, ...] = ()  # points captured by each seat's tricks
    tricks_won: tuple[int, ...] = ()
    last_trick: tuple[Hand | None, ...] = ()  # the trick taken last, each seat's play
    last_winner: int | None = None


T = TypeVar("T", bound=TrickState)


class TrickGame(TableGame[T]):
    """A game of tricks: hooks ``trump_order``, ``follow_rules``, ``point_values``, ``score``."""

    state_type = TrickState
    follow_rules: ClassVar[FollowRules]
    point_values: ClassVar[Mapping[int, int]] = {}

    def __init__(self) -> None:
        super().__init__()
        self.handle(Play, self._decide_play)
        self.evolve_by(Played, self._on_played)
        self.evolve_by(TrickWon, self._on_trick_won)

    # --- hooks ----------------------------------------------------------------------------------

    def trump_order(self, state: T) -> TrumpOrder:
        return TrumpOrder(state.trump_suit, state.level_rank)

    def rules_of(self, state: T) -> FollowRules:
        """The follow rules of this table (a game whose options change them overrides this)."""
        return self.follow_rules

    def trick_taken(self, state: T, event: TrickWon) -> Changes:
        """A game's own changes when a trick is taken (the core has counted its points)."""
        return {}

    def hand_over(self, state: T) -> bool:
        """After a trick: is the hand over? Default: every hand is empty."""
        return not any(state.hands)

    def score(self, state: T) -> HandEnded:
        raise NotImplementedError

    # --- decide -------------------------------------------------------------------------------

    def play_error(self, state: T, seat: int, cards: Hand) -> str | None:
        """Why ``seat`` may not play ``cards`` now (an error code), or None."""
        hand = state.hands[seat]
        if remove_cards(hand, cards) is None:
            return "not_in_hand"
        rules, order = self.rules_of(state), self.trump_order(state)
        if state.trick_leader is None:
            return None if lead_of(rules, order, cards) is not None else "not_a_lead"
        lead = lead_of(rules, order, state.actions[state.trick_leader] or ())
        assert lead is not None
        return follow_error(rules, order, lead[0], lead[1], hand, cards)

    def decide_cards(self, state: T, command: Play) -> list[Event]:
        """A selection of cards sent outside the play of tricks (a kitty buried): the game's."""
        raise RuleError("wrong_phase", phase=self.phase_name(state.phase))

    def _decide_play(self, state: T, command: Play) -> list[Event]:
        if state.phase != "play":
            return self.decide_cards(state, command)
        seat, cards = command.seat, tuple(sorted(command.cards))
        if seat != state.turn:
            raise RuleError("not_your_turn")
        if not cards:
            raise RuleError("empty_play")
        error = self.play_error(state, seat, cards)
        codes = card_codes(cards)
        if error is not None:
            raise RuleError(error, codes, play=" ".join(codes))
        rules, order = self.rules_of(state), self.trump_order(state)
        if state.trick_leader is None:
            found = lead_of(rules, order, cards)
            assert found is not None
            kind, key = found[0], play_key(rules, order, found[0], found[1], cards)
        else:
            lead = lead_of(rules, order, state.actions[state.trick_leader] or ())
            assert lead is not None
            key = play_key(rules, order, lead[0], lead[1], cards)
            kind = lead[0] if key != NO_KEY else FOLLOW
        played = Played(seat=seat, cards=cards, kind=kind, key=key, stands_for=())
        events: list[Event] = [played]
        after = self.evolve(state, played)
        if len(after.trick_order) == state.config.players:
            plays = tuple(after.actions[s] or () for s in after.trick_order)
            won = TrickWon(
                seat=after.winning if after.winning is not None else seat,
                cards=tuple(c for p in plays for c in p),
                kind=str(self._lead_kind(after)),
                key=after.winning_key,
            )
            events.append(won)
            after = self.evolve(after, won)
            if self.hand_over(after):
                events.append(self.score(after))
        return events

    def _lead_kind(self, state: T) -> str | None:
        if state.trick_leader is None:
            return None
        order = self.trump_order(state)
        lead = lead_of(self.rules_of(state), order, state.actions[state.trick_leader] or ())
        return None if lead is None else lead[0]

    # --- evolve ---------------------------------------------------------------------------------

    def start_hand(self, state: T) -> Changes:
        n = state.config.players
        return {
            "actions": (None,) * n,
            "trick_leader": None,
            "trick_order": (),
            "winning": None,
            "winning_key": NO_KEY,
            "discards": (),
            "points_won": (0,) * n,
            "tricks_won": (0,) * n,
            "last_trick": (),
            "last_winner": None,
        }

    def _on_played(self, state: T, event: Played) -> Changes:
        seat = event.seat
        hands = list(state.hands)
        hands[seat] = remove_cards(hands[seat], event.cards) or ()
        actions = list(state.actions)
        actions[seat] = event.cards
        first = state.trick_leader is None
        on_top = first or event.key > state.winning_key
        return {
            "hands": tuple(hands),
            "actions": tuple(actions),
            "trick_leader": seat if first else state.trick_leader,
            "trick_order": (*state.trick_order, seat),
            "winning": seat if on_top else state.winning,
            "winning_key": event.key if on_top else state.winning_key,
            "discards": state.discards + event.cards,
            "turn": (seat + 1) % state.config.players,
        }

    def _on_trick_won(self, state: T, event: TrickWon) -> Changes:
        points = list(state.points_won)
        points[event.seat] += points_of(event.cards, self.point_values)
        won = list(state.tricks_won)
        won[event.seat] += 1
        n = state.config.players
        changes: Changes = {
            "points_won": tuple(points),
            "tricks_won": tuple(won),
            "last_trick": state.actions,
            "last_winner": event.seat,
            "actions": (None,) * n,
            "trick_leader": None,
            "trick_order": (),
            "winning": None,
            "winning_key": NO_KEY,
            "turn": event.seat,
            "leader": event.seat,
        }
        return changes | self.trick_taken(state, event)

    # --- queries --------------------------------------------------------------------------------

    def play_candidates(self, state: T, seat: int) -> list[Hand]:
        rules, order = self.rules_of(state), self.trump_order(state)
        hand = state.hands[seat]
        if state.trick_leader is None:
            return lead_candidates(rules, order, hand)
        lead = lead_of(rules, order, state.actions[state.trick_leader] or ())
        assert lead is not None
        return follow_candidates(rules, order, lead[0], lead[1], hand, self.point_values)

    def legal_moves(self, state: T, seat: int) -> list[Command]:
        if state.phase != "play" or seat != state.turn:
            return []
        return [trusted_play(seat, cards) for cards in self.play_candidates(state, seat)]

    def bot_choice(self, state: T, seat: int, moves: list[Command]) -> Command:
        """In play: lead the strongest single of a side suit (else the lowest trump); follow by
        winning cheaply when the trick is an opponent's, giving points when it is a partner's, and
        shedding the lowest cards otherwise."""
        if state.phase != "play":
            return super().bot_choice(state, seat, moves)
        plays = [m for m in moves if isinstance(m, Play)]
        if not plays:
            return moves[0]
        order = self.trump_order(state)
        suits, strengths = order.tables()
        values = self.point_values

        def weight(cards: Hand) -> tuple[int, int]:
            return sum(strengths[c] + (60 if suits[c] == TRUMP else 0) for c in cards), -len(cards)

        if state.trick_leader is None:
            side = [p for p in plays if suits[p.cards[0]] != TRUMP]
            pool = side or plays
            return max(pool, key=lambda p: (len(p.cards), strengths[p.cards[0]]))
        partner = (seat + 2) % state.config.players
        keys = {id(p): self._key_now(state, p.cards) for p in plays}
        winners = [p for p in plays if keys[id(p)] > state.winning_key]
        if state.winning == partner and state.config.players == 4:
            return max(plays, key=lambda p: (points_of(p.cards, values), -weight(p.cards)[0]))
        if winners:
            return min(winners, key=lambda p: keys[id(p)])
        return min(plays, key=lambda p: (points_of(p.cards, values), weight(p.cards)))

    def _key_now(self, state: T, cards: Hand) -> int:
        rules, order = self.rules_of(state), self.trump_order(state)
        lead = lead_of(rules, order, state.actions[state.trick_leader or 0] or ())
        if lead is None:
            return NO_KEY
        return play_key(rules, order, lead[0], lead[1], cards)

    def hand_strength(self, state: T, card: Card) -> int | None:
        """Trumps first, strongest on the left, then each side suit in notation order (♠ ♥ ♣ ♦),
        high to low: a hand grouped by trumps and suits."""
        suits, strengths = self.trump_order(state).tables()
        if suits[card] == TRUMP:
            return strengths[card]
        return (3 - suits[card]) * 16 + strengths[card]

    def view_extra(self, state: T, seat: int | None) -> dict[str, Any]:
        lead_cards = state.actions[state.trick_leader] if state.trick_leader is not None else None
        lead_kind = self._lead_kind(state)
        return {
            "lead": None
            if lead_cards is None
            else {
                "seat": state.trick_leader,
                "kind": lead_kind,
                "cards": card_codes(lead_cards),
                "suit": self.trump_order(state).suit_of(lead_cards[0]),
            },
            "actions": [None if a is None else card_codes(a) for a in state.actions],
            "out": [],
            "benched": [],
            "trick_order": list(state.trick_order),
            "winning": state.winning,
            "winning_key": state.winning_key,
            "points_won": list(state.points_won),
            "tricks_won": list(state.tricks_won),
            "last_trick": [None if a is None else card_codes(a) for a in state.last_trick],
            "last_winner": state.last_winner,
        }

    def public_state(self, config: Config[Any], view: Mapping[str, Any]) -> Changes:
        """The trick on the table and what was taken, as a seat's view shows them."""
        actions = tuple(None if a is None else parse_cards(a) for a in view.get("actions") or ())
        lead = view.get("lead")
        return {
            "actions": actions,
            "trick_leader": None if lead is None else int(lead["seat"]),
            "trick_order": tuple(view.get("trick_order") or ()),
            "winning": view.get("winning"),
            "winning_key": int(view.get("winning_key", NO_KEY)),
            "points_won": tuple(view.get("points_won") or ()),
            "tricks_won": tuple(view.get("tricks_won") or ()),
            "last_trick": tuple(
                None if a is None else parse_cards(a) for a in view.get("last_trick") or ()
            ),
            "last_winner": view.get("last_winner"),
        }


__all__ = [
    "FOLLOW",
    "NO_KEY",
    "TRICK_WORDS",
    "TRUMP",
    "FollowRules",
    "TrickGame",
    "TrickState",
    "TrumpOrder",
    "can_make",
    "follow_candidates",
    "follow_error",
    "lead_candidates",
    "lead_of",
    "play_key",
    "points_of",
    "required_shape",
    "trick_winner",
    "units_of",
]
