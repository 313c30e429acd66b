"""Duplicate duels between bot levels (``paiju duel``): how much stronger one level plays than
another, measured so that the luck of the cards cancels out (issue 30).

A duel plays N deals. Each deal (one base seed: the table's own steps, ``simulate.table_command``,
deal the same cards every time) is played once per rotation of the seats: in lineup ``one`` the
hero's level holds one seat and the field's level the others, and the hero moves round the table
seat by seat; in lineup ``all`` the hero holds every seat but one, and the field's one seat moves
round. So the hero plays every seat of the same cards, and what a seat's cards are worth cancels
out of its mean. Each play of a deal is a match of its own, from a fresh table, of one hand (the
game's ``hands`` option set to 1; a game without it ends after its first hand). A game whose later
hands are played by rules its first hand is not (``TableGame.later_hands_differ``: 打棒's 亮主 with
level cards and its overcalls, the blood owed, the dealer and levels the first hand leaves) plays
every other deal (the odd ones) as a match's second hand: the deal's first hand is played once by
the field's level at every seat, and each rotation plays the second hand from where it left the
table, so every rotation starts from the same state and the luck of the first hand cancels too.

Every seat decides as a bot seat at a table does: its level (``paiju.levels``) chooses on the state
its own view rebuilds (``client.state_from_view``), never on the table's state. The hero's
decisions are timed, the view and its rebuild included.

What a duel reports, and the command that plays and prints one, are ``paiju.duel_report``'s.

The same seed gives the same duel, times apart: the deals follow from the seed and the levels are
deterministic.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from paiju import api, levels
from paiju.cards import Hand
from paiju.client import state_from_view
from paiju.protocol import Bid, BidMade, Dealt, Event, HandEnded, Passed, Played, TrickWon
from paiju.registry import get_game
from paiju.results import seat_score
from paiju.simulate import table_command
from paiju.table import Config, TableGame, TableState
from paiju.words import Text

LINEUPS = ("one", "all")
DEFAULT_SEED = "duel"
MAX_STEPS = 20_000  # commands of one play of a deal at most
# the events of a seat's moves that are not a bid or a declaration
ROUTINE = frozenset({Played.TYPE, Passed.TYPE, TrickWon.TYPE})


@dataclass(frozen=True, slots=True)
class Seating:
    """One play of a deal: the seats the hero's level held, the cards as first dealt (the same in
    every seating of a deal), each seat's score, the kinds of bid or declaration each seat made
    (seat, kind), in the order made, and the kinds of word a hero seat could say when it spoke
    (seat, kind), whether it said them or not."""

    heroes: tuple[int, ...]
    dealt: tuple[Hand, ...]
    scores: tuple[int, ...]
    declared: tuple[tuple[int, str], ...]
    offered: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Duel:
    """A whole duel: its settings, every deal's seatings (one per rotation), the hero's decision
    times in seconds, and each kind of declaration's name (zh, en)."""

    config: Config[Any]
    hero: str
    field: str
    lineup: str
    seed: str
    deals: tuple[tuple[Seating, ...], ...]
    decisions: tuple[float, ...]
    kinds: dict[str, Text]


def counts_hands(config: Config[Any]) -> bool:
    """Whether the game's options count the hands of a match (a ``hands`` option)."""
    return "hands" in {f.name for f in fields(config.options)}


def duel_config(game: str, variant: str | None = None, hands: int = 1) -> Config[Any]:
    """The config a duel plays ``game`` by: the variant's, with ``hands`` hands a match where the
    game counts hands.

    Raises:
        ValueError: unknown game (``RuleError`` ``unknown_game``) or variant.
    """
    config = api.make_config(game, variant)
    if counts_hands(config):
        config = api.make_config(game, config.variant, options={"hands": hands})
    return config


def second_hand(config: Config[Any], n: int) -> bool:
    """Whether deal ``n`` is played as a match's second hand (an odd deal of a game whose later
    hands differ from its first, ``TableGame.later_hands_differ``)."""
    game: TableGame[Any] = get_game(config.game)
    return game.later_hands_differ and counts_hands(config) and n % 2 == 1


