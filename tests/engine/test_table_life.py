"""A table's life in the engine: 托管 switched on and off, plays the server makes for a seat
(marked ``auto_played``), 继续 between the hands of a match, and the turn clock's kinds. They are
ordinary commands and events: the audit replays them like any other, and names a forged automatic
play as it names any illegal command."""

from __future__ import annotations

import json
from typing import Any

import pytest

from paiju import api, bots, simulate
from paiju.cards import format_card
from paiju.errors import RuleError
from paiju.games.banzipao import GAME as BANZIPAO
from paiju.games.guanpai import GAME
from paiju.log.file import dump_lines
from paiju.log.prose import event_line, event_lines
from paiju.log.replay import audit
from paiju.log.report import describe
from paiju.protocol import (
    LIMIT_MARGIN,
    Abandon,
    AutoMove,
    AutoPlay,
    AutoPlayed,
    AutoSet,
    Close,
    Continue,
    Continued,
    EndAtLimit,
    Event,
    MatchEnded,
    Pass,
    Play,
    SetAuto,
    TableAbandoned,
    TableAtLimit,
    TableClosed,
    decode,
    encode,
)
from paiju.simulate import table_command
from paiju.table import TableState

SECRET = "table-life"


class Table:
    """A guanpai match driven by hand: the table's steps, bots for the seats, and whatever a test
    sends in between."""

    def __init__(self, hands: int = 2) -> None:
        self.state: TableState = GAME.initial_state(GAME.config("mainstream", 3, hands=hands))
        self.events: list[Event] = []

    def do(self, command: Any) -> list[Event]:
        self.state, new = GAME.apply(self.state, command)
        self.events.extend(new)
        return new

    def until_turn(self) -> int:
        """Run the table's steps until a seat is to move; its seat."""
        while (seat := GAME.to_move(self.state)) is None:
            command = table_command(self.state, SECRET)
            assert command is not None, self.state.phase
            self.do(command)
        return seat

    def until_hand_ends(self) -> None:
        while not GAME.between_hands(self.state) and self.state.phase != "over":
            seat = self.until_turn()
            self.do(bots.choose(self.state, seat))


def _reveal(t: Table) -> None:
    command = table_command(t.state, SECRET)
    assert command is not None and command.TYPE == "reveal_seed"
    t.do(command)


@pytest.fixture(scope="module")
def match() -> Table:
    """Two hands: seat 2 times out at its first turn and is played for, then at every turn of
    hand 1 in 托管; it acts itself in hand 2 (托管 goes off); seat 1 switches 托管 on and off
    itself; seats 0 and 2 press 继续 between the hands."""
    t = Table()
    t.do(SetAuto(seat=1, on=True))
    t.do(SetAuto(seat=1, on=False))
    while not GAME.between_hands(t.state):
        seat = t.until_turn()
        if seat == 2:
            if 2 not in t.state.auto:
                t.do(SetAuto(seat=2, on=True, reason="timeout"))
                t.do(AutoPlay(seat=2, reason="timeout"))
            else:
                t.do(AutoPlay(seat=2, reason="auto"))
        t.do(bots.choose(t.state, seat))
    _reveal(t)
    t.do(Continue(seat=0))
    t.do(Continue(seat=2))
    seat = t.until_turn()
    while seat != 2:
        t.do(bots.choose(t.state, seat))
        seat = t.until_turn()
    t.do(SetAuto(seat=2, on=False, reason="acted"))
    t.do(bots.choose(t.state, 2))
    t.until_hand_ends()
    while t.state.phase != "over":
        command = table_command(t.state, SECRET)
        assert command is not None
        t.do(command)
    return t


def refused(state: TableState, command: Any) -> str:
    with pytest.raises(RuleError) as caught:
        GAME.decide(state, command)
    return caught.value.code


# --- the commands' rules -----------------------------------------------------------------------


