"""The data of a table: a game's static facts (``GameInfo`` and its ``Variant``s), one table's
configuration (``Config``: game, variant, players, typed options) and the state every game's
state extends (``TableState``), with ``S``, the type of a game's own state.

Plain frozen records and nothing that acts on them: the decider (``paiju.decider``), the table's
steps (``paiju.dealing``, ``paiju.table_life``) and the table (``paiju.table``) all read them, so
they come first, below every one of those.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from paiju.cards import Hand
from paiju.events import HandEnded


@dataclass(frozen=True, slots=True)
class Variant:
    """A named rule set of a game, with its Chinese and English names and its seats."""

    id: str
    name_zh: str
    name_en: str
    players: tuple[int, ...]
    summary_zh: str
    summary_en: str


@dataclass(frozen=True, slots=True)
class GameInfo:
    """The static facts of a game, for the catalogue."""

    id: str
    name_zh: str
    name_en: str
    region_zh: str
    region_en: str
    description_zh: str
    description_en: str
    variants: tuple[Variant, ...]

    def variant(self, variant_id: str) -> Variant:
        for v in self.variants:
            if v.id == variant_id:
                return v
        raise ValueError(f"{self.id} has no variant {variant_id!r}")


OptionsT = TypeVar("OptionsT")


@dataclass(frozen=True, slots=True)
class Config(Generic[OptionsT]):
    """One table's game, variant, number of players and typed options (a game's dataclass)."""

    game: str
    variant: str
    players: int
    options: OptionsT

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "variant": self.variant,
            "players": self.players,
            "options": dataclasses.asdict(self.options),  # type: ignore[call-overload]
        }


@dataclass(frozen=True, slots=True)
class TableState:
    """What every game's state has. Games extend it with their own frozen dataclass."""

    config: Config[Any]
    phase: str = "commit"
    version: int = 0  # events applied so far
    hand_no: int = 0
    commitment: str | None = None
    player_seeds: tuple[str | None, ...] = ()
    hands: tuple[Hand, ...] = ()
    rest: Hand = ()
    turn: int | None = None
    leader: int | None = None
    totals: tuple[int, ...] = ()
    last_hand: HandEnded | None = None
    revealed: tuple[str, ...] = field(default=())  # server seeds revealed, hand by hand
    said: tuple[tuple[int, str], ...] = ()  # a speaking round's words so far: (seat, word)
    to_speak: tuple[int, ...] = ()  # who speaks next in the speaking round, in order
    auto: tuple[int, ...] = ()  # seats in 托管: the server plays for them (sorted)
    ready: tuple[int, ...] = ()  # seats that pressed 继续 since the last hand ended (sorted)
    # seats whose players left during the match: in 托管 for good (sorted; not in the view, the
    # table's directory shows who left; kept here so that ``SetAuto`` off is refused for them)
    left: tuple[int, ...] = ()
    # table talk (快捷语, emotes): (seat, word, index of its event in the log), the last few only
    # (``table_life.TALK_KEPT``): enough for the bubbles and for the limit on how often a seat talks
    talk: tuple[tuple[int, str, int], ...] = ()
    # the level of each seat a bot plays (``bot_seated``), None for the others; empty while no bot
    # is recorded (a table of people, a log from before the event)
    bots: tuple[str | None, ...] = ()


S = TypeVar("S", bound=TableState)
