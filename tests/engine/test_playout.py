"""The 高手 search's shortcuts play as the engine does: 打棒's and 打拱's fast play-outs
(``paiju.games.dabang_playout``, ``dagong_playout``) choose every move the 普通 bot chooses and end
the hand the same way, and 打拱's remembered plays (``dagong_combos.generate``) are the plays made
afresh."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

import pytest

from paiju import api, levels
from paiju.cards import BIG_JOKER, SMALL_JOKER, build_deck
from paiju.duel import duel_config
from paiju.games import dabang_playout, dagong_combos, dagong_playout
from paiju.games.dagong import ORDINARY_RUNG, RICH_ROUND
from paiju.games.dagong_combos import FIVE_TEN_KING, LINEAR
from paiju.protocol import Bid, Dealt, HandEnded, Pass, Play, Played
from paiju.registry import get_game
from paiju.simulate import table_command


def played_by_bots(game_id: str, seed: str) -> list[Any]:
    """Every state of one hand of ``game_id`` played by 普通 bots, up to its end."""
    game: Any = get_game(game_id)
    state = game.initial_state(duel_config(game_id))
    states: list[Any] = []
    while True:
        command = table_command(state, seed)
        if command is None:
            states.append(state)
            command = levels.choose(state, game.to_move(state), "normal")
        state, events = game.apply(state, command)
        if any(isinstance(e, HandEnded) for e in events):
            return states


@pytest.mark.parametrize("seed", ["playout-1", "playout-2"])
def test_dabang_fast_play_out_moves_as_the_normal_bot_and_ends_the_hand_alike(seed: str) -> None:
    game: Any = get_game("dabang")
    states = [s for s in played_by_bots("dabang", seed) if s.phase == "play"]
    assert states
    table = dabang_playout.Table(states[0])
    for state in states:
        seat = game.to_move(state)
        move = game.bot_choice(state, seat, game.legal_moves(state, seat))
        assert isinstance(move, Play)
        counts = [0] * dabang_playout.SIZE
        for card in state.hands[seat]:
            counts[card] += 1
        if state.trick_leader is None:
            fast = dabang_playout.lead(table, counts)
        else:
            led = state.actions[state.trick_leader]
            partner_on_top = state.winning == (seat + 2) % 4
            rules = game.rules_of(state)
            fast = dabang_playout.follow(
                table, rules, counts, led[0], len(led), partner_on_top, state.winning_key
            )
        assert fast == tuple(sorted(move.cards))
    for state in states[:: len(states) // 5]:  # from the first trick, and from mid-trick states
        end, moves = dabang_playout.play_out(state, game.rules_of(state))
        truth = state
        while True:
            seat = game.to_move(truth)
            move = game.bot_choice(truth, seat, game.legal_moves(truth, seat))
            truth, events = game.apply(truth, move)
            ended = [e for e in events if isinstance(e, HandEnded)]
            if ended:
                break
        assert game.score(end) == ended[0]
        assert moves > 0


def test_dagong_remembered_plays_are_the_plays_made_afresh() -> None:
    game: Any = get_game("dagong")
    states = [s for s in played_by_bots("dagong", "playout") if s.phase == "play"]
    assert states
    fans = game.fans(states[0].config)
    for state in states:
        for hand in state.hands:
            assert dagong_combos.generate(hand, state.lead, fans) == dagong_combos._plays(
                hand, state.lead, fans
            )
            assert dagong_combos.generate(hand, None, fans) == dagong_combos._plays(
                hand, None, fans
            )


# --- 打拱's fast play-out -------------------------------------------------------------------------


def dagong_played_by_bots(state: Any, alone: bool) -> list[Any]:
    """Every state of 打拱's play from ``state`` (a hand dealt) to the end of the hand, every seat
    played by the 普通 bot; ``alone``: the bot declares 明独 with a hand of bombs, else every seat
    says 不独 (the hands of ``dealt_rich`` would be played alone nearly every time)."""
    game: Any = get_game("dagong")
    states: list[Any] = []
    while True:
        seat = game.to_move(state)
        if state.phase == "play":
            states.append(state)
        move = game.bot_choice(state, seat, game.legal_moves(state, seat))
        if state.phase == "declare" and not alone:
            move = Bid(seat=seat, bid="budu")
        state, events = game.apply(state, move)
        if any(isinstance(e, HandEnded) for e in events):
            return states


def dealt_rich(rng: random.Random, **options: Any) -> Any:
    """A later hand (the last 一游 deals) of cards dealt in clumps of one rank, with now and then
    the four jokers or four 5-10-K sets in one hand: the bombs, 拱拢, 五十K and 明独 that a
    shuffled deck seldom deals."""
    deck = sorted(build_deck(decks=2, jokers=True))
    clumps: list[list[int]] = []
    while deck:
        size = rng.choice((1, 1, 1, 2, 2, 3, 4, 5, 8, 12))
        clumps.append(deck[:size])
        deck = deck[size:]
    rng.shuffle(clumps)
    cards = [c for clump in clumps for c in clump]
    hands = [cards[27 * s : 27 * s + 27] for s in range(4)]
    if rng.random() < 0.3:
        _give(hands, rng.randrange(4), [SMALL_JOKER, SMALL_JOKER, BIG_JOKER, BIG_JOKER])
    if rng.random() < 0.3:
        _give(hands, rng.randrange(4), [r * 4 + s for r in FIVE_TEN_KING for s in (0, 1, 2, 3)])
    dealer = rng.randrange(4)
    game: Any = get_game("dagong")
    last = HandEnded(
        hand_no=1, order=(dealer, *(s for s in range(4) if s != dealer)), lines=(), scores=(0,) * 4
    )
    before = dataclasses.replace(
        api.initial_state(game.config(None, None, **options)),
        phase="seeding",
        hand_no=2,
        last_hand=last,
    )
    drawn = tuple(tuple(h) for h in hands)
    dealt = Dealt(hand_no=2, hands=drawn, rest=(), face_up=(), leader=dealer, scheme="round")
    return api.evolve(before, dealt)


def _give(hands: list[list[int]], seat: int, cards: list[int]) -> None:
    """Move ``cards`` into ``seat``'s hand, each for one of its other cards."""
    for card in cards:
        owner = next(s for s, h in enumerate(hands) if card in h)
        if owner != seat:
            swap = next(c for c in hands[seat] if c not in cards)
            hands[owner][hands[owner].index(card)] = swap
            hands[seat][hands[seat].index(swap)] = card