def opening(config: Config[Any], base_seed: str, field: str) -> TableState | None:
    """The table after the first hand of the deal of ``base_seed`` (``config`` of two hands a
    match), played by ``field``'s level at every seat; None if that hand ended the match."""
    game: TableGame[Any] = get_game(config.game)
    state = game.initial_state(config)
    for _ in range(MAX_STEPS):
        command = table_command(state, base_seed)
        if command is None:
            seat = game.to_move(state)
            assert seat is not None, f"nobody to move in phase {state.phase}"
            mine = state_from_view(config, api.view(state, seat))
            command = levels.choose(mine, seat, field)
        state, events = game.apply(state, command)
        if any(isinstance(e, HandEnded) for e in events):
            return None if state.phase == "over" else state
    raise RuntimeError(f"the first hand of {base_seed!r} did not end in {MAX_STEPS} commands")


def seatings(players: int, lineup: str) -> list[tuple[int, ...]]:
    """The hero's seats in each rotation of a deal.

    >>> seatings(3, "one"), seatings(3, "all")
    ([(0,), (1,), (2,)], [(1, 2), (0, 2), (0, 1)])
    """
    if lineup == "one":
        return [(seat,) for seat in range(players)]
    return [tuple(s for s in range(players) if s != field) for field in range(players)]


def kind_of(game: TableGame[Any], state: TableState, seat: int, event: Event) -> str | None:
    """The kind of bid or declaration ``event`` records of ``seat``'s move made in ``state``
    (None: a play, a pass, a trick, or the cautious word)."""
    if event.TYPE in ROUTINE or getattr(event, "seat", None) != seat:
        return None
    if isinstance(event, BidMade):
        return game.bid_kind(state, seat, event.bid)
    return event.TYPE


def words_offered(game: TableGame[Any], state: TableState, seat: int) -> list[str]:
    """The kinds of bid or declaration ``seat`` may say now (``Decider.bid_kind`` of its legal
    words)."""
    words = (m.bid for m in game.legal_moves(state, seat) if isinstance(m, Bid))
    return [k for k in dict.fromkeys(game.bid_kind(state, seat, w) for w in words) if k]


def kind_name(game: TableGame[Any], kind: str, phase: str) -> Text:
    """A kind by the game's words: a word as its control names it, a kind of words by its name
    (``Words.bid_kinds``), an event by its phase."""
    said = game.words.said("bid", kind, phase=phase)
    if said is not None:
        return said
    return game.words.bid_kinds.get(kind) or game.phase_name(phase)


def play_seating(
    config: Config[Any],
    base_seed: str,
    heroes: tuple[int, ...],
    hero: str,
    field: str,
    clock: Callable[[], float] = time.perf_counter,
    opened: TableState | None = None,
) -> tuple[Seating, list[float], dict[str, Text]]:
    """One play of the deal of ``base_seed``, the hero's level in ``heroes``, from a fresh table
    or from the table ``opened`` (``opening``): the seating, the hero's decision times and the
    names of the kinds declared or offered."""
    game: TableGame[Any] = get_game(config.game)
    state = game.initial_state(config) if opened is None else opened
    one_hand = not counts_hands(config)  # no ``hands`` option: the first hand ends the play
    dealt: tuple[Hand, ...] = ()
    scores = [0] * config.players
    declared: list[tuple[int, str]] = []
    offered: dict[tuple[int, str], None] = {}
    times: list[float] = []
    names: dict[str, Text] = {}
    for _ in range(MAX_STEPS):
        if state.phase == "over":
            break
        command = table_command(state, base_seed)
        seat = None if command is not None else game.to_move(state)
        if command is None:  # a seat's move, not the table's own step
            assert seat is not None, f"nobody to move in phase {state.phase}"
            start = clock()
            mine = state_from_view(config, api.view(state, seat))
            command = levels.choose(mine, seat, hero if seat in heroes else field)
            if seat in heroes:
                times.append(clock() - start)
                for word_kind in words_offered(game, state, seat):
                    offered[seat, word_kind] = None
                    names.setdefault(word_kind, kind_name(game, word_kind, state.phase))
        before = state
        state, events = game.apply(state, command)
        dealt = dealt or next((e.hands for e in events if isinstance(e, Dealt)), ())
        for event in events:
            kind = None if seat is None else kind_of(game, before, seat, event)
            if kind is not None and seat is not None:
                declared.append((seat, kind))
                names.setdefault(kind, kind_name(game, kind, before.phase))
        ended = [e for e in events if isinstance(e, HandEnded)]
        for event in ended:
            scores = [s + seat_score(game.result_type, event, i) for i, s in enumerate(scores)]
        if ended and one_hand:
            break
    else:
        raise RuntimeError(f"a play of {base_seed!r} did not end in {MAX_STEPS} commands")
    seating = Seating(heroes, dealt, tuple(scores), tuple(declared), tuple(offered))
    return seating, times, names


