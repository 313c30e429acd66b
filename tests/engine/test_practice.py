"""A practice table (``paiju.practice``): one person against bots in the browser's engine worker,
with no server. A match of every game plays to its end and its log passes the audit; the person's
frames hold only what the person may see, and are the gateway's frames field for field (decoded
here with the gateway's own types and written by the table service's own functions); a refused
command changes nothing and a repeated command id is applied once; the clock plays for a person
who does not act, the bots move at their delay, and the same times give the same table; a table
rebuilt from its log mid-match goes on exactly as the first would have."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju import api, bots, levels, practice
from paiju.cards import format_card
from paiju.cli import main
from paiju.log.file import dump_lines
from paiju.log.replay import audit
from paiju.practice import PracticeJson, PracticeTable
from paiju.protocol import encode
from paiju.registry import get_game
from paiju.selfcheck import codes_in, without_hidden_hands
from paiju.table import TableState
from paiju_services import views
from paiju_services.gateway import schemas
from paiju_services.tables.publish import body

CONFIGS = [
    (game["id"], variant["id"], players)
    for game in api.list_games()
    for variant in game["variants"]
    for players in variant["players"]
]
SEED = bytes(range(16))  # as the browser's crypto.getRandomValues gives it
CLOCK = {"play": 30, "bid": 20, "continue": 15}
STATE_KEYS = {
    "type",
    "table",
    "event",
    "connected",
    "index",
    "view",
    "settled",
    "moves",
    "deadline",
    "deadline_seat",
}
MOST_STEPS = 5000  # a table that keeps waiting would otherwise loop for ever
Person = Callable[[PracticeTable], dict[str, Any] | None]


def start(game: str = "guanpai", variant: str | None = "boke", **kw: Any) -> PracticeTable:
    kw.setdefault("seed", SEED)
    kw.setdefault("now_ms", 1_000_000)
    kw.setdefault("options", {"hands": 2})
    return PracticeTable.start(game, variant, **kw)


def bot_person(host: PracticeTable) -> dict[str, Any] | None:
    """A person who plays the bots' move on the table as it is, and presses 继续."""
    if api.to_move(host.state) == host.seat and host.seat not in host.state.auto:
        return encode(bots.choose(host.state, host.seat))
    if api.clock_kind(host.state) == "continue" and host.seat not in host.state.ready:
        return {"type": "continue", "seat": host.seat}
    return None


def random_person(seed: int) -> Person:
    """A person who, at each version, idles (the clock plays for him), switches 托管 off, or plays
    a random legal move: chosen by the seed and the version alone, so that a table rebuilt from
    its log meets the same person."""

    def person(host: PracticeTable) -> dict[str, Any] | None:
        rng = random.Random(f"{seed}/{host.state.version}")
        if rng.random() < 0.08:
            return None  # away: the deadline passes
        if host.seat in host.state.auto:
            return (
                {"type": "set_auto", "seat": host.seat, "on": False} if rng.random() < 0.3 else None
            )
        if api.to_move(host.state) == host.seat:
            return encode(rng.choice(api.legal_moves(host.state, host.seat)))
        if api.clock_kind(host.state) == "continue" and host.seat not in host.state.ready:
            return {"type": "continue", "seat": host.seat, "seed": f"p{host.state.hand_no}"}
        return None

    return person


def play(
    host: PracticeTable, person: Person, now: int, steps: int = MOST_STEPS
) -> tuple[list[dict[str, Any]], int]:
    """Drive the table for ``steps`` turns at most, or to the match's end: the person's command
    when he has one (sent at once), else the time moved on to the table's next wake. Returns the
    frames sent and the time reached."""
    frames: list[dict[str, Any]] = []
    for _ in range(steps):
        if host.state.phase == "over":
            break
        command = person(host)
        if command is not None:
            frame = {"type": "command", "id": f"v{host.state.version}", "command": command}
            out = host.receive(frame, now)
            assert out["frames"][-1]["type"] != "error" or out["frames"][-1]["id"] is None, out
        else:
            out = host.advance(now)
            if not out["frames"]:  # nothing due yet: the time moves on to the next wake
                assert out["wake"] is not None and out["wake"] > now, "the table waits for nothing"
                now = out["wake"]
                out = host.advance(now)
        frames += out["frames"]
    return frames, now


