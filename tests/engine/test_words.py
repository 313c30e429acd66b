"""Each game owns its words (``paiju.words``): every code a game speaks in and every key of its
view is named in its module, published by the catalogue, and the browser names no game.

Three things are checked:

- the words are complete: every combination kind, score reason, phase, event, spoken word and view
  key a game can produce, and every error code it raises, has a name in the game's words — found
  from the games' own tables, from scoring made-up endings, and from many random games;
- every error code raised anywhere in the engine resolves to a message;
- ``web-client/js`` holds no game: no game id, no key of a game's own view, no game's error code,
  and none of the words a game declares for itself (see ``test_the_browser_names_no_game``).
"""

from __future__ import annotations

import dataclasses
import importlib
import itertools
import json
import pkgutil
import random
import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from paiju import api, errors, games, protocol, tricks
from paiju.cards import build_deck
from paiju.climbing import ClimbingGame
from paiju.games import (
    banzipao,
    banzipao_catalogue,
    banzipao_combos,
    banzipao_scoring,
    beihai,
    dabei,
    dagong,
    dagong_combos,
    guanpai,
    guanpai_catalogue,
    guanpai_combos,
    guanpai_moves,
    tiaoshu,
)
from paiju.protocol import Command, Event, HandEnded, Pass, Play, Played, Talk
from paiju.registry import GAMES, get_game
from paiju.simulate import random_chooser, table_command
from paiju.table import TableGame, TableState
from paiju.table_life import TALK_WINDOW
from paiju.words import CLIMBING_WORDS, CORE_WORDS, Said, Words, merged

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "shared-engine" / "src" / "paiju"
WEB_JS = ROOT / "web-client" / "js"
GAME_IDS = sorted(GAMES)
MODULES = {"dabei": [beihai, dabei], "tiaoshu": [beihai, tiaoshu]}
MODULES["guanpai"] = [guanpai, guanpai_combos, guanpai_moves]
MODULES["banzipao"] = [banzipao, banzipao_combos, banzipao_scoring]
MODULES["dagong"] = [dagong, dagong_combos]


def parts_of(game_id: str) -> list[ModuleType]:
    """A game's module and its modules by job, ``paiju.games.<game>_<job>``."""
    names = [m.name for m in pkgutil.iter_modules(games.__path__)]
    found = [n for n in names if n == game_id or n.startswith(f"{game_id}_")]
    return [importlib.import_module(f"paiju.games.{n}") for n in sorted(found)]


MODULES["dabang"] = [tricks, *parts_of("dabang")]
# what an event's line may name besides a spoken word (paiju.words.Words: events)
EVENT_PLACEHOLDERS = frozenset({"name", "hand", "cards", "card", "kind", "level"})
MAX_COMMANDS = 100_000  # of a random match (as paiju.simulate.play_game)

# --- what the games produce ---------------------------------------------------------------------


@dataclasses.dataclass
class Seen:
    """Everything a game produced over many random games."""

    kinds: set[str] = dataclasses.field(default_factory=set)
    reasons: set[str] = dataclasses.field(default_factory=set)
    phases: set[str] = dataclasses.field(default_factory=set)
    events: set[str] = dataclasses.field(default_factory=set)
    spoken: set[tuple[str, str]] = dataclasses.field(default_factory=set)  # (type, word)
    view_keys: set[str] = dataclasses.field(default_factory=set)


def word_field(command: Command) -> str | None:
    """The field of a command a seat says (a bid's word, a called card): as the browser reads it."""
    if isinstance(command, Play | Pass):
        return None
    names = [f.name for f in dataclasses.fields(command) if f.name != "seat"]
    return names[0] if len(names) == 1 else None


def speaking_chooser(rng: random.Random, seen: Seen) -> Any:
    """A random player who now and then says one of the table's words (快捷语, an emote) before
    his move, never more often than the limit allows (one in ``TALK_WINDOW`` events)."""
    talk_words = sorted(CORE_WORDS.commands["talk"])

    def choose(state: TableState, seat: int, moves: list[Command]) -> Command:
        quiet = not state.talk or state.talk[-1][2] < state.version - TALK_WINDOW
        if quiet and rng.random() < 0.1:
            word = rng.choice(talk_words)
            seen.spoken.add(("talk", word))
            return Talk(seat=seat, talk=word)
        for move in moves:
            field = word_field(move)
            if field is not None:
                value = getattr(move, field)
                card = isinstance(value, int)  # a card to name travels as an int
                seen.spoken.add((move.TYPE, "" if card else str(value)))
        return random_chooser(rng)(state, seat, moves)

    return choose


