"""A fast play-out of 葫芦岛打棒's tricks for the 高手 search (``paiju.search``): the rest of a
hand's tricks played by the 普通 bot's rules (``TrickGame.bot_choice`` over the plays the
trick core offers, ``trick_rules.lead_candidates`` / ``follow_candidates``) on counts of cards, with
no event, no state copied a move and no candidate listed that the bot would not choose.

A move of the engine costs about 0.1 ms in CPython (a decision, its events, a new frozen state,
the candidates listed and the bot's choice among them); 打棒 plays 216 cards a hand, so a search
could afford one to three deals early in a hand. Here a move costs a few microseconds, and the
search plays many more deals within the same time.

It plays as the 普通 bot plays: lead the largest group of a side suit, the strongest first (else
of trumps); follow by giving the most points and the least strength when the partner is on top,
by winning as cheaply as it can when the trick is an opponent's, else by shedding the fewest points
and the least strength, within the 死棒 rules of following (``required_shape``). Where plays tie
on those measures the first in the order of card codes is taken, as the bot takes the first of
its sorted candidates; a rare tie between plays of different cards may be broken otherwise, which
changes a guessed play-out, never a rule. The tests check that it agrees with the engine's bot.

The result is the state the hand's tricks end in, with what scoring reads (each seat's points and
tricks taken, who took the last trick, the hands empty): ``Dabang.score`` of it is the hand's end.
It is a state for scoring only, not one the table could have reached event by event.
"""

from __future__ import annotations

import dataclasses

from paiju.cards import BIG_JOKER, Card, Hand
from paiju.games.dabang_cards import POINTS
from paiju.games.dabang_state import DabangState, hand_order
from paiju.trick_rules import NO_KEY, TRUMP, FollowRules, can_make

SIZE = BIG_JOKER + 1  # card codes
KINDS_BY_SIZE = {1: "single", 2: "bang", 3: "sanlian", 4: "silian"}
Cost = tuple[int, int]


class Table:
    """The card order's tables for one hand: each code's effective suit, strength, points and
    the weight the bot sheds by (strength, trumps 60 above), and the codes of each suit."""

    __slots__ = ("by_suit", "points", "strength", "suits", "weight")

    def __init__(self, state: DabangState) -> None:
        suits, strength = hand_order(state).tables()
        self.suits = suits
        self.strength = strength
        self.points = [POINTS.get(c >> 2, 0) if c < 52 else 0 for c in range(SIZE)]
        self.weight = [strength[c] + (60 if suits[c] == TRUMP else 0) for c in range(SIZE)]
        self.by_suit: dict[int, list[Card]] = {}
        for c in range(SIZE):
            self.by_suit.setdefault(suits[c], []).append(c)


def lead(t: Table, counts: list[int]) -> Hand:
    """The bot's lead: the largest group (up to four) of a side suit, the strongest, the lowest
    code of equals; with no side card, of trumps."""
    best, best_key = -1, (0, 0)
    for trumps in (False, True):
        for c in range(SIZE):
            k = counts[c]
            if k and (t.suits[c] == TRUMP) == trumps:
                key = (k if k < 4 else 4, t.strength[c])
                if key > best_key:
                    best, best_key = c, key
        if best >= 0:
            break
    return (best,) * best_key[0]


def _key(t: Table, suit: int, n: int, cards: Hand) -> int:
    """``play_key``: the top strength of a play of the led kind (n identical cards) in the led
    suit or in trumps, else ``NO_KEY``."""
    own = t.suits[cards[0]]
    if (own != suit and own != TRUMP) or any(c != cards[0] for c in cards):
        return NO_KEY
    return t.strength[cards[0]] if len(cards) == n else NO_KEY


def _cheapest(
    t: Table, counts: list[int], held: list[Card], shape: tuple[int, ...], give: bool
) -> Hand:
    """The play of ``sum(shape)`` cards of ``held`` that makes ``shape`` and costs least: by the
    most points then the least weight (``give``: to a partner on top), else by the fewest points
    then the least weight; of equal cost, the lowest cards."""

    def cost(c: Card) -> Cost:
        return (-t.points[c] if give else t.points[c], t.weight[c])

    multi = [u for u in shape if u > 1]
    singles = len(shape) - len(multi)
    order = sorted(held, key=lambda c: (cost(c), c))

    def fill(taken: dict[Card, int], n: int) -> list[Card] | None:
        out: list[Card] = []
        for c in order:
            room = counts[c] - taken.get(c, 0)
            while room > 0 and len(out) < n:
                out.append(c)
                room -= 1
            if len(out) == n:
                return out
        return out if len(out) == n else None

    if not multi:
        return tuple(sorted(fill({}, singles) or ()))
    choices: list[dict[Card, int]] = []
    groups = [c for c in held if counts[c] >= min(multi)]
    if len(multi) == 1:
        choices = [{c: multi[0]} for c in groups if counts[c] >= multi[0]]
    else:  # two units (2, 2): two different cards (four of one card do not make two pairs)
        choices = [{a: 2, b: 2} for i, a in enumerate(groups) for b in groups[i + 1 :]]
    best: tuple[int, int, Hand] | None = None
    for taken in choices:
        rest = fill(taken, singles)
        if rest is None:
            continue
        cards = tuple(sorted([c for c, k in taken.items() for _ in range(k)] + rest))
        a = sum(cost(c)[0] for c in cards)
        b = sum(cost(c)[1] for c in cards)
        if best is None or (a, b, cards) < best:
            best = (a, b, cards)
    assert best is not None, "a required shape the held cards cannot make"
    return best[2]


