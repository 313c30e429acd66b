"""A hand's outcome as data: the record each game declares its hands end with, read from the
``hand_ended`` event that the log carries.

Games do not all end a hand the same way. 关牌, 大北, 条数 and 板子炮 settle it in payments, seat
to seat, with a finishing order; 打棒 in levels and blood (no payment, no finishing order: a side
climbs, the next dealer carries the blood); 打拱 in points, 番 and 喜 (paid too, but a sheet
shows what was earned, not only who paid). Each game names its record type (``result_type`` of
its game class, ``Payments`` by default); the record is built from the ``hand_ended`` event
(``from_event``), shown in the views (``result``), told by the audit and the terminal game, and
checked by ``selfcheck`` against what the type declares: ``ZERO_SUM`` (the net scores sum to zero,
as payments do), ``SCORED`` (a hand gives each seat a score, which the match adds up in its
totals), ``problems(event, players)`` (what an event of the game must hold).

The kinds are data the callers read, not branches they take: a new kind of result is one more
``Record`` here with the same members (``KIND``, ``ZERO_SUM``, ``SCORED``, ``from_event``,
``problems``; ``earlier_forms`` and ``to_json`` as ``Record`` has them, or its own).

A hand's end written before issue 27 may differ from today's in a form that carries nothing the
record does not (打棒's made-up finishing order and ±levels as scores): ``earlier_forms(event,
players)`` lists those forms, which the audit accepts for the event the rules produce today, so
that logs stored before still audit and replay.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias

from paiju.protocol import HandEnded, ResultLine, ScoreLine, net_scores

# each dataclass's field names, read once per class: every view carries its last hand's record,
# and asking ``dataclasses`` for the fields of each of its lines was a third of a view's time
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _plain(value: Any) -> Any:
    """A record's field as JSON: tuples as lists, lines as objects."""
    cls = type(value)
    if cls is int or cls is str or value is None or cls is bool:
        return value
    if cls is tuple or cls is list:
        return [_plain(v) for v in value]
    names = _FIELD_NAMES.get(cls)
    if names is None:
        if not dataclasses.is_dataclass(value) or isinstance(value, type):
            return [_plain(v) for v in value] if isinstance(value, tuple | list) else value
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(value))
    return {name: _plain(getattr(value, name)) for name in names}


class Record:
    """What every kind of hand result shares: its JSON form (``kind`` and its fields) and, by
    default, no earlier form of its ``hand_ended`` event. A base of slotted dataclasses, so it
    has no slots of its own."""

    __slots__ = ()
    KIND: ClassVar[str]
    ZERO_SUM: ClassVar[bool]
    SCORED: ClassVar[bool]

    @staticmethod
    def earlier_forms(event: HandEnded, players: int) -> tuple[HandEnded, ...]:
        """The forms in which a hand's end was written before, that the audit still accepts."""
        return ()

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.KIND, **_plain(self)}


def _paid_problems(event: HandEnded, players: int) -> list[str]:
    """What a hand settled in payments must hold: a finishing order of seats, each once (all of
    them, but where a hand ends unplayed: 板子炮's 天牌 names its winner alone), and net scores
    that are the payments' (so they sum to zero)."""
    found = []
    order = list(event.order)
    if not order or len(set(order)) != len(order) or not set(order) <= set(range(players)):
        found.append(f"finishing order {order} is not seats, each once")
    if event.scores != net_scores(event.lines, players):
        found.append(f"scores {list(event.scores)} are not the payments' net")
    if sum(event.scores) != 0:
        found.append(f"scores do not sum to zero: {list(event.scores)}")
    return found


def _values(lines: Iterable[ResultLine], reasons: Iterable[str]) -> tuple[ResultLine, ...]:
    wanted = set(reasons)
    return tuple(line for line in lines if line.reason in wanted)


@dataclass(frozen=True, slots=True)
class Payments(Record):
    """A hand settled in payments (关牌, 大北, 条数, 板子炮): the finishing order, who paid whom
    how much and for what, and each seat's net score. Zero-sum."""

    KIND: ClassVar[str] = "payments"
    ZERO_SUM: ClassVar[bool] = True
    SCORED: ClassVar[bool] = True
    hand_no: int
    order: tuple[int, ...]
    lines: tuple[ScoreLine, ...]
    scores: tuple[int, ...]

    @classmethod
    def from_event(cls, event: HandEnded) -> Payments:
        return cls(event.hand_no, event.order, event.lines, event.scores)

    @staticmethod
    def problems(event: HandEnded, players: int) -> list[str]:
        found = _paid_problems(event, players)
        if event.results:
            found.append(f"results that are not payments: {[r.reason for r in event.results]}")
        return found


# 打棒's result lines, by what they record (reason codes of its words)
KITTY_REASONS = ("koudi", "koudi_x4", "baodi")