# the option settings that let rarer score lines happen (the others are the variants' own)
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "guanpai": [{}, {"bomb_score": 1, "dingda": "liable"}],
}


def seen(game_id: str, games: int = 25) -> Seen:
    """What ``games`` random matches of each variant (and option setting) of a game produce."""
    game = get_game(game_id)
    out = Seen()
    for variant, options, seed in itertools.product(
        game.info.variants, OPTIONS.get(game_id, [{}]), range(games)
    ):
        config = api.make_config(game_id, variant.id, options=options)
        chooser = speaking_chooser(random.Random(seed), out)
        for i, (event, state) in enumerate(played_events(config, f"words-{seed}", chooser)):
            out.events.add(event.TYPE)
            out.phases.add(state.phase)
            if isinstance(event, Played):
                out.kinds.add(event.kind)
            if isinstance(event, HandEnded):
                out.reasons |= {line.reason for line in event.lines}
            if seed < 3 or i % 7 == 0:
                for seat in (None, *range(config.players)):
                    out.view_keys |= set(game.view(state, seat))
    return out


def played_events(config: Any, base_seed: str, choose: Any) -> Iterator[tuple[Event, TableState]]:
    """Each event of a whole match (as ``play_game`` plays it) with the state right after it: the
    states come from the play itself, not from replaying its log."""
    game = get_game(config.game)
    state = game.initial_state(config)
    for _ in range(MAX_COMMANDS):
        if state.phase == "over":
            return
        command = table_command(state, base_seed)
        if command is None:
            seat = game.to_move(state)
            assert seat is not None, f"nobody to move in phase {state.phase}"
            command = choose(state, seat, game.legal_moves(state, seat))
        for event in game.decide(state, command):
            state = game.evolve(state, event)
            yield event, state
    raise AssertionError(f"the match did not end in {MAX_COMMANDS} commands")


@pytest.fixture(scope="module")
def corpus() -> dict[str, Seen]:
    """What every game produced over its random games: made once for the module (the test
    scheduler of tests/conftest.py then keeps the module in one worker), as both tests of the
    words' completeness read every game's."""
    return {game_id: seen(game_id) for game_id in GAME_IDS}


def literal_kinds(game_id: str) -> set[str]:
    """The kinds a game's modules name: ``Combo("kind", …)`` and the tables of kinds they keep."""
    found: set[str] = set()
    for module in MODULES[game_id]:
        source = Path(module.__file__ or "").read_text()
        found |= set(re.findall(r'Combo\(\s*"(\w+)"', source))
        for table in ("_GENERATORS", "FIVE_KINDS", "TIER", "SETS", "RUNS"):
            values = getattr(module, table, ())
            items = values.values() if isinstance(values, dict) else ()
            found |= {v for v in (*values, *items) if isinstance(v, str)}
    return found


def dealt_state(config: Any) -> TableState:
    """A table of ``config`` just dealt."""
    game = get_game(config.game)
    state = game.initial_state(config)
    while state.phase in ("commit", "seeding"):
        command = table_command(state, "words")
        assert command is not None
        state, _ = game.apply(state, command)
    return state


def scored_reasons(
    game: TableGame[Any], state: TableState, sizes: list[int], **fields: Any
) -> set[str]:
    """The reasons of the score sheet of a made-up ending: hands of ``sizes`` cards, seat 0 out."""
    pack = list(build_deck())
    hands = []
    for size in sizes:
        hands.append(tuple(sorted(pack[:size])))
        del pack[:size]
    ended = dataclasses.replace(state, hands=tuple(hands), out=(0,), **fields)  # type: ignore[type-var]
    result: HandEnded = game.score(ended)  # type: ignore[attr-defined]
    return {line.reason for line in result.lines}


