"""Table talk (快捷语 and emotes) in the engine: a fixed list of words, said by a seat in any phase
but the match's end, at most ``TALK_MOST`` times in the table's last ``TALK_WINDOW`` events, shown
to everyone, and in the log as table talk: the audit replays it and counts it as no move."""

from __future__ import annotations

import random
from typing import Any

import pytest
from story import Table

from paiju import api
from paiju.client import state_from_view
from paiju.log.file import dump_lines
from paiju.log.prose import event_line
from paiju.log.replay import audit
from paiju.log.report import describe
from paiju.protocol import SetAuto, Talk, Talked
from paiju.registry import GAMES
from paiju.simulate import play_game, random_chooser, table_command
from paiju.table import TableState
from paiju.table_life import TALK_KEPT, TALK_MOST, TALK_WINDOW
from paiju.words import CORE_WORDS

WORDS = sorted(CORE_WORDS.commands["talk"])


def dealt(players: int = 3) -> TableState:
    """A table of 关牌 (the mainstream rules) just dealt."""
    config = api.make_config("guanpai", "mainstream", players)
    state = api.initial_state(config)
    while api.to_move(state) is None:
        command = table_command(state, "talk")
        assert command is not None
        state, _ = api.apply(state, command)
    return state


def test_the_words_are_a_fixed_list_of_phrases_and_emotes_in_both_languages() -> None:
    talk = CORE_WORDS.commands["talk"]
    assert {"hurry", "nice", "sorry", "smile", "flower"} <= set(talk)
    assert talk["hurry"].badge[0] == "快点吧，我等得花儿都谢了"
    assert talk["sorry"].badge == ("不好意思，刚才接了个电话", "Sorry, I was on the phone")
    # an emote's badge is its symbol; its button names it
    assert talk["smile"].badge == ("☺", "☺") and talk["smile"].button == ("☺ 开心", "☺ Happy")
    for word in GAMES.values():  # every game's words carry them, through the catalogue
        assert word.words.commands["talk"] == talk


def test_a_word_is_seen_by_every_seat_and_spectator_and_changes_nothing_else() -> None:
    state = dealt()
    after, events = api.apply(state, Talk(seat=1, talk="hurry"))
    assert events == [Talked(seat=1, talk="hurry")]
    assert after.talk == ((1, "hurry", state.version),)
    for seat in (None, 0, 1, 2):
        view, before = api.view(after, seat), api.view(state, seat)
        assert view["talk"] == [[1, "hurry", state.version]]
        assert "talk" not in before  # no key until somebody talks
        # nothing else moved: turn, hands, counts, phase (the version counts the event)
        assert {k: v for k, v in view.items() if k not in ("talk", "version")} == {
            k: v for k, v in before.items() if k != "version"
        }
    assert api.legal_moves(after, api.to_move(after) or 0) == api.legal_moves(
        state, api.to_move(state) or 0
    )


def test_talk_is_refused_for_a_word_not_in_the_list_a_seat_not_at_the_table_or_a_seat_that_left() -> (
    None
):
    state = dealt()
    Table(state).refuses(Talk(seat=0, talk="你好"), "unknown_talk")
    Table(state).refuses(Talk(seat=0, talk=""), "unknown_talk")
    Table(state).refuses(Talk(seat=3, talk="nice"), "unknown_seat")
    Table(state).refuses(Talk(seat=-1, talk="nice"), "unknown_seat")
    left, _ = api.apply(state, SetAuto(seat=2, on=True, reason="left"))
    Table(left).refuses(Talk(seat=2, talk="bye"), "seat_left")
    long = Table(state).refuses(Talk(seat=0, talk="x" * 500), "unknown_talk")
    assert len(long.zh) < 60  # the word is cut in the message