def test_auto_play_is_only_for_the_seat_to_move_and_in_auto() -> None:
    t = Table()
    seat = t.until_turn()
    other = (seat + 1) % 3
    assert refused(t.state, AutoPlay(seat=seat, reason="timeout")) == "not_auto"
    t.do(SetAuto(seat=other, on=True))
    assert refused(t.state, AutoPlay(seat=other, reason="auto")) == "not_your_turn"
    assert refused(t.state, AutoPlay(seat=7, reason="auto")) == "unknown_seat"
    t.do(SetAuto(seat=seat, on=True, reason="timeout"))
    assert refused(t.state, AutoPlay(seat=seat, reason="because")) == "bad_auto_reason"
    assert t.do(AutoPlay(seat=seat, reason="timeout")) == [AutoPlayed(seat=seat, reason="timeout")]
    assert t.state.turn == seat  # a marker: the turn is still the seat's own


def test_auto_move_is_the_whole_automatic_play_and_the_audit_replays_it() -> None:
    """``AutoMove``: 托管 on (``timeout``) for a seat not in it yet, the marker, the bot's move;
    for a seat in 托管 the marker says ``auto``. Only the seat to act; its events audit clean."""
    t = Table(hands=1)
    seat = t.until_turn()
    other = (seat + 1) % 3
    assert refused(t.state, AutoMove(seat=other)) == "not_your_turn"
    marked = [AutoSet(seat, True, "timeout"), AutoPlayed(seat, "timeout")]
    after = t.state
    for event in marked:
        after = GAME.evolve(after, event)
    events = t.do(AutoMove(seat=seat))
    assert events == [*marked, *GAME.decide(after, bots.choose(after, seat))]
    seat = t.until_turn()
    while seat not in t.state.auto:
        t.do(bots.choose(t.state, seat))
        seat = t.until_turn()
    assert t.do(AutoMove(seat=seat))[0] == AutoPlayed(seat, "auto")
    t.until_hand_ends()
    while t.state.phase != "over":
        command = table_command(t.state, SECRET)
        assert command is not None
        t.do(command)
    report = audit(dump_lines(t.state.config, t.events, table_id="t-auto-move"))
    assert report.verdict == "sound", describe(report)


def test_a_seat_s_own_command_in_auto_switches_auto_off_first() -> None:
    """``api.decide_own``: a seat in 托管 that acts gets ``auto_set`` off (``acted``) first; a
    switch of its own 托管, or a seat not in 托管, decides as ``decide``."""
    t = Table()
    seat = t.until_turn()
    move = bots.choose(t.state, seat)
    assert api.decide_own(t.state, move) == GAME.decide(t.state, move)
    t.do(SetAuto(seat=seat, on=True))
    assert api.decide_own(t.state, move) == [
        AutoSet(seat, False, "acted"),
        *GAME.decide(t.state, move),
    ]
    assert api.decide_own(t.state, SetAuto(seat=seat, on=False)) == [AutoSet(seat, False, "self")]


def test_set_auto_switches_once_and_with_a_fitting_reason() -> None:
    t = Table()
    assert t.do(SetAuto(seat=0, on=True)) == [AutoSet(seat=0, on=True, reason="self")]
    assert t.state.auto == (0,)
    assert refused(t.state, SetAuto(seat=0, on=True)) == "already_auto"
    assert refused(t.state, SetAuto(seat=1, on=False)) == "not_auto"
    assert refused(t.state, SetAuto(seat=1, on=True, reason="acted")) == "bad_auto_reason"
    assert refused(t.state, SetAuto(seat=0, on=False, reason="timeout")) == "bad_auto_reason"
    assert refused(t.state, SetAuto(seat=3, on=True)) == "unknown_seat"
    t.do(SetAuto(seat=2, on=True, reason="timeout"))
    assert t.state.auto == (0, 2)
    t.do(SetAuto(seat=0, on=False, reason="acted"))
    assert t.state.auto == (2,)
    assert api.view(t.state, 1)["auto"] == [2]


