"""A game defined only in the tests (``toy_game.py``) plays through every generic part of the
engine — simulate, selfcheck, the audit, the catalogue, the browser's client — with its own
command, event, words and error codes, registered at test time and without an edit to any engine
module. And its 5566, which reads as two pairs or as a run of pairs, shows declared readings:
refused without a reading, accepted with each, the reading recorded in the log and the replay.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
import toy_game
from story import dealt

from paiju import api, bots, client
from paiju.log.file import dump_lines
from paiju.log.replay import audit
from paiju.protocol import Play, Played, Reading, encode
from paiju.registry import register, unregister
from paiju.selfcheck import checked_random_game
from paiju.simulate import play_game, random_game


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    register(toy_game.GAME)
    yield
    unregister("toy")


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("seed", range(6))
def test_random_matches_keep_every_invariant(players: int, seed: int) -> None:
    summary = checked_random_game("toy", "plain", seed, players=players, hands=2)
    assert summary["decisions"] > 0 and sum(summary["totals"]) == 0


def test_simulate_plays_it_the_same_way_twice() -> None:
    assert random_game("toy", seed=3) == random_game("toy", seed=3)


def test_a_bots_match_audits_clean_and_a_forged_command_of_its_own_is_named() -> None:
    config = api.make_config("toy", "plain", 3, {"hands": 2})
    state, events = play_game(config, "toy-audit", lambda s, seat, moves: bots.choose(s, seat))
    assert state.phase == "over"
    lines = dump_lines(config, events)
    report = audit(lines)
    assert report.ok and report.state == state
    assert [d.status for d in report.deals] == ["verified", "verified"]
    # the game's own event, forged: a card the seat does not hold
    shown = next(i for i, line in enumerate(lines) if '"toy_card_shown"' in line)
    data = json.loads(lines[shown])
    dealt_line = next(json.loads(line) for line in lines[:shown] if '"dealt"' in line)
    others = [c for s, h in enumerate(dealt_line["hands"]) if s != data["seat"] for c in h]
    forged = [*lines[:shown], json.dumps(data | {"shown": others[0]}), *lines[shown + 1 :]]
    bad = audit(forged)
    assert bad.error is not None and bad.error.code == "toy_not_held"
    assert bad.bad_index == shown - 1  # indexes count events, the header is line 1
    assert "只能亮自己的牌" in bad.error.zh and "Show a card you hold" in bad.error.en


def test_the_catalogue_lists_it_with_its_own_words_and_options() -> None:
    entry = next(g for g in api.list_games() if g["id"] == "toy")
    assert (entry["name_zh"] == "玩具" and entry["variants"][0]["players"] == [2, 3]) or (2, 3)
    words = entry["words"]
    assert words["kinds"]["two_pairs"] == ["两对", "two pairs"]
    assert words["errors"]["toy_not_held"][1] == "Show a card you hold: {card}"
    assert words["phases"]["show"] == ["亮牌", "showing a card"]
    assert [o["name"] for o in entry["variants"][0]["options"]] == ["hands"]


def test_the_browser_client_rebuilds_its_state_from_a_view() -> None:
    config = api.make_config("toy", "plain", 2)
    state, _ = play_game(config, "toy-client", lambda s, seat, moves: moves[0])
    assert state.phase == "over"
    table = run_table()
    for seat in (0, 1):
        mine = client.state_from_view(config, api.view(table.state, seat))  # type: ignore[attr-defined]
        assert api.legal_moves(mine, seat) == api.legal_moves(table.state, seat)  # type: ignore[attr-defined]


# --- declared readings ------------------------------------------------------------------------


def run_table() -> object:
    config = api.make_config("toy", "plain", 2)
    table = dealt(config, ["5S 5H 6S 6H 3S 4S", "7S 7H 8S 8H 3H 4H"], leader=0)
    table.state = api.evolve(
        table.state, encode(toy_game.CardShown(seat=0, shown=table.state.hands[0][0]))
    )
    return table


def test_a_selection_with_two_readings_is_refused_without_one() -> None:
    table = run_table()
    err = table.refuses_play(0, "5S 5H 6S 6H", "ambiguous_reading")  # type: ignore[attr-defined]
    assert "几种读法" in err.zh
    # the browser's worker lists the readings to choose from
    seat_client = client.SeatClient(json.dumps(table.state.config.to_dict()))  # type: ignore[attr-defined]
    seat_client.update(json.dumps(api.view(table.state, 0)))  # type: ignore[attr-defined]
    readings = json.loads(seat_client.readings(json.dumps(["5S", "5H", "6S", "6H"])))
    assert [r["reading"] for r in readings] == [
        {"kind": "two_pairs", "stands_for": []},
        {"kind": "pair_run", "stands_for": []},
    ]
    assert [r["name"]["zh"] for r in readings] == ["两对", "连对"]
    checked = json.loads(seat_client.check(json.dumps(["5S", "5H", "6S", "6H"])))
    assert checked["ok"] is False and checked["error"]["code"] == "ambiguous_reading"
    chosen = json.loads(
        seat_client.check(json.dumps(["5S", "5H", "6S", "6H"]), json.dumps(readings[1]["reading"]))
    )
    assert chosen["ok"] and chosen["command"]["reading"] == {"kind": "pair_run", "stands_for": []}


@pytest.mark.parametrize("kind", ["two_pairs", "pair_run"])
def test_each_reading_is_accepted_recorded_and_replayed(kind: str) -> None:
    table = run_table()
    cards = (8, 9, 12, 13)  # 5S 5H 6S 6H
    events = table.do(Play(seat=0, cards=cards, reading=Reading(kind)))  # type: ignore[attr-defined]
    played = events[0]
    assert isinstance(played, Played) and played.kind == kind
    # the next seat must answer the reading that was chosen, not the other one
    answers = {
        m.reading.kind for m in api.legal_moves(table.state, 1) if isinstance(m, Play) and m.reading
    }  # type: ignore[attr-defined]
    assert answers == {kind}
    assert api.view(table.state, None)["lead"]["kind"] == kind  # spectators see the reading


@pytest.mark.parametrize("kind", ["two_pairs", "pair_run"])
def test_a_chosen_reading_is_in_the_log_the_audit_and_the_replay(kind: str) -> None:
    """A whole match in which a seat plays a two-way selection as ``kind``."""

    def two_way(move: object) -> bool:
        return (
            isinstance(move, Play)
            and move.reading is not None
            and move.reading.kind == kind
            and len(toy_game.combo_of(move.cards)) == 2
        )

    def chooser(state: object, seat: int, moves: list[object]) -> object:
        return next((m for m in moves if two_way(m)), moves[0])

    config = api.make_config("toy", "plain", 2)
    for seed in range(50):
        _, events = play_game(config, f"reading-{seed}", chooser)  # type: ignore[arg-type]
        chosen = [e for e in events if isinstance(e, Played) and len(e.cards) == 4]
        if any(len(toy_game.combo_of(e.cards)) == 2 for e in chosen):
            break
    else:
        pytest.fail("no deal gave a two-way selection")
    played = next(e for e in chosen if len(toy_game.combo_of(e.cards)) == 2)
    assert played.kind == kind
    lines = dump_lines(config, events)
    assert json.loads(lines[events.index(played) + 1])["kind"] == kind
    assert audit(lines).ok
    steps = client.replay_steps(config, [encode(e) for e in events])
    step = steps[events.index(played) + 1]
    assert step["event"]["kind"] == kind and step["view"]["lead"]["kind"] == kind
    # the same log with the other reading written in is a different, equally legal, history;
    # a reading the cards cannot have is refused by the audit
    forged = json.loads(lines[events.index(played) + 1]) | {"kind": "single"}
    bad = [
        *lines[: events.index(played) + 1],
        json.dumps(forged),
        *lines[events.index(played) + 2 :],
    ]
    report = audit(bad)
    assert report.error is not None and report.error.code == "reading_not_possible"


def test_a_reading_the_cards_cannot_have_is_refused() -> None:
    table = run_table()
    command = Play(seat=0, cards=(8, 9, 12, 13), reading=Reading("single"))
    table.refuses(command, "reading_not_possible")  # type: ignore[attr-defined]