def test_a_seat_says_at_most_two_words_in_the_last_eight_events() -> None:
    state = dealt(players=2)
    for word in WORDS[:TALK_MOST]:
        state, _ = api.apply(state, Talk(seat=0, talk=word))
    too_often = Table(state).refuses(Talk(seat=0, talk="bye"), "talk_too_often")
    assert too_often.zh == "说得太频繁了：每人在最近 8 步里最多说 2 句"
    # the other seat may still: the limit is each seat's
    state, _ = api.apply(state, Talk(seat=1, talk="nice"))
    # the seat may talk again once its first word is older than the window, and not before
    first = state.talk[0][2]
    moves = 0
    while state.version - TALK_WINDOW <= first:
        Table(state).refuses(Talk(seat=0, talk="bye"), "talk_too_often")
        seat = api.to_move(state)
        assert seat is not None
        state, _ = api.apply(state, api.legal_moves(state, seat)[0])
        moves += 1
    state, _ = api.apply(state, Talk(seat=0, talk="bye"))
    assert moves > 0 and state.talk[-1][:2] == (0, "bye") and len(state.talk) <= TALK_KEPT


def test_talk_is_heard_between_hands_and_refused_once_the_match_is_over() -> None:
    config = api.make_config("guanpai", "mainstream", 2, options={"hands": 2})
    rng = random.Random(3)
    state = api.initial_state(config)
    said_between = False
    while state.phase != "over":
        if GAMES["guanpai"].between_hands(state) and not said_between:
            state, _ = api.apply(state, Talk(seat=0, talk="again"))  # on the score sheet
            said_between = True
        command = table_command(state, "talk")
        if command is None:
            seat = api.to_move(state)
            assert seat is not None
            command = rng.choice(api.legal_moves(state, seat))
        state, _ = api.apply(state, command)
    assert said_between
    Table(state).refuses(Talk(seat=0, talk="bye"), "wrong_phase")


def test_talk_does_not_take_a_seat_back_from_auto_play() -> None:
    state = dealt()
    state, _ = api.apply(state, SetAuto(seat=0, on=True))
    events = api.decide_own(state, Talk(seat=0, talk="sorry"))
    assert events == [Talked(seat=0, talk="sorry")]  # no auto_set off before it


def test_a_word_is_told_in_the_history_and_rebuilt_from_a_seat_s_view() -> None:
    words = CORE_WORDS
    assert event_line(Talked(seat=1, talk="nice"), words, None) == (
        "2号位：你的牌打得也太好了",
        "Seat 2: You play that beautifully",
    )
    assert event_line(Talked(seat=0, talk="flower"), words, None) == ("1号位：✿", "Seat 1: ✿")
    state, _ = api.apply(dealt(), Talk(seat=2, talk="luck"))
    rebuilt = state_from_view(state.config, api.view(state, 0))
    assert rebuilt.talk == state.talk  # the bots' state of the table holds the words too


def talking_chooser(rng: random.Random) -> Any:
    """Random legal moves, and now and then a word first (within the limit)."""
    move = random_chooser(rng)

    def choose(state: TableState, seat: int, moves: list[Any]) -> Any:
        recent = [s for s, _, i in state.talk if i >= state.version - TALK_WINDOW]
        if recent.count(seat) < TALK_MOST and rng.random() < 0.15:
            return Talk(seat=seat, talk=rng.choice(WORDS))
        return move(state, seat, moves)

    return choose


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_match_with_talk_replays_to_the_same_state_and_the_audit_counts_no_talk_as_a_move(
    game: str,
) -> None:
    config = api.make_config(game, options={"hands": 1})
    state, events = play_game(config, f"talk-{game}", talking_chooser(random.Random(game)))
    said = [e for e in events if isinstance(e, Talked)]
    assert len(said) > 3
    assert api.replay(config, events) == state
    report = audit(dump_lines(config, events, table_id="talk"))
    assert report.verdict == "sound", describe(report)
    # the log without its talk is the same match: table talk changes nothing of the game
    game_only = [e for e in events if not isinstance(e, Talked)]
    quiet = api.replay(config, game_only)
    assert quiet.totals == state.totals and quiet.hands == state.hands
    plain = audit(dump_lines(config, game_only, table_id="talk"))
    assert plain.verdict == "sound"
    assert moves_told(describe(report)) == moves_told(describe(plain))


def moves_told(told: list[tuple[str, str]]) -> list[str]:
    """The audit's count of moves, hand by hand."""
    return [en.split("; ")[1] for _, en in told if en.startswith("hand ") and "moves" in en]
