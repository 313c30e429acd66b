"""大北 Dabei (seed 002): the Beihai Big-Two game of hidden sides.

The holders of ♠3 and ♠A are partners (甲) against the other two (乙); one player holding both
plays alone against three (暗打). Nobody is told who is with whom: a seat's view shows its own
hand and what has been played — so once ♠3 or ♠A is played, everyone has seen who played it
(半明打, 全明打). The holder of ♦4 leads every hand, with a play containing ♦4. Play goes on after
the first player is out, until the places that decide the score are fixed; the score is in stakes
(the text's 3 and 6 coins). docs/rules/dabei.md quotes the phrase behind each choice.

Cards, combinations and play generation are shared with 条数 in ``beihai.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from paiju.cards import Card, Hand
from paiju.climbing import ClimbState
from paiju.errors import register_messages
from paiju.games.beihai import FOUR_D, SPADE_ACE, SPADE_THREE, BeihaiGame, BeihaiRules
from paiju.games.beihai import OPTION_LABELS as BEIHAI_LABELS
from paiju.games.beihai import WORDS as BEIHAI_WORDS
from paiju.protocol import HandEnded, ScoreLine, net_scores
from paiju.sides import Sides
from paiju.table import MATCH_HANDS, GameInfo, OptionLabel, Variant, holder_of
from paiju.words import Words, merged


@dataclass(frozen=True, slots=True)
class DabeiOptions(BeihaiRules):
    """A Dabei table's rules (the shared readings are in ``BeihaiRules``).

    full_stake, half_stake: what each loser pays for a full and for a half win (the text's 6 and
        3 coins, "假设打牌约定是3个游戏币和6个游戏币"); the solo player wins or pays three times.
    stop_when_settled: end the hand as soon as the score can no longer change (甲 or 乙 first and
        second; the solo player out) instead of playing until three players are out.
    hands: how many hands a match has.
    """

    full_stake: int = 6
    half_stake: int = 3
    stop_when_settled: bool = False
    hands: int = 1


# the lobby's names of the options (``TableGame.option_catalogue``)
OPTION_LABELS: dict[str, OptionLabel] = BEIHAI_LABELS | {
    "full_stake": OptionLabel("全赢每家付", "Full win: each loser pays", min=0),
    "half_stake": OptionLabel("半赢每家付", "Half win: each loser pays", min=0),
    "stop_when_settled": OptionLabel(
        "输赢已定即结束本局", "End the hand once the score is settled"
    ),
    "hands": MATCH_HANDS,
}


# --- the words of 大北 (paiju.words): its score lines and what its view shows, beside the Beihai
# games' words; imported here so that the block stands on its own

WORDS = merged(
    BEIHAI_WORDS,
    Words(
        reasons={
            "full_win": ("全胜", "full win"),
            "half_win": ("半胜", "half win"),
            "solo_first": ("暗打头游", "solo, first"),
            "solo_second": ("暗打二游", "solo, second"),
            "solo_third": ("暗打三游", "solo, third"),
            "solo_last": ("暗打末游", "solo, last"),
        },
        seat_facts={
            "spade_three": ("♠3 打出者", "played ♠3"),
            "spade_ace": ("♠A 打出者", "played ♠A"),
        },
        facts={"openness": ("明暗", "sides shown")},
        value_names={
            "openness": {
                "hidden": ("暗打（未亮明）", "hidden"),
                "half_open": ("半明打", "half open"),
                "open": ("全明打", "open"),
            },
        },
        groups={
            "sides": {"jia": ("甲方", "Side A"), "yi": ("乙方", "side B"), "solo": ("暗打", "solo")}
        },
    ),
)
register_messages(WORDS.errors)


INFO = GameInfo(
    id="dabei",
    name_zh="大北",
    name_en="Dabei",
    region_zh="广西北海",
    region_en="Beihai, Guangxi",
    description_zh=(
        "大北是流行于广西北海的出牌游戏，与锄大地大体一致，黑桃3最大、方块4最小。"
        "四人各13张，方块4先出。握有黑桃3和黑桃A的两人暗中结为一方（甲方），对抗另外两人（乙方）；"
        "一人同时握有两张则一人单挑三人。谁与谁一伙，只能从出牌中判断。"
    ),
    description_en=(
        "Dabei is a Big-Two (锄大地) game from Beihai, Guangxi, in which the ♠3 is the highest card "
        "and the ♦4 the lowest. Four players get 13 cards each; the ♦4 leads. The holders of ♠3 "
        "and ♠A are secret partners against the other two; a player holding both plays alone "
        "against three. Who is with whom shows only in the play."
    ),
    variants=(
        Variant(
            "beihai",
            "北海规则",
            "Beihai rules",
            (4,),
            "4人，52张，方块4先出且第一手须含方块4；黑桃3与黑桃A暗中结伴；全胜6、半胜3。",
            "4 players, 52 cards; ♦4 leads and must be in the first play; ♠3 and ♠A are secret "
            "partners; a full win pays 6, a half win 3.",
        ),
    ),
)

OPENNESS = ("hidden", "half_open", "open")  # 暗打, 半明打, 全明打: how many of ♠3, ♠A are out


@dataclass(frozen=True, slots=True)
class DabeiState(ClimbState):
    """The hand's sides are ``SIDES``: ♠3 and ♠A are its marks (``marks_played`` says who played
    them)."""


# "持有黑桃3和黑桃A的两家为一方": the holders of these cards are partners, secretly until played.
SIDES = Sides(marks=(SPADE_THREE, SPADE_ACE))


def sides(state: DabeiState) -> tuple[int, int]:
    """The seats that hold (or played) ♠3 and ♠A this hand: the same seat when it plays alone."""
    played = dict(state.marks_played)
    three = played.get(SPADE_THREE, holder_of(state.hands, SPADE_THREE))
    ace = played.get(SPADE_ACE, holder_of(state.hands, SPADE_ACE))
    if three is None or ace is None:
        raise ValueError("♠3 and ♠A must be held or played")
    return three, ace


def settle(order: Sequence[int], three: int, ace: int, full: int, half: int) -> list[ScoreLine]:
    """The score sheet of a hand: ``order`` is the finishing order (every seat), ``three`` and
    ``ace`` the holders of ♠3 and ♠A.

    Partners (3b, read symmetrically): the side with the first place wins fully if its partner is
    second, half if third, and it is a draw if its partner is last. Solo (3c): first and second
    win 3×full and 3×half, third and last lose 3×half and 3×full.

    >>> [(x.reason, x.payer, x.payee, x.amount) for x in settle((0, 2, 1, 3), 0, 2, 6, 3)]
    [('full_win', 3, 0, 6), ('full_win', 1, 2, 6)]
    """
    place = {seat: i for i, seat in enumerate(order)}
    if three == ace:
        solo = three
        others = [s for s in order if s != solo]
        reason, amount, solo_wins = (
            ("solo_first", full, True),
            ("solo_second", half, True),
            ("solo_third", half, False),
            ("solo_last", full, False),
        )[place[solo]]
        return [
            ScoreLine(reason, other, solo, amount)
            if solo_wins
            else ScoreLine(reason, solo, other, amount)
            for other in others
        ]
    jia = {three, ace}
    first = order[0]
    winners = [s for s in order if (s in jia) == (first in jia)]
    losers = [s for s in order if (s in jia) != (first in jia)]
    partner_place = place[winners[1]]
    if partner_place == 1:
        reason, amount = "full_win", full
    elif partner_place == 2:
        reason, amount = "half_win", half
    else:
        return []  # 平局: the first player's partner is last
    # the last of the losers pays the first of the winners, the other loser the other winner
    return [
        ScoreLine(reason, loser, winner, amount)
        for winner, loser in zip(winners, reversed(losers), strict=True)
    ]


class Dabei(BeihaiGame[DabeiState]):
    info: ClassVar[GameInfo] = INFO
    state_type = DabeiState
    options_type = DabeiOptions
    option_labels = OPTION_LABELS
    words = WORDS

    def first_turn(self, state: DabeiState, hands: tuple[Hand, ...]) -> int:
        """3a "每局均是方块4出牌": the holder of ♦4 leads every hand."""
        seat = holder_of(hands, FOUR_D)
        return 0 if seat is None else seat

    def start_hand(self, state: DabeiState) -> dict[str, Any]:
        return super().start_hand(state)

    def hand_sides(self, state: DabeiState) -> Sides:
        return SIDES

    # --- the ♦4 opening ---------------------------------------------------------------------------

    def opening_card(self, state: DabeiState) -> Card | None:
        """3a "出的第一手牌中必须有方块4": every hand's first play contains ♦4."""
        return FOUR_D

    # --- the end of a hand --------------------------------------------------------------------------

    def hand_over(self, state: DabeiState) -> bool:
        out = state.out
        if len(out) >= state.config.players - 1:
            return True  # the last place is fixed too
        if not state.config.options.stop_when_settled:
            return False
        three, ace = sides(state)
        if three == ace:
            return three in out
        return len(out) >= 2 and (out[0] in (three, ace)) == (out[1] in (three, ace))

    def score(self, state: DabeiState) -> HandEnded:
        o: DabeiOptions = state.config.options
        n = state.config.players
        # the seats still holding cards, fewest first (only when the score was settled early
        # do two seats remain; their order then decides nothing)
        order = self.finishing_order(state)
        three, ace = sides(state)
        lines = settle(order, three, ace, o.full_stake, o.half_stake)
        return HandEnded(
            hand_no=state.hand_no, order=order, lines=tuple(lines), scores=net_scores(lines, n)
        )

    def state_from_view_extra(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """For ``client.state_from_view``: who played ♠3 and ♠A (public: the view names them)."""
        shown = ((SPADE_THREE, view.get("spade_three")), (SPADE_ACE, view.get("spade_ace")))
        return {"marks_played": tuple((card, seat) for card, seat in shown if seat is not None)}

    # --- what a seat sees ---------------------------------------------------------------------------

    def view_extra(self, state: DabeiState, seat: int | None) -> dict[str, Any]:
        """Adds who played ♠3 and ♠A (public: everyone saw it) and so how open the sides are; the
        sides themselves only once the hand is over."""
        out = super().view_extra(state, seat)
        played = dict(state.marks_played)
        out["spade_three"] = played.get(SPADE_THREE)
        out["spade_ace"] = played.get(SPADE_ACE)
        shown = len(played)
        out["openness"] = OPENNESS[shown]
        out["sides"] = None
        if state.phase != "play" and state.last_hand is not None:
            three, ace = sides(state)
            out["sides"] = {
                "jia": sorted({three, ace}),
                "yi": [s for s in range(state.config.players) if s not in (three, ace)],
                "solo": three == ace,
            }
        return out


GAME = Dabei()
