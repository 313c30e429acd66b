"""The 高手 (expert) bot: a determinized search, perfect-information Monte Carlo as in the Dou
Dizhu literature (OpenSpiel's ISMCTS is the same family, with a tree over information sets).

A decision, from the state the seat's view rebuilds and nothing more:

1. the seat's legal moves; one alone is played at once;
2. a handful of candidates: the 普通 bot's own move first, then the others in a cheap order that
   spreads them (a pass, then plays by size and strength, or words as the game lists them);
3. deals the seat cannot tell from the true one (``paiju.sampling``), from a generator seeded by
   the hand, the state's version and the seat, so the same state gives the same move;
4. each candidate played on each deal and the hand played out to its end by the 普通 bot for
   every seat; a candidate's value is the seat's mean score of the hand over the deals (the
   same deals for every candidate, so luck cancels between them). The 普通 move is kept unless
   another beats it on those deals by more than the noise (``pick``).

Bids and declarations (包 / 反包 / 叫牌, 明独, 亮主, 扣底 …) are legal moves like plays and are
searched the same way.

The ``Budget``: how many candidates, how many deals at most, and how many moves may be played out
in all (``steps``: a deal is played for every candidate or not at all), which bounds a decision's
time whatever the game and the point of the hand; per-game defaults (``STEPS``) keep a decision in
CPython near 200 ms at the 95th percentile on the reference machine. ``ms`` adds a wall clock
bound, which makes the move depend on the machine's speed: off by default.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from paiju import results
from paiju.protocol import Command, HandEnded, Pass, Play
from paiju.registry import get_game
from paiju.results import LevelsAndBlood
from paiju.sampling import knowledge, sample
from paiju.table import TableGame, TableState

# moves played out per decision, by game: a move's cost differs a lot between games (打棒's four
# decks and trick rules cost about ten times a move of 关牌)
STEPS = {
    "guanpai": 4000,
    "dabei": 6000,
    "tiaoshu": 6000,
    "banzipao": 4000,
    "dagong": 1500,  # its fast play-out: early in a hand about 20 deals of six candidates
    "dabang": 800,
}
DEFAULT_STEPS = 1000
ROLLOUT_LIMIT = 3000  # moves of one play-out at most: a hand that runs longer scores nothing


# moves of a game's fast play-out (``Decider.bot_finish``) that cost about one move of the engine
FAST_MOVES = 10


@dataclass(frozen=True, slots=True)
class Budget:
    """What a decision may spend: ``candidates`` moves searched, ``playouts`` deals at most,
    ``steps`` moves played out in all (None: the game's ``STEPS``), ``ms`` a wall clock bound
    (None: none; with one, the move depends on the machine's speed); and how sure the search
    must be to leave the 普通 move (``confidence``, in standard errors: ``pick``); ``scale``
    multiplies the steps (a slower machine's setting: the services' ``bot_search_scale``);
    ``words`` multiplies them again for a decision outside play (a bid, a declaration, the
    kitty): a few a hand, each weighing on the whole hand (打拱's 明独 searched on five deals
    was a gamble), so that they are searched on more deals without slowing the plays."""

    candidates: int = 4
    playouts: int = 24
    steps: int | None = None
    ms: float | None = None
    confidence: float = 1.0
    scale: float = 1.0
    words: float = 4.0

    def steps_for(self, game: str, phase: str = "play") -> int:
        """The steps of a decision of ``game`` in ``phase`` (``words`` times more outside
        play)."""
        steps = self.steps if self.steps is not None else STEPS.get(game, DEFAULT_STEPS)
        return max(1, round(steps * self.scale * (1 if phase == "play" else self.words)))


BUDGET = Budget()
# a game's own budget where it differs from ``BUDGET``. 打拱: six candidates, up to 32 deals (its
# fast play-out affords them): over 100 deals of seed bench +1.26 [+0.55, +1.97] a hand, where
# four candidates on 24 deals gave +0.57 [-0.08, +1.22] and four on 48 +0.68 [-0.02, +1.37];
# its 明独 hands gained most. (Three candidates instead of four in 打拱 and 打棒, where a move of
# the engine costs most, measured no better over 40 duplicate deals.) 打棒: about 30 decisions a
# hand on about eight deals each, where a level is won or lost only now and then: leaving the 普通
# move at one standard error followed the noise often enough to cost what the search found. At two,
# over 100 deals: seed bench +0.10 [+0.05, +0.15] a hand (one: +0.07 [-0.03, +0.16]), seed duel
# +0.09 [+0.01, +0.16]; at three, +0.02 [-0.01, +0.05] (seed bench): too few moves left.
BUDGETS: dict[str, Budget] = {
    "dagong": Budget(candidates=6, playouts=32),
    "dabang": Budget(confidence=2.0),
}


@dataclass(frozen=True, slots=True)
class Searched:
    """A decision's search: the candidates with their mean scores, the deals played, the moves
    played out in all (``steps``) and on the last deal (``last``: the budget's ``steps`` bounds
    ``steps - last``, since a deal is begun only while one like the last still fits)."""

    move: Command
    values: tuple[tuple[Command, float], ...]
    deals: int
    steps: int
    last: int


def seat_score(game: TableGame[Any], state: TableState, event: HandEnded, seat: int) -> float:
    """``seat``'s score in a hand (``paiju.results.seat_score``, as a duel counts it), with 打棒's
    points as a tie-break (a thousandth of a level each: a level is worth more than any number of
    points)."""
    levels = results.seat_score(game.result_type, event, seat)
    if game.result_type.SCORED:
        return float(levels)
    record = game.result_type.from_event(event)
    if not isinstance(record, LevelsAndBlood):
        return float(levels)
    dealer = getattr(state, "dealer", None)
    attacking = dealer is not None and seat % 2 != dealer % 2
    return levels + (record.points if attacking else -record.points) / 1000


def _strength(game: TableGame[Any], state: TableState) -> Callable[[int], int]:
    def strength(card: int) -> int:
        value = game.hand_strength(state, card)
        return int(value) if value is not None else card >> 2

    return strength


def candidates(
    state: TableState, seat: int, moves: list[Command], first: Command, k: int
) -> list[Command]:
    """At most ``k`` of ``moves``: ``first`` (the 普通 bot's), then a pass, then plays taken in
    turn from each size (the largest first), weakest first within a size; words in the order the
    game lists them, cards to call strongest first."""
    game: TableGame[Any] = get_game(state.config.game)
    strength = _strength(game, state)
    rest = [m for m in moves if m != first]
    passes = [m for m in rest if isinstance(m, Pass)]
    plays = [m for m in rest if isinstance(m, Play)]
    words = [m for m in rest if not isinstance(m, Pass | Play)]
    by_size: dict[int, list[Play]] = {}
    for play in plays:
        by_size.setdefault(len(play.cards), []).append(play)
    columns = [
        sorted(
            group, key=lambda p: (max(map(strength, p.cards)), sum(map(strength, p.cards)), p.cards)
        )
        for _, group in sorted(by_size.items(), reverse=True)
    ]
    spread: list[Command] = []
    for row in range(max((len(c) for c in columns), default=0)):
        spread += [column[row] for column in columns if row < len(column)]
    called = [w for w in words if isinstance(getattr(w, "card", None), int)]
    if called:  # a card to call: the strongest first (a partner who holds it wins tricks)
        words = sorted(called, key=lambda w: -strength(getattr(w, "card", 0)))
    return [first, *passes, *words, *spread][:k]


def rollout(game: TableGame[Any], state: TableState, seat: int, move: Command) -> tuple[float, int]:
    """Play ``move`` on a full state, then the hand to its end by the 普通 bot for every seat:
    the seat's score and the moves played (a hand that stops otherwise scores 0)."""
    state, events = game.apply(state, move)
    for steps in range(1, ROLLOUT_LIMIT):
        for event in events:
            if isinstance(event, HandEnded):
                return seat_score(game, state, event, seat), steps
        if (finished := game.bot_finish(state)) is not None:
            end, ended, played = finished
            return seat_score(game, end, ended, seat), steps + -(-played // FAST_MOVES)
        mover = game.to_move(state)
        if mover is None:
            return 0.0, steps
        moves = game.legal_moves(state, mover)
        state, events = game.apply(state, game.bot_choice(state, mover, moves))
    return 0.0, ROLLOUT_LIMIT


def search(
    state: TableState,
    seat: int,
    budget: Budget = BUDGET,
    seed: str = "",
    clock: Callable[[], float] = time.perf_counter,
) -> Searched:
    """The search of ``seat``'s move (see the module docstring).

    Raises:
        ValueError: the seat has nothing to do now.
    """
    game: TableGame[Any] = get_game(state.config.game)
    moves: list[Command] = game.legal_moves(state, seat)
    if not moves:
        raise ValueError(f"seat {seat} has no move now")
    first: Command = game.bot_choice(state, seat, moves)
    if len(moves) == 1:
        return Searched(moves[0], ((moves[0], 0.0),), 0, 0, 0)
    pool = candidates(state, seat, moves, first, budget.candidates)
    rng = random.Random(f"expert:{state.config.game}:{state.hand_no}:{state.version}:{seat}:{seed}")
    know = knowledge(state, seat)
    table: list[list[float]] = []  # a row a deal: each candidate's score
    limit = budget.steps_for(state.config.game, state.phase)
    steps_left, spent, deals, failed, last = limit, 0, 0, 0, 0
    deadline = None if budget.ms is None else clock() + budget.ms / 1000
    while deals + failed < budget.playouts and steps_left > 0:
        if deadline is not None and deals and clock() > deadline:
            break
        deal = sample(state, seat, rng, know)
        scores, before = [], spent
        try:
            for move in pool:
                score, steps = rollout(game, deal, seat, move)
                scores.append(score)
                spent += steps
        except Exception:
            # A view does not rebuild every private field a later step of the rules reads (打棒's
            # grabs in the first hand's declaring round); such a deal is dropped, and a search
            # with no deal left plays the 普通 move.
            failed += 1
            spent += 1
            steps_left = limit - spent - last
            if failed > budget.playouts // 2:
                break
            continue
        table.append(scores)
        deals += 1
        last = spent - before
        steps_left = limit - spent - last  # room for another deal like this one
    if not deals:
        return Searched(first, ((first, 0.0),), 0, spent, last)
    values = tuple((m, statistics.fmean(row[i] for row in table)) for i, m in enumerate(pool))
    return Searched(pool[pick(table, budget.confidence)], values, deals, spent, last)


def pick(table: list[list[float]], confidence: float) -> int:
    """The candidate to play from its scores on each deal (a row a deal, the 普通 move first):
    the best mean among those that beat the 普通 move on the same deals by more than
    ``confidence`` standard errors of the difference (two deals at least); else the 普通 move.
    Few deals and close scores keep the sensible move rather than follow the noise.

    >>> pick([[0, 1], [0, 1]], 1.0), pick([[0, 3], [0, -1]], 1.0), pick([[0, 9]], 1.0)
    (1, 0, 0)
    """
    best, best_gain = 0, 0.0
    if len(table) < 2:
        return best
    for i in range(1, len(table[0])):
        gains = [row[i] - row[0] for row in table]
        gain = statistics.fmean(gains)
        error = statistics.stdev(gains) / math.sqrt(len(gains))
        if gain > confidence * error and gain > best_gain + 1e-9:
            best, best_gain = i, gain
    return best


def budget_for(game: str) -> Budget:
    """The budget the 高手 level searches ``game`` with (``BUDGETS``, else ``BUDGET``)."""
    return BUDGETS.get(game, BUDGET)


def choose(state: TableState, seat: int) -> Command:
    """The 高手 bot's move for ``seat`` (whose turn it must be), with its game's budget."""
    return search(state, seat, budget_for(state.config.game)).move


def with_budget(budget: Budget) -> Callable[[TableState, int], Command]:
    """A chooser searching with ``budget`` (for a level, a bench or a test)."""
    return lambda state, seat: search(state, seat, budget).move


def scaled(scale: float) -> Callable[[TableState, int], Command]:
    """The 高手 chooser with every game's budget's steps times ``scale`` (1: ``choose``)."""
    if scale == 1.0:
        return choose

    def choose_scaled(state: TableState, seat: int) -> Command:
        budget = replace(budget_for(state.config.game), scale=scale)
        return search(state, seat, budget).move

    return choose_scaled


__all__ = [
    "BUDGET",
    "BUDGETS",
    "DEFAULT_STEPS",
    "STEPS",
    "Budget",
    "Searched",
    "budget_for",
    "candidates",
    "choose",
    "pick",
    "rollout",
    "scaled",
    "search",
    "seat_score",
    "with_budget",
]