def test_continue_only_between_hands_and_once() -> None:
    t = Table()
    assert refused(t.state, Continue(seat=0)) == "wrong_phase"  # before the first deal
    t.until_turn()
    assert refused(t.state, Continue(seat=0)) == "wrong_phase"  # during play
    t.until_hand_ends()
    assert t.state.phase == "reveal" and GAME.clock_kind(t.state) == "continue"
    _reveal(t)
    assert t.do(Continue(seat=1)) == [Continued(seat=1)]
    assert refused(t.state, Continue(seat=1)) == "already_continued"
    t.do(Continue(seat=0))
    assert api.view(t.state, None)["ready"] == [0, 1]
    t.until_turn()  # commit, deal: the next hand starts with nobody ready
    assert t.state.ready == () and api.view(t.state, 0)["ready"] == []
    assert refused(t.state, Continue(seat=2)) == "wrong_phase"


def test_no_auto_or_continue_once_the_match_is_over() -> None:
    t = Table(hands=1)
    t.until_hand_ends()
    _reveal(t)
    assert t.state.phase == "over" and GAME.clock_kind(t.state) is None
    assert refused(t.state, Continue(seat=0)) == "wrong_phase"
    assert refused(t.state, SetAuto(seat=0, on=True)) == "wrong_phase"


def test_an_illegal_move_after_an_automatic_play_marker_is_refused() -> None:
    t = Table()
    seat = t.until_turn()
    t.do(SetAuto(seat=seat, on=True, reason="timeout"))
    t.do(AutoPlay(seat=seat, reason="timeout"))
    assert refused(t.state, Pass(seat=seat)) == "cannot_pass_lead"
    held = set(t.state.hands[seat])
    missing = next(c for c in GAME.pack(t.state.config) if c not in held)
    assert refused(t.state, Play(seat=seat, cards=(missing,))) == "not_in_hand"


def test_the_commands_and_events_round_trip_in_json() -> None:
    for message in (
        SetAuto(seat=1, on=True),
        AutoPlay(seat=0, reason="auto"),
        Continue(seat=2),
        AutoSet(seat=1, on=False, reason="acted"),
        AutoPlayed(seat=0, reason="timeout"),
        Continued(seat=2),
    ):
        assert decode(json.loads(json.dumps(encode(message)))) == message
    assert decode({"type": "set_auto", "seat": 0, "on": True}) == SetAuto(0, True, "self")
    t = Table()
    seat = t.until_turn()
    for event in (AutoSet(seat, True, "self"), AutoPlayed(seat, "auto")):
        assert GAME.decide(t.state, event.as_command()) == [event]
        t.state = GAME.evolve(t.state, event)
    t.until_hand_ends()
    assert GAME.decide(t.state, Continued(2).as_command()) == [Continued(2)]


# --- the turn clock ---------------------------------------------------------------------------


def test_the_clock_kind_follows_the_phase() -> None:
    t = Table()
    assert GAME.clock_kind(t.state) is None  # the table waits for its own steps
    t.until_turn()
    assert GAME.clock_kind(t.state) == "play"
    state = BANZIPAO.initial_state(BANZIPAO.config())
    while BANZIPAO.to_move(state) is None:
        command = table_command(state, SECRET)
        assert command is not None
        state, _ = BANZIPAO.apply(state, command)
    assert state.phase == "bid" and api.clock_kind(state) == "bid"
    games = {g["id"]: g for g in api.list_games()}
    assert games["guanpai"]["clock"] == {"play": 30, "bid": 20, "bury": 60, "continue": 15}
    assert set(games["guanpai"]["words"]["value_names"]["clock"]) == set(GAME.clock_defaults)


# --- the audit ----------------------------------------------------------------------------------


