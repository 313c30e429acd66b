"""The decider's shape every game shares: commands dispatched to their deciders and events to
their evolvers by type (data, not a chain of ifs), and the hooks a game fills in, with their
defaults.

``decide`` checks a command against the rules and answers with events; ``evolve`` trusts an event
and gives the next state; ``apply`` is the two together. ``TableGame`` (``paiju.table``) is a
``Decider`` with the table's own steps wired in: the deal (``paiju.dealing``), the table's life
(``paiju.table_life``) and a speaking round. Those steps are functions of a ``Decider``: they ask
its hooks (``pack``, ``first_turn``, ``bot_choice`` …), which is why the hooks live here, below
them, and the table above.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Generic

from paiju import fairness
from paiju.cards import Card, Hand
from paiju.changes import Changes, copy_with
from paiju.commands import Bid, Command
from paiju.errors import RuleError
from paiju.events import BidMade, Dealt, Event, HandEnded
from paiju.sides import Sides
from paiju.table_state import Config, GameInfo, S, TableState
from paiju.words import Words

STRONG_RANKS = frozenset({11, 12})  # A and 2 in the notation's ranks: a bot bids with four
Handler = Callable[[Any, Any], Any]
# a step of the table (paiju.dealing, paiju.table_life): (game, state, command) → events, or
# (game, state, event) → changes
Step = Callable[[Any, Any, Any], Any]


class Decider(Generic[S]):
    """Commands to deciders, events to evolvers, and the hooks a game fills in."""

    info: ClassVar[GameInfo]
    state_type: ClassVar[type[TableState]] = TableState
    # the phases in which ``turn`` names a seat that must act (a bidding game adds its own)
    seat_phases: ClassVar[frozenset[str]] = frozenset({"play"})
    # the phases that are speaking rounds: seats say words (``Bid``) in the order of ``to_speak``
    speaking_phases: ClassVar[frozenset[str]] = frozenset()
    words: ClassVar[Words] = Words()  # the names of the game's codes and view keys (paiju.words)

    def __init__(self) -> None:
        self._deciders: dict[type[Command], Handler] = {}
        self._evolvers: dict[type[Event], Handler] = {}

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

    def bid_kind(self, state: S, seat: int, word: str) -> str | None:
        """The kind of bid or declaration ``word``, said by ``seat`` in ``state``, makes, as a duel
        reports them (``paiju.duel``); None: no bid (the cautious word, listed first). A game whose
        words carry an amount or a card names their kind instead (打棒: 扣王, whatever the number
        of jokers); its name is the word's, else the game's ``Words.bid_kinds``."""
        return None if self.words_now(state, seat)[:1] == (word,) else word

    def heard(self, state: S, event: BidMade, to_speak: tuple[int, ...]) -> Changes:
        """What a word changes, given the state before it and the order still to speak after the
        speaker (by default the next of them speaks; none left: the round has gone round): a game
        sets who speaks next (``to_speak``, ``turn``) or ends the round (its next ``phase``)."""
        return {}

    def speaking_round(self, order: tuple[int, ...], phase: str) -> Changes:
        """The changes that open a speaking round in ``phase`` with seats speaking in ``order``."""
        return {"phase": phase, "said": (), "to_speak": order, "turn": order[0] if order else None}

    # --- who plays with whom, what is secret, how cards are ordered, a bot's word ----------------

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

    def points_played(self, state: S) -> tuple[Mapping[int, int], int] | None:
        """In a game that counts points, what its views tell of the cards played this hand: the
        points of each rank, and the points among all the cards played so far (each seat's points
        taken and the trick on the table), for the 高手's sampler (``paiju.sampling``). None: the
        game counts none, or its views do not tell (the default)."""
        return None

    def shown_held(self, state: S) -> tuple[tuple[int, Card], ...]:
        """Cards a seat has shown every seat and holds still for certain (打棒's declarations,
        while they are being made), a (seat, card) pair for each copy, for the 高手's sampler
        (``paiju.sampling``), which deals them to that seat. Default: none."""
        return ()

    def bot_finish(self, state: S) -> tuple[S, HandEnded, int] | None:
        """The hand played to its end from the full ``state`` by the 普通 bot for every seat, on a
        fast path of the game's own (for the 高手's play-outs, ``paiju.search.rollout``): the state
        the hand ends in, its ``hand_ended`` and the moves played; the game must play exactly as
        ``bot_choice`` does. None: no fast path here (the default: the engine plays it move by
        move)."""
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

    # --- deciding and evolving -----------------------------------------------------------------

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
        """The moves ``seat`` may make now (each core fills it in; none by default)."""
        return []

    def to_move(self, state: S) -> int | None:
        """The seat whose turn it is, or None when the table waits for its own commands."""
        return state.turn if state.phase in self.seat_phases else None

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

    def phase_name(self, phase: str) -> tuple[str, str]:
        """A phase as the game's words name it (zh, en), for messages: never its code."""
        name = self.words.phases.get(phase)
        return (name[0], name[1]) if name else (phase, phase)

    def require_phase(self, state: S, *phases: str) -> None:
        """That the table is in one of ``phases``.

        Raises:
            RuleError: ``wrong_phase``, naming the phase it is in.
        """
        if state.phase not in phases:
            raise RuleError("wrong_phase", phase=self.phase_name(state.phase))
