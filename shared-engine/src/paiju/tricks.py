"""The trick-taking core in the table (打棒, and later the 升级/拖拉机 family): ``TrickGame`` plugs
the rules of a trick (``paiju.trick_rules``: trumps, leads, the follow rule, the winner, the
points, the plays to offer) into ``TableGame`` the way ``climbing.ClimbingGame`` plugs in
climbing: ``Play`` and ``Played`` for the cards, a ``trick_won`` event for each trick taken (its
winner, its cards, its points), hooks for the game's order, its rules and its end; ``TrickState``
holds the trick on the table and what each seat has taken.

A trick game imports its core from here: the table's class and state, the core's words, and the
rules' vocabulary it names in its own hooks (``TrumpOrder``, ``FollowRules``, ``TRUMP``,
``points_of``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from paiju.cards import Card, Hand, card_codes, parse_cards, remove_cards
from paiju.errors import RuleError
from paiju.protocol import Command, Event, HandEnded, Play, Played, TrickWon, trusted_play
from paiju.table import Changes, Config, TableGame, TableState
from paiju.trick_rules import (
    FOLLOW,
    NO_KEY,
    TRUMP,
    FollowRules,
    TrumpOrder,
    follow_candidates,
    follow_error,
    lead_candidates,
    lead_of,
    play_key,
    points_of,
)
from paiju.words import Words

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
