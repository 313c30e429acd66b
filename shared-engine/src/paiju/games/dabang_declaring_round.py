"""The declaring round of 葫芦岛打棒 (seed 003), 亮主 as it is spoken: what a seat may say
(抢亮大王 in the first hand, level cards and overcalls later), what each word does, the first
hand's turned kitty when nobody grabs (翻底牌), and a kitty of jokers only that ends the hand for a
new deal (重新洗牌). Kept apart from the game (``paiju.games.dabang``), which opens the round and
hands its words here, and from what the cards of a declaration decide
(``paiju.games.dabang_declaring``); once the dealer and the trumps are fixed, the exchanges of
cards follow (``paiju.games.dabang_exchanging.settle``).

docs/rules/dabang.md, "Declaring trumps (亮主)", quotes the text behind each rule.
"""

from __future__ import annotations

from paiju.cards import SMALL_JOKER, Hand
from paiju.games.dabang_cards import FIRST_LEVEL, level_rank
from paiju.games.dabang_declaring import (
    DECLARATIONS,
    LIANG,
    PASS,
    answers,
    can_show,
    declaration_suit,
    first_suited,
    flip_dealer,
)
from paiju.games.dabang_exchanging import settle
from paiju.games.dabang_state import DabangState, dealer_level, first_hand, first_to_draw
from paiju.protocol import BidMade, Event, HandEnded, ResultLine
from paiju.table import Changes


def declaring_words(state: DabangState, seat: int) -> tuple[str, ...]:
    """What ``seat`` may say in the declaring round: in the first hand pass or 亮大王; later
    pass or a declaration his cards show that answers the one on top (``answers``)."""
    if first_hand(state):
        return (PASS, LIANG)
    level, hand, o = dealer_level(state), state.hands[seat], state.config.options
    found = [
        w
        for w in DECLARATIONS
        if can_show(hand, w, level)
        and answers(
            w,
            state.declaration,
            state.declarer == seat,
            three_overcalls=o.three_overcalls,
            self_overcall=o.self_overcall,
            reinforce=o.reinforce,
        )
    ]
    return (PASS, *found)


def declaration_kind(state: DabangState, seat: int, word: str) -> str | None:
    """The kind of declaration ``word`` is, as a duel reports it: 亮大王 (``liang``), the hand's
    first show (``declare``, 亮主), a show over the one on top (``overcall``, 反主: another's, or
    the declarer's own in another suit, "亮牌后自己和其他人都可以反"), more of the declarer's own
    suit (``reinforce``, 加固); None: a pass."""
    if word in (PASS, LIANG):
        return None if word == PASS else LIANG
    if state.declaration is None:
        return "declare"
    own = state.declarer == seat
    same_suit = declaration_suit(word) == declaration_suit(state.declaration)
    return "reinforce" if own and same_suit else "overcall"


def declaring_word_heard(state: DabangState, event: BidMade, to_speak: tuple[int, ...]) -> Changes:
    """What a word said in the declaring round changes: the first grab decides; a declaration
    reopens the round to every other seat and the declarer; the last pass fixes the dealer and
    the trumps (``settle``) from the declaration on top, the turned kitty (first hand) or the
    kitty's first suited card — or, a kitty of jokers only, ends the hand for a new deal."""
    n = state.config.players
    if event.bid == LIANG:  # "一张即可，别人反不了": the first grab decides
        suit = dict(state.grabs)[event.seat]
        if suit is None:  # nothing but jokers after his: "若底牌全是王，则重新洗牌"
            return redeal()
        return {"declaration": LIANG, "declarer": event.seat} | settle(
            state, event.seat, suit, shown=True
        )
    if event.bid != PASS:  # every other seat may answer, and the declarer may reinforce
        order = tuple((event.seat + i) % n for i in range(1, n + 1))
        return {
            "declaration": event.bid,
            "declarer": event.seat,
            "to_speak": order,
            "turn": order[0],
        }
    if to_speak:
        return {}
    if first_hand(state):  # nobody grabbed: "4家都从底牌中翻牌"
        return flip(state, state.rest, first_to_draw(state))
    dealer = state.dealer if state.dealer is not None else 0
    if state.declaration is None:  # "从底牌中任意抽取一张牌，并以此牌的花色为主花色"
        drawn = first_suited(state.rest)
        if drawn is None:  # "若抽到王需继续抽…若底牌全是王，则重新洗牌"
            return redeal()
        return settle(state, dealer, drawn, shown=False)
    return settle(state, dealer, declaration_suit(state.declaration), shown=True)


def flip(state: DabangState, rest: Hand, first: int) -> Changes:
    """ "以翻出最大牌的一家为庄家" ("第一局需要按抽底牌的方式确认庄家时，也是从随机确认的庄家开始
    逆时针抽牌"); a kitty of jokers only cannot be turned: "若底牌全是王，则重新洗牌"."""
    top = level_rank(FIRST_LEVEL) if state.config.options.flip_order == "hunpai_high" else None
    dealer, suit, flipped = flip_dealer(rest, first, top=top)
    if not flipped:
        return redeal()
    return {"flipped": flipped} | settle(state, dealer, suit, shown=False)


def redeal() -> Changes:
    """ "若底牌全是王，则重新洗牌": the hand ends unplayed (``redeal_ended``)."""
    return {"phase": "redeal", "turn": None, "to_speak": ()}


def redeal_ended(state: DabangState) -> list[Event]:
    """A hand that must be dealt again ends at once: no level, no blood, the same dealer, the
    blood owed carried over; the next deal (its own commitment and seed) plays it again."""
    if state.phase != "redeal":
        return []
    n = state.config.players
    jokers = sum(1 for c in state.rest if c >= SMALL_JOKER)
    return [
        HandEnded(
            hand_no=state.hand_no,
            order=(),
            lines=(),
            scores=(0,) * n,
            results=(ResultLine("redeal", first_to_draw(state), jokers),),
        )
    ]
