"""The JSON form of commands and events: their tags, their schema versions and the codec.

Every message type has a stable tag (``TYPE``), never a module path; ``register`` makes a type
known to ``decode`` by it (the core's types are registered here, at import, so that any decode
knows them; a game registers its own). Every event carries its type's schema version ``v`` in its
JSON form, and an older version is brought up to date by the upcasters registered for it. Fields
are encoded by their type, never by their name: a ``Card`` travels as a card code, a ``Hand`` as a
list of codes, a nested dataclass as an object; a field's codec is made once per type from its
annotation. Import these through ``paiju.protocol``, the one import of the protocol.

>>> from paiju.events import Played
>>> encode(Played(seat=1, cards=(0, 1), kind="pair", key=0, stands_for=()))
{'type': 'played', 'v': 2, 'seat': 1, 'cards': ['3S', '3H'], 'kind': 'pair', 'key': 0, 'stands_for': []}
>>> decode({"type": "played", "v": 1, "seat": 1, "cards": ["3S", "3H"], "kind": "pair", "key": 0})
Played(seat=1, cards=(0, 1), kind='pair', key=0, stands_for=())
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin, get_type_hints

from paiju.cards import CARD_CODE, Card, Hand, card_codes, format_card, parse_card
from paiju.commands import (
    Abandon,
    AddSeed,
    AutoMove,
    AutoPlay,
    Bid,
    CallCard,
    Close,
    CommitDeal,
    Continue,
    Deal,
    EndAtLimit,
    Message,
    Pass,
    Play,
    RevealSeed,
    SeatBot,
    SetAuto,
    Talk,
)
from paiju.errors import NotationError, RuleError
from paiju.events import (
    AutoPlayed,
    AutoSet,
    BidMade,
    BotSeated,
    CardCalled,
    Continued,
    DealCommitted,
    Dealt,
    Event,
    HandEnded,
    MatchEnded,
    Passed,
    Played,
    SeedAdded,
    SeedRevealed,
    TableAbandoned,
    TableAtLimit,
    TableClosed,
    Talked,
    TrickWon,
)

# The version of the log format as a whole (a log header's ``v``); each event type has its own.
# 2: deals as drawn (card by card round the table), readings on plays, tricks won, hand results.
SCHEMA_VERSION = 2

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
    Talk,
    Talked,
    SeatBot,
    BotSeated,
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
