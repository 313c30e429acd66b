"""The decider shape every game shares, and the part of it that is the same for all: the table's
configuration, the deal with its commitment and seeds, and hands strung into a match.

A game subclasses ``TableGame`` (directly or through ``climbing.ClimbingGame``) and fills in its
hooks. ``decide`` dispatches a command to a handler by its type, ``evolve`` an event to a handler by
its type: data, not a chain of ifs. Phases of the table:

``commit`` (waiting for the server's commitment) → ``seeding`` (players may add seeds, then the
deal) → the game's own phases (``play``; a bidding game adds its own) → ``reveal`` (the hand is
scored, waiting for the server seed) → ``commit`` again for the next hand of a match, or ``over``.
Between the hands of a match (``between_hands``) the seats press 继续 (``Continue``); the table
service commits to the next deal first, so that a 继续 can carry the player's seed for it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Generic

from paiju import fairness
from paiju.cards import Card, Hand, card_codes
from paiju.changes import Changes, copy_with
from paiju.errors import RuleError
from paiju.options import MATCH_HANDS, OptionLabel, apply_options, option_catalogue
from paiju.protocol import (
    AUTO_PLAY_REASONS,
    AUTO_REASONS,
    DEAL_SCHEMES,
    ENDING_EVENTS,
    LIMIT_MARGIN,
    Abandon,
    AddSeed,
    AutoMove,
    AutoPlay,
    AutoPlayed,
    AutoSet,
    Bid,
    BidMade,
    Close,
    Command,
    CommitDeal,
    Continue,
    Continued,
    Deal,
    DealCommitted,
    Dealt,
    EndAtLimit,
    Event,
    HandEnded,
    MatchEnded,
    RevealSeed,
    SeedAdded,
    SeedRevealed,
    SetAuto,
    TableAbandoned,
    TableAtLimit,
    TableClosed,
    encode,
)
from paiju.results import Payments, ResultType
from paiju.sides import Sides
from paiju.table_state import Config, GameInfo, S, TableState, Variant
from paiju.words import Words

_HEX64 = re.compile(r"[0-9a-f]{64}")
STRONG_RANKS = frozenset({11, 12})  # A and 2 in the notation's ranks: a bot bids with four


Handler = Callable[[Any, Any], Any]


class TableGame(Generic[S]):
    """The decider: ``initial_state``, ``decide``, ``evolve``, ``view``, ``legal_moves``, ``result``."""

    info: ClassVar[GameInfo]
    state_type: ClassVar[type[TableState]] = TableState
    # the phases in which ``turn`` names a seat that must act (a bidding game adds its own)
    seat_phases: ClassVar[frozenset[str]] = frozenset({"play"})
    # the phases that are speaking rounds: seats say words (``Bid``) in the order of ``to_speak``
    speaking_phases: ClassVar[frozenset[str]] = frozenset()
    # the lobby's names of the options a table may choose (``option_catalogue``); each game module
    # keeps its own next to its options dataclass, an option without one is shown by its field name
    option_labels: ClassVar[Mapping[str, OptionLabel]] = {}
    words: ClassVar[Words] = Words()  # the names of the game's codes and view keys (paiju.words)
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

    def __init__(self) -> None:
        self._deciders: dict[type[Command], Handler] = {}
        self._evolvers: dict[type[Event], Handler] = {}
        self.handle(CommitDeal, self._decide_commit)
        self.handle(AddSeed, self._decide_add_seed)
        self.handle(Deal, self._decide_deal)
        self.handle(RevealSeed, self._decide_reveal)
        self.evolve_by(DealCommitted, self._on_committed)
        self.evolve_by(SeedAdded, self._on_seed_added)
        self.evolve_by(Dealt, self._on_dealt)
        self.evolve_by(HandEnded, self._on_hand_ended)
        self.evolve_by(SeedRevealed, self._on_seed_revealed)
        self.evolve_by(MatchEnded, self._on_match_ended)
        self.handle(Bid, self._decide_word)
        self.evolve_by(BidMade, self._on_word)
        self.handle(SetAuto, self._decide_set_auto)
        self.handle(AutoPlay, self._decide_auto_play)
        self.handle(AutoMove, self._decide_auto_move)
        self.handle(Continue, self._decide_continue)
        self.evolve_by(AutoSet, self._on_auto_set)
        self.evolve_by(AutoPlayed, self._on_auto_played)
        self.evolve_by(Continued, self._on_continued)
        self.handle(Abandon, self._decide_abandon)
        self.evolve_by(TableAbandoned, self._on_abandoned)
        self.handle(Close, self._decide_close)
        self.evolve_by(TableClosed, self._on_closed)
        self.handle(EndAtLimit, self._decide_end_at_limit)
        self.evolve_by(TableAtLimit, self._on_abandoned)

    def handle(self, command: type[Command], decider: Callable[[S, Any], list[Event]]) -> None:
        """``decider(state, command)`` decides commands of this type (a game's own commands: it
        registers the type with ``protocol.register`` too)."""
        self._deciders[command] = decider

    def evolve_by(self, event: type[Event], evolver: Callable[[S, Any], Changes]) -> None:
        """``evolver(state, event)`` gives the changes an event of this type makes."""
        self._evolvers[event] = evolver

    # --- hooks a game fills in ---------------------------------------------------------------

    def variant_options(self, variant: str) -> Any:
        """The options dataclass a variant presets."""
        raise NotImplementedError

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

    def pack(self, config: Config[Any]) -> Hand:
        """The cards dealt from, sorted."""
        raise NotImplementedError

    def hand_size(self, config: Config[Any]) -> int:
        raise NotImplementedError

    def first_turn(self, state: S, hands: tuple[Hand, ...]) -> int:
        """Who acts first in a hand that has just been dealt (``hands`` sorted)."""
        raise NotImplementedError

    def first_to_draw(self, state: S) -> int:
        """The seat that receives the first card of the deal (the dealer's next player, where a
        game knows its dealer before the deal). Default: seat 0."""
        return 0

    def draws_first_by_lot(self, state: S) -> bool:
        """Whether the seat that receives the first card of this hand is drawn by lot from the
        deal's seeds (``fairness.draw_seat``) instead of given by ``first_to_draw``: a game that
        chooses its first dealer at random before the deal (打棒: "第一局随机确认庄家，并从庄家
        开始逆时针发牌"). That seat is then the deal's ``leader`` too: the game's ``opening``
        takes it from there. Default: never."""
        return False

    def seat_drawing_first(self, state: S, server_seed: str) -> int:
        """The seat that receives the first card of the deal made with ``server_seed``: the lot
        (``draws_first_by_lot``) or ``first_to_draw``. The deal and its audit both ask here."""
        if self.draws_first_by_lot(state):
            return fairness.draw_seat(server_seed, state.player_seeds, state.config.players)
        return self.first_to_draw(state)

    def face_up(self, state: S, drawn: tuple[Hand, ...], rest: Hand) -> Hand:
        """Cards turned face up in the deal, from the hands as drawn and the rest in pack order
        (打拱 turns a card to choose the first dealer). Default: none."""
        return ()

    def start_hand(self, state: S) -> Changes:
        """Changes to a state when a hand is dealt: a game resets its own fields here."""
        return {}

    def opening(self, state: S, dealt: Dealt) -> Changes:
        """How a dealt hand opens: its first phase and whatever a game fixes at the deal (板子炮
        opens with the auction and its dealer). Default: play, led by ``dealt.leader``."""
        return {}

    def hand_scored(self, state: S, event: HandEnded) -> Changes:
        """A game's own changes when a hand is scored (条数 adds up the cards lost)."""
        return {}

    def totals_after(self, state: S, event: HandEnded) -> tuple[int, ...]:
        """The running totals after a scored hand: by default each seat's net score added (a game
        whose result is levels or tribute keeps the figure its match is decided by)."""
        return tuple(t + s for t, s in zip(state.totals, event.scores, strict=True))

    def match_over(self, state: S) -> bool:
        """Whether the match ends after the hand just scored: by default after as many hands as
        the options' ``hands`` (one if the game has no such option)."""
        hands: int = getattr(state.config.options, "hands", 1)
        return state.hand_no >= hands

    def deal_consequences(self, state: S) -> list[Event]:
        """Events that follow at once from a deal, given the state just dealt (板子炮's 天牌 ends
        the hand before anyone speaks)."""
        return []

    def word_consequences(self, state: S) -> list[Event]:
        """Events that follow at once from a word of a speaking round, given the state just after
        it (打棒: the last pass over a kitty of jokers only ends the hand, "重新洗牌")."""
        return []

    # --- a speaking round (an auction, a declaration, 明独): phases and speaking order as data ----

    def words_now(self, state: S, seat: int) -> tuple[str, ...]:
        """The words ``seat`` may say now in the speaking round, the cautious one first."""
        return ()

    def heard(self, state: S, event: BidMade, to_speak: tuple[int, ...]) -> Changes:
        """What a word changes, given the state before it and the order still to speak after the
        speaker (by default the next of them speaks; none left: the round has gone round): a game
        sets who speaks next (``to_speak``, ``turn``) or ends the round (its next ``phase``)."""
        return {}

    def speaking_round(self, order: tuple[int, ...], phase: str) -> Changes:
        """The changes that open a speaking round in ``phase`` with seats speaking in ``order``."""
        return {"phase": phase, "said": (), "to_speak": order, "turn": order[0] if order else None}

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

    def hand_sides(self, state: S) -> Sides | None:
        """Who plays with whom in the hand now (``paiju.sides``), from the state's own facts (the
        rules, an auction); None while each plays for himself or nothing is decided yet. The
        core feeds it to the bots' allies, the named cards, the secrecy check and scoring."""
        return None

    def named_cards(self, state: S) -> Hand:
        """Cards named in public while their holder stays secret (a called card): a view may show
        such a code without showing a hand."""
        return ()

    def state_from_view_extra(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """State fields a seat's view shows in another form than the state holds them (for
        ``client.state_from_view``; fields shown as they are held are copied by name)."""
        return {}

    def indistinguishable(self, state: S) -> list[tuple[S, tuple[int | None, ...]]]:
        """States that differ from ``state`` only in a secret, each with the seats (None: a
        spectator) whose views must not tell the two apart. ``selfcheck`` compares the views."""
        return []

    def public_state(self, config: Config[Any], view: Mapping[str, Any]) -> Changes:
        """The fields of this game's core that a seat's view shows, rebuilt from the view of a
        dealt hand (``client.state_from_view``; each core knows its own). Default: none."""
        return {}

    def single_strength(self, config: Config[Any], card: Card) -> int:
        """How strong ``card`` is alone, to order a hand for display (default: its rank)."""
        return (card >> 2) * 4

    def hand_strength(self, state: S, card: Card) -> int | None:
        """How strong ``card`` is in the hand now, to order a hand for display where that depends
        on the hand (trumps declared in it); None: the game's fixed order (``single_strength``)."""
        return None

    def bot_choice(self, state: S, seat: int, moves: list[Command]) -> Command:
        """A bot's move among ``moves`` (the seat's legal moves, never empty). Outside the play
        of cards (an auction, a call) games list the cautious word first and the strongest call
        first: the bot takes the first, except that with four or more aces and twos it bids (包,
        反包: the first bid that is not a pass). Each core chooses its plays (climbing: ``bot_play``)."""
        strong = sum(1 for c in state.hands[seat] if c >> 2 in STRONG_RANKS) if state.hands else 0
        if strong >= 4:
            for move in moves:
                if isinstance(move, Bid) and move.bid != "pass":
                    return move
        return moves[0]

    # --- the decider ---------------------------------------------------------------------------

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

    def decide(self, state: S, command: Command) -> list[Event]:
        """The events a command causes. The command is checked in its one form
        (``Command.normalised``): the order in which it lists a set never changes the answer,
        wherever it comes from (the browser's check, the services, the audit).

        Raises:
            RuleError: the command is against the rules or the table's flow; nothing changes.
        """
        command = command.normalised()
        handler = self._deciders.get(type(command))
        if handler is None:
            raise RuleError("unknown_command", command=command.TYPE)
        seat = getattr(command, "seat", None)
        if seat is not None and not 0 <= seat < state.config.players:
            raise RuleError("unknown_seat", seat=seat)
        events: list[Event] = handler(state, command)
        return events

    def evolve(self, state: S, event: Event) -> S:
        """The state after an event. Trusts the event (decide produced it).

        Each event handler returns the changed fields; the state is copied once per event.
        """
        changes: dict[str, Any] = self._evolvers[type(event)](state, event)
        changes["version"] = state.version + 1
        return copy_with(state, changes)

    def apply(self, state: S, command: Command) -> tuple[S, list[Event]]:
        """decide, then evolve by every event: the state after a command, and its events."""
        events = self.decide(state, command)
        for event in events:
            state = self.evolve(state, event)
        return state, events

    def legal_moves(self, state: S, seat: int) -> list[Command]:
        return []

    def to_move(self, state: S) -> int | None:
        """The seat whose turn it is, or None when the table waits for its own commands."""
        return state.turn if state.phase in self.seat_phases else None

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

    @staticmethod
    def passing(state: TableState) -> bool:
        """Whether the table leaves this state at once by its own step (a hand ended: its seed
        is revealed, the next deal committed to): no seat acts on such a state."""
        return state.phase in ("reveal", "commit")

    @staticmethod
    def between_hands(state: TableState) -> bool:
        """Whether a hand of the match has ended and the next is not yet dealt (the score sheet
        is shown; seats may press 继续, and add their seeds once the next deal is committed to)."""
        return state.last_hand is not None and state.phase in ("reveal", "commit", "seeding")

    def result(self, state: S) -> HandEnded | None:
        """The last scored hand (None before the first hand ends)."""
        return state.last_hand

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
        out.update(self.view_extra(state, seat))
        return out

    def view_extra(self, state: S, seat: int | None) -> dict[str, Any]:
        return {}

    # --- 托管, automatic plays and 继续: the same for every game ---------------------------------

    def _decide_set_auto(self, state: S, command: SetAuto) -> list[Event]:
        """托管 on or off, for a reason of ``AUTO_REASONS``. ``left`` (the player left during the
        match) is on only, once per seat, and recorded even for a seat already in 托管; a seat
        that left never switches 托管 off again (``seat_left``)."""
        if state.phase == "over":
            raise RuleError("wrong_phase", phase=self.phase_name(state.phase))
        allowed = {"self": (True, False), "timeout": (True,), "acted": (False,), "left": (True,)}
        if command.reason not in AUTO_REASONS or command.on not in allowed[command.reason]:
            raise RuleError("bad_auto_reason", reason=str(command.reason)[:20])
        if command.seat in state.left:
            raise RuleError("seat_left")
        if command.reason != "left" and (command.seat in state.auto) == command.on:
            raise RuleError("already_auto" if command.on else "not_auto")
        return [AutoSet(seat=command.seat, on=command.on, reason=command.reason)]

    def _decide_auto_play(self, state: S, command: AutoPlay) -> list[Event]:
        if command.reason not in AUTO_PLAY_REASONS:
            raise RuleError("bad_auto_reason", reason=str(command.reason)[:20])
        if self.to_move(state) is None:
            raise RuleError("wrong_phase", phase=self.phase_name(state.phase))
        if self.to_move(state) != command.seat:
            raise RuleError("not_your_turn")
        if command.seat not in state.auto:
            raise RuleError("not_auto")
        return [AutoPlayed(seat=command.seat, reason=command.reason)]

    def _decide_auto_move(self, state: S, command: AutoMove) -> list[Event]:
        """The server plays for a seat (``AutoMove``): 托管 on if it is off (its deadline
        passed), the ``auto_played`` marker, then the bot's choice among the seat's legal moves,
        each decided on the state the one before leaves."""
        seat = command.seat
        in_auto = seat in state.auto
        steps: list[Command] = [] if in_auto else [SetAuto(seat=seat, on=True, reason="timeout")]
        steps.append(AutoPlay(seat=seat, reason="auto" if in_auto else "timeout"))
        events: list[Event] = []
        for step in steps:
            state, new = self.apply(state, step)
            events.extend(new)
        moves = self.legal_moves(state, seat)
        if not moves:
            raise RuleError("not_your_turn")
        _, new = self.apply(state, self.bot_choice(state, seat, moves))
        return events + new

    def _decide_continue(self, state: S, command: Continue) -> list[Event]:
        if not self.between_hands(state):
            raise RuleError("wrong_phase", phase=self.phase_name(state.phase))
        if command.seat in state.ready:
            raise RuleError("already_continued")
        if command.seed is None:
            return [Continued(seat=command.seat)]
        seeded = self._decide_add_seed(state, AddSeed(seat=command.seat, seed=command.seed))
        return [Continued(seat=command.seat), *seeded]

    def _decide_abandon(self, state: S, command: Abandon) -> list[Event]:
        """Nobody is connected: the match ends with the scores as they stand (the totals of the
        hands already scored; a hand in progress is not scored), in any phase but ``over``, so
        once."""
        if state.phase == "over":
            raise RuleError("wrong_phase", phase=self.phase_name(state.phase))
        return [TableAbandoned(totals=state.totals), MatchEnded(totals=state.totals)]

    def _on_abandoned(self, state: S, event: TableAbandoned | TableAtLimit) -> Changes:
        return {"turn": None, "to_speak": ()}

    def _decide_end_at_limit(self, state: S, command: EndAtLimit) -> list[Event]:
        """The log is at the table service's bound on events: the match ends with the scores as
        they stand (like an abandonment), in any phase but ``over``, so once; only when the ending
        fits the bound and leaves fewer than ``LIMIT_MARGIN`` events of it unused."""
        if state.phase == "over":
            raise RuleError("wrong_phase", phase=self.phase_name(state.phase))
        unused = command.limit - (state.version + ENDING_EVENTS)
        if not 0 <= unused < LIMIT_MARGIN:
            raise RuleError("not_at_limit", events=state.version, limit=command.limit)
        return [
            TableAtLimit(totals=state.totals, limit=command.limit),
            MatchEnded(totals=state.totals),
        ]

    def _decide_close(self, state: S, command: Close) -> list[Event]:
        """The owner closes the table before its first deal: it ends unplayed."""
        if state.hands or state.last_hand is not None or state.phase == "over":
            raise RuleError("wrong_phase", phase=self.phase_name(state.phase))
        return [TableClosed(), MatchEnded(totals=state.totals)]

    def _on_closed(self, state: S, event: TableClosed) -> Changes:
        return {}

    def _on_auto_set(self, state: S, event: AutoSet) -> Changes:
        others = tuple(s for s in state.auto if s != event.seat)
        changes: Changes = {"auto": tuple(sorted((*others, event.seat))) if event.on else others}
        if event.reason == "left":
            changes["left"] = tuple(sorted((*state.left, event.seat)))
        return changes

    def _on_auto_played(self, state: S, event: AutoPlayed) -> Changes:
        return {}

    def _on_continued(self, state: S, event: Continued) -> Changes:
        return {"ready": tuple(sorted((*state.ready, event.seat)))}

    # --- the deal ------------------------------------------------------------------------------

    def phase_name(self, phase: str) -> tuple[str, str]:
        """A phase as the game's words name it (zh, en), for messages: never its code."""
        name = self.words.phases.get(phase)
        return (name[0], name[1]) if name else (phase, phase)

    def require_phase(self, state: S, *phases: str) -> None:
        if state.phase not in phases:
            raise RuleError("wrong_phase", phase=self.phase_name(state.phase))

    def _decide_commit(self, state: S, command: CommitDeal) -> list[Event]:
        self.require_phase(state, "commit")
        if not _HEX64.fullmatch(command.commitment):
            raise RuleError("bad_commitment")
        return [DealCommitted(hand_no=state.hand_no + 1, commitment=command.commitment)]

    def _decide_add_seed(self, state: S, command: AddSeed) -> list[Event]:
        self.require_phase(state, "seeding")
        if state.player_seeds[command.seat] is not None:
            raise RuleError("seed_already_added")
        _check_seed(command.seed)
        return [SeedAdded(seat=command.seat, seed=command.seed)]

    def _decide_deal(self, state: S, command: Deal) -> list[Event]:
        self.require_phase(state, "seeding")
        if fairness.commitment_of(command.seed) != state.commitment:
            raise RuleError("seed_mismatch")
        if command.scheme not in DEAL_SCHEMES:
            raise RuleError("bad_command", detail=f"unknown deal scheme {command.scheme[:20]!r}")
        config = state.config
        first = self.seat_drawing_first(state, command.seed)
        drawn, rest = fairness.deal(
            self.pack(config),
            config.players,
            self.hand_size(config),
            command.seed,
            state.player_seeds,
            command.scheme,
            first,
        )
        hands = tuple(tuple(sorted(hand)) for hand in drawn)
        dealt = Dealt(
            hand_no=state.hand_no,
            hands=drawn,
            rest=rest,
            face_up=self.face_up(state, drawn, rest),
            leader=first if self.draws_first_by_lot(state) else self.first_turn(state, hands),
            scheme=command.scheme,
        )
        return [dealt, *self.deal_consequences(self.evolve(state, dealt))]

    def _decide_reveal(self, state: S, command: RevealSeed) -> list[Event]:
        self.require_phase(state, "reveal")
        if fairness.commitment_of(command.seed) != state.commitment:
            raise RuleError("seed_mismatch")
        events: list[Event] = [SeedRevealed(hand_no=state.hand_no, seed=command.seed)]
        if self.match_over(state):
            events.append(MatchEnded(totals=state.totals))
        return events

    def _on_committed(self, state: S, event: DealCommitted) -> dict[str, Any]:
        return {
            "phase": "seeding",
            "hand_no": event.hand_no,
            "commitment": event.commitment,
            "player_seeds": (None,) * state.config.players,
        }

    def _on_seed_added(self, state: S, event: SeedAdded) -> dict[str, Any]:
        seeds = list(state.player_seeds)
        seeds[event.seat] = event.seed
        return {"player_seeds": tuple(seeds)}

    def _on_dealt(self, state: S, event: Dealt) -> dict[str, Any]:
        changes = {
            "phase": "play",
            "hands": tuple(tuple(sorted(hand)) for hand in event.hands),
            "rest": event.rest,
            "turn": event.leader,
            "leader": event.leader,
            "ready": (),
        }
        return changes | self.start_hand(state) | self.opening(state, event)

    def _on_hand_ended(self, state: S, event: HandEnded) -> dict[str, Any]:
        totals = self.totals_after(state, event)
        changes = {"phase": "reveal", "turn": None, "totals": totals, "last_hand": event}
        return changes | self.hand_scored(state, event)

    def _on_seed_revealed(self, state: S, event: SeedRevealed) -> dict[str, Any]:
        return {"phase": "commit", "revealed": (*state.revealed, event.seed)}

    def _on_match_ended(self, state: S, event: MatchEnded) -> dict[str, Any]:
        return {"phase": "over"}


def _check_seed(seed: str) -> None:
    if not 1 <= len(seed) <= 128:
        raise RuleError("bad_seed")


def next_seat(seat: int, players: int) -> int:
    """Seats are numbered in the order of play."""
    return (seat + 1) % players


def holder_of(hands: tuple[Hand, ...], card: Card) -> int | None:
    for seat, hand in enumerate(hands):
        if card in hand:
            return seat
    return None


__all__ = [
    "MATCH_HANDS",
    "STRONG_RANKS",
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