def states_by_version(host: PracticeTable) -> list[TableState]:
    state = api.initial_state(host.config)
    states = [state]
    for event in host.events:
        state = api.evolve(state, event)
        states.append(state)
    return states


def check_person_frames(host: PracticeTable, frames: list[dict[str, Any]]) -> None:
    """Every state frame is the person's view of the table at its index, with his legal moves
    when it is his turn, and no frame holds a card of another seat's hand while a hand is played
    (counted by copies, against the view of the table with every other hand emptied)."""
    game = get_game(host.config.game)
    states = states_by_version(host)
    for frame in frames:
        if frame["type"] != "state":
            continue
        assert set(frame) == STATE_KEYS
        state = states[frame["index"]]
        assert frame["view"] == api.view(state, host.seat)
        if frame["moves"] is not None:
            assert frame["moves"] == api.legal_moves_json(state, host.seat)
        if state.phase in game.seat_phases:
            public = api.view(without_hidden_hands(state, host.seat), host.seat)
            leaked = codes_in(frame) - codes_in(public) - codes_in(frame["moves"] or [])
            assert not leaked, (frame["index"], sorted(leaked.elements()))


# --- a match of every game ------------------------------------------------------------------------


@pytest.mark.parametrize(("game_id", "variant", "players"), CONFIGS)
def test_a_match_of_every_game_plays_to_its_end_audits_and_shows_only_the_person_s_cards(
    game_id: str, variant: str, players: int
) -> None:
    host = start(game_id, variant, players=players, seat=players - 1, clock=CLOCK)
    opened = host.open(1_000_000)["frames"]
    assert [f["type"] for f in opened] == ["welcome", "state"]
    frames, _ = play(host, bot_person, 1_000_000)
    assert host.state.phase == "over" and host.state.hand_no == 2
    assert frames[-1] == {
        "type": "over",
        "table": "practice",
        "totals": list(host.state.totals),
        "result": encode(host.state.last_hand),
        "log": "",
    }
    check_person_frames(host, opened + frames)
    assert host.log_lines() == dump_lines(host.config, host.events, "practice", host.names)
    report = audit(host.log_lines())
    assert report.verdict == "sound", report.error
    assert [e.TYPE for e in report.events] == [e.TYPE for e in host.events]
    hands = host.hands()
    assert [h["hand_no"] for h in hands["hands"]] == [1, 2] and hands["finished"]
    assert hands["hands"][-1]["totals"] == list(host.state.totals)


def test_the_log_passes_paiju_audit_with_the_names_and_the_table_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    host = start("dagong", None, table="practice-7", names=["甲", "乙", "丙", "丁"])
    play(host, bot_person, 0)
    path = tmp_path / "practice.jsonl"
    path.write_text(host.log_text(), encoding="utf-8")
    assert main(["audit", str(path), "--lang", "en"]) == 0
    assert "甲" in capsys.readouterr().out
    head = json.loads(host.log_lines()[0])
    assert head["table"] == "practice-7" and head["names"] == ["甲", "乙", "丙", "丁"]
    assert SEED.hex() not in host.log_text()  # the secret: only each hand's seed, once revealed


def test_a_bot_chooses_from_its_own_view_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[TableState, int]] = []

    def spy(state: TableState, seat: int) -> Any:
        seen.append((state, seat))
        return bots.choose(state, seat)

    # 普通 watched as it chooses (a level of the log's words: the log records the bots' level)
    watched = dataclasses.replace(levels.LEVELS["normal"], choose=spy)
    monkeypatch.setitem(levels.LEVELS, "normal", watched)
    host = start("dabei", None, level="normal")
    play(host, bot_person, 0)
    assert seen
    for state, seat in seen:
        assert seat != host.seat
        others = [hand for s, hand in enumerate(state.hands) if s != seat]
        truth = states_by_version(host)[state.version]
        assert state.hands[seat] == truth.hands[seat]
        assert others != [hand for s, hand in enumerate(truth.hands) if s != seat]
    with pytest.raises(ValueError, match="no bot level"):
        start(level="grandmaster")
    beginner = start("dabei", None, level="basic")  # 入门: the same match again, move for move
    play(beginner, bot_person, 0)
    again = start("dabei", None, level="basic")
    play(again, bot_person, 0)
    assert beginner.log_lines() == again.log_lines() != host.log_lines()


# --- the gateway's frames, field for field --------------------------------------------------------


