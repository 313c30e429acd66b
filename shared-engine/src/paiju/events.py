"""The events: what happened, past tense (``Dealt``, ``Played``, ``HandEnded``), appended to a log.

``evolve`` trusts an event (``decide`` produced it). Each event type has a schema version
(``VERSION``) that its JSON form carries (``paiju.codec`` upcasts an older one) and names the
command that causes it (``as_command``), which is how the audit replays a log. Here too are the
value records a hand's end carries (``ScoreLine``, ``ResultLine``). Games add their own events by
subclassing ``Event`` and registering them (``codec.register``). Import these through
``paiju.protocol``, the one import of the protocol.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from paiju.cards import Card, Hand
from paiju.commands import (
    Abandon,
    AddSeed,
    AutoPlay,
    Bid,
    CallCard,
    Close,
    Command,
    CommitDeal,
    Continue,
    EndAtLimit,
    Message,
    Pass,
    Play,
    Reading,
    RevealSeed,
    SeatBot,
    SetAuto,
    Talk,
)


@dataclass(frozen=True, slots=True)
class Event(Message):
    """A fact, appended to the log. ``evolve`` trusts events; ``decide`` produced them.

    ``VERSION`` is the type's schema version; ``as_command`` the command that causes the event
    (None for an event that follows from another: the audit replays the command and expects the
    rest)."""

    VERSION: ClassVar[int] = 1

    def as_command(self) -> Command | None:
        return None

    def line_key(self) -> str:
        """The key of the line that tells this event in a game's words (``Words.events``): its
        type, or a finer key where one type is told several ways (``auto_set.on.timeout``)."""
        return self.TYPE


@dataclass(frozen=True, slots=True)
class DealCommitted(Event):
    TYPE: ClassVar[str] = "deal_committed"
    hand_no: int
    commitment: str

    def as_command(self) -> Command:
        return CommitDeal(commitment=self.commitment)


@dataclass(frozen=True, slots=True)
class SeedAdded(Event):
    TYPE: ClassVar[str] = "seed_added"
    seat: int
    seed: str

    def as_command(self) -> Command:
        return AddSeed(seat=self.seat, seed=self.seed)


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """The hand as dealt. ``hands``: each seat's cards in the order it received them; ``rest``:
    the undealt cards (a kitty) in pack order; ``face_up``: cards turned face up in the deal (a
    game's choice, e.g. to decide a dealer); ``scheme``: how the pack was handed out
    (``DEAL_SCHEMES``; schema-1 logs, upcast, are ``blocks`` with sorted hands)."""

    VERSION: ClassVar[int] = 2
    TYPE: ClassVar[str] = "dealt"
    hand_no: int
    hands: tuple[Hand, ...]
    rest: Hand
    face_up: Hand
    leader: int
    scheme: str


@dataclass(frozen=True, slots=True)
class Played(Event):
    """A play as the rules read it: its combination ``kind`` and comparison ``key``, and what each
    wildcard ``stands_for`` — together, the reading."""

    VERSION: ClassVar[int] = 2
    TYPE: ClassVar[str] = "played"
    seat: int
    cards: Hand
    kind: str
    key: int
    stands_for: Hand

    def as_command(self) -> Command:
        reading = Reading(kind=self.kind, stands_for=self.stands_for)
        return Play(seat=self.seat, cards=self.cards, reading=reading)


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    """Everybody else passed: ``seat`` wins the trick with its top play (``kind``, ``key``);
    ``cards`` are every card played in the trick, in order (what a capturing game captures)."""

    TYPE: ClassVar[str] = "trick_won"
    seat: int
    cards: Hand
    kind: str
    key: int


@dataclass(frozen=True, slots=True)
class Passed(Event):
    TYPE: ClassVar[str] = "passed"
    seat: int

    def as_command(self) -> Command:
        return Pass(seat=self.seat)


@dataclass(frozen=True, slots=True)
class BidMade(Event):
    TYPE: ClassVar[str] = "bid_made"
    seat: int
    bid: str

    def as_command(self) -> Command:
        return Bid(seat=self.seat, bid=self.bid)


@dataclass(frozen=True, slots=True)
class CardCalled(Event):
    """The card is named in public; who holds it is not said."""

    TYPE: ClassVar[str] = "card_called"
    seat: int
    card: Card

    def as_command(self) -> Command:
        return CallCard(seat=self.seat, card=self.card)


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One line of a score sheet: ``payer`` pays ``payee`` ``amount`` for ``reason``."""

    reason: str
    payer: int
    payee: int
    amount: int


@dataclass(frozen=True, slots=True)
class ResultLine:
    """One line of a hand's result that is not a payment: ``seat`` gets ``value`` of ``reason``
    (levels gained, cards of tribute owed, a multiplier), as the game defines it."""

    reason: str
    seat: int
    value: int


def net_scores(lines: Sequence[ScoreLine], players: int) -> tuple[int, ...]:
    """Each seat's net score from the lines of a score sheet."""
    scores = [0] * players
    for line in lines:
        scores[line.payer] -= line.amount
        scores[line.payee] += line.amount
    return tuple(scores)


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """The hand is over: finishing order, the score sheet's payment lines, each seat's net score,
    and the result lines that are not payments (``results``: levels, tribute, 番)."""

    VERSION: ClassVar[int] = 2
    TYPE: ClassVar[str] = "hand_ended"
    hand_no: int
    order: tuple[int, ...]
    lines: tuple[ScoreLine, ...]
    scores: tuple[int, ...]
    results: tuple[ResultLine, ...] = ()


@dataclass(frozen=True, slots=True)
class SeedRevealed(Event):
    TYPE: ClassVar[str] = "seed_revealed"
    hand_no: int
    seed: str

    def as_command(self) -> Command:
        return RevealSeed(seed=self.seed)


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    TYPE: ClassVar[str] = "match_ended"
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TableAbandoned(Event):
    """Nobody was connected: the match ends with the scores as they stand (``totals``, those of
    the hands already scored); ``match_ended`` follows in the same append."""

    TYPE: ClassVar[str] = "table_abandoned"
    totals: tuple[int, ...]

    def as_command(self) -> Command:
        return Abandon()


@dataclass(frozen=True, slots=True)
class TableAtLimit(Event):
    """The log reached the table service's bound of ``limit`` events: the match ends with the
    scores as they stand (``totals``); ``match_ended`` follows in the same append."""

    TYPE: ClassVar[str] = "table_at_limit"
    totals: tuple[int, ...]
    limit: int

    def as_command(self) -> Command:
        return EndAtLimit(limit=self.limit)


@dataclass(frozen=True, slots=True)
class TableClosed(Event):
    """The owner closed the table before its first deal; ``match_ended`` follows in the same
    append."""

    TYPE: ClassVar[str] = "table_closed"

    def as_command(self) -> Command:
        return Close()


@dataclass(frozen=True, slots=True)
class AutoSet(Event):
    """A seat's 托管 was switched on or off, and why (``AUTO_REASONS``)."""

    TYPE: ClassVar[str] = "auto_set"
    seat: int
    on: bool
    reason: str

    def as_command(self) -> Command:
        return SetAuto(seat=self.seat, on=self.on, reason=self.reason)

    def line_key(self) -> str:
        return f"{self.TYPE}.{'on' if self.on else 'off'}.{self.reason}"


@dataclass(frozen=True, slots=True)
class AutoPlayed(Event):
    """The next command of ``seat`` was decided by the server (``AUTO_PLAY_REASONS``)."""

    TYPE: ClassVar[str] = "auto_played"
    seat: int
    reason: str

    def as_command(self) -> Command:
        return AutoPlay(seat=self.seat, reason=self.reason)

    def line_key(self) -> str:
        return f"{self.TYPE}.{self.reason}"


@dataclass(frozen=True, slots=True)
class Continued(Event):
    """The seat pressed 继续 after the hand ended."""

    TYPE: ClassVar[str] = "continued"
    seat: int

    def as_command(self) -> Command:
        return Continue(seat=self.seat)


@dataclass(frozen=True, slots=True)
class Talked(Event):
    """A seat's table talk (``Talk``): a 快捷语 or an emote, shown to the table and spectators."""

    TYPE: ClassVar[str] = "talked"
    seat: int
    talk: str

    def as_command(self) -> Command:
        return Talk(seat=self.seat, talk=self.talk)


@dataclass(frozen=True, slots=True)
class BotSeated(Event):
    """A bot plays ``seat`` at ``level`` (``SeatBot``), recorded before the first deal."""

    TYPE: ClassVar[str] = "bot_seated"
    seat: int
    level: str

    def as_command(self) -> Command:
        return SeatBot(seat=self.seat, level=self.level)
