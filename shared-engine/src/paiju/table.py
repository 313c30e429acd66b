"""The table every game subclasses (``TableGame``), and the part of it that is the same for all:
the table's configuration, its own steps wired in, the speaking round, the turn clock's kinds and
the view.

A game subclasses ``TableGame`` (directly or through ``climbing.ClimbingGame``) and fills in its
hooks (``paiju.decider``). ``decide`` dispatches a command to a handler by its type, ``evolve`` an
event to a handler by its type: data, not a chain of ifs. Phases of the table:

``commit`` (waiting for the server's commitment) → ``seeding`` (players may add seeds, then the
deal) → the game's own phases (``play``; a bidding game adds its own) → ``reveal`` (the hand is
scored, waiting for the server seed) → ``commit`` again for the next hand of a match, or ``over``.
Between the hands of a match (``between_hands``) the seats press 继续 (``Continue``); the table
service commits to the next deal first, so that a 继续 can carry the player's seed for it.

The table is made of parts, each a module of one job: the table's data (``paiju.table_state``),
how a state changes (``paiju.changes``), the options (``paiju.options``), the decider and its
hooks (``paiju.decider``), the deal (``paiju.dealing``) and the table's life around the play
(``paiju.table_life``: 托管, automatic plays, 继续, early endings). The names a game's module
declares itself with are importable from here, whichever part defines them (``__all__``).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any, ClassVar

from paiju import dealing, table_life
from paiju.cards import Card, Hand, card_codes
from paiju.changes import Changes, copy_with
from paiju.codec import encode
from paiju.commands import Bid
from paiju.decider import Decider
from paiju.errors import RuleError
from paiju.events import BidMade, Event
from paiju.options import MATCH_HANDS, OptionLabel, apply_options, option_catalogue
from paiju.results import Payments, ResultType
from paiju.table_state import Config, GameInfo, S, TableState, Variant


class TableGame(Decider[S]):
    """The decider: ``initial_state``, ``decide``, ``evolve``, ``view``, ``legal_moves``, ``result``."""

    # the lobby's names of the options a table may choose (``option_catalogue``); each game module
    # keeps its own next to its options dataclass, an option without one is shown by its field name
    option_labels: ClassVar[Mapping[str, OptionLabel]] = {}
    # the turn clock: seconds a seat has for each kind of decision (``clock_kind``), the table's
    # default (a table may set its own); a game with long hands may raise them in its module
    clock_defaults: ClassVar[Mapping[str, int]] = {
        "play": 30,
        "bid": 20,
        "bury": 60,
        "continue": 15,
    }
    # a seat phase whose decision is of another kind than a play or a word (phase → kind)
    clock_phases: ClassVar[Mapping[str, str]] = {"bury": "bury"}
    # options whose default reading changed after tables were played: the value a stored config
    # (a log header, a table's meta) that does not name the option was played under
    options_before: ClassVar[Mapping[str, Any]] = {}
    # the record a hand of the game ends with (paiju.results): payments, unless the game says
    result_type: ClassVar[ResultType] = Payments
    # whether a match's later hands are played by rules its first is not (打棒: 亮主 with level
    # cards and overcalls, blood owed): a duel (paiju.duel) then plays every other deal as a
    # match's second hand
    later_hands_differ: ClassVar[bool] = False

    def __init__(self) -> None:
        super().__init__()
        for command, decider in (dealing.DECIDERS | table_life.DECIDERS).items():
            self.handle(command, partial(decider, self))
        for event, evolver in (dealing.EVOLVERS | table_life.EVOLVERS).items():
            self.evolve_by(event, partial(evolver, self))
        self.handle(Bid, self._decide_word)
        self.evolve_by(BidMade, self._on_word)

    # --- options -------------------------------------------------------------------------------

    def make_options(self, variant: str, players: int, overrides: Mapping[str, Any]) -> Any:
        """The variant's options with ``overrides`` applied, each checked against its type and
        (a number) against its least value in ``option_labels``.

        Raises:
            ValueError: an unknown option, a wrong type, a value outside its choices or too small.
        """
        options = apply_options(self.variant_options(variant), overrides)
        for name, value in overrides.items():
            label = self.option_labels.get(name)
            if label is not None and type(value) is int and value < label.min:
                raise ValueError(f"option {name} must be at least {label.min}, not {value}")
        return options

    def option_catalogue(self, variant: str) -> list[dict[str, Any]]:
        """The options a table of ``variant`` may choose, as JSON (see ``option_catalogue``)."""
        return option_catalogue(self.variant_options(variant), self.option_labels)

    # --- a speaking round: its words, in the order of ``to_speak`` -------------------------------

    def _decide_word(self, state: S, command: Bid) -> list[Event]:
        self.require_phase(state, *self.speaking_phases)
        if command.seat != state.turn:
            raise RuleError("not_your_turn")
        if command.bid not in self.words_now(state, command.seat):
            word = str(command.bid)[:20]
            earlier = [w for _, w in state.said]
            zh, en = self.words.said("bid", word, earlier) or (word, repr(word))
            raise RuleError("bid_not_allowed", bid_zh=zh, bid_en=en)
        made = BidMade(seat=command.seat, bid=command.bid)
        return [made, *self.word_consequences(self.evolve(state, made))]

    def _on_word(self, state: S, event: BidMade) -> Changes:
        rest = tuple(s for s in state.to_speak if s != event.seat)
        spoken: Changes = {
            "said": (*state.said, (event.seat, event.bid)),
            "to_speak": rest,
            "turn": rest[0] if rest else None,
        }
        return spoken | self.heard(state, event, rest)

    # --- the table ------------------------------------------------------------------------------

    def config(
        self, variant: str | None = None, players: int | None = None, **overrides: Any
    ) -> Config[Any]:
        """Build a table configuration.

        Raises:
            ValueError: unknown variant, a player count the variant does not allow, unknown options.
        """
        v = self.info.variant(variant or self.info.variants[0].id)
        n = players if players is not None else v.players[-1]
        if n not in v.players:
            raise ValueError(f"{self.info.id}/{v.id} is played by {v.players}, not {n}")
        config = Config(self.info.id, v.id, n, self.make_options(v.id, n, overrides))
        if overrides:
            self.check_config(config)
        return config

    def check_config(self, config: Config[Any]) -> None:
        """That a table whose options were changed can be dealt: its pack builds and holds every
        hand. A game adds its own checks (card codes in its options).

        Raises:
            ValueError: the options make a table that cannot be played.
        """
        pack = self.pack(config)
        need = config.players * self.hand_size(config)
        if len(pack) < need:
            raise ValueError(f"the pack has {len(pack)} cards, {need} are dealt")

    def initial_state(self, config: Config[Any]) -> S:
        n = config.players
        state = self.state_type(config=config, player_seeds=(None,) * n, totals=(0,) * n)
        return state  # type: ignore[return-value]

    def clock_kind(self, state: S) -> str | None:
        """The kind of decision the table waits for now, which its turn clock times: ``play`` in
        a seat phase, ``bid`` in a speaking round, the kind ``clock_phases`` names for a phase
        (``bury``), ``continue`` between the hands of a match (the score sheet is shown; the next
        deal waits for 继续); None when nobody is waited for (the deal, the end of the match)."""
        if self.to_move(state) is not None:
            kind = self.clock_phases.get(state.phase)
            if kind is not None:
                return kind
            return "bid" if state.phase in self.speaking_phases else "play"
        if self.between_hands(state):
            return "continue"
        return None

    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see. The one place hidden cards are redacted."""
        ended = state.phase == "over" or self.between_hands(state)
        out: dict[str, Any] = {
            "game": state.config.game,
            "variant": state.config.variant,
            "players": state.config.players,
            "phase": state.phase,
            "version": state.version,
            "hand_no": state.hand_no,
            "turn": state.turn,
            "leader": state.leader,
            "commitment": state.commitment,
            # the last hand's seed once revealed (every hand's is in the log): a frame's size does
            # not grow with the number of hands played
            "revealed_seed": state.revealed[-1] if state.revealed else None,
            "seat": seat,
            "counts": [len(h) for h in state.hands],
            "totals": list(state.totals),
            "hand": card_codes(state.hands[seat]) if seat is not None and state.hands else None,
            "hands": [card_codes(h) for h in state.hands] if ended and state.hands else None,
            "last_hand": encode(state.last_hand) if state.last_hand else None,
            # the same hand as its game's record (paiju.results): what the score sheet shows
            "result": self.result_type.from_event(state.last_hand).to_json()
            if state.last_hand
            else None,
            "auto": list(state.auto),
            "ready": list(state.ready),
        }
        if state.talk:  # table talk, for everyone (a key only once there is some)
            out["talk"] = [list(said) for said in state.talk]
        if state.bots:  # which seats bots play, at which level: public (a key only with a bot)
            out["bots"] = list(state.bots)
        out.update(self.view_extra(state, seat))
        return out

    def view_extra(self, state: S, seat: int | None) -> dict[str, Any]:
        """A game's own keys of the view ``seat`` may see (none by default)."""
        return {}


def next_seat(seat: int, players: int) -> int:
    """Seats are numbered in the order of play."""
    return (seat + 1) % players


def holder_of(hands: tuple[Hand, ...], card: Card) -> int | None:
    """The seat whose hand holds ``card`` (the first, with several decks), or None."""
    for seat, hand in enumerate(hands):
        if card in hand:
            return seat
    return None


__all__ = [
    "MATCH_HANDS",
    "Changes",
    "Config",
    "GameInfo",
    "OptionLabel",
    "TableGame",
    "TableState",
    "Variant",
    "copy_with",
    "holder_of",
    "next_seat",
]