def test_every_frame_is_the_gateway_s_own() -> None:
    host = start("banzipao", None, clock=CLOCK)
    now = 5_000
    sent = host.open(now)["frames"]
    sent += host.receive({"type": "ping", "nonce": 7}, now)["frames"]
    hello = host.receive({"type": "hello", "token": "any"}, now)["frames"]  # no token to check
    assert [f["type"] for f in hello] == ["welcome", "state"] and hello[1] == sent[1]
    sent += host.receive({"type": "command", "id": "x", "command": {"type": "pass"}}, now)["frames"]
    frames, now = play(host, bot_person, now)
    sent += frames + host.receive('{"type": "sync"}', now)["frames"]
    types = {
        "welcome": schemas.Welcome,
        "ack": schemas.Ack,
        "error": schemas.ErrorFrame,
        "over": schemas.Over,
        "pong": schemas.Pong,
    }
    states = states_by_version(host)
    for frame in sent:
        if frame["type"] == "state":
            state = states[frame["index"]]
            due = None if frame["deadline"] is None else (frame["deadline"], frame["deadline_seat"])
            made = body(state, host.seat, frame["index"], frame["settled"], due)
            gateway = views.frame("practice", frame["event"], [host.seat], made)
            assert json.loads(gateway) == frame
        else:
            decoded = msgspec.convert(frame, types[frame["type"]])
            assert json.loads(schemas.encoder.encode(decoded)) == frame
    assert {f["type"] for f in sent} == {"welcome", "state", "ack", "error", "over", "pong"}
    msgspec.convert(host.entry(), schemas.TableOut)
    msgspec.convert(host.hands(), schemas.HandsOut)


# --- refusals and repeated ids --------------------------------------------------------------------


def my_turn(host: PracticeTable, now: int) -> int:
    """Move the time on until it is the person's turn (the bots play before him)."""
    while api.to_move(host.state) != host.seat:
        now = host.advance(now)["wake"] or now
        host.advance(now)
    return now


def refused(host: PracticeTable, frame: Any, now: int) -> dict[str, Any]:
    """The one frame answering ``frame``, an error; nothing changed."""
    before, log = host.state, host.log_text()
    out = host.receive(frame, now)["frames"]
    assert len(out) == 1 and out[0]["type"] == "error", out
    assert host.state is before and host.log_text() == log
    return out[0]


def test_a_refused_command_answers_an_error_with_its_id_and_changes_nothing() -> None:
    host = start("guanpai", "boke", seat=1)
    now = 0
    assert api.to_move(host.state) != host.seat  # a bot leads
    hand = list(host.state.hands[host.seat])
    other = host.state.hands[(host.seat + 1) % 3][0]

    def command(cid: str, **fields: Any) -> dict[str, Any]:
        return {"type": "command", "id": cid, "command": {"seat": host.seat, **fields}}

    assert refused(host, command("a", type="pass"), now)["code"] == "not_your_turn"
    now = my_turn(host, now)
    cases = {
        "not_in_hand": command("b", type="play", cards=[format_card(other)]),
        "bad_command": command("c", type="play", cards=["ZZ"]),
        "unknown_command": command("d", type="fly"),
        "not_your_seat": {"type": "command", "id": "e", "command": {"type": "pass", "seat": 0}},
        "forbidden_command": command("f", type="auto_move"),
        "bad_request": {"type": "command", "id": "g", "command": {"type": "pass", "seat": "1"}},
    }
    for code, frame in cases.items():
        error = refused(host, frame, now)
        assert (error["code"], error["id"]) == (code, frame["id"]), error
        assert error["zh"] and error["en"]
    assert refused(host, command("h", type="set_auto", on=True, reason="timeout"), now)["code"] == (
        "forbidden_command"
    )
    for frame, code in [
        ("{not json", "bad_json"),
        ({"type": "shout"}, "unknown_frame"),
        (["command"], "unknown_frame"),
        ({"type": "command", "id": "i"}, "bad_frame"),
        ({"type": "command", "id": 3, "command": {}}, "bad_frame"),
        ({"type": "ping", "nonce": [1]}, "bad_frame"),
        ({"type": "command", "id": "bad id!", "command": {"type": "pass", "seat": 1}}, None),
    ]:
        error = refused(host, frame, now)
        assert error["code"] == (code or "bad_request") and error["id"] == (
            None if code else "bad id!"
        )
    assert hand == list(host.state.hands[host.seat])
    move = encode(bots.choose(host.state, host.seat))  # "b" again, a legal move: taken
    played = host.receive({"type": "command", "id": "b", "command": move}, now)["frames"]
    assert played[-1]["type"] == "ack" and played[-1]["id"] == "b"