def _short(t: Table, counts: list[int], held: list[Card], lead_card: Card, n: int) -> list[Hand]:
    """``follow_candidates`` when the led suit runs short: all of it, with each trump play of the
    led kind that could win (a side suit led and none held), the lowest fillers and the most
    points."""
    suit = t.suits[lead_card]
    mine = [c for c in held for _ in range(counts[c])]
    rest = [c for c in range(SIZE) if t.suits[c] != suit for _ in range(counts[c])]
    need = n - len(mine)
    fills: set[Hand] = set()
    if not mine and suit != TRUMP:
        fills |= {(c,) * n for c in t.by_suit.get(TRUMP, ()) if counts[c] >= n}
    pts, trumps, strength = t.points, t.suits, t.strength
    low = sorted(rest, key=lambda c: (pts[c] > 0, trumps[c] == TRUMP, strength[c]))
    fills.add(tuple(low[:need]))
    most = sorted(rest, key=lambda c: (-pts[c], trumps[c] == TRUMP, strength[c]))
    fills.add(tuple(most[:need]))
    return sorted({tuple(sorted((*mine, *f))) for f in fills if len(f) == need})


def follow(
    t: Table,
    rules: FollowRules,
    counts: list[int],
    lead_card: Card,
    n: int,
    partner_on_top: bool,
    winning_key: int,
) -> Hand:
    """The bot's follow of a lead of ``n`` cards ``lead_card``: the partner on top, the most
    points; else the cheapest play that wins; else the fewest points and least strength."""
    suit = t.suits[lead_card]
    held = [c for c in t.by_suit[suit] if counts[c]]
    if sum(counts[c] for c in held) < n:
        plays = _short(t, counts, held, lead_card, n)
        pts, weight = t.points, t.weight
        if partner_on_top:
            return max(plays, key=lambda p: (sum(pts[c] for c in p), -sum(weight[c] for c in p)))
        keys = [_key(t, suit, n, p) for p in plays]
        winners = [(k, p) for k, p in zip(keys, plays, strict=True) if k > winning_key]
        if winners:
            return min(winners, key=lambda kp: kp[0])[1]
        return min(plays, key=lambda p: (sum(pts[c] for c in p), sum(weight[c] for c in p)))
    kind = KINDS_BY_SIZE[n]
    groups = [counts[c] for c in held]
    exact = kind in rules.exact
    shape = next((s for s in rules.substitutes[kind] if can_make(s, groups, exact)), (1,) * n)
    if not partner_on_top:
        strength = t.strength
        wins = [c for c in held if counts[c] >= n and strength[c] > winning_key]
        if wins:
            return (min(wins, key=lambda c: (strength[c], c)),) * n
    return _cheapest(t, counts, held, shape, partner_on_top)


def play_out(state: DabangState, rules: FollowRules) -> tuple[DabangState, int]:
    """The hand's tricks from ``state`` (phase ``play``, a full state) to the last, every seat
    played by the 普通 bot's rules: the state to score (see the module docstring) and the moves
    played."""
    t = Table(state)
    players = state.config.players
    counts = [[0] * SIZE for _ in range(players)]
    for seat, hand in enumerate(state.hands):
        for c in hand:
            counts[seat][c] += 1
    left = [len(h) for h in state.hands]
    points = list(state.points_won) or [0] * players
    tricks = list(state.tricks_won) or [0] * players
    dealer_leads = state.config.options.leader == "dealer"
    last_winner = state.last_winner
    played: list[Hand] = [a for a in (state.actions[s] for s in state.trick_order) if a]
    turn = state.turn if state.turn is not None else 0
    winning = state.winning if state.winning is not None else turn
    winning_key = state.winning_key
    lead_cards = state.actions[state.trick_leader] if state.trick_leader is not None else None
    moves = 0
    while any(left):
        mine = counts[turn]
        if lead_cards is None:
            cards = lead(t, mine)
            lead_cards, winning, key = cards, turn, t.strength[cards[0]]
            winning_key = key
        else:
            n = len(lead_cards)
            on_top = winning == (turn + 2) % players and players == 4
            cards = follow(t, rules, mine, lead_cards[0], n, on_top, winning_key)
            key = _key(t, t.suits[lead_cards[0]], n, cards)
            if key > winning_key:
                winning, winning_key = turn, key
        for c in cards:
            mine[c] -= 1
        left[turn] -= len(cards)
        played.append(cards)
        moves += 1
        turn = (turn + 1) % players
        if len(played) == players:
            points[winning] += sum(t.points[c] for p in played for c in p)
            tricks[winning] += 1
            last_winner = winning
            turn = state.dealer if dealer_leads and state.dealer is not None else winning
            played, lead_cards, winning_key = [], None, NO_KEY
    end = dataclasses.replace(
        state,
        hands=((),) * players,
        points_won=tuple(points),
        tricks_won=tuple(tricks),
        last_winner=last_winner,
        actions=(None,) * players,
        trick_leader=None,
        trick_order=(),
        winning=None,
        winning_key=NO_KEY,
    )
    return end, moves


__all__ = ["SIZE", "Table", "follow", "lead", "play_out"]