@dataclass(frozen=True, slots=True)
class LevelsAndBlood(Record):
    """A hand of 打棒: the attackers' points (the kitty's counted), who took the kitty and for how
    much (抠底 / 保底), the levels each seat's side climbs (one side at most), the blood the next
    dealer carries, the seats that win the match with it, and a hand dealt again (重新洗牌: the
    jokers in the kitty). No payment, no score and no finishing order: nobody pays anybody, and
    the order in which hands ran out of cards means nothing in a trick-taking game."""

    KIND: ClassVar[str] = "levels"
    ZERO_SUM: ClassVar[bool] = False
    SCORED: ClassVar[bool] = False
    hand_no: int
    points: int
    kitty: ResultLine | None
    levels: tuple[int, ...]
    blood: ResultLine | None
    match_won: tuple[int, ...]
    redeal: ResultLine | None

    @classmethod
    def from_event(cls, event: HandEnded) -> LevelsAndBlood:
        players = len(event.scores)
        levels = [0] * players
        for line in _values(event.results, ["level_up"]):
            levels[line.seat] = line.value
        points = _values(event.results, ["points"])
        return cls(
            hand_no=event.hand_no,
            points=points[0].value if points else 0,
            kitty=next(iter(_values(event.results, KITTY_REASONS)), None),
            levels=tuple(levels),
            blood=next(iter(_values(event.results, ["blood"])), None),
            match_won=tuple(line.seat for line in _values(event.results, ["match_won"])),
            redeal=next(iter(_values(event.results, ["redeal"])), None),
        )

    @staticmethod
    def problems(event: HandEnded, players: int) -> list[str]:
        """No finishing order, no payment, no score; levels climbed by one side only (both of
        its seats alike), never down."""
        found = []
        if event.order or event.lines or any(event.scores) or len(event.scores) != players:
            found.append("a hand of levels with a finishing order, payments or scores")
        levels = LevelsAndBlood.from_event(event).levels if len(event.scores) == players else ()
        climbing = {seat % 2 for seat, gained in enumerate(levels) if gained}
        if len(climbing) > 1 or any(levels[s] != levels[s % 2] for s in range(len(levels))):
            found.append(f"levels {list(levels)} are not one side's")
        if any(gained < 0 for gained in levels):
            found.append(f"levels {list(levels)} go down")
        return found

    @staticmethod
    def earlier_forms(event: HandEnded, players: int) -> tuple[HandEnded, ...]:
        """As 打棒 wrote a hand's end before issue 27: every seat in seat order as a "finishing
        order", and the levels climbed as scores, +n to the climbing side, −n to the other (0
        when no side climbed)."""
        levels = LevelsAndBlood.from_event(event).levels
        gained = max(levels, default=0)
        scores = tuple(0 if not gained else gained if up else -gained for up in levels)
        return (dataclasses.replace(event, order=tuple(range(players)), scores=scores),)


XI_PREFIX = "xiqian_"  # 打拱's 喜钱 lines: paid from the deal, whoever wins the hand
HONOURS = ("guangtou", "qing")  # 光头, 清: named on the sheet, paid nothing of their own


@dataclass(frozen=True, slots=True)
class PointsFanXi(Record):
    """A hand of 打拱: the finishing order, the points each seat holds at the end (after 末游's
    go to 一游), the 番 the hand is settled at (and a seat of the side that won it), the 喜钱 paid
    from the deal, the honours (光头, 清), the other payments, and each seat's net score.
    Zero-sum: everything is paid seat to seat."""

    KIND: ClassVar[str] = "points"
    ZERO_SUM: ClassVar[bool] = True
    SCORED: ClassVar[bool] = True
    hand_no: int
    order: tuple[int, ...]
    points: tuple[int, ...]
    fan: ResultLine | None
    xi: tuple[ScoreLine, ...]
    honours: tuple[ResultLine, ...]
    lines: tuple[ScoreLine, ...]
    scores: tuple[int, ...]

    @classmethod
    def from_event(cls, event: HandEnded) -> PointsFanXi:
        points = [0] * len(event.scores)
        for line in _values(event.results, ["points"]):
            points[line.seat] = line.value
        return cls(
            hand_no=event.hand_no,
            order=event.order,
            points=tuple(points),
            fan=next(iter(_values(event.results, ["fan"])), None),
            xi=tuple(line for line in event.lines if line.reason.startswith(XI_PREFIX)),
            honours=_values(event.results, HONOURS),
            lines=tuple(line for line in event.lines if not line.reason.startswith(XI_PREFIX)),
            scores=event.scores,
        )

    @staticmethod
    def problems(event: HandEnded, players: int) -> list[str]:
        found = _paid_problems(event, players)
        if not _values(event.results, ["fan"]):
            found.append("a hand of 打拱 without its 番")
        return found


HandResult: TypeAlias = Payments | LevelsAndBlood | PointsFanXi
ResultType: TypeAlias = type[Payments] | type[LevelsAndBlood] | type[PointsFanXi]
RESULT_TYPES: dict[str, ResultType] = {t.KIND: t for t in (Payments, LevelsAndBlood, PointsFanXi)}


def declaration(result_type: ResultType) -> dict[str, Any]:
    """What a game's catalogue entry says of its results: the record's kind, whether it is
    zero-sum and whether a hand gives scores (which the totals add up)."""
    return {
        "kind": result_type.KIND,
        "zero_sum": result_type.ZERO_SUM,
        "scored": result_type.SCORED,
    }


def seat_score(result_type: ResultType, event: HandEnded, seat: int) -> int:
    """``seat``'s score in a hand, one number for every game (a duel's and the search's measure):
    its net score, or where the game's hands give levels (打棒), the levels its side climbed, or
    minus those the other side climbed."""
    if result_type.SCORED:
        return event.scores[seat]
    record = result_type.from_event(event)
    if isinstance(record, LevelsAndBlood):
        return record.levels[seat] or -max(record.levels, default=0)
    return 0