def test_a_command_id_sent_again_is_answered_again_and_applied_once() -> None:
    host = start("guanpai", "boke", seat=1)
    now = my_turn(host, 0)
    move = encode(bots.choose(host.state, host.seat))
    frame = {"type": "command", "id": "once", "command": move}
    first = host.receive(frame, now)["frames"]
    acked = [f for f in first if f["type"] == "ack"]
    assert len(acked) == 1 and not acked[0]["duplicate"]
    version, log = host.state.version, host.log_text()
    again = host.receive(json.dumps(frame), now)["frames"]
    assert again == [{**acked[0], "duplicate": True, "version": version}]
    assert host.log_text() == log
    other = {"type": "command", "id": "once", "command": {"type": "pass", "seat": host.seat}}
    assert refused(host, other, now)["code"] == "id_reused"


# --- the clock ------------------------------------------------------------------------------------


def test_a_person_who_does_not_act_is_played_for_at_his_deadline_then_in_auto_play() -> None:
    host = start("guanpai", "boke", seat=1, clock={"play": 20}, bot_delay_ms=500)
    now = my_turn(host, 0)
    frames = host.advance(now)
    shown = host.receive({"type": "sync"}, now)["frames"][0]
    deadline = host.since_ms + 20_000
    assert frames["wake"] == shown["deadline"] == deadline and shown["deadline_seat"] == 1
    assert shown["moves"] == api.legal_moves_json(host.state, 1)
    assert host.advance(deadline - 1)["frames"] == []
    version = host.state.version
    out = host.advance(deadline)["frames"]
    events = [e.TYPE for e in host.events[version:]]
    assert events[:2] == ["auto_set", "auto_played"] and events[2] in ("played", "passed")
    assert host.events[version].reason == "timeout"  # type: ignore[attr-defined]
    assert [f["event"] for f in out if f["type"] == "state"][:2] == ["auto_set", "auto_played"]
    assert 1 in host.state.auto
    now = my_turn(host, deadline)  # the bots played, each after its delay
    wake = host.advance(now)["wake"]
    assert wake == host.since_ms + practice.AUTO_DELAY_MS  # in 托管: played after auto_delay
    version = host.state.version
    host.advance(wake)
    assert host.events[version].TYPE == "auto_played"
    assert host.events[version].reason == "auto"  # type: ignore[attr-defined]


def test_bots_move_at_their_delay_and_the_deal_waits_for_continue() -> None:
    host = start("guanpai", "boke", seat=0, bot_delay_ms=700, clock={"continue": 15})
    now = my_turn(host, 0)
    move = encode(bots.choose(host.state, 0))
    out = host.receive({"type": "command", "id": "m", "command": move}, now)
    assert out["wake"] == now + 700
    assert host.advance(now + 699)["frames"] == []
    version = host.state.version
    bot = host.advance(now + 700)["frames"]
    assert bot[0]["type"] == "state" and bot[0]["index"] == version + 1
    assert bot[0]["deadline"] is None  # a bot is not timed
    now += 700
    while host.state.last_hand is None:
        _, now = play(host, bot_person, now, steps=1)
    assert host.state.phase == "seeding"  # hand 1 scored, hand 2 committed to: held for 继续
    shown = host.receive({"type": "sync"}, now)["frames"][0]
    assert shown["deadline"] == host.since_ms + 15_000 and shown["deadline_seat"] is None
    assert host.advance(shown["deadline"] - 1)["frames"] == []
    dealt = host.advance(shown["deadline"])["frames"]
    assert dealt[0]["event"] == "dealt" and host.state.hand_no == 2
    assert 0 not in host.state.ready


def test_the_same_seed_and_times_give_the_same_frames_and_log() -> None:
    def run() -> tuple[list[dict[str, Any]], str]:
        host = start("dagong", None, seat=2, clock={"play": 5, "bid": 5})
        frames, _ = play(host, random_person(11), 0)
        return frames, host.log_text()

    first, second = run(), run()
    assert first == second
    assert '"auto_set"' in first[1]  # the person was away at least once: the clock played
    other = start("dagong", None, seat=2, seed=b"another")  # another commitment, another deal
    assert other.log_lines()[1:3] != first[1].splitlines()[1:3]


