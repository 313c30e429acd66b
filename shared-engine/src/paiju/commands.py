"""The commands: what a seat or the table asks for, imperative (``Play``, ``Bid``, ``Deal``).

A command is a request that ``decide`` checks against the rules and answers with events
(``paiju.events``); its JSON form is ``paiju.codec``'s. ``Message``, the base of commands and
events alike (a stable tag, ``TYPE``), is here because an event names the command that causes it
(``Event.as_command``): events import commands, never the other way. Games add their own commands
by subclassing ``Command`` and registering them (``codec.register``). Import these through
``paiju.protocol``, the one import of the protocol.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from paiju.cards import Card, Hand

# How a deal hands out the shuffled pack (docs/log-format.md): ``round`` card by card round the
# table, as the games are dealt; ``blocks`` (logs of schema 1) each seat a block of the pack.
DEAL_SCHEMES = ("round", "blocks")


@dataclass(frozen=True, slots=True)
class Message:
    """A command or an event: its type's stable tag (``TYPE``), which its JSON form carries."""

    TYPE: ClassVar[str] = ""


@dataclass(frozen=True, slots=True)
class Command(Message):
    """A request. ``seat`` is None for the table's own commands (the deal)."""

    def normalised(self) -> Command:
        """The one form of this command that ``decide`` checks: two commands that differ only in
        the order of a set they list (a play's cards, the cards its wildcards stand for) are the
        same command. Most commands have one form already."""
        return self


# --- the table's commands: the deal and its fairness -------------------------------------------


@dataclass(frozen=True, slots=True)
class CommitDeal(Command):
    TYPE: ClassVar[str] = "commit_deal"
    commitment: str


@dataclass(frozen=True, slots=True)
class AddSeed(Command):
    TYPE: ClassVar[str] = "add_seed"
    seat: int
    seed: str


@dataclass(frozen=True, slots=True)
class Deal(Command):
    """Deal the hand from the server seed (its commitment was published). ``scheme`` is how the
    shuffled pack is handed out; only the audit of a schema-1 log asks for ``blocks``."""

    TYPE: ClassVar[str] = "deal"
    seed: str
    scheme: str = "round"


@dataclass(frozen=True, slots=True)
class RevealSeed(Command):
    TYPE: ClassVar[str] = "reveal_seed"
    seed: str


# --- a seat's commands in a climbing game ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reading:
    """Which combination a selection is meant as (its kind) and the cards its wildcards stand for
    (empty without wildcards): a multiset, in any order; ``normalised`` sorts it."""

    kind: str
    stands_for: Hand = ()

    def normalised(self) -> Reading:
        stands_for = tuple(sorted(self.stands_for))
        return self if stands_for == self.stands_for else Reading(self.kind, stands_for)


@dataclass(frozen=True, slots=True)
class Play(Command):
    """Play cards; ``reading`` names the combination meant where the cards can be read several
    ways (a game refuses such a selection without one: ``ambiguous_reading``)."""

    TYPE: ClassVar[str] = "play"
    seat: int
    cards: Hand
    reading: Reading | None = None

    def normalised(self) -> Play:
        """The cards sorted, and the cards the wildcards stand for (``Reading.normalised``)."""
        cards = tuple(sorted(self.cards))
        reading = None if self.reading is None else self.reading.normalised()
        if cards == self.cards and reading is self.reading:
            return self
        return Play(seat=self.seat, cards=cards, reading=reading)


_new = object.__new__
# each field's slot written past the frozen ``__setattr__`` by its own descriptor (as
# ``paiju.changes`` copies a state): about twice as fast as ``object.__setattr__``
_set_seat = vars(Play)["seat"].__set__
_set_cards = vars(Play)["cards"].__set__
_set_reading = vars(Play)["reading"].__set__


def trusted_play(seat: int, cards: Hand, reading: Reading | None = None) -> Play:
    """``Play(seat, cards, reading)`` made without ``__init__``'s keyword handling: the hot path
    of ``legal_moves``, which makes a play for every candidate (the engine's own, trusted
    values: nothing is checked either way)."""
    play: Play = _new(Play)
    _set_seat(play, seat)
    _set_cards(play, cards)
    _set_reading(play, reading)
    return play


@dataclass(frozen=True, slots=True)
class Pass(Command):
    TYPE: ClassVar[str] = "pass"
    seat: int


# --- a seat's commands in a bidding game ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Bid(Command):
    """A seat's word in an auction; which words exist (板子炮: ``bao``, ``fanbao``, ``pass``) is the
    game's."""

    TYPE: ClassVar[str] = "bid"
    seat: int
    bid: str