def test_the_audit_replays_automatic_plays_and_continues(match: Table) -> None:
    kinds = [e.TYPE for e in match.events]
    assert kinds.count("auto_played") >= 2 and kinds.count("continued") == 2
    assert "auto_set" in kinds and match.state.phase == "over"
    lines = dump_lines(match.state.config, match.events, table_id="t-life")
    report = audit(lines)
    assert report.verdict == "sound", describe(report)
    assert report.state is not None and report.state.totals == match.state.totals
    # the moves counted per hand are the plays and passes: 托管 and 继续 are not moves
    told = [en for _, en in describe(report) if en.startswith("hand ") and "moves" in en]
    counted = [int(en.split("; ")[1].split()[0]) for en in told]
    assert sum(counted) == sum(1 for e in match.events if e.TYPE in ("played", "passed"))


def test_an_automatic_play_is_told_as_such(match: Table) -> None:
    words = GAME.words
    told = event_lines(match.events, words)
    i = next(i for i, e in enumerate(match.events) if isinstance(e, AutoPlayed))
    move = match.events[i + 1]
    seat = move.seat  # type: ignore[attr-defined]
    assert told[i] == (
        f"{seat + 1}号位 超时，系统代打",
        f"Seat {seat + 1} ran out of time: played by the server",
    )
    assert told[i + 1][0].startswith(f"{seat + 1}号位（托管）")
    assert told[i + 1][1].startswith(f"Seat {seat + 1} (auto)")
    assert event_line(move, words, None)[0].startswith(f"{seat + 1}号位 ")
    assert event_line(AutoSet(0, False, "acted"), words, None) == (
        "1号位 亲自出手，取消托管",
        "Seat 1 acts again: auto-play off",
    )
    assert event_line(Continued(1), words, None) == ("2号位 继续", "Seat 2 continues")


def test_a_forged_automatic_play_is_named(match: Table) -> None:
    lines = dump_lines(match.state.config, match.events, table_id="t-life")
    i = next(
        i
        for i, e in enumerate(match.events)
        if isinstance(e, AutoPlayed) and match.events[i + 1].TYPE == "played"
    )
    played = json.loads(lines[i + 2])
    state = api.replay(match.state.config, match.events[: i + 1])
    seat = played["seat"]
    missing = next(c for c in GAME.pack(state.config) if c not in state.hands[seat])
    forged = played | {"cards": [format_card(missing)]}
    bad = [*lines[: i + 2], json.dumps(forged), *lines[i + 3 :]]
    report = audit(bad)
    assert report.verdict == "failed" and report.bad_index == i + 1
    assert report.error is not None and report.error.code == "not_in_hand"
    # an automatic play for a seat that is not to move is named at the marker
    other = (seat + 1) % 3
    marker = json.loads(lines[i + 1]) | {"seat": other}
    report = audit([*lines[: i + 1], json.dumps(marker), *lines[i + 2 :]])
    assert report.bad_index == i and report.error is not None
    assert report.error.code in ("not_your_turn", "not_auto")
    said = " ".join(zh for zh, _ in describe(report))
    assert f"第 {i + 2} 行" in said


# --- leaving during the match ---------------------------------------------------------------------


