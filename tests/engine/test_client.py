"""The browser's engine (``paiju.client``): a seat's state rebuilt from its own view must answer
``legal_moves`` and ``check_command`` exactly as the table's true state does, in every game, at
every decision of whole random games; and the rebuilt state holds no card the seat may not see.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
from typing import Any

import pytest

from paiju import api, client
from paiju.cards import build_deck, card_codes, parse_cards
from paiju.client import SeatClient, display_order, replay_steps, state_from_view
from paiju.log import audit_json
from paiju.protocol import Command, Pass, Play, encode
from paiju.simulate import play_game

CASES = [
    (game["id"], variant["id"], players)
    for game in api.list_games()
    for variant in game["variants"]
    for players in variant["players"]
]
SEEDS = range(3)
MAX_CHECKED = 250  # decisions compared per game


def selections(rng: random.Random, hand: list[str], moves: list[dict[str, Any]]) -> list[Any]:
    """What a player might select: every legal play, a pass, random subsets, a card not held."""
    out: list[Any] = [m.get("cards") for m in moves] + [None, hand, []]
    for size in (1, 2, 3, 4, 5, 6):
        for _ in range(3):
            if len(hand) >= size:
                out.append(rng.sample(hand, size))
    # a card not held (a 52-card hand of four decks may hold all four of these: any other code)
    codes = ("3S", "3D", "RJ", "2H", *card_codes(build_deck(jokers=True)))
    missing = next((c for c in codes if c not in hand), None)
    if missing is not None:
        out.append([missing])
    return out


def command_of(seat: int, cards: Any) -> dict[str, Any]:
    if cards is None:
        return {"type": "pass", "seat": seat}
    return {"type": "play", "seat": seat, "cards": cards}


def compare_at(state: api.State, seat: int, rng: random.Random) -> None:
    true_moves = api.legal_moves_json(state, seat)
    view = api.view(state, seat)
    mine = state_from_view(state.config.to_dict(), json.loads(json.dumps(view)))
    assert api.legal_moves_json(mine, seat) == true_moves
    assert api.to_move(mine) == api.to_move(state)
    assert api.view(mine, seat) == view  # the rebuilt state shows the seat what it was shown
    for cards in selections(rng, view["hand"] or [], true_moves):
        command = command_of(seat, cards)
        truth = api.check_command(state, command)
        if truth["ok"] and command["type"] == "play":  # a play of cards that is not a ``played``
            # (打棒's kitty buried) has no kind, as client.check_command says
            played = next((e for e in api.decide(state, command) if e.TYPE == "played"), None)
            if played is not None:
                truth["kind"] = played.kind  # type: ignore[attr-defined]
        assert client.check_command(mine, command) == truth, (command, truth)


def checking_chooser(rng: random.Random, checked: list[int]) -> Any:
    """A random player that, before each move, compares the rebuilt states of the seat to move
    and of the next seat (not to move: no moves, every play refused the same way)."""

    def choose(state: api.State, seat: int, moves: list[Command]) -> Command:
        if len(checked) >= MAX_CHECKED:  # a long match (条数 plays to 100 cards): enough seen
            return rng.choice(moves)
        compare_at(state, seat, rng)
        other = (seat + 1) % state.config.players
        if state.hands[other]:
            compare_at(state, other, rng)
        checked.append(seat)
        return rng.choice(moves)

    return choose


@pytest.mark.parametrize(("game", "variant", "players"), CASES)
def test_rebuilt_state_agrees_with_the_table(game: str, variant: str, players: int) -> None:
    config = api.make_config(game, variant, players)
    for seed in SEEDS:
        checked: list[int] = []
        play_game(config, f"client-{seed}", checking_chooser(random.Random(seed), checked))
        assert len(checked) > 10


def test_a_view_holds_no_hidden_card_and_the_stand_ins_are_not_real() -> None:
    """Stand-ins are drawn from what the seat cannot see, in a fixed order: they say nothing of
    where the other cards really are (seat 1's stand-in is not seat 1's hand)."""
    config = api.make_config("guanpai", "boke")
    state, _ = _dealt(config, "stand-ins")
    view = api.view(state, 0)
    assert view["hands"] is None
    assert view["hand"] == card_codes(state.hands[0])
    mine = state_from_view(config, view)
    assert mine.hands[0] == state.hands[0]
    assert [len(h) for h in mine.hands] == [len(h) for h in state.hands]
    assert mine.hands[1] != state.hands[1] or mine.hands[2] != state.hands[2]
    own = set(state.hands[0])
    assert not own & set(mine.hands[1]) and not own & set(mine.hands[2])


def test_the_lead_is_read_back_with_its_key() -> None:
    config = api.make_config("guanpai", "boke")
    state, _ = _dealt(config, "lead")
    seat = api.to_move(state)
    assert seat is not None
    play = next(m for m in api.legal_moves(state, seat) if isinstance(m, Play) and len(m.cards) > 1)
    state, _ = api.apply(state, play)
    nxt = api.to_move(state)
    assert nxt is not None
    mine = state_from_view(config, api.view(state, nxt))
    assert mine.lead == state.lead
    assert mine.lead_seat == state.lead_seat
    assert mine.actions == state.actions
    if Pass(seat=nxt) in api.legal_moves(state, nxt):  # after a pass, the count of passes
        state, _ = api.apply(state, Pass(seat=nxt))
        third = api.to_move(state)
        assert third is not None
        assert state_from_view(config, api.view(state, third)).passes == state.passes


def test_a_view_of_another_game_is_refused() -> None:
    guanpai = api.make_config("guanpai", "boke")
    state, _ = _dealt(guanpai, "other")
    view = api.view(state, 0)
    with pytest.raises(ValueError):
        state_from_view({**guanpai.to_dict(), "players": 2, "variant": "mainstream"}, view)


def test_seat_client_checks_a_selection_and_offers_hints() -> None:
    config = api.make_config("guanpai", "boke")
    state, _ = _dealt(config, "seat-client")
    seat = api.to_move(state)
    assert seat is not None
    c = SeatClient(json.dumps(config.to_dict()))
    update = json.loads(c.update(json.dumps(api.view(state, seat))))
    assert update["seat"] == seat and update["turn"] == seat
    assert update["moves"] == api.legal_moves_json(state, seat)
    first = update["moves"][0]["cards"]
    ok = json.loads(c.check(json.dumps(first)))
    assert ok["ok"] is True and ok["command"] == {"type": "play", "seat": seat, "cards": first}
    assert ok["kind"] == "single"  # the first legal lead is the lowest single
    lead_pass = json.loads(c.check("null"))
    assert lead_pass["ok"] is False and lead_pass["error"]["code"] == "cannot_pass_lead"
    bad = json.loads(c.check(json.dumps(["XX"])))
    assert bad["ok"] is False and bad["error"]["code"] == "bad_command"
    assert json.loads(c.moves()) == update["moves"]
    # a seat that is not to move gets the engine's reason, in both languages
    other = (seat + 1) % 3
    c.update(json.dumps(api.view(state, other)))
    card = card_codes(state.hands[other])[:1]
    refused = json.loads(c.check(json.dumps(card)))
    assert refused["error"]["code"] == "not_your_turn"
    assert refused["error"]["zh"] and refused["error"]["en"]


def test_a_spectator_client_never_plays() -> None:
    config = api.make_config("guanpai", "boke")
    state, _ = _dealt(config, "spectator")
    c = SeatClient(json.dumps(config.to_dict()))
    assert json.loads(c.update(json.dumps(api.view(state, None))))["moves"] == []
    assert json.loads(c.check(json.dumps(["3D"])))["error"]["code"] == "not_your_turn"


def test_going_out_is_legal_even_when_scoring_reads_hidden_hands() -> None:
    """大北 scores a hand by who holds ♠3 and ♠A: with stand-ins, that scoring may fail, but the
    rules have accepted the play by then, so the check says ok."""
    config = api.make_config("dabei", None)
    c = SeatClient(json.dumps(config.to_dict()))
    seen = 0
    for seed in range(6):
        _, events = play_game(config, f"out-{seed}", lambda s, seat, moves: moves[0])
        # step back through the game to the last play of a seat that went out
        replayed = api.initial_state(config)
        for event in events:
            if event.TYPE == "played" and len(event.cards) == len(replayed.hands[event.seat]):  # type: ignore[attr-defined]
                c.update(json.dumps(api.view(replayed, event.seat)))  # type: ignore[attr-defined]
                out = json.loads(c.check(json.dumps(card_codes(event.cards))))  # type: ignore[attr-defined]
                assert out["ok"] is True, out
                seen += 1
            replayed = api.evolve(replayed, event)
    assert seen >= 6


def test_display_order_follows_each_game_s_own_card_order() -> None:
    guanpai = api.make_config("guanpai", "boke")
    assert display_order(guanpai, "3D 2S AH 3S KC") == ["2S", "AH", "KC", "3S", "3D"]
    dabei = api.make_config("dabei", None)
    # 大北: ♠3 is the highest card and ♦4 the lowest; suits ♠ > ♥ > ♣ > ♦
    assert display_order(dabei, "4D 3S 2H 3D AC") == ["3S", "3D", "2H", "AC", "4D"]
    assert display_order(guanpai, "5S 9H 5D 9C 9S KD", mode="count") == [
        "9S",
        "9H",
        "9C",
        "5S",
        "5D",
        "KD",
    ]
    with pytest.raises(ValueError):
        display_order(guanpai, "3D", mode="suit")


def test_replay_steps_show_every_hand_and_end_with_the_result() -> None:
    config = api.make_config("guanpai", "boke")
    state, events = play_game(config, "replay", lambda s, seat, moves: moves[0])
    steps = replay_steps(config.to_dict(), [encode(e) for e in events])
    assert len(steps) == len(events) + 1
    assert steps[0]["event"] is None and steps[0]["view"]["hands"] is None
    dealt = next(i for i, s in enumerate(steps) if s["event"] and s["event"]["type"] == "dealt")
    dealt_hands = events[dealt - 1].hands  # type: ignore[attr-defined]
    assert steps[dealt]["view"]["hands"] == [
        display_order(config, card_codes(h)) for h in dealt_hands
    ]
    assert steps[dealt]["view"]["hand"] is None  # the spectator's view, with hands added
    assert steps[-1]["view"]["totals"] == list(state.totals)
    assert steps[-1]["view"]["phase"] == "over"
    assert json.loads(
        client.replay_json(json.dumps(config.to_dict()), json.dumps([encode(e) for e in events]))
    ) == json.loads(json.dumps(steps))


def _dealt(config: api.Config, secret: str) -> tuple[api.State, list[Any]]:
    from paiju.simulate import table_command

    state = api.initial_state(config)
    events: list[Any] = []
    while state.phase != "play":
        command = table_command(state, secret)
        assert command is not None
        state, new = api.apply(state, command)
        events += new
    return state, events


def test_parse_round_trip_of_display_order() -> None:
    hand = "3D 4D 5S 6H 7C 8D 9S TH JC QD KS AH 2S"
    config = api.make_config("guanpai", "boke")
    assert sorted(parse_cards(display_order(config, hand))) == list(parse_cards(hand))


# --- the audit for the page that verifies a game in the browser -----------------------------------


@pytest.fixture(scope="module")
def recorded_log() -> list[str]:
    """A two-hand 关牌 match played by bots, as the lines of its log file."""
    from paiju import bots
    from paiju.log.file import dump_lines

    config = api.make_config("guanpai", "mainstream", 3, {"hands": 2})
    state, events = play_game(config, "verify", lambda s, seat, moves: bots.choose(s, seat))
    assert state.phase == "over"
    return dump_lines(config, events, table_id="t-verify")


def _text(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


def _swap_a_played_card(lines: list[str], nth: int = 4) -> tuple[list[str], str]:
    """The log with one card of the nth play replaced by a card another seat was dealt; the code
    of that card."""
    events = [json.loads(line) for line in lines]
    dealt = next(e for e in events if e["type"] == "dealt")
    plays = [i for i, e in enumerate(events) if e["type"] == "played"]
    i = plays[nth]
    seat = events[i]["seat"]
    foreign = dealt["hands"][(seat + 1) % len(dealt["hands"])][0]
    events[i]["cards"] = [foreign, *events[i]["cards"][1:]]
    return [json.dumps(e, ensure_ascii=False) for e in events], foreign


def _cli(tmp_path: Any, lines: list[str]) -> tuple[int, dict[str, Any]]:
    from paiju.cli import main

    path = tmp_path / "log.jsonl"
    path.write_text(_text(lines), encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["audit", str(path), "--json"])
    return code, json.loads(out.getvalue())


def test_audit_log_gives_the_command_s_verdict_and_sentences(
    recorded_log: list[str], tmp_path: Any
) -> None:
    from paiju.cli import AUDIT_EXIT
    from paiju.log.replay import audit
    from paiju.log.report import describe

    played, foreign = _swap_a_played_card(recorded_log)
    events = [json.loads(line) for line in recorded_log]
    first_play = next(i for i, e in enumerate(events) if e["type"] == "played")
    cases = {
        "honest": recorded_log,
        "played": played,
        "cut mid-hand": recorded_log[: first_play + 6],
        "cut mid-line": [*recorded_log[: first_play + 6], recorded_log[first_play + 6][:20]],
        "header only": recorded_log[:1],
        "no header": recorded_log[1:],
    }
    verdicts = {}
    for name, lines in cases.items():
        report = json.loads(audit_json.audit_log(_text(lines)))
        code, printed = _cli(tmp_path, lines)
        assert report["verdict"] == printed["verdict"] == audit(lines).verdict, name
        assert AUDIT_EXIT[report["verdict"]] == code, name
        assert [t["zh"] for t in report["lines"]] == printed["messages"]["zh"], name
        assert [t["en"] for t in report["lines"]] == printed["messages"]["en"], name
        told = [tuple(t) for t in describe(audit(lines))]
        findings = [(t["zh"], t["en"]) for t in report["findings"]]
        # the findings are the end of what the command prints, just before the verdict
        if findings:
            assert told[-1 - len(findings) : -1] == findings, name
        verdicts[name] = report["verdict"]
    assert verdicts == {
        "honest": "sound",
        "played": "failed",
        "cut mid-hand": "incomplete",
        "cut mid-line": "incomplete",
        "header only": "incomplete",
        "no header": "failed",
    }
    # one language only, and the same report read from Windows line ends
    en = json.loads(audit_json.audit_log(_text(played), "en"))
    both = json.loads(audit_json.audit_log(_text(played).replace("\n", "\r\n")))
    assert en["findings"] == [t["en"] for t in both["findings"]]
    assert (
        en["bad_line"]
        == both["bad_line"]
        == played.index(next(line for line in played if foreign in line and '"played"' in line)) + 1
    )
    with pytest.raises(ValueError):
        audit_json.audit_log(_text(played), "fr")


def test_audit_log_says_what_was_checked_and_names_cards_as_players_read_them(
    recorded_log: list[str],
) -> None:
    from paiju.cards import card_name, parse_card

    def checks(lines: list[str]) -> dict[str, dict[str, Any]]:
        report = json.loads(audit_json.audit_log(_text(lines), "en"))
        return {c["check"]: c for c in report["checks"]}

    honest = json.loads(audit_json.audit_log(_text(recorded_log), "zh"))
    assert (honest["verdict"], honest["findings"], honest["table"]) == ("sound", [], "t-verify")
    assert (honest["game"], honest["variant"], honest["players"]) == ("guanpai", "mainstream", 3)
    sound = checks(recorded_log)
    assert {k: c["status"] for k, c in sound.items()} == {k: "ok" for k in sound}
    assert sound["deal"]["hands"] == sound["deal"]["verified"] == 2
    assert sound["scores"]["hands"] == 2
    assert sound["rules"]["checked"] == sound["rules"]["events"] == len(recorded_log) - 1

    played, foreign = _swap_a_played_card(recorded_log)
    report = json.loads(audit_json.audit_log(_text(played), "en"))
    failed = {c["check"]: c for c in report["checks"]}
    assert failed["rules"]["status"] == "failed"
    assert failed["rules"]["line"] == report["bad_line"]
    assert failed["rules"]["checked"] == report["bad_line"] - 2
    # the deal of the hand was verified before its play went wrong; no hand was scored
    assert failed["deal"]["status"] == "ok" and failed["scores"]["status"] == "none"
    assert card_name(parse_card(foreign), "en") in report["findings"][0]
    assert foreign not in report["findings"][0].split()

    events = [json.loads(line) for line in recorded_log]
    i = next(n for n, e in enumerate(events) if e["type"] == "dealt")
    hands = events[i]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    events[i]["hands"] = hands
    deal = [json.dumps(e) for e in events]
    told = checks(deal)
    assert told["deal"]["status"] == "failed" and told["deal"]["line"] == i + 1
    assert told["rules"]["status"] == "partial" and told["rules"]["checked"] == i - 1
    zh = json.loads(audit_json.audit_log(_text(deal), "zh"))["findings"]
    assert any(card_name(parse_card(hands[0][0]), "zh") in line for line in zh)

    first_play = next(n for n, e in enumerate(events) if e["type"] == "played")
    cut = checks(recorded_log[: first_play + 6])
    assert {k: c["status"] for k, c in cut.items()} == {
        "deal": "partial",  # the seed of the hand under way is not revealed yet
        "rules": "partial",
        "scores": "none",
    }
    assert cut["deal"]["verified"] == 0 and cut["deal"]["hands"] == 1
    header_only = checks(recorded_log[:1])
    assert {c["status"] for c in header_only.values()} == {"none"}
