"""A bot's seat and level in the log (``seat_bot`` / ``bot_seated``): recorded by the table before
the first deal, once a seat, at a known level; public in every view and told in the replay's
words; quiet for the clock; a log with it audits sound, and one without it (every log before it)
plays the same."""

from __future__ import annotations

import random

import pytest
from story import Table

from paiju import api
from paiju.levels import LEVELS
from paiju.log.file import dump_lines
from paiju.log.prose import event_line
from paiju.log.replay import audit
from paiju.log.report import describe
from paiju.practice import PracticeTable
from paiju.protocol import BotSeated, Event, SeatBot, decode, encode
from paiju.simulate import random_chooser, table_command
from paiju.table import TableState
from paiju.table_life import QUIET, bot_to_record
from paiju.words import CORE_WORDS, LEVEL_NAMES

SEED = "bot-seats"


def seeding(players: int = 3) -> tuple[TableState, list[Event]]:
    """A 关牌 table committed to its first deal, not dealt: where the table records its bots."""
    state = api.initial_state(api.make_config("guanpai", "mainstream", players, {"hands": 1}))
    command = table_command(state, SEED)
    assert command is not None and command.TYPE == "commit_deal"
    state, events = api.apply(state, command)
    return state, events


def test_a_bot_seat_is_recorded_once_at_a_known_level_and_shown_to_everyone() -> None:
    state, _ = seeding()
    assert "bots" not in api.view(state, None)  # no key while no bot is recorded
    t = Table(state)
    assert t.do(SeatBot(seat=1, level="expert")) == [BotSeated(seat=1, level="expert")]
    t.do(SeatBot(seat=2, level="basic"))
    for seat in (None, 0, 1, 2):
        assert t.view(seat)["bots"] == [None, "expert", "basic"]
    t.refuses(SeatBot(seat=1, level="normal"), "bot_already_seated")
    err = t.refuses(SeatBot(seat=0, level="grandmaster"), "unknown_level")
    assert "expert" in err.en
    t.refuses(SeatBot(seat=5, level="normal"), "unknown_seat")
    assert set(LEVEL_NAMES) == set(LEVELS)  # the log knows the levels the bots play


def test_a_bot_seat_is_refused_once_a_hand_is_dealt() -> None:
    state, _ = seeding()
    while api.to_move(state) is None:
        command = table_command(state, SEED)
        assert command is not None
        state, _ = api.apply(state, command)
    Table(state).refuses(SeatBot(seat=1, level="normal"), "wrong_phase")


def test_its_json_form_its_words_and_the_clock() -> None:
    event = BotSeated(seat=2, level="expert")
    assert encode(event) == {"type": "bot_seated", "v": 1, "seat": 2, "level": "expert"}
    assert decode(encode(event)) == event
    assert event.as_command() == SeatBot(seat=2, level="expert")
    assert event_line(event, CORE_WORDS, None) == (
        "3号位 由机器人（高手）来打",
        "Seat 3 is played by a bot (Expert)",
    )
    assert "bot_seated" in QUIET  # recording a bot buys nobody time


@pytest.mark.parametrize("players", [2, 3])
def test_a_log_with_bot_seats_audits_sound_and_plays_as_one_without(players: int) -> None:
    state, events = seeding(players)
    config = state.config
    for seat in range(1, players):
        state, new = api.apply(state, SeatBot(seat=seat, level=("expert", "basic")[seat % 2]))
        events += new
    choose = random_chooser(random.Random(SEED))
    while state.phase != "over":
        command = table_command(state, SEED)
        if command is None:
            seat = api.to_move(state)
            assert seat is not None
            command = choose(state, seat, api.legal_moves(state, seat))
        state, new = api.apply(state, command)
        events += new
    report = audit(dump_lines(config, events, table_id="bots"))
    assert report.verdict == "sound", describe(report)
    told = [zh for zh, _ in describe(report)]
    assert not any("机器人" in line for line in told)  # a table step, not a move of the hand
    without = [e for e in events if not isinstance(e, BotSeated)]
    plain = api.replay(config, without)
    assert plain.totals == state.totals and plain.bots == () and state.bots[0] is None
    assert audit(dump_lines(config, without, table_id="bots")).verdict == "sound"


def test_the_next_bot_to_record_is_each_unrecorded_bot_seat_in_turn_then_none() -> None:
    state, _ = seeding()
    bots = {2: "expert", 1: "basic"}
    assert bot_to_record(api.initial_state(state.config), bots) is None  # not committed yet
    recorded = []
    while (record := bot_to_record(state, bots)) is not None:
        recorded.append(record)
        state, _ = api.apply(state, record)
    assert recorded == [SeatBot(seat=1, level="basic"), SeatBot(seat=2, level="expert")]
    assert bot_to_record(state, {}) is None
    dealt, _ = api.apply(state, table_command(state, SEED))  # type: ignore[arg-type]
    assert bot_to_record(dealt, {0: "normal"}) is None  # too late: the hand is dealt


def test_a_practice_table_records_its_bots_at_their_level_before_the_deal() -> None:
    host = PracticeTable.start(
        "dagong", None, seed=b"practice-bots", now_ms=0, seat=2, level="expert"
    )
    types = [e.TYPE for e in host.events]
    seated = [e for e in host.events if isinstance(e, BotSeated)]
    assert seated == [BotSeated(seat=s, level="expert") for s in (0, 1, 3)]
    last_seated = len(types) - 1 - types[::-1].index("bot_seated")
    assert last_seated < types.index("dealt")
    assert api.view(host.state, 2)["bots"] == ["expert", "expert", None, "expert"]