def test_a_seat_that_leaves_is_in_auto_for_good() -> None:
    t = Table()
    seat = t.until_turn()
    other = (seat + 1) % 3
    assert refused(t.state, SetAuto(seat=seat, on=False, reason="left")) == "bad_auto_reason"
    assert t.do(SetAuto(seat=seat, on=True, reason="left")) == [
        AutoSet(seat=seat, on=True, reason="left")
    ]
    assert t.state.auto == (seat,) and t.state.left == (seat,)
    # it never switches off again, by any reason, nor leaves twice
    for reason in ("self", "acted"):
        assert refused(t.state, SetAuto(seat=seat, on=False, reason=reason)) == "seat_left"
    assert refused(t.state, SetAuto(seat=seat, on=True, reason="left")) == "seat_left"
    assert refused(t.state, SetAuto(seat=seat, on=True, reason="timeout")) == "seat_left"
    # a seat already in 托管 still records that its player left
    t.do(SetAuto(seat=other, on=True, reason="timeout"))
    assert t.do(SetAuto(seat=other, on=True, reason="left")) == [
        AutoSet(seat=other, on=True, reason="left")
    ]
    assert t.state.auto == tuple(sorted((seat, other))) and t.state.left == t.state.auto
    # the server plays for it like any seat in 托管, to the match's end
    t.do(AutoPlay(seat=seat, reason="auto"))
    t.do(bots.choose(t.state, seat))
    while t.state.phase != "over":
        mover = GAME.to_move(t.state)
        if mover is None:
            command = table_command(t.state, SECRET)
            assert command is not None
            t.do(command)
            continue
        if mover in t.state.left:
            t.do(AutoPlay(seat=mover, reason="auto"))
        t.do(bots.choose(t.state, mover))
    assert t.state.left == tuple(sorted((seat, other)))
    assert refused(t.state, SetAuto(seat=(other + 1) % 3, on=True, reason="left")) == "wrong_phase"
    lines = dump_lines(t.state.config, t.events, table_id="t-left")
    report = audit(lines)
    assert report.verdict == "sound", describe(report)
    assert report.state is not None and report.state.left == t.state.left
    # an audit refuses a forged return from a seat that left
    i = next(i for i, e in enumerate(t.events) if e == AutoSet(seat, True, "left"))
    forged = json.dumps(encode(AutoSet(seat=seat, on=False, reason="self")))
    report = audit([*lines[: i + 2], forged, *lines[i + 2 :]])
    assert report.verdict == "failed" and report.bad_index == i + 1
    assert report.error is not None and report.error.code == "seat_left"


def test_leaving_is_told_in_the_log() -> None:
    assert event_line(AutoSet(2, True, "left"), GAME.words, None) == (
        "3号位离座，由托管代打",
        "Seat 3 left; auto-play takes over",
    )
    assert event_line(AutoSet(0, True, "left"), GAME.words, ["Ann"])[1] == (
        "Seat 1 (Ann) left; auto-play takes over"
    )
    assert "left" not in api.view(Table().state, 0)  # the view is unchanged: the directory tells


# --- an abandoned table: nobody connected, the match ends with the scores as they stand --------


def test_an_abandoned_table_ends_with_the_scores_as_they_stand() -> None:
    t = Table(hands=3)
    t.until_hand_ends()
    _reveal(t)
    scored = t.state.totals
    assert any(scored)  # the first hand is scored
    seat = t.until_turn()
    t.do(bots.choose(t.state, seat))  # the second hand is under way: it will not be scored
    assert t.do(Abandon()) == [TableAbandoned(totals=scored), MatchEnded(totals=scored)]
    assert t.state.phase == "over" and t.state.totals == scored
    assert GAME.to_move(t.state) is None
    assert refused(t.state, Abandon()) == "wrong_phase"  # once: the match is over


def test_abandon_is_refused_once_the_match_is_over(match: Table) -> None:
    assert refused(match.state, Abandon()) == "wrong_phase"


def test_an_abandoned_table_is_audited_and_told() -> None:
    t = Table(hands=2)
    t.until_turn()
    t.do(Abandon())
    lines = dump_lines(t.state.config, t.events, table_id="t-abandoned")
    report = audit(lines)
    assert report.verdict == "sound", describe(report)
    told = describe(report)
    said = (
        "牌桌无人在线，已结束（按当前比分）",
        "Nobody was connected: the table ended (scores as they stand)",
    )
    assert said in told
    assert any("the hand is not scored" in en for _, en in told)
    assert event_line(TableAbandoned(totals=(0, 0, 0)), GAME.words, None) == said
    assert decode(encode(Abandon())) == Abandon()
    # a forged abandonment with other totals is named
    i = next(i for i, e in enumerate(t.events) if isinstance(e, TableAbandoned))
    forged = json.dumps(encode(TableAbandoned(totals=(5, -5, 0))))
    report = audit([*lines[: i + 1], forged, *lines[i + 2 :]])
    assert report.verdict == "failed" and report.bad_index == i


# --- a table at its bound on events: the match ends with the scores as they stand -----------------