def possible_reasons(game_id: str, got: Seen) -> set[str]:
    """The score reasons a game can write, beyond those its random games (``got``) happen to
    reach: made-up endings scored by the game itself, and the tables its reasons come from."""
    game = get_game(game_id)
    found = set(got.reasons)
    if game_id == "guanpai":
        state = dealt_state(api.make_config("guanpai", "boke", options={"bomb_score": 1}))
        found |= scored_reasons(game, state, [0, 16, 3], bombs=(1, 0, 0))  # 被关, a bomb
        found |= scored_reasons(game, state, [0, 16, 3], dingda_faults=(2,))  # 顶大 pays for all
    if game_id == "tiaoshu":
        state = dealt_state(api.make_config("tiaoshu"))
        found |= scored_reasons(game, state, [0, 13, 10, 8])  # fourfold, triple, double
        found |= scored_reasons(game, state, [0, 1, 2, 3])
    if game_id == "dabei":
        for order in itertools.permutations(range(4)):
            for three, ace in itertools.product(range(4), repeat=2):
                found |= {line.reason for line in dabei.settle(order, three, ace, 6, 3)}
    if game_id == "banzipao":
        found |= {reason for reason, _ in banzipao_scoring.BONUS_PER_HEAD.values()}
        found |= set(banzipao_scoring.TIANPAI_PER_HEAD)
    return found


def raised_codes(path: Path) -> set[str]:
    """The codes a module raises: ``RuleError("code", …)``."""
    return set(re.findall(r'RuleError\(\s*"(\w+)"', path.read_text()))


def core_view_keys(corpus: dict[str, Seen]) -> set[str]:
    """The keys every game's view has: the table's and the climbing core's."""
    keys = [corpus[g].view_keys for g in GAME_IDS]
    return set.intersection(*keys)


# --- the words are complete ---------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_kind_reason_phase_and_event_of_a_game_is_named(
    game_id: str, corpus: dict[str, Seen]
) -> None:
    game = get_game(game_id)
    words = game.words
    got = corpus[game_id]
    kinds = got.kinds | literal_kinds(game_id)
    assert got.kinds and kinds - set(words.kinds) == set(), game_id
    assert possible_reasons(game_id, got) - set(words.reasons) == set()
    phases = got.phases | game.seat_phases | {"commit", "seeding", "reveal", "over"}
    assert phases - set(words.phases) == set()
    assert (got.events | {"seed_added"}) - set(words.events) == set()
    fillable = EVENT_PLACEHOLDERS | set(words.commands)
    for event in words.events.values():  # a template names only what a client fills in
        for text in event:
            assert set(re.findall(r"\{(\w+)\}", text)) <= fillable, text


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_word_a_seat_may_say_is_named_and_every_view_key_presented(
    game_id: str, corpus: dict[str, Seen]
) -> None:
    words = get_game(game_id).words
    got = corpus[game_id]
    for command, word in got.spoken:
        said = words.commands.get(command, {}).get(word)
        assert isinstance(said, Said), (command, word)
        if word == "":  # a card: the names are templates of the card
            assert all("{card}" in text for text in (*said.button, *said.badge))
    for phase in get_game(game_id).seat_phases - {"play"}:
        assert phase in words.help and phase in words.turn_lines, phase
    own_keys = got.view_keys - core_view_keys(corpus)
    assert own_keys - words.shown_keys() == set(), "a view key the words neither show nor hide"
    assert words.shown_keys() - got.view_keys == set(), "words for a key the view never has"
    for holder_key, holder in words.card_holders.items():
        assert holder_key in words.card_facts and holder.role in got.view_keys


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_error_code_a_game_raises_is_in_its_words(game_id: str) -> None:
    words = get_game(game_id).words
    for module in MODULES[game_id]:
        assert raised_codes(Path(module.__file__ or "")) - set(words.errors) == set()
    assert set(errors.CORE_MESSAGES) <= set(words.errors)


def test_every_error_code_raised_anywhere_in_the_engine_has_a_message() -> None:
    sources = [p for p in ENGINE.rglob("*.py") if "build" not in p.parts]
    core = set().union(*(raised_codes(p) for p in sources if p.parent.name != "games"))
    assert core and core - set(errors.CORE_MESSAGES) == set(), "a core code no core message names"
    for code in set().union(*(raised_codes(p) for p in sources)):
        assert code in errors.MESSAGES, code
        zh, en = errors.MESSAGES[code]
        assert zh.strip() and en.strip(), code


