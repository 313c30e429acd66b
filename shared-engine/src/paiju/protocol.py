"""Commands (what a seat or the table asks for) and events (what happened), with their JSON forms.

Commands are imperative (``Play``), events past tense (``Played``). Every type has a stable tag,
never a module path; every event carries its type's schema version ``v`` in its JSON form, and an
older version is brought up to date by the upcasters registered for it. Fields are encoded by their
type, never by their name: a ``Card`` travels as a card code, a ``Hand`` as a list of codes, a
nested dataclass as an object. Games add their own commands and events by subclassing and
``register``-ing them; an event names the command that causes it (``as_command``), which is how
the audit replays a log.

>>> encode(Played(seat=1, cards=(0, 1), kind="pair", key=0, stands_for=()))
{'type': 'played', 'v': 2, 'seat': 1, 'cards': ['3S', '3H'], 'kind': 'pair', 'key': 0, 'stands_for': []}
>>> decode({"type": "played", "v": 1, "seat": 1, "cards": ["3S", "3H"], "kind": "pair", "key": 0})
Played(seat=1, cards=(0, 1), kind='pair', key=0, stands_for=())
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, TypeVar, Union, get_args, get_origin, get_type_hints

from paiju.cards import CARD_CODE, Card, Hand, card_codes, format_card, parse_card
from paiju.errors import NotationError, RuleError

# The version of the log format as a whole (a log header's ``v``); each event type has its own.
# 2: deals as drawn (card by card round the table), readings on plays, tricks won, hand results.
SCHEMA_VERSION = 2
# How a deal hands out the shuffled pack (docs/log-format.md): ``round`` card by card round the
# table, as the games are dealt; ``blocks`` (logs of schema 1) each seat a block of the pack.
DEAL_SCHEMES = ("round", "blocks")


@dataclass(frozen=True, slots=True)
class Message:
    TYPE: ClassVar[str] = ""


@dataclass(frozen=True, slots=True)
class Command(Message):
    """A request. ``seat`` is None for the table's own commands (the deal)."""

    def normalised(self) -> Command:
        """The one form of this command that ``decide`` checks: two commands that differ only in
        the order of a set they list (a play's cards, the cards its wildcards stand for) are the
        same command. Most commands have one form already."""
        return self


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
_set = object.__setattr__


def trusted_play(seat: int, cards: Hand, reading: Reading | None = None) -> Play:
    """``Play(seat, cards, reading)`` made without ``__init__``'s keyword handling: the hot path
    of ``legal_moves``, which makes a play for every candidate (the engine's own, trusted
    values: nothing is checked either way)."""
    play: Play = _new(Play)
    _set(play, "seat", seat)
    _set(play, "cards", cards)
    _set(play, "reading", reading)
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


# --- events ---------------------------------------------------------------------------------------


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


# --- JSON forms -------------------------------------------------------------------------------------

_TYPES: dict[str, type[Message]] = {}
M = TypeVar("M", bound=type[Message])
Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
_UPCASTERS: dict[tuple[str, int], Upcaster] = {}


def register(cls: M) -> M:
    """Make a command or event type known to ``decode`` by its tag (a game registers its own).

    Raises:
        ValueError: another type already has this tag.
    """
    if cls.TYPE in _TYPES and _TYPES[cls.TYPE] is not cls:
        raise ValueError(f"duplicate message type {cls.TYPE!r}")
    _TYPES[cls.TYPE] = cls
    return cls


def register_upcaster(tag: str, version: int, upcast: Upcaster) -> None:
    """``upcast`` turns the JSON form of event ``tag`` at ``version`` into ``version + 1``."""
    _UPCASTERS[(tag, version)] = upcast


for _cls in (
    CommitDeal,
    AddSeed,
    Deal,
    RevealSeed,
    Play,
    Pass,
    Bid,
    CallCard,
    DealCommitted,
    SeedAdded,
    Dealt,
    Played,
    Passed,
    TrickWon,
    BidMade,
    CardCalled,
    HandEnded,
    SeedRevealed,
    MatchEnded,
    SetAuto,
    AutoPlay,
    AutoMove,
    Continue,
    AutoSet,
    AutoPlayed,
    Continued,
    Abandon,
    TableAbandoned,
    Close,
    TableClosed,
    EndAtLimit,
    TableAtLimit,
):
    register(_cls)

# Schema 1 → 2: a dealt hand records how it was dealt, a play its reading, a hand its results.
register_upcaster("dealt", 1, lambda data: data | {"face_up": [], "scheme": "blocks"})
register_upcaster("played", 1, lambda data: data | {"stands_for": []})
register_upcaster("hand_ended", 1, lambda data: data | {"results": []})


# A field's codec is a pair of functions made once per type from its annotation.
Encoder = Callable[[Any], Any]
Decoder = Callable[[Any], Any]
_CODECS: dict[type, tuple[tuple[str, Encoder, Decoder, bool], ...]] = {}


def _plain(value: Any) -> Any:
    return value