def test_a_table_at_its_limit_of_events_ends_with_the_scores_as_they_stand() -> None:
    """``end_at_limit`` ends the match like an abandonment, but only once the ending fits the
    bound and leaves fewer than ``LIMIT_MARGIN`` of its events unused; the audit replays it and
    tells it, and refuses one appended well before the bound."""
    t = Table(hands=3)
    t.until_hand_ends()
    _reveal(t)
    scored = t.state.totals
    seat = t.until_turn()
    t.do(bots.choose(t.state, seat))  # the second hand is under way: it will not be scored
    events = t.state.version
    assert refused(t.state, EndAtLimit(limit=events + 1)) == "not_at_limit"  # no room to end
    assert refused(t.state, EndAtLimit(limit=events + 2 + LIMIT_MARGIN)) == "not_at_limit"
    limit = events + 2 + LIMIT_MARGIN - 1
    ending = [TableAtLimit(totals=scored, limit=limit), MatchEnded(totals=scored)]
    assert t.do(EndAtLimit(limit=limit)) == ending
    assert t.state.phase == "over" and t.state.totals == scored
    assert refused(t.state, EndAtLimit(limit=limit)) == "wrong_phase"  # once
    lines = dump_lines(t.state.config, t.events, table_id="t-at-limit")
    report = audit(lines)
    assert report.verdict == "sound", describe(report)
    told = describe(report)
    said = (
        "牌局的事件数已达上限，已结束（按当前比分）",
        "The table reached its limit of events: the match ended (scores as they stand)",
    )
    assert said in told and event_line(ending[0], GAME.words, None) == said
    assert any("the hand is not scored" in en for _, en in told)
    assert decode(encode(ending[0])) == ending[0]
    # the same ending claimed far from the bound is named at its index
    i = len(t.events) - 2
    early = json.dumps(encode(TableAtLimit(totals=scored, limit=limit + LIMIT_MARGIN)))
    report = audit([*lines[: i + 1], early, *lines[i + 2 :]])
    assert report.verdict == "failed" and report.bad_index == i


def test_the_owner_closes_a_table_only_before_its_first_deal() -> None:
    """A table closed before it is dealt ends unplayed, in its log; once dealt it cannot be."""
    t = Table()
    t.do(table_command(t.state, SECRET))  # the deal committed to, nobody seated yet
    assert t.do(Close()) == [TableClosed(), MatchEnded(totals=t.state.totals)]
    assert t.state.phase == "over"
    assert refused(t.state, Close()) == "wrong_phase"  # once
    lines = dump_lines(t.state.config, t.events, table_id="t-closed")
    report = audit(lines)
    assert report.ok and report.bad_index is None, describe(report)
    said = ("房主在开局前关闭了牌桌", "The owner closed the table before it started")
    assert event_line(TableClosed(), GAME.words, None) == said  # the replay's and audit's line
    dealt = Table()
    dealt.until_turn()
    assert refused(dealt.state, Close()) == "wrong_phase"


# --- players' seeds in every hand ---------------------------------------------------------------


def _seeded_match(hands: int = 3) -> Table:
    """A match in which every seat adds a seed to every hand: to the first as it sits down
    (``add_seed``), to each later one with its 继续, once the table has committed to that deal."""
    t = Table(hands=hands)
    for hand in range(1, hands + 1):
        if hand == 1:
            t.do(table_command(t.state, SECRET))  # the commitment to the first deal
            for seat in range(3):
                t.do(decode({"type": "add_seed", "seat": seat, "seed": f"h1-s{seat}"}))
        else:
            _reveal(t)
            assert refused(t.state, Continue(seat=0, seed="too early")) == "wrong_phase"
            commit = table_command(t.state, SECRET)
            assert commit is not None and commit.TYPE == "commit_deal"
            t.do(commit)
            for seat in range(3):
                new = t.do(Continue(seat=seat, seed=f"h{hand}-s{seat}"))
                assert [e.TYPE for e in new] == ["continued", "seed_added"]
        assert t.state.player_seeds == tuple(f"h{hand}-s{seat}" for seat in range(3))
        t.until_turn()  # the deal
        t.until_hand_ends()
    _reveal(t)
    assert t.state.phase == "over"
    return t