def test_a_game_s_codes_are_its_own_and_registered_with_its_module() -> None:
    """The core keeps the codes of the table, the deal and the plays every climbing game checks;
    a game's codes are registered when its module is imported, and no code gets two meanings."""
    must_beat = guanpai_catalogue.WORDS.errors["must_beat"]
    assert "must_beat" not in errors.CORE_MESSAGES
    assert "call_own_card" in banzipao_catalogue.WORDS.errors and "call_own_card" in errors.MESSAGES
    # the speaking round is the core's, and so is its refusal of a word
    assert "bid_not_allowed" in errors.CORE_MESSAGES
    assert errors.MESSAGES["must_beat"] == must_beat
    errors.register_messages({"must_beat": must_beat})  # the same: fine
    with pytest.raises(ValueError, match="must_beat"):
        errors.register_messages({"must_beat": ("别的", "something else")})
    assert errors.MESSAGES["must_beat"] == must_beat


def test_every_event_type_is_named_by_some_game() -> None:
    events = {
        cls.TYPE
        for cls in vars(protocol).values()
        if isinstance(cls, type) and issubclass(cls, Event) and cls.TYPE
    }
    named = set().union(*(g.words.events for g in GAMES.values()))
    assert events - named == set()


# --- the catalogue publishes them ---------------------------------------------------------------


def test_the_catalogue_gives_each_game_its_words_as_json() -> None:
    for entry in api.list_games():
        words = get_game(entry["id"]).words
        published = entry["words"]
        assert json.loads(json.dumps(published)) == published  # lists, not tuples
        assert published == words.to_json()
        assert set(published) == {f.name for f in dataclasses.fields(Words)}
        for kind, pair in published["kinds"].items():
            assert isinstance(pair, list) and len(pair) == 2 and all(pair), kind
        assert published["phases"]["commit"] == list(CORE_WORDS.phases["commit"])
    (bzp,) = [g for g in api.list_games() if g["id"] == "banzipao"]
    assert bzp["words"]["commands"]["bid"]["bao"] == {
        "button": ["包", "Bid alone (包)"],
        "badge": ["包", "Alone"],
    }
    assert bzp["words"]["card_holders"]["called_card"]["role"] == "partner"


def test_a_game_s_words_are_the_shared_ones_and_its_own() -> None:
    for game in GAMES.values():
        words = game.words
        assert set(CORE_WORDS.events) <= set(words.events)
        if isinstance(game, ClimbingGame):
            assert set(CLIMBING_WORDS.kinds) <= set(words.kinds)
    assert dabei.WORDS.kinds == tiaoshu.WORDS.kinds == beihai.WORDS.kinds
    # a later part takes precedence: 板子炮 says who speaks first after its deal
    assert banzipao_catalogue.WORDS.events["dealt"][0] == "发牌，{name} 先发言"
    assert merged(Words(kinds={"a": ("甲", "a")}), Words(kinds={"a": ("乙", "b")})).kinds["a"] == (
        "乙",
        "b",
    )


def test_an_answer_is_named_after_an_earlier_word() -> None:
    words = banzipao_catalogue.WORDS
    assert words.said("bid", "pass") == ("不包", "No bid (不包)")
    assert words.said("bid", "pass", ["pass", "pass"]) == ("不包", "No bid (不包)")
    assert words.said("bid", "pass", ["pass", "bao"], form="badge") == ("不反包", "No counter")
    assert words.said("bid", "fanbao", ["bao"]) == ("反包", "Counter-bid (反包)")
    assert words.said("bid", "double") is None


# --- the browser names no game --------------------------------------------------------------------


CJK = re.compile(r"[\u3400-\u9fff]+")
# a word a game's lines share with the page's own ("等待 {name} 发言", "等待 {name} 出牌")
PAGE_ZH = frozenset({"等待"})


def own_words(game: TableGame[Any]) -> Words:
    """A game's words that are not the table's or the climbing core's: what it says for itself
    (the Beihai games' shared plays count as each one's own)."""
    shared = merged(CORE_WORDS, CLIMBING_WORDS)
    out: dict[str, Any] = {}
    for f in dataclasses.fields(Words):
        mine, common = getattr(game.words, f.name), getattr(shared, f.name)
        out[f.name] = {k: v for k, v in mine.items() if common.get(k) != v}
    return Words(**out)