def _strict(kind: type | tuple[type, ...], label: str) -> Decoder:
    def check(value: Any) -> Any:
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            raise TypeError(f"expected {label}, got {type(value).__name__}")
        return value

    return check


def _decode_card(value: Any) -> Card:
    if not isinstance(value, str):
        raise TypeError("expected a card code")
    return parse_card(value)


def _decode_cards(value: Any) -> Hand:
    """Card codes in the order written (a dealt hand keeps the order it was drawn in)."""
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise TypeError("expected a list of card codes")
    return tuple(map(parse_card, value))


def _codec(hint: Any) -> tuple[Encoder, Decoder]:
    """How to encode and decode a value of type ``hint``."""
    origin = get_origin(hint)
    if origin is Annotated:
        base, *marks = get_args(hint)
        if CARD_CODE in marks:
            return format_card, _decode_card
        return _codec(base)
    if origin is tuple:
        args = get_args(hint)
        item = args[0]
        if get_origin(item) is Annotated and CARD_CODE in get_args(item)[1:]:
            return card_codes, _decode_cards  # a hand: the hot path, one call
        enc, dec = _codec(item)
        if len(args) == 2 and args[1] is Ellipsis:

            def decode_items(value: Any) -> tuple[Any, ...]:
                if not isinstance(value, list | tuple):
                    raise TypeError("expected a list")
                return tuple(dec(v) for v in value)

            return (lambda value: [enc(v) for v in value]), decode_items
        return _plain, _strict(list, "a list")
    if origin in (Union, types.UnionType):
        options = [a for a in get_args(hint) if a is not type(None)]
        if len(options) != 1:
            return _plain, _plain
        enc, dec = _codec(options[0])
        return (lambda v: None if v is None else enc(v)), (lambda v: None if v is None else dec(v))
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return (lambda v: _encode_fields(v)), (lambda v: _decode_fields(hint, v))
    if hint is int:
        return _plain, _strict(int, "an integer")
    if hint is str:
        return _plain, _strict(str, "a string")
    if hint is bool:
        return _plain, _strict(bool, "true or false")
    return _plain, _plain


def _fields(cls: type) -> tuple[tuple[str, Encoder, Decoder, bool], ...]:
    """(name, encoder, decoder, required) for each field of a message or value dataclass."""
    found = _CODECS.get(cls)
    if found is None:
        hints = get_type_hints(cls, include_extras=True)
        found = _CODECS[cls] = tuple(
            (
                f.name,
                *_codec(hints[f.name]),
                f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING,
            )
            for f in dataclasses.fields(cls)
        )
    return found


def _encode_fields(value: Any) -> dict[str, Any]:
    return {name: enc(getattr(value, name)) for name, enc, _, _ in _fields(type(value))}


def _decode_fields(cls: type, data: Any) -> Any:
    if not isinstance(data, dict):
        raise TypeError(f"expected an object for {cls.__name__}")
    fields = _fields(cls)
    names = {name for name, _, _, _ in fields}
    required = {name for name, _, _, needed in fields if needed}
    given = set(data) - {"type", "v"}
    if not required <= given <= names:
        raise TypeError(f"fields {sorted(given)} do not fit {sorted(names)}")
    return cls(**{name: dec(data[name]) for name, _, dec, _ in fields if name in data})


def encode(message: Message) -> dict[str, Any]:
    """The JSON-ready dict of a command or event (events carry their schema version ``v``)."""
    out: dict[str, Any] = {"type": message.TYPE}
    if isinstance(message, Event):
        out["v"] = message.VERSION
    for name, enc, _, _ in _fields(type(message)):
        out[name] = enc(getattr(message, name))
    return out


def encode_value(value: Any) -> dict[str, Any]:
    """The JSON form of a value dataclass carried by messages (a ``Reading``, a ``ScoreLine``)."""
    return _encode_fields(value)


def upcast(data: dict[str, Any], cls: type[Event]) -> dict[str, Any]:
    """The JSON form of an event brought to its type's current version.

    Raises:
        RuleError: ``bad_command`` for a version no upcaster leads from.
    """
    version = data.get("v", 1)
    while version != cls.VERSION:
        step = _UPCASTERS.get((cls.TYPE, version)) if isinstance(version, int) else None
        if step is None:
            raise RuleError("bad_command", detail=f"unsupported {cls.TYPE} version {version!r}")
        data = step(data) | {"v": version + 1}
        version += 1
    return data


def decode(data: Any) -> Message:
    """A command or event from its JSON form (an older event version is upcast first).

    Raises:
        RuleError: ``unknown_command`` for an unknown tag, ``bad_command`` for missing, extra or
            ill-typed fields, bad card codes or an unknown version.
    """
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise RuleError("bad_command", detail="expected an object with a string 'type'")
    cls = _TYPES.get(data["type"])
    if cls is None:
        raise RuleError("unknown_command", command=str(data["type"])[:40])
    if issubclass(cls, Event):
        data = upcast(data, cls)
    try:
        message: Message = _decode_fields(cls, data)
        return message
    except (NotationError, TypeError, AttributeError) as exc:
        raise RuleError("bad_command", detail=str(exc)[:200]) from None