@dataclass(frozen=True, slots=True)
class CallCard(Command):
    """A seat names a card: its holder becomes the caller's partner (叫牌, 找朋友)."""

    TYPE: ClassVar[str] = "call_card"
    seat: int
    card: Card


# --- a seat's presence: 托管 (the server plays for it), an automatic play, 继续 between hands ------

# why a seat's 托管 was switched: the player did (``self``), his deadline passed (``timeout``), he
# acted while in 托管 (``acted``), he left his seat during the match (``left``: on only, and for
# good: the seat is played by the server to the match's end); why the server played for a seat:
# its deadline passed (``timeout``), it is in 托管 (``auto``)
AUTO_REASONS = ("self", "timeout", "acted", "left")
AUTO_PLAY_REASONS = ("timeout", "auto")


@dataclass(frozen=True, slots=True)
class SetAuto(Command):
    """Switch a seat's 托管 on or off. A seat sends it with ``reason`` ``self``; the table service
    sends ``timeout`` (on) when a deadline passes, ``acted`` (off) when a seat in 托管 acts and
    ``left`` (on, for good) when its player leaves during the match."""

    TYPE: ClassVar[str] = "set_auto"
    seat: int
    on: bool
    reason: str = "self"


@dataclass(frozen=True, slots=True)
class AutoPlay(Command):
    """The table service announces that the next command of ``seat`` (in the same append) is its
    own choice for the seat, not the player's: ``reason`` ``timeout`` or ``auto``."""

    TYPE: ClassVar[str] = "auto_play"
    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class AutoMove(Command):
    """The table service plays for ``seat``, whose deadline passed or who is in 托管, as one
    command: 托管 on first if it is off (``auto_set``, reason ``timeout``), the marker
    ``auto_played`` (``timeout``, or ``auto`` for a seat in 托管 already), then the events of the
    bot's move for the seat. No event names it: the log holds those events, each of which the
    audit replays by its own command."""

    TYPE: ClassVar[str] = "auto_move"
    seat: int


@dataclass(frozen=True, slots=True)
class Continue(Command):
    """继续: the seat has seen the hand's score sheet and is ready for the next deal. ``seed``:
    the player's own contribution to that deal's shuffle (``SeedAdded`` follows ``Continued``),
    given while the next deal is committed to and not yet dealt."""

    TYPE: ClassVar[str] = "continue"
    seat: int
    seed: str | None = None


# --- a bot at the table: which seats bots play, and at which level ---------------------------


@dataclass(frozen=True, slots=True)
class SeatBot(Command):
    """The table service records that a bot plays ``seat``, at ``level`` (``paiju.levels``: a
    level id of ``words.LEVEL_NAMES``), before the first deal: public, so that the seats, the
    spectators and the replay know who plays against whom. A seat never sends it."""

    TYPE: ClassVar[str] = "seat_bot"
    seat: int
    level: str


# --- table talk: a word to the table, not a move ----------------------------------------------


@dataclass(frozen=True, slots=True)
class Talk(Command):
    """快捷语 or an emote: ``talk`` names one of the table's fixed words (``CORE_WORDS``'
    ``commands["talk"]``: no free text, nothing to moderate). Table talk, not a move: it changes
    no hand, no turn and no clock."""

    TYPE: ClassVar[str] = "talk"
    seat: int
    talk: str


@dataclass(frozen=True, slots=True)
class Abandon(Command):
    """The table service ends a match nobody is connected to any more (no human seat has had a
    socket for the table's ``abandon_after``). The scores stand as they are: the totals of the
    hands already scored; a hand in progress is not scored."""

    TYPE: ClassVar[str] = "abandon"


@dataclass(frozen=True, slots=True)
class Close(Command):
    """The table's owner closes it before its first deal (the table service checks the owner's
    token): the table ends unplayed."""

    TYPE: ClassVar[str] = "close"


# The events of an early ending (``table_abandoned`` or ``table_at_limit``, then ``match_ended``):
# the room a table service leaves under its bound on events, so that a match can always end.
ENDING_EVENTS = 2
# How close to its bound a log must be for ``EndAtLimit``: the ending may leave fewer than this
# many events unused (more than any one command appends), so a log cut short well before its
# bound is refused by the engine, and by the audit.
LIMIT_MARGIN = 64


@dataclass(frozen=True, slots=True)
class EndAtLimit(Command):
    """The table service ends a match whose log has reached its bound on events (``limit``: the
    service's ``max_events``), as a game whose length is a score limit could go on past it. The
    scores stand as they are, as for an abandoned table: the totals of the hands already scored; a
    hand in progress is not scored."""

    TYPE: ClassVar[str] = "end_at_limit"
    limit: int
