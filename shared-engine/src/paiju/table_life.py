"""The table's life around the play, the same for every game: 托管 (the server plays for a seat),
the server's automatic plays, 继续 between the hands of a match, table talk (快捷语 and emotes), the
seats bots play and their levels, and a match that ends early (abandoned by everybody, closed by its owner before the first deal, or at
the table service's bound on events).

Each step is a function of the game (``paiju.decider.Decider``: ``to_move``, ``legal_moves``,
``bot_choice``, ``apply``), the state and the command or event; ``TableGame`` wires them in by
type from ``DECIDERS`` and ``EVOLVERS``. They are apart from the table because no game changes
them: the table service sends most of these commands, never a game's rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from paiju.changes import Changes
from paiju.commands import (
    AUTO_PLAY_REASONS,
    AUTO_REASONS,
    ENDING_EVENTS,
    LIMIT_MARGIN,
    Abandon,
    AddSeed,
    AutoMove,
    AutoPlay,
    Close,
    Command,
    Continue,
    EndAtLimit,
    SeatBot,
    SetAuto,
    Talk,
)
from paiju.dealing import decide_add_seed
from paiju.decider import Decider, Step
from paiju.errors import RuleError
from paiju.events import (
    AutoPlayed,
    AutoSet,
    BotSeated,
    Continued,
    Event,
    MatchEnded,
    TableAbandoned,
    TableAtLimit,
    TableClosed,
    Talked,
)
from paiju.table_state import TableState
from paiju.words import LEVEL_NAMES


def _decide_set_auto(game: Decider[Any], state: TableState, command: SetAuto) -> list[Event]:
    """托管 on or off, for a reason of ``AUTO_REASONS``. ``left`` (the player left during the
    match) is on only, once per seat, and recorded even for a seat already in 托管; a seat
    that left never switches 托管 off again (``seat_left``)."""
    if state.phase == "over":
        raise RuleError("wrong_phase", phase=game.phase_name(state.phase))
    allowed = {"self": (True, False), "timeout": (True,), "acted": (False,), "left": (True,)}
    if command.reason not in AUTO_REASONS or command.on not in allowed[command.reason]:
        raise RuleError("bad_auto_reason", reason=str(command.reason)[:20])
    if command.seat in state.left:
        raise RuleError("seat_left")
    if command.reason != "left" and (command.seat in state.auto) == command.on:
        raise RuleError("already_auto" if command.on else "not_auto")
    return [AutoSet(seat=command.seat, on=command.on, reason=command.reason)]


def _decide_auto_play(game: Decider[Any], state: TableState, command: AutoPlay) -> list[Event]:
    if command.reason not in AUTO_PLAY_REASONS:
        raise RuleError("bad_auto_reason", reason=str(command.reason)[:20])
    if game.to_move(state) is None:
        raise RuleError("wrong_phase", phase=game.phase_name(state.phase))
    if game.to_move(state) != command.seat:
        raise RuleError("not_your_turn")
    if command.seat not in state.auto:
        raise RuleError("not_auto")
    return [AutoPlayed(seat=command.seat, reason=command.reason)]


def _decide_auto_move(game: Decider[Any], state: TableState, command: AutoMove) -> list[Event]:
    """The server plays for a seat (``AutoMove``): 托管 on if it is off (its deadline
    passed), the ``auto_played`` marker, then the bot's choice among the seat's legal moves,
    each decided on the state the one before leaves."""
    seat = command.seat
    in_auto = seat in state.auto
    steps: list[Command] = [] if in_auto else [SetAuto(seat=seat, on=True, reason="timeout")]
    steps.append(AutoPlay(seat=seat, reason="auto" if in_auto else "timeout"))
    events: list[Event] = []
    for step in steps:
        state, new = game.apply(state, step)
        events.extend(new)
    moves = game.legal_moves(state, seat)
    if not moves:
        raise RuleError("not_your_turn")
    _, new = game.apply(state, game.bot_choice(state, seat, moves))
    return events + new


def _decide_continue(game: Decider[Any], state: TableState, command: Continue) -> list[Event]:
    if not game.between_hands(state):
        raise RuleError("wrong_phase", phase=game.phase_name(state.phase))
    if command.seat in state.ready:
        raise RuleError("already_continued")
    if command.seed is None:
        return [Continued(seat=command.seat)]
    seeded = decide_add_seed(game, state, AddSeed(seat=command.seat, seed=command.seed))
    return [Continued(seat=command.seat), *seeded]


# events that do not restart a wait for a decision: a 继续 and the seed it carries (the gate counts
# from the hand's end), a 托管 switch (switching gives the seat to act no more time), table talk
# (快捷语 buys nobody time) and a bot's seat recorded (before the first deal: nobody is waited for);
# the table service's clock and a practice table's count from the last event not among them
QUIET = frozenset({"continued", "seed_added", "auto_set", "talked", "bot_seated"})

# How often a seat may talk: at most ``TALK_MOST`` of its words among the table's last
# ``TALK_WINDOW`` events. A limit counted in the log, not in seconds, so that the audit checks it
# too: between two moves the table hears at most two words a seat, and a log grows by at most
# ``TALK_MOST`` talk events a seat between moves (the clock's walk back over quiet events, and the
# table service's bound on events, stay far from them). The state keeps the last ``TALK_KEPT``.
TALK_MOST = 2
TALK_WINDOW = 8
TALK_KEPT = 8


def _decide_talk(game: Decider[Any], state: TableState, command: Talk) -> list[Event]:
    """A seat's 快捷语 or emote: one of the table's words (``talk`` of the game's
    ``words.commands``), in any phase but ``over``, by a seat whose player has not left, at most
    ``TALK_MOST`` times in the last ``TALK_WINDOW`` events."""
    if state.phase == "over":
        raise RuleError("wrong_phase", phase=game.phase_name(state.phase))
    if command.seat in state.left:  # (a seat not at the table: ``Decider.decide`` refused it)
        raise RuleError("seat_left")
    if command.talk not in game.words.commands.get("talk", {}):
        raise RuleError("unknown_talk", talk=str(command.talk)[:20])
    recent = [s for s, _, index in state.talk if index >= state.version - TALK_WINDOW]
    if recent.count(command.seat) >= TALK_MOST:
        raise RuleError("talk_too_often", most=TALK_MOST, window=TALK_WINDOW)
    return [Talked(seat=command.seat, talk=command.talk)]


def _on_talked(game: Decider[Any], state: TableState, event: Talked) -> Changes:
    return {"talk": (*state.talk, (event.seat, event.talk, state.version))[-TALK_KEPT:]}


def _decide_seat_bot(game: Decider[Any], state: TableState, command: SeatBot) -> list[Event]:
    """A bot plays ``command.seat`` at ``command.level``: recorded once a seat, before the first
    deal (the table service records its bot seats then, as it adds the seats' seeds).

    Raises:
        RuleError: ``unknown_level``, ``bot_already_seated``, ``wrong_phase`` (a hand dealt).
    """
    if state.hands or state.last_hand is not None or state.phase == "over":
        raise RuleError("wrong_phase", phase=game.phase_name(state.phase))
    if command.level not in LEVEL_NAMES:
        raise RuleError(
            "unknown_level", level=str(command.level)[:20], known=", ".join(LEVEL_NAMES)
        )
    if state.bots and state.bots[command.seat] is not None:
        raise RuleError("bot_already_seated")
    return [BotSeated(seat=command.seat, level=command.level)]


def _on_bot_seated(game: Decider[Any], state: TableState, event: BotSeated) -> Changes:
    bots = list(state.bots or (None,) * state.config.players)
    bots[event.seat] = event.level
    return {"bots": tuple(bots)}


def bot_to_record(state: TableState, bots: Mapping[int, str]) -> SeatBot | None:
    """The next bot seat of ``bots`` (seat → level) whose level the log does not hold yet, while
    the first hand waits for its deal (the table service's steps and a practice table record them
    then, as they add the seats' seeds); None: nothing to record now."""
    if state.phase != "seeding" or state.hand_no != 1:
        return None
    for seat, level in sorted(bots.items()):
        if not state.bots or state.bots[seat] is None:
            return SeatBot(seat=seat, level=level)
    return None


def _decide_abandon(game: Decider[Any], state: TableState, command: Abandon) -> list[Event]:
    """Nobody is connected: the match ends with the scores as they stand (the totals of the
    hands already scored; a hand in progress is not scored), in any phase but ``over``, so
    once."""
    if state.phase == "over":
        raise RuleError("wrong_phase", phase=game.phase_name(state.phase))
    return [TableAbandoned(totals=state.totals), MatchEnded(totals=state.totals)]


def _on_abandoned(
    game: Decider[Any], state: TableState, event: TableAbandoned | TableAtLimit
) -> Changes:
    return {"turn": None, "to_speak": ()}


def _decide_end_at_limit(game: Decider[Any], state: TableState, command: EndAtLimit) -> list[Event]:
    """The log is at the table service's bound on events: the match ends with the scores as
    they stand (like an abandonment), in any phase but ``over``, so once; only when the ending
    fits the bound and leaves fewer than ``LIMIT_MARGIN`` events of it unused."""
    if state.phase == "over":
        raise RuleError("wrong_phase", phase=game.phase_name(state.phase))
    unused = command.limit - (state.version + ENDING_EVENTS)
    if not 0 <= unused < LIMIT_MARGIN:
        raise RuleError("not_at_limit", events=state.version, limit=command.limit)
    return [
        TableAtLimit(totals=state.totals, limit=command.limit),
        MatchEnded(totals=state.totals),
    ]


def _decide_close(game: Decider[Any], state: TableState, command: Close) -> list[Event]:
    """The owner closes the table before its first deal: it ends unplayed."""
    if state.hands or state.last_hand is not None or state.phase == "over":
        raise RuleError("wrong_phase", phase=game.phase_name(state.phase))
    return [TableClosed(), MatchEnded(totals=state.totals)]


def _on_closed(game: Decider[Any], state: TableState, event: TableClosed) -> Changes:
    return {}


def _on_auto_set(game: Decider[Any], state: TableState, event: AutoSet) -> Changes:
    others = tuple(s for s in state.auto if s != event.seat)
    changes: Changes = {"auto": tuple(sorted((*others, event.seat))) if event.on else others}
    if event.reason == "left":
        changes["left"] = tuple(sorted((*state.left, event.seat)))
    return changes


def _on_auto_played(game: Decider[Any], state: TableState, event: AutoPlayed) -> Changes:
    return {}


def _on_continued(game: Decider[Any], state: TableState, event: Continued) -> Changes:
    return {"ready": tuple(sorted((*state.ready, event.seat)))}


# the commands of the table's life and the events they evolve by, for ``TableGame`` to wire in
DECIDERS: dict[type[Command], Step] = {
    SetAuto: _decide_set_auto,
    AutoPlay: _decide_auto_play,
    AutoMove: _decide_auto_move,
    Continue: _decide_continue,
    Abandon: _decide_abandon,
    Close: _decide_close,
    EndAtLimit: _decide_end_at_limit,
    Talk: _decide_talk,
    SeatBot: _decide_seat_bot,
}
EVOLVERS: dict[type[Event], Step] = {
    AutoSet: _on_auto_set,
    AutoPlayed: _on_auto_played,
    Continued: _on_continued,
    TableAbandoned: _on_abandoned,
    TableClosed: _on_closed,
    TableAtLimit: _on_abandoned,
    Talked: _on_talked,
    BotSeated: _on_bot_seated,
}
