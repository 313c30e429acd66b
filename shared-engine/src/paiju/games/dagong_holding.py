"""A seat's cards in 通山打拱 taken apart by rank as the generator takes a hand apart
(``dagong_combos``), and the plays the 普通 bot (``Dagong.bot_choice``) picks from them found
directly, for the fast play-out (``dagong_playout``): the engine's bot lists every play of the
hand to move (``dagong_combos.generate``: about 0.3 ms for a hand it has not seen, and a play-out
meets a new hand at nearly every play) and then takes the one its rules prefer. Those rules pick
from a narrow corner of the list:

- leading, the lowest natural rank, three of it at most (a run cannot top the lowest rank);
- following a plain combination, the lowest of the led kind and size that beats it without a
  joker, or against an opponent about to go out the highest, jokers filling in;
- a bomb, the least by jokers then by the ladder (``rung``), from the hand's bombs listed in the
  generator's order (a few, never the plain plays);
- going out, whenever the whole hand reads as a combination that beats the table: then the
  generator itself names the play, as the bot takes the first it lists.

Each keeps the generator's order where two plays tie, and lists the generator's cards (the
naturals of the lowest suits, then jokers), so the play is the engine's to the card.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from paiju.cards import SMALL_JOKER, Card, Hand
from paiju.climbing import Candidate, Combo
from paiju.games.dagong_combos import (
    FIVE_TEN_KING,
    GONG_LINE,
    MAX_CARDS,
    MIN_BOMB,
    TWO,
    Fans,
    beats,
    generate,
    gong_key,
    readings,
    rung,
    runs,
)

SAME_RANK = ("single", "pair", "triple")  # a plain combination of one rank, by its size
RUN_WIDTH = {"liandui": 2, "feiji": 3}  # a run's cards of each rank
# a bomb as the generator lists it: the jokers it takes, its combination, and the ranks and
# copies to build it from with its hardness (``Holding.build``), or its cards when made otherwise
Bomb = tuple[int, Combo, Sequence[tuple[int, int]], bool | None, Hand]


class Holding:
    """A seat's cards as the generator takes a hand apart: its natural cards by rank (each rank's
    codes ascending, the lowest suit first), its jokers ascending, how many of each rank; and,
    until it plays, what its whole hand reads as and its bombs (a seat asked again and again while
    it passes keeps its hand)."""

    __slots__ = ("_bombs", "_whole", "counts", "fans", "groups", "jokers", "size")

    def __init__(self, hand: Hand, fans: Fans) -> None:
        self.fans = fans
        self._whole: list[Combo] | None = None
        self._bombs: list[Bomb] | None = None
        self.groups: list[list[Card]] = [[] for _ in range(13)]
        self.jokers: list[Card] = []
        for c in sorted(hand):
            if c >= SMALL_JOKER:
                self.jokers.append(c)
            else:
                self.groups[c >> 2].append(c)
        self.counts = [len(g) for g in self.groups]
        self.size = len(hand)

    def hand(self) -> Hand:
        return tuple(sorted([c for g in self.groups for c in g] + self.jokers))

    def remove(self, cards: Hand) -> None:
        self._whole = self._bombs = None
        for c in cards:
            if c >= SMALL_JOKER:
                self.jokers.remove(c)
            else:
                self.groups[c >> 2].remove(c)
                self.counts[c >> 2] -= 1
        self.size -= len(cards)

    def build(self, need: Sequence[tuple[int, int]], hard: bool | None = None) -> Hand:
        """The cards the generator lists for ``need`` (``(rank, copies)``): naturals first, the
        lowest suits, jokers for the rest; ``hard`` False takes a joker for the first natural
        when none is missing. The caller knows the hand can."""
        used = [min(self.counts[r], n) for r, n in need]
        missing = sum(n for _, n in need) - sum(used)
        if hard is False and not missing:
            used[next(i for i, u in enumerate(used) if u)] -= 1
            missing = 1
        cards: list[Card] = []
        for (r, _), u in zip(need, used, strict=True):
            cards += self.groups[r][:u]
        return tuple(sorted(cards + self.jokers[:missing]))

    def whole(self) -> list[Combo]:
        """What the whole hand reads as (``readings``), when it may read as anything
        (``_may_be_one``)."""
        if self._whole is None:
            self._whole = readings(self.hand(), self.fans) if self._may_be_one() else []
        return self._whole

    def _may_be_one(self) -> bool:
        """Whether the hand passes what any combination of its size needs, which rules out most
        hands before they are read: more than three cards of two ranks or more are a run (连对,
        飞机, 拱拢: its ranks within ``size / 2`` neighbours, the 2 next to the 3 or to the ace in
        a 拱拢) or 四套五十K."""
        size, counts = self.size, self.counts
        if size <= 3:
            return True
        ranks = [r for r, c in enumerate(counts) if c]
        if len(ranks) <= 1:
            return True
        if size == 12 and all(r in FIVE_TEN_KING for r in ranks):
            return True
        if ranks[-1] == TWO:  # the 2 with others: at either end of a 拱拢
            span = min(ranks[-2] + 2, TWO - ranks[0] + 1)
        else:
            span = ranks[-1] - ranks[0] + 1
        return span <= size // 2

    def bombs(self) -> list[Bomb]:
        """``bombs`` of the hand."""
        if self._bombs is None:
            self._bombs = bombs(self)
        return self._bombs


def going_out(h: Holding, lead: Combo | None) -> Candidate | None:
    """The play of the whole hand the bot goes out with: the first the generator lists, when
    the hand reads as a combination that may be played now."""
    if not any(lead is None or beats(c, lead) for c in h.whole()):
        return None
    return next((p for p in generate(h.hand(), lead, h.fans) if len(p[0]) == h.size), None)


def leading(h: Holding) -> Candidate:
    """The bot's lead: the lowest natural rank, as many of it as a plain play takes (a triple at
    most: the lowest key, then the longest); a hand of jokers alone leads one as a 3."""
    for r, c in enumerate(h.counts):
        if c:
            n = min(c, 3)
            return tuple(h.groups[r][:n]), Combo(SAME_RANK[n - 1], r, n)
    return (h.jokers[0],), Combo("single", 0, 1)


def plain_answer(h: Holding, lead: Combo, highest: bool) -> Candidate | None:
    """A play of the led plain kind and size that beats ``lead``: the lowest without a joker, or
    (``highest``) the highest with jokers filling in. The generator lists one play a key, so
    there is no tie."""
    width = RUN_WIDTH.get(lead.kind, lead.size)
    length = lead.size // width
    tops = range(max(lead.key + 1, length - 1), TWO if length > 1 else 13)
    counts, jokers = h.counts, len(h.jokers)
    if length == 1:  # a single, a pair, a triple
        for r in reversed(tops) if highest else tops:
            c = counts[r]
            if c >= width or (highest and c and c + jokers >= width):
                return h.build(((r, width),)), Combo(lead.kind, r, width)
        return None
    for top in reversed(tops) if highest else tops:
        missing = held = 0
        for r in range(top - length + 1, top + 1):
            c = counts[r]
            missing += width - c if c < width else 0
            held += c
        if missing == 0 or (highest and held and missing <= jokers):
            need = [(r, width) for r in range(top - length + 1, top + 1)]
            return h.build(need), Combo(lead.kind, top, lead.size)
    return None


def _gong_possible(h: Holding) -> bool:
    """Whether two neighbours along ``GONG_LINE`` make four each with the jokers: the least a
    拱拢 takes (most hands have none, and the search for runs is then skipped)."""
    counts, jokers = h.counts, len(h.jokers)
    for a, b in pairwise(GONG_LINE):
        ca, cb = counts[a], counts[b]
        if (4 - ca if ca < 4 else 0) + (4 - cb if cb < 4 else 0) <= jokers:
            return True
    return False


def bombs(h: Holding) -> list[Bomb]:
    """Every bomb the generator lists for the hand, in its order: those of one rank (7喜 and 8喜
    before the soft seven and eight), 拱拢, 四套五十K, 天炸, 正五十K by suit, one 杂五十K."""
    counts, jokers = h.counts, len(h.jokers)
    if not jokers and max(counts) < MIN_BOMB:  # most hands: no bomb but 五十K
        return _five_ten_kings(h)
    out: list[Bomb] = []
    for r, c in enumerate(counts):
        for n in range(MIN_BOMB, min(c + jokers, 12) + 1 if c else 0):
            if n in (7, 8):
                if c >= n:
                    out.append((0, Combo("qixi" if n == 7 else "baxi", r, n), ((r, n),), True, ()))
                if jokers:
                    out.append((max(1, n - c), Combo("bomb", r, n), ((r, n),), False, ()))
            else:
                out.append((max(0, n - c), Combo("bomb", r, n), ((r, n),), None, ()))
    if _gong_possible(h):
        for width in range(MIN_BOMB, min(13, 9 + jokers)):
            for start, length in runs(counts, jokers, width, GONG_LINE, 2):  # the generator's
                size = width * length
                if size > MAX_CARDS:
                    continue
                need = [(r, width) for r in GONG_LINE[start : start + length]]
                missing = sum(max(0, width - counts[r]) for r, _ in need)
                face = start + length - 1
                if not missing:
                    hard = Combo("gonglong", gong_key(h.fans, size, face, True, width), size)
                    out.append((0, hard, need, True, ()))
                if jokers:
                    soft = Combo("gonglong", gong_key(h.fans, size, face, False, width), size)
                    out.append((max(1, missing), soft, need, False, ()))
    need4 = [(r, 4) for r in FIVE_TEN_KING]
    missing = sum(max(0, 4 - counts[r]) for r in FIVE_TEN_KING)
    if not missing:
        out.append((0, Combo("sitao", 1, 12), need4, True, ()))
    if jokers and missing <= jokers:
        out.append((max(1, missing), Combo("sitao", 0, 12), need4, False, ()))
    if jokers == 4:
        out.append((4, Combo("tianzha", 0, 4), (), None, tuple(h.jokers)))
    return out + _five_ten_kings(h)


def _five_ten_kings(h: Holding) -> list[Bomb]:
    """正五十K of each suit (a joker for a missing card), then the generator's one 杂五十K: the
    first three naturals not all of a suit, else two naturals of different suits and a joker."""
    out: list[Bomb] = []
    groups = [h.groups[r] for r in FIVE_TEN_KING]
    joker = h.jokers[:1]
    if sum(1 for g in groups if g) + len(joker) < 3:
        return out
    for suit in range(4):
        have = [
            r * 4 + suit for r, g in zip(FIVE_TEN_KING, groups, strict=True) if r * 4 + suit in g
        ]
        if len(have) == 3 or (len(have) == 2 and joker):
            cards = tuple(sorted(have + joker[: 3 - len(have)]))
            out.append((3 - len(have), Combo("zheng510k", suit, 3), (), None, cards))
    suits = [sorted(set(g)) for g in groups]  # one card of each suit held, by suit
    za = Combo("za510k", 0, 3)
    for a in suits[0]:
        for b in suits[1]:
            for c in suits[2]:
                if not (a & 3 == b & 3 == c & 3):
                    return [*out, (0, za, (), None, (a, b, c))]
    for x, y in ((0, 1), (0, 2), (1, 2)):
        for a in suits[x] if joker else ():
            for b in suits[y]:
                if a & 3 != b & 3:
                    return [*out, (1, za, (), None, tuple(sorted((a, b, *joker))))]
    return out


def least_bomb(h: Holding, lead: Combo, cheap: int | None = None) -> Candidate | None:
    """The bot's least bomb that beats ``lead`` (the fewest jokers, then the lowest on the
    ladder, the first listed of equals); ``cheap``: only those without a joker whose rung is at
    most ``cheap``."""
    best: tuple[tuple[int, tuple[int, ...]], Bomb] | None = None
    for bomb in h.bombs():
        jokers, combo = bomb[0], bomb[1]
        order = (jokers, rung(combo))
        if cheap is not None and (jokers or order[1][0] > cheap):
            continue
        if (best is None or order < best[0]) and beats(combo, lead):
            best = order, bomb
    if best is None:
        return None
    _, combo, need, hard, cards = best[1]
    return (cards or h.build(need, hard)), combo


__all__ = ["Bomb", "Holding", "bombs", "going_out", "leading", "least_bomb", "plain_answer"]