def agrees_with_the_engine(states: list[Any]) -> Counter[str]:
    """Check every move of ``states`` (a hand's play) and the play-outs from a few of them
    against the engine's bot; the kinds played, and 明独 when declared."""
    game: Any = get_game("dagong")
    kinds: Counter[str] = Counter("mingdu" for s in states[:1] if s.solo is not None)
    for state in states:
        seat = game.to_move(state)
        move = game.bot_choice(state, seat, game.legal_moves(state, seat))
        fast = dagong_playout.PlayOut(
            state, game.fans(state.config), game.hand_sides(state), ORDINARY_RUNG, RICH_ROUND
        ).choice()
        if isinstance(move, Pass):
            assert fast is None
            continue
        assert isinstance(move, Play) and fast is not None
        played = game.apply(state, move)[1][0]
        assert isinstance(played, Played)
        assert (fast[0], fast[1].kind, fast[1].key) == (move.cards, played.kind, played.key)
        kinds[played.kind] += 1
    for state in states[:: max(1, len(states) // 4)]:  # from the first round, and mid-round
        _, fast_end, moves = game.bot_finish(state)
        truth = state
        while True:
            seat = game.to_move(truth)
            truth, events = game.apply(
                truth, game.bot_choice(truth, seat, game.legal_moves(truth, seat))
            )
            ended = [e for e in events if isinstance(e, HandEnded)]
            if ended:
                break
        assert fast_end == ended[0]
        assert moves > 0
    return kinds


@pytest.mark.parametrize("seed", ["playout-1", "playout-2", "playout-3"])
def test_dagong_fast_play_out_moves_as_the_normal_bot_and_ends_the_hand_alike(seed: str) -> None:
    states = [s for s in played_by_bots("dagong", seed) if s.phase == "play"]
    assert states
    kinds = agrees_with_the_engine(states)
    assert kinds["single"] and kinds["pair"]


def test_dagong_fast_play_out_agrees_on_hands_of_bombs_under_each_option() -> None:
    """Hands dealt in clumps (bombs of every size, 拱拢, 五十K, 明独, 明鸡 and 接风), under the
    options that change how bombs rank, what they win and where the points go."""
    kinds: Counter[str] = Counter()
    for options in (
        {},
        {"gonglong_fan": LINEAR, "gonglong_tie": "hard"},
        {"big_play_won": "out", "unplayed_points": "first", "payment": "each_to_each"},
    ):
        rng = random.Random(f"playout:{sorted(options)}")
        for hand in range(12):
            states = dagong_played_by_bots(dealt_rich(rng, **options), alone=hand % 3 == 0)
            kinds += agrees_with_the_engine(states)
    assert {"bomb", "za510k", "zheng510k", "gonglong", "liandui", "feiji", "mingdu"} <= set(kinds)