# --- resume and rematch ---------------------------------------------------------------------------


@settings(max_examples=12, deadline=None)
@given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(0, 2**16),
    cut=st.integers(0, 400),
)
def test_a_table_rebuilt_from_its_log_goes_on_exactly_as_the_first(
    config: tuple[str, str, int], seed: int, cut: int
) -> None:
    game_id, variant, players = config
    kw = {
        "players": players,
        "seat": seed % players,
        "seed": f"s{seed}",
        "clock": {"play": 8, "bid": 8, "bury": 8, "continue": 5},
    }
    person = random_person(seed)
    whole = start(game_id, variant, **kw)
    play(whole, person, 0)
    first = start(game_id, variant, **kw)
    _, now = play(first, person, 0, steps=cut)
    text = first.log_text()
    resumed = PracticeTable.resume(
        text,
        seed=f"s{seed}",
        seat=first.seat,
        now_ms=now,
        since_ms=first.since_ms,
        clock=kw["clock"],
    )
    assert resumed.state == first.state and resumed.log_text() == text
    assert resumed.open(now)["frames"][1] == first.open(now)["frames"][1]  # the same view
    assert resumed.due() == first.due()
    play(resumed, person, now)
    assert resumed.log_lines() == whole.log_lines()


def test_resume_refuses_another_seed_and_the_worker_s_json_entry_points() -> None:
    host = start("guanpai", "boke")
    with pytest.raises(ValueError, match="not dealt from this seed"):
        PracticeTable.resume(host.log_text(), seed=b"other", seat=0, now_ms=0)
    args = {"game": "guanpai", "variant": "boke", "seat": 0, "seed": SEED.hex(), "now_ms": 0}
    table = PracticeJson.start(json.dumps(args))
    assert table.log() == start(now_ms=0, options={}).log_text()
    again = PracticeJson.resume(
        table.log(), json.dumps({"seed": SEED.hex(), "seat": 0, "now_ms": 9})
    )
    assert (
        json.loads(again.open(9))["frames"][1]["view"]
        == json.loads(table.open(0))["frames"][1]["view"]
    )
    assert json.loads(table.entry())["seats"][1]["kind"] == "bot"
    assert json.loads(table.hands())["hands"] == []


def test_rematch_deals_a_new_match_at_the_same_table_from_a_fresh_seed() -> None:
    host = start("guanpai", "mainstream", players=2)
    _, now = play(host, bot_person, 0)
    assert host.entry()["status"] == "finished"
    old = host.log_lines()
    out = host.rematch(b"fresh", now)
    assert [f["type"] for f in out["frames"]] == ["welcome", "state"]
    # the deal committed to, the bot's seat recorded (as a server table's), the deal made
    assert out["frames"][1]["index"] == 3 and host.state.hand_no == 1
    assert [e.TYPE for e in host.events[:3]] == ["deal_committed", "bot_seated", "dealt"]

    def dealt(lines: list[str]) -> list[str]:
        return [line for line in lines[1:] if json.loads(line)["type"] == "dealt"]

    assert host.log_lines()[0] == old[0] and dealt(host.log_lines())[0] != dealt(old)[0]
    assert host.entry()["status"] == "playing" and host.hands()["hands"] == []
    play(host, bot_person, now)
    assert audit(host.log_lines()).verdict == "sound"


def test_a_match_that_could_go_on_for_ever_ends_at_the_bound_on_events() -> None:
    host = start("tiaoshu", None, options={"hands": 0}, max_events=300)  # to a score limit
    play(host, bot_person, 0)
    assert [e.TYPE for e in host.events[-2:]] == ["table_at_limit", "match_ended"]
    assert len(host.events) == 300 and audit(host.log_lines()).verdict == "sound"
    host = start("tiaoshu", None, options={"hands": 0})
    now = my_turn(host, 0)
    host.max_events = host.state.version + 2  # the person's move would leave no room
    move = encode(bots.choose(host.state, host.seat))
    out = host.receive({"type": "command", "id": "last", "command": move}, now)["frames"]
    assert [f.get("event", f["type"]) for f in out] == [
        "table_at_limit",
        "match_ended",
        "over",
        "error",
    ]
    assert (out[-1]["code"], out[-1]["id"]) == ("table_too_long", "last")
    assert audit(host.log_lines()).verdict == "sound"