def play_deal(
    config: Config[Any],
    seed: str,
    n: int,
    hero: str,
    field: str,
    lineup: str,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[tuple[Seating, ...], list[float], dict[str, Text]]:
    """Deal ``n`` of a duel of ``seed``, played once per rotation of the seats (as a match's
    first hand, or its second, ``second_hand``): its seatings, the hero's decision times and the
    names of the kinds declared."""
    base_seed = f"duel:{seed}:{n}"
    opened = None
    if second_hand(config, n):
        config = duel_config(config.game, config.variant, hands=2)
        opened = opening(config, base_seed, field)  # None: the first hand ended the match
        if opened is None:
            config = duel_config(config.game, config.variant)
    rotation, decisions, kinds = [], [], {}
    for heroes in seatings(config.players, lineup):
        seating, times, names = play_seating(config, base_seed, heroes, hero, field, clock, opened)
        rotation.append(seating)
        decisions += times
        kinds.update(names)
    return tuple(rotation), decisions, kinds


def duel(
    game: str,
    variant: str | None,
    hero: str,
    field: str,
    deals: int,
    seed: str = DEFAULT_SEED,
    lineup: str = "one",
    clock: Callable[[], float] = time.perf_counter,
    jobs: int = 1,
) -> Duel:
    """Play ``deals`` deals of ``game`` in duplicate, ``hero``'s level against ``field``'s.

    ``jobs`` > 1 plays the deals in that many processes (CPython only; the default ``clock``):
    the same duel, deal by deal, as one process plays, in less time where there are cores to
    spare (each decision is still timed in the process that made it).

    Raises:
        ValueError: unknown game (``RuleError``), variant or lineup, fewer than one deal.
        KeyError: unknown level.
    """
    for level_id in (hero, field):
        levels.level(level_id)  # a KeyError naming the levels, before anything is played
    if lineup not in LINEUPS:
        raise ValueError(f"no lineup {lineup!r}: known {', '.join(LINEUPS)}")
    if deals < 1:
        raise ValueError("a duel needs one deal at least")
    config = duel_config(game, variant)
    args = (config, seed, hero, field, lineup)
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor  # not in Pyodide: only asked for here

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            played = list(pool.map(_play_deal_at, [(*args, n) for n in range(deals)]))
    else:
        played = [_play_deal_at((*args, n), clock) for n in range(deals)]
    decisions: list[float] = []
    kinds: dict[str, Text] = {}
    for _, times, names in played:
        decisions += times
        kinds.update(names)
    rotations = tuple(rotation for rotation, _, _ in played)
    return Duel(config, hero, field, lineup, seed, rotations, tuple(decisions), kinds)


def _play_deal_at(
    args: tuple[Config[Any], str, str, str, str, int],
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[tuple[Seating, ...], list[float], dict[str, Text]]:
    config, seed, hero, field, lineup, n = args
    return play_deal(config, seed, n, hero, field, lineup, clock)
