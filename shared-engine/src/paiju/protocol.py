"""Commands (what a seat or the table asks for) and events (what happened), with their JSON forms.

Commands are imperative (``Play``), events past tense (``Played``). Every type has a stable tag,
never a module path; every event carries a schema version ``v`` in its JSON form. Cards travel as
canonical codes. Games add their own commands and events by subclassing and ``register``-ing them.

>>> encode(Played(seat=1, cards=(0, 1), kind="pair", key=0))
{'type': 'played', 'v': 1, 'seat': 1, 'cards': ['3S', '3H'], 'kind': 'pair', 'key': 0}
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from paiju.cards import Card, Hand, card_codes, format_card, parse_card, parse_cards
from paiju.errors import NotationError, RuleError

SCHEMA_VERSION = 1

# Fields whose values are one card, cards (a hand) or a tuple of hands, by name: one convention
# for all types.
CARD_FIELD = "card"
CARD_FIELDS = frozenset({"cards", "rest"})
HANDS_FIELDS = frozenset({"hands"})


@dataclass(frozen=True, slots=True)
class Message:
    TYPE: ClassVar[str] = ""


@dataclass(frozen=True, slots=True)
class Command(Message):
    """A request. ``seat`` is None for the table's own commands (the deal)."""


@dataclass(frozen=True, slots=True)
class Event(Message):
    """A fact, appended to the log. ``evolve`` trusts events; ``decide`` produced them."""


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
    TYPE: ClassVar[str] = "deal"
    seed: str


@dataclass(frozen=True, slots=True)
class RevealSeed(Command):
    TYPE: ClassVar[str] = "reveal_seed"
    seed: str


# --- a seat's commands in a climbing game ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Play(Command):
    TYPE: ClassVar[str] = "play"
    seat: int
    cards: Hand


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


# --- events ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealCommitted(Event):
    TYPE: ClassVar[str] = "deal_committed"
    hand_no: int
    commitment: str


@dataclass(frozen=True, slots=True)
class SeedAdded(Event):
    TYPE: ClassVar[str] = "seed_added"
    seat: int
    seed: str


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    TYPE: ClassVar[str] = "dealt"
    hand_no: int
    hands: tuple[Hand, ...]
    rest: Hand
    leader: int


@dataclass(frozen=True, slots=True)
class Played(Event):
    TYPE: ClassVar[str] = "played"
    seat: int
    cards: Hand
    kind: str
    key: int


@dataclass(frozen=True, slots=True)
class Passed(Event):
    TYPE: ClassVar[str] = "passed"
    seat: int


@dataclass(frozen=True, slots=True)
class BidMade(Event):
    TYPE: ClassVar[str] = "bid_made"
    seat: int
    bid: str


@dataclass(frozen=True, slots=True)
class CardCalled(Event):
    """The card is named in public; who holds it is not said."""

    TYPE: ClassVar[str] = "card_called"
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One line of a score sheet: ``payer`` pays ``payee`` ``amount`` for ``reason``."""

    reason: str
    payer: int
    payee: int
    amount: int


def net_scores(lines: Sequence[ScoreLine], players: int) -> tuple[int, ...]:
    """Each seat's net score from the lines of a score sheet."""
    scores = [0] * players
    for line in lines:
        scores[line.payer] -= line.amount
        scores[line.payee] += line.amount
    return tuple(scores)


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """The hand is over: finishing order, the score sheet's lines and each seat's net score."""

    TYPE: ClassVar[str] = "hand_ended"
    hand_no: int
    order: tuple[int, ...]
    lines: tuple[ScoreLine, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SeedRevealed(Event):
    TYPE: ClassVar[str] = "seed_revealed"
    hand_no: int
    seed: str


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    TYPE: ClassVar[str] = "match_ended"
    totals: tuple[int, ...]


# --- JSON forms -------------------------------------------------------------------------------------

_TYPES: dict[str, type[Message]] = {}
M = TypeVar("M", bound=type[Message])


def register(cls: M) -> M:
    """Make a command or event type known to ``decode`` by its tag."""
    if cls.TYPE in _TYPES and _TYPES[cls.TYPE] is not cls:
        raise ValueError(f"duplicate message type {cls.TYPE!r}")
    _TYPES[cls.TYPE] = cls
    return cls


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
    BidMade,
    CardCalled,
    HandEnded,
    SeedRevealed,
    MatchEnded,
):
    register(_cls)


def _encode_value(name: str, value: Any) -> Any:
    if name == CARD_FIELD:
        return format_card(value)
    if name in CARD_FIELDS:
        return card_codes(value)
    if name in HANDS_FIELDS:
        return [card_codes(h) for h in value]
    if dataclasses.is_dataclass(value):
        return {
            f.name: _encode_value(f.name, getattr(value, f.name)) for f in dataclasses.fields(value)
        }
    if isinstance(value, tuple):
        return [_encode_value("", v) for v in value]
    return value


def encode(message: Message) -> dict[str, Any]:
    """The JSON-ready dict of a command or event (events carry the schema version ``v``)."""
    out: dict[str, Any] = {"type": message.TYPE}
    if isinstance(message, Event):
        out["v"] = SCHEMA_VERSION
    for f in dataclasses.fields(message):
        out[f.name] = _encode_value(f.name, getattr(message, f.name))
    return out


def _decode_value(name: str, value: Any) -> Any:
    if name == CARD_FIELD:
        if not isinstance(value, str):
            raise TypeError("field 'card' must be a card code")
        return parse_card(value)
    if name in CARD_FIELDS:
        return parse_cards(value)
    if name in HANDS_FIELDS:
        return tuple(parse_cards(h) for h in value)
    if name == "lines":
        return tuple(ScoreLine(**line) for line in value)
    if isinstance(value, list):
        return tuple(_decode_value("", v) for v in value)
    return value


def decode(data: Any) -> Message:
    """A command or event from its JSON form.

    Raises:
        RuleError: ``unknown_command`` for an unknown tag, ``bad_command`` for missing, extra or
            ill-typed fields or bad card codes.
    """
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise RuleError("bad_command", detail="expected an object with a string 'type'")
    cls = _TYPES.get(data["type"])
    if cls is None:
        raise RuleError("unknown_command", command=str(data["type"])[:40])
    if issubclass(cls, Event) and data.get("v", SCHEMA_VERSION) != SCHEMA_VERSION:
        raise RuleError("bad_command", detail=f"unsupported schema version {data.get('v')!r}")
    names = {f.name for f in dataclasses.fields(cls)}
    given = set(data) - {"type", "v"}
    if given != names:
        raise RuleError("bad_command", detail=f"fields {sorted(given)} != {sorted(names)}")
    try:
        kwargs = {n: _decode_value(n, data[n]) for n in names}
        _check_types(cls, kwargs)
        return cls(**kwargs)
    except (NotationError, TypeError, AttributeError) as exc:
        raise RuleError("bad_command", detail=str(exc)[:200]) from None


_SIMPLE: dict[str, type | tuple[type, ...]] = {
    "int": int,
    "str": str,
    "int | None": (int, type(None)),
}


def _check_types(cls: type[Message], kwargs: dict[str, Any]) -> None:
    for f in dataclasses.fields(cls):
        want = _SIMPLE.get(str(f.type))
        value = kwargs[f.name]
        if want is not None and (not isinstance(value, want) or isinstance(value, bool)):
            raise TypeError(f"field {f.name!r} must be {f.type}")
