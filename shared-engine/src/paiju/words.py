"""The words of the games: what every code the engine speaks in is called, in Chinese and English,
and how a client shows a game's view. Each game owns its words and declares them in its module
(``WORDS``, a ``Words``; its class says ``words = WORDS``); words that several games share are
declared once, here: the table's (``CORE_WORDS``) and the climbing core's (``CLIMBING_WORDS``).
A game's words are ``merged(CORE_WORDS, CLIMBING_WORDS, its own)``, so they are complete on their
own: the catalogue (``api.list_games()``) publishes them as each game's ``"words"``, and the browser,
the terminal game and the audit print from them, never from a list of their own.

A text is a pair ``(zh, en)``. Templates name their values in braces (``{name}``, ``{card}``).

>>> words = merged(CORE_WORDS, CLIMBING_WORDS, Words(kinds={"bomb": ("炸弹", "bomb")}))
>>> words.kinds["pair"], words.kinds["bomb"]
(('对子', 'pair'), ('炸弹', 'bomb'))
>>> words.to_json()["kinds"]["bomb"]
['炸弹', 'bomb']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from paiju.errors import CORE_MESSAGES

Text = tuple[str, str]  # (zh, en)


@dataclass(frozen=True, slots=True)
class Said:
    """A word a seat may say (a bid, a call): on the control that says it, and on the seat that
    said it. For a command whose value is a card, both are templates with ``{card}``."""

    button: Text
    badge: Text


@dataclass(frozen=True, slots=True)
class Holder:
    """What the holder of a publicly named card sees while the role it gives is still secret: the
    view key of that role (a seat, None until it is public) and the badge shown to the holder —
    unless the holder has one of the public roles ``unless`` (two decks: the dealer holds a copy
    of the card he calls, and is not his own partner), or a view key of ``void_when`` names a seat
    (a player alone against three: nobody is anybody's partner)."""

    role: str
    badge: Text
    unless: tuple[str, ...] = ()
    void_when: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Words:
    """Every name a game's codes and view keys have. All fields are mappings, empty by default.

    What happens:
        phases: phase → its name.
        kinds: combination kind → its name.
        reasons: score-line reason → its name.
        errors: error code → its message templates (``paiju.errors``: a game's are registered when
            its module is imported).
        events: event type → the log line that tells it. ``{name}``: the event's seat (its
            ``seat``, else its ``leader``); ``{hand}``: its hand number; ``{cards}``, ``{card}``:
            its cards; ``{kind}``: its combination's name; ``{<field>}`` for a field named like a
            command type in ``commands``: that word as said (its button name, ``answers`` applied).

    What a seat says (commands other than a play or a pass):
        commands: command type → word (the command's value) → how it is named (``Said``); the word
            ``""`` names a command whose value is a card.
        phase_commands: phase → command type → word → how it is named in that phase (a word
            that two rounds share, such as a pass, named for each).
        answers: command type → word → its name when an earlier word of its auction differs from
            it (板子炮: after a 包, 不包 reads 不反包).
        auctions: view key holding the words said so far (``[[seat, word], …]``) → their command
            type; each seat shows its last word as a badge.
        help: phase → what the seat to move may say and what it means.
        turn_lines: phase → (the line to the seat to move, the line to everyone else, ``{name}``
            the seat to move).

    What the board shows of a view (a key of a game's view not named here is shown by its key,
    unless ``hidden``):
        roles: view key whose value is a seat → the badge on that seat.
        seat_marks: view key whose value is a list of seats → the badge on each.
        seat_figures: view key whose value is a number per seat → its name (on each seat, and a
            column of the score sheet).
        figure_limits: seat figure → the view key of the limit it is counted against.
        facts: view key whose value is a number or a text → its name (listed in the centre).
        side_figures: view key whose value is a number per side → its name (shown for both sides
            at all times; side ``i`` is the seats ``s`` with ``s % sides == i``, partners sitting
            opposite).
        card_sets: view key whose value is a list of cards (empty or None while there is none to
            show) → its name (drawn as a row of cards in the centre: a kitty shown).
        suits: the effective suit of a play (the ``suit`` of the view's ``lead``, as a string) →
            its name (the led suit, in a game of tricks).
        trick: what the trick area shows, by role → the view key: ``top``, the seat whose play is
            on top of the trick so far.
        value_names: view key → value → its name.
        seat_facts: view key whose value is a seat → its name (listed in the centre).
        card_facts: view key whose value is a card code → the line that tells it (``{card}``).
        card_holders: view key of a card (in ``card_facts``) → what its holder sees (``Holder``).
        lines: view key holding score lines earned so far (as in a score sheet) → their name.
        groups: view key holding ``{member: seats or flag}`` shown under the score sheet → each
            member's name (a list of seats is named with its seats, a true flag by its name).
        hidden: view key not to show → why.
        bid_kinds: a kind of bid that is no word (``Decider.bid_kind``: 打棒's 反主) → its name.
    """

    phases: Mapping[str, Text] = field(default_factory=dict)
    kinds: Mapping[str, Text] = field(default_factory=dict)
    reasons: Mapping[str, Text] = field(default_factory=dict)
    errors: Mapping[str, Text] = field(default_factory=dict)
    events: Mapping[str, Text] = field(default_factory=dict)
    commands: Mapping[str, Mapping[str, Said]] = field(default_factory=dict)
    phase_commands: Mapping[str, Mapping[str, Mapping[str, Said]]] = field(default_factory=dict)
    answers: Mapping[str, Mapping[str, Said]] = field(default_factory=dict)
    auctions: Mapping[str, str] = field(default_factory=dict)
    help: Mapping[str, Text] = field(default_factory=dict)
    turn_lines: Mapping[str, tuple[Text, Text]] = field(default_factory=dict)
    roles: Mapping[str, Text] = field(default_factory=dict)
    seat_marks: Mapping[str, Text] = field(default_factory=dict)
    seat_figures: Mapping[str, Text] = field(default_factory=dict)
    figure_limits: Mapping[str, str] = field(default_factory=dict)
    facts: Mapping[str, Text] = field(default_factory=dict)
    side_figures: Mapping[str, Text] = field(default_factory=dict)
    card_sets: Mapping[str, Text] = field(default_factory=dict)
    suits: Mapping[str, Text] = field(default_factory=dict)
    trick: Mapping[str, str] = field(default_factory=dict)
    value_names: Mapping[str, Mapping[str, Text]] = field(default_factory=dict)
    seat_facts: Mapping[str, Text] = field(default_factory=dict)
    card_facts: Mapping[str, Text] = field(default_factory=dict)
    card_holders: Mapping[str, Holder] = field(default_factory=dict)
    lines: Mapping[str, Text] = field(default_factory=dict)
    groups: Mapping[str, Mapping[str, Text]] = field(default_factory=dict)
    hidden: Mapping[str, str] = field(default_factory=dict)
    bid_kinds: Mapping[str, Text] = field(default_factory=dict)

    def said(
        self,
        command: str,
        word: str,
        earlier: Sequence[str] = (),
        form: str = "button",
        phase: str | None = None,
    ) -> Text | None:
        """How ``word`` of ``command`` is named after the ``earlier`` words of its auction
        (``form``: ``"button"`` or ``"badge"``), said in ``phase`` (``phase_commands``), or None
        if it has no name.

        >>> words = Words(
        ...     commands={"bid": {"pass": Said(("不包", "No bid"), ("不包", "No bid"))}},
        ...     answers={"bid": {"pass": Said(("不反包", "No counter"), ("不反包", "No counter"))}},
        ... )
        >>> words.said("bid", "pass"), words.said("bid", "pass", ["pass", "bao"])
        (('不包', 'No bid'), ('不反包', 'No counter'))
        """
        answer = self.answers.get(command, {}).get(word)
        in_phase = self.phase_commands.get(phase, {}).get(command, {}).get(word) if phase else None
        found = in_phase or (
            answer
            if answer is not None and any(w != word for w in earlier)
            else self.commands.get(command, {}).get(word)
        )
        if found is None:
            return None
        text: Text = found.button if form == "button" else found.badge
        return text

    def shown_keys(self) -> frozenset[str]:
        """The view keys these words present (or hide): every other key of a game's view is shown
        by its own name."""
        keyed = (
            self.auctions,
            self.roles,
            self.seat_marks,
            self.seat_figures,
            self.facts,
            self.side_figures,
            self.card_sets,
            self.seat_facts,
            self.card_facts,
            self.lines,
            self.groups,
            self.hidden,
        )
        return frozenset(k for mapping in keyed for k in mapping) | frozenset(
            [*self.figure_limits.values(), *self.trick.values()]
        )

    def to_json(self) -> dict[str, Any]:
        """The JSON form (the catalogue's ``"words"``): lists for pairs, objects for ``Said`` and
        ``Holder``."""
        return {f.name: _json(getattr(self, f.name)) for f in dataclasses.fields(self)}


def _json(value: Any) -> Any:
    if isinstance(value, Said | Holder):
        return {f.name: _json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): _json(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_json(v) for v in value]
    return value


# the fields whose values are mappings of mappings: merged one level deeper
_NESTED = frozenset({"commands", "phase_commands", "answers", "value_names", "groups"})


def merged(*parts: Words) -> Words:
    """One set of words from several, later ones adding to (and, for a key they share, taking
    precedence over) earlier ones: a game's words are ``merged(CORE_WORDS, CLIMBING_WORDS, own)``.

    >>> a = Words(commands={"bid": {"pass": Said(("不包", "No"), ("不包", "No"))}})
    >>> b = Words(commands={"bid": {"bao": Said(("包", "Alone"), ("包", "Alone"))}})
    >>> sorted(merged(a, b).commands["bid"])
    ['bao', 'pass']
    """
    out: dict[str, Any] = {}
    for f in dataclasses.fields(Words):
        combined: dict[str, Any] = {}
        for part in parts:
            for key, value in getattr(part, f.name).items():
                if f.name in _NESTED:
                    combined[key] = {**combined.get(key, {}), **value}
                else:
                    combined[key] = value
        out[f.name] = combined
    return Words(**out)


# --- table talk: the fixed 快捷语 and emotes a seat may say (``paiju.table_life``'s ``Talk``) -----

# phrase → (zh, en): what a player says, as every Chinese card room offers it
_PHRASES: dict[str, Text] = {
    "hello": ("大家好，很高兴见到各位", "Hello everyone, nice to meet you"),
    "hurry": ("快点吧，我等得花儿都谢了", "Hurry up, please: the flowers are wilting"),
    "nice": ("你的牌打得也太好了", "You play that beautifully"),
    "sorry": ("不好意思，刚才接了个电话", "Sorry, I was on the phone"),
    "partner": ("配合一下，别乱出", "Work with me, partner"),
    "luck": ("今天手气不错", "My luck is in today"),
    "thanks": ("承让了，谢谢", "Thank you, you let me win"),
    "again": ("再来一局吧", "One more game?"),
    "bye": ("我先走了，下次再玩", "I have to go: see you next time"),
}
# emote → (symbol, zh name, en name): the symbol is the badge, the names are on its button
_EMOTES: dict[str, tuple[str, str, str]] = {
    "smile": ("☺", "开心", "Happy"),
    "sad": ("☹", "难过", "Sad"),
    "heart": ("❤", "点赞", "Love it"),
    "flower": ("✿", "送花", "Flowers"),
    "star": ("★", "厉害", "Brilliant"),
}
TALK_WORDS: dict[str, Said] = {
    **{word: Said(text, text) for word, text in _PHRASES.items()},
    **{
        word: Said((f"{symbol} {zh}", f"{symbol} {en}"), (symbol, symbol))
        for word, (symbol, zh, en) in _EMOTES.items()
    },
}

# --- the bots' levels (``paiju.levels``): their names, here with the other words -------------------

# level id → its name: the catalogue's ``levels`` and the log's ``bot_seated`` lines both name them
LEVEL_NAMES: dict[str, Text] = {
    "basic": ("入门", "Beginner"),
    "normal": ("普通", "Normal"),
    "expert": ("高手", "Expert"),
}

# --- the table's words: its phases, the deal and its fairness, the end of a hand ------------------

CORE_WORDS = Words(
    phases={
        "commit": ("准备发牌", "before the deal"),
        "seeding": ("洗牌中", "shuffling"),
        "reveal": ("本局结束", "hand over"),
        "over": ("比赛结束", "match over"),
    },
    errors=CORE_MESSAGES,
    events={
        "deal_committed": ("发牌承诺（第 {hand} 局）", "Deal committed (hand {hand})"),
        "seed_added": ("{name} 加入种子", "{name} added a seed"),
        "dealt": ("发牌，{name} 先出", "Dealt; {name} leads"),
        "hand_ended": ("本局结束", "The hand ends"),
        "seed_revealed": ("公开种子", "Seed revealed"),
        "match_ended": ("比赛结束", "The match ends"),
        # 托管 and 继续: keys finer than a type (``Event.line_key``) tell each way it happens
        "auto_set": ("{name} 托管状态改变", "{name}: auto-play switched"),
        "auto_played": ("{name} 由系统代打", "{name} is played by the server"),
        "auto_set.on.self": ("{name} 开启托管", "{name} turns auto-play on"),
        "auto_set.on.timeout": ("{name} 超时，进入托管", "{name} ran out of time: auto-play on"),
        "auto_set.off.self": ("{name} 取消托管", "{name} turns auto-play off"),
        "auto_set.off.acted": ("{name} 亲自出手，取消托管", "{name} acts again: auto-play off"),
        "auto_played.timeout": (
            "{name} 超时，系统代打",
            "{name} ran out of time: played by the server",
        ),
        "auto_played.auto": (
            "{name} 托管中，系统代打",
            "{name} is on auto-play: played by the server",
        ),
        "continued": ("{name} 继续", "{name} continues"),
        "table_abandoned": (
            "牌桌无人在线，已结束（按当前比分）",
            "Nobody was connected: the table ended (scores as they stand)",
        ),
        "table_closed": ("房主在开局前关闭了牌桌", "The owner closed the table before it started"),
        "table_at_limit": (
            "牌局的事件数已达上限，已结束（按当前比分）",
            "The table reached its limit of events: the match ended (scores as they stand)",
        ),
        "talked": ("{name}：{talk}", "{name}: {talk}"),
        "bot_seated": ("{name} 由机器人（{level}）来打", "{name} is played by a bot ({level})"),
    },
    commands={"talk": TALK_WORDS},
    # seats in 托管, and seats that pressed 继续 since the hand ended
    seat_marks={"auto": ("托管", "Auto"), "ready": ("已继续", "Ready")},
    # table talk is shown as a bubble at the seat that said it, not as a fact of the table
    hidden={"talk": "table talk: a bubble at its seat"},
    # the kinds of decision a turn clock times (``TableGame.clock_defaults``), for the lobby
    value_names={
        "clock": {
            "play": ("出牌", "a play"),
            "bid": ("叫牌", "a bid"),
            "bury": ("埋底", "burying the kitty"),
            "continue": ("继续下一局", "continuing to the next hand"),
        },
        # a bot seat's level (``bot_seated``'s ``{level}``, the view's ``bots``)
        "level": LEVEL_NAMES,
    },
)

# --- the climbing core's words (paiju.climbing): play and pass, and the plays and the score that
# several climbing games share with one meaning ----------------------------------------------------

CLIMBING_WORDS = Words(
    phases={"play": ("出牌中", "playing")},
    kinds={
        "single": ("单张", "single"),
        "pair": ("对子", "pair"),
        "triple": ("三条", "triple"),
        "straight": ("顺子", "straight"),
    },
    reasons={"cards_left": ("剩牌", "cards left")},
    events={
        "played": ("{name} 出 {cards}（{kind}）", "{name} plays {cards} ({kind})"),
        "passed": ("{name} 不要", "{name} passes"),
        "trick_won": ("{name} 赢得这一轮", "{name} takes the trick"),
    },
    seat_marks={"benched": ("旁观（不参战）", "Sitting out")},
)

__all__ = ["CLIMBING_WORDS", "CORE_WORDS", "Holder", "Said", "Text", "Words", "merged"]