def test_every_seat_adds_a_seed_to_every_hand_with_its_continue() -> None:
    t = _seeded_match()
    kinds = [e.TYPE for e in t.events]
    assert kinds.count("seed_added") == 9 and kinds.count("dealt") == 3
    # every deal comes after the commitment to it and after every seat's seed for it
    for hand in (1, 2, 3):
        committed = next(
            i for i, e in enumerate(t.events) if e.TYPE == "deal_committed" and e.hand_no == hand
        )
        dealt = next(i for i, e in enumerate(t.events) if e.TYPE == "dealt" and e.hand_no == hand)
        seeds = [e for e in t.events[committed:dealt] if e.TYPE == "seed_added"]
        assert sorted((e.seat, e.seed) for e in seeds) == [(s, f"h{hand}-s{s}") for s in range(3)]
    report = audit(dump_lines(t.state.config, t.events, table_id="t-seeds"))
    assert report.verdict == "sound", describe(report)
    assert [(d.hand_no, d.status) for d in report.deals] == [(h, "verified") for h in (1, 2, 3)]


def test_the_audit_names_a_changed_seed_of_a_later_hand() -> None:
    t = _seeded_match()
    lines = dump_lines(t.state.config, t.events, table_id="t-seeds")
    i = next(n for n, line in enumerate(lines) if '"seed":"h2-s1"' in line.replace(" ", ""))
    forged = lines[i].replace("h2-s1", "h2-sX")
    report = audit([*lines[:i], forged, *lines[i + 1 :]])
    assert report.verdict == "failed"
    assert {d.hand_no: d.status for d in report.deals}[1] == "verified"
    # the deal of hand 2 no longer follows from its commitment and its seeds: named at its event
    assert report.error is not None and report.error.code == "unexpected_event"
    assert report.bad_index is not None
    bad = report.events[report.bad_index]
    assert bad.TYPE == "dealt" and getattr(bad, "hand_no", None) == 2


def test_a_seed_with_continue_is_checked_like_any_seed() -> None:
    t = Table()
    t.until_hand_ends()
    _reveal(t)
    t.do(table_command(t.state, SECRET))  # committed to hand 2
    before = t.state
    assert refused(before, Continue(seat=0, seed="")) == "bad_seed"
    assert refused(before, Continue(seat=0, seed="x" * 129)) == "bad_seed"
    t.do(decode({"type": "add_seed", "seat": 0, "seed": "mine"}))
    assert refused(t.state, Continue(seat=0, seed="again")) == "seed_already_added"
    assert t.do(Continue(seat=0)) == [Continued(seat=0)]  # 继续 without a seed is fine
    assert decode({"type": "continue", "seat": 1, "seed": "s"}) == Continue(seat=1, seed="s")
    # the ended hand stays on view (every card of it is public) until the next deal
    assert api.view(t.state, None)["hands"] is not None and t.state.phase == "seeding"


# --- the settings the engine accepts ------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {"hands": 1_000_001},  # beyond the bound on integers
        {"hands": True},  # a bool for an int
        {"removed": ["3S"] * 65},  # a list over 64 items
    ],
)
def test_make_config_refuses_options_beyond_their_bounds_or_of_another_type(
    options: dict[str, Any],
) -> None:
    with pytest.raises(ValueError):
        api.make_config("guanpai", "mainstream", 3, options)


def test_the_check_hand_finds_settings_that_do_not_play_and_passes_the_others() -> None:
    good = api.make_config("guanpai", "mainstream", 3)
    assert simulate.hand_problem(good) is None
    bad = api.make_config("guanpai", "suzhou", 2, {"plane_wings": [19, 3, 5, 0, 23]})
    assert simulate.hand_problem(bad)  # its deal fails: refused at a create, never dealt
