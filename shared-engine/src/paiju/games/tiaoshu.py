"""条数 Tiaoshu (seed 002): the Beihai Big-Two game played for cards left, hand after hand.

Every player for himself. The holder of ♦4 leads the first hand of a match, the previous hand's
winner every later one. A hand ends when the first player is out; each other player pays him one
stake per card left, counted double from 8 cards, triple from 10 and fourfold at 13. The match ends
after the hand in which someone's total of counted cards lost reaches 100. docs/rules/tiaoshu.md
quotes the phrase behind each choice.

Cards, combinations and play generation are shared with 大北 in ``beihai.py``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from paiju.cards import Card, Hand
from paiju.climbing import ClimbState
from paiju.errors import register_messages
from paiju.games.beihai import FOUR_D, BeihaiGame, BeihaiRules
from paiju.games.beihai import OPTION_LABELS as BEIHAI_LABELS
from paiju.games.beihai import WORDS as BEIHAI_WORDS
from paiju.protocol import HandEnded, ScoreLine, net_scores
from paiju.table import Changes, Config, GameInfo, OptionLabel, Variant, holder_of
from paiju.words import Words, merged


@dataclass(frozen=True, slots=True)
class TiaoshuOptions(BeihaiRules):
    """A Tiaoshu table's rules (the shared readings are in ``BeihaiRules``).

    card_stake: what one counted card is worth ("假设打牌约定一张牌等于1个游戏币").
    limit: the match ends after a hand in which someone's total reaches this many cards.
    limit_counts: ``counted`` — the total adds the multiplied counts (a hand of 13 adds 52), as the
        text writes them in cards ("计52张"); ``actual`` — the cards actually left (13 adds 13).
    first_play_with_4d: the first play of the match must contain ♦4 (as 大北 requires every hand).
    hands: end the match after this many hands even below the limit (0: no such cap).
    """

    card_stake: int = 1
    limit: int = 100
    limit_counts: Literal["counted", "actual"] = "counted"
    first_play_with_4d: bool = False
    hands: int = 0


# the lobby's names of the options (``TableGame.option_catalogue``)
OPTION_LABELS: dict[str, OptionLabel] = BEIHAI_LABELS | {
    "card_stake": OptionLabel("每张牌值", "Each counted card is worth", min=0),
    "limit": OptionLabel("张数到此即结束", "The match ends when someone's cards reach", min=1),
    "limit_counts": OptionLabel(
        "张数计法",
        "The limit counts",
        {
            "counted": ("按加倍后的张数计", "the limit counts cards as multiplied"),
            "actual": ("按实际剩余张数计", "the limit counts the cards actually left"),
        },
    ),
    "first_play_with_4d": OptionLabel("首局第一手须含♦4", "The match's first play must contain ♦4"),
    "hands": OptionLabel("最多局数（0为不限）", "Most hands (0: no cap)", min=0),
}


# --- the words of 条数 (paiju.words): its score lines and its match count, beside the Beihai games'
# words; imported here so that the block stands on its own

WORDS = merged(
    BEIHAI_WORDS,
    Words(
        reasons={
            "cards_left_x2": ("剩牌 ×2", "cards left ×2"),
            "cards_left_x3": ("剩牌 ×3", "cards left ×3"),
            "cards_left_x4": ("剩牌 ×4", "cards left ×4"),
        },
        seat_figures={"lost": ("累计输牌", "cards lost")},
        figure_limits={"lost": "limit"},
    ),
)
register_messages(WORDS.errors)


INFO = GameInfo(
    id="tiaoshu",
    name_zh="条数",
    name_en="Tiaoshu",
    region_zh="广西北海",
    region_en="Beihai, Guangxi",
    description_zh=(
        "条数是流行于广西北海的出牌游戏，牌型与大北相同，黑桃3最大、方块4最小。"
        "四人各自为战，每人13张；第一局方块4先出，之后赢家先出。先出完者赢，其余每人按剩余张数输，"
        "8张起加倍、10张起三倍、13张四倍。有人累计输到100张，本轮结束。"
    ),
    description_en=(
        "Tiaoshu is a Big-Two game from Beihai, Guangxi, with the plays of Dabei: the ♠3 is the "
        "highest card, the ♦4 the lowest. Four players, each for himself, get 13 cards; the ♦4 "
        "leads the first hand, the winner each later one. The first player out wins; the others "
        "pay per card left, double from 8 cards, triple from 10, fourfold at 13. The match ends "
        "when someone has lost 100 cards in all."
    ),
    variants=(
        Variant(
            "beihai",
            "北海规则",
            "Beihai rules",
            (4,),
            "4人，52张；第一局方块4先出，之后赢家先出；剩8–9张双倍、10–12张三倍、13张四倍；累计100张结束。",
            "4 players, 52 cards; ♦4 leads the first hand, then the winner; 8–9 cards left count "
            "double, 10–12 triple, 13 fourfold; the match ends at 100 cards lost.",
        ),
    ),
)


def multiplier(left: int) -> int:
    """3b, 3c: up to 7 cards count as they are, 8–9 double, 10–12 triple, 13 fourfold.

    >>> [left * multiplier(left) for left in (7, 8, 9, 10, 11, 12, 13)]
    [7, 16, 18, 30, 33, 36, 52]
    """
    if left <= 7:
        return 1
    if left <= 9:
        return 2
    if left <= 12:
        return 3
    return 4


@dataclass(frozen=True, slots=True)
class TiaoshuState(ClimbState):
    lost: tuple[int, ...] = ()  # each seat's cards lost this match, as ``limit_counts`` measures


class Tiaoshu(BeihaiGame[TiaoshuState]):
    info: ClassVar[GameInfo] = INFO
    state_type = TiaoshuState
    options_type = TiaoshuOptions
    option_labels = OPTION_LABELS
    words = WORDS

    def initial_state(self, config: Config[Any]) -> TiaoshuState:
        return dataclasses.replace(super().initial_state(config), lost=(0,) * config.players)

    def first_turn(self, state: TiaoshuState, hands: tuple[Hand, ...]) -> int:
        """3a "第一局是方块4出牌，第二局起赢者出牌"."""
        if state.last_hand is not None:
            return state.last_hand.order[0]
        seat = holder_of(hands, FOUR_D)
        return 0 if seat is None else seat

    def opening_card(self, state: TiaoshuState) -> Card | None:
        """Option ``first_play_with_4d``: the match's first play contains ♦4, as in 大北."""
        o: TiaoshuOptions = state.config.options
        return FOUR_D if o.first_play_with_4d and state.hand_no == 1 else None

    # --- scoring and the match ----------------------------------------------------------------------

    def score(self, state: TiaoshuState) -> HandEnded:
        """3b, 3c: the first player out wins; every other pays per card left, multiplied."""
        o: TiaoshuOptions = state.config.options
        n = state.config.players
        winner = state.out[0]
        lines: list[ScoreLine] = []
        for seat in range(n):
            left = len(state.hands[seat])
            if seat == winner:
                continue
            times = multiplier(left)
            reason = "cards_left" if times == 1 else f"cards_left_x{times}"
            amount = left * times * o.card_stake
            lines.append(ScoreLine(reason, seat, winner, amount))
        return HandEnded(
            hand_no=state.hand_no,
            order=self.finishing_order(state),
            lines=tuple(lines),
            scores=net_scores(lines, n),
        )

    def hand_scored(self, state: TiaoshuState, event: HandEnded) -> Changes:
        counted = state.config.options.limit_counts == "counted"
        lost = tuple(
            total + len(hand) * (multiplier(len(hand)) if counted else 1)
            for total, hand in zip(state.lost, state.hands, strict=True)
        )
        return {"lost": lost}

    def match_over(self, state: TiaoshuState) -> bool:
        """3d "如果有人牌数总计达到或超过100张，则本轮游戏结束"."""
        o: TiaoshuOptions = state.config.options
        return max(state.lost) >= o.limit or 0 < o.hands <= state.hand_no

    def view_extra(self, state: TiaoshuState, seat: int | None) -> dict[str, Any]:
        return super().view_extra(state, seat) | {
            "lost": list(state.lost),
            "limit": state.config.options.limit,
        }


GAME = Tiaoshu()