def texts(value: Any) -> Iterator[str]:
    """Every text in a value of the words, as the catalogue sends it."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from texts(v)
    elif isinstance(value, list):
        for v in value:
            yield from texts(v)


def pairs(value: Any) -> Iterator[tuple[str, str]]:
    """Every (zh, en) pair in a value of the words (JSON form)."""
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value):
        yield value[0], value[1]
    elif isinstance(value, dict):
        for v in value.values():
            yield from pairs(v)
    elif isinstance(value, list):
        for v in value:
            yield from pairs(v)


def game_marks(game: TableGame[Any]) -> dict[str, set[str]]:
    """What must not occur in the browser's code for this game, by what it is:

    - ``ids``: the game's id (as a word);
    - ``keys``: the keys of its view that are its own (as words), and its own error codes;
    - ``zh``: every run of two or more Chinese characters in the Chinese of its own words (a run
      stops at punctuation, a space, a suit or a placeholder), and a whole Chinese text of one
      character (包, 豆, 庄) as a quoted string;
    - ``en``: every stretch of three or more words of the English of its own words between
      placeholders (shorter ones, such as "pass" or "bomb", are the page's words too).

    A phrase the table's or the climbing core's words say too is left out, and so is ``PAGE_ZH``.
    """
    own = own_words(game)
    published = own.to_json()
    keys = own.shown_keys() | set(own.errors)
    zh: set[str] = set()
    en: set[str] = set()
    for zh_text, en_text in pairs(published):
        runs = CJK.findall(re.sub(r"\{\w+\}", " ", zh_text))
        zh |= {r for r in runs if len(r) >= 2}
        if len(zh_text) == 1 and CJK.fullmatch(zh_text):
            zh.add(f'"{zh_text}"')
        for stretch in re.split(r"\{\w+\}", en_text):
            stretch = stretch.strip(" :;,.()")
            if len(stretch.split()) >= 3:
                en.add(stretch)
    # a phrase the shared words say too (剩牌 in 剩牌 ×2, "There is no" in "There is no {card} in
    # this pack") is the page's as much as the game's
    shared = " | ".join(texts(merged(CORE_WORDS, CLIMBING_WORDS).to_json()))
    zh = {w for w in zh if w not in PAGE_ZH and w.strip('"') not in shared}
    en = {w for w in en if w not in shared}
    return {"ids": {game.info.id}, "keys": keys, "zh": zh, "en": en}


def test_the_browser_names_no_game() -> None:
    """``web-client/js`` (every module, comments included) shows a game only through the words the
    catalogue gives it: no game id, none of a game's own view keys or error codes, and none of
    the Chinese or longer English of the words a game declares for itself (see ``game_marks``;
    the table's and the climbing core's words are the page's as much as any game's)."""
    sources = {p.name: p.read_text() for p in sorted(WEB_JS.glob("*.js"))}
    assert "table.js" in sources and "board.js" in sources
    found = []
    for game in GAMES.values():
        marks = game_marks(game)
        assert marks["zh"] and (marks["keys"] or game.info.id == "guanpai")
        for name, text in sources.items():
            for word in marks["ids"] | marks["keys"]:
                if re.search(rf"\b{re.escape(word)}\b", text):
                    found.append((game.info.id, name, word))
            for phrase in marks["zh"] | marks["en"]:
                if phrase in text:
                    found.append((game.info.id, name, phrase))
    assert found == []


def test_the_marks_catch_what_the_browser_used_to_hold() -> None:
    """The check is meaningful: the words the browser held before each game owned its own are
    among the marks."""
    marks = {g: game_marks(get_game(g)) for g in GAME_IDS}
    banzipao_zh = {"包牌成功", "反包", "板子炮", "滚筒", "不反包", "你是朋友", '"豆"', '"庄"'}
    assert banzipao_zh <= marks["banzipao"]["zh"]
    assert {"顶大包赔", "三带一", "飞机带翅膀"} <= marks["guanpai"]["zh"]
    assert {"打出者", "暗打头游", "甲方"} <= marks["dabei"]["zh"]
    assert "累计输牌" in marks["tiaoshu"]["zh"]
    assert {"spade_three", "openness", "sides"} <= marks["dabei"]["keys"]
    assert {"called_card", "bonus_lines", "fanbao", "bids", "dealer"} <= marks["banzipao"]["keys"]
    assert {"lost", "limit"} <= marks["tiaoshu"]["keys"]
    assert {"must_beat", "trio_single_not_last"} <= marks["guanpai"]["keys"]
    assert {"Bid alone", "The dealer called", "Waiting for", "triple with one"} & (
        marks["banzipao"]["en"] | marks["guanpai"]["en"]
    ) == {"The dealer called", "triple with one"}
