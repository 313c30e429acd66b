"""`paiju audit` replays an exported log through the rules: an honest log prints its scores; a
tampered or corrupt one names its first bad event by index with the rule error, and says in words
what is wrong (seats numbered from 1, cards by their names, what the log has against what the rules
give); a log that stops early is incomplete and says what could not be checked. (The command's
output and exit statuses: tests/engine/test_cli.py.)"""

from __future__ import annotations

import json
import re

import pytest

from paiju import bots
from paiju.cards import card_names, parse_cards
from paiju.games.guanpai import GAME
from paiju.log.file import dump_lines
from paiju.log.replay import audit
from paiju.log.report import VERDICTS, describe
from paiju.registry import GAMES
from paiju.simulate import play_game


@pytest.fixture(scope="module")
def recorded() -> list[str]:
    """A recorded two-hand mainstream match played by bots."""
    config = GAME.config("mainstream", 3, hands=2)
    state, events = play_game(config, "recorded", lambda s, seat, moves: bots.choose(s, seat))
    assert state.phase == "over"
    return dump_lines(config, events, table_id="t-1")


def index_of(lines: list[str], event_type: str, nth: int = 0) -> int:
    """The event index (0 = first line after the header) of the nth event of a type."""
    hits = [i - 1 for i, line in enumerate(lines) if json.loads(line)["type"] == event_type]
    return hits[nth]


def with_event(lines: list[str], index: int, **changes: object) -> list[str]:
    data = json.loads(lines[index + 1]) | changes
    return [*lines[: index + 1], json.dumps(data), *lines[index + 2 :]]


def test_an_honest_log_replays_to_its_scores(recorded: list[str]) -> None:
    report = audit(recorded)
    assert report.ok and report.error is None and report.bad_index is None
    assert report.state is not None and report.state.phase == "over"
    ended = [json.loads(line) for line in recorded if '"hand_ended"' in line]
    assert list(report.state.totals) == [sum(e["scores"][s] for e in ended) for s in range(3)]
    assert [d.status for d in report.deals] == ["verified", "verified"]


def test_an_illegal_play_is_named_by_its_index(recorded: list[str]) -> None:
    i = index_of(recorded, "played", 3)
    seat = json.loads(recorded[i + 1])["seat"]
    bad = with_event(recorded, i, seat=(seat + 1) % 3)
    report = audit(bad)
    assert report.bad_index == i and report.error is not None
    assert report.error.code == "not_your_turn"


def test_a_play_of_cards_not_in_hand_is_named(recorded: list[str]) -> None:
    i = index_of(recorded, "played", 5)
    bad = with_event(recorded, i, cards=["2S"] if "2S" not in recorded[i + 1] else ["3S"])
    report = audit(bad)
    assert report.bad_index == i and report.error is not None
    assert report.error.code in ("not_in_hand", "does_not_beat", "invalid_combination")


def test_a_forged_score_is_named(recorded: list[str]) -> None:
    i = index_of(recorded, "hand_ended")
    data = json.loads(recorded[i + 1])
    bad = with_event(recorded, i, scores=[s * 2 for s in data["scores"]])
    report = audit(bad)
    assert report.bad_index == i and report.error is not None
    assert report.error.code == "unexpected_event"


def test_a_tampered_deal_seed_or_commitment_is_named(recorded: list[str]) -> None:
    dealt = index_of(recorded, "dealt")
    hands = json.loads(recorded[dealt + 1])["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    report = audit(with_event(recorded, dealt, hands=hands))
    assert (report.bad_index, report.error and report.error.code) == (dealt, "unexpected_event")

    reveal = index_of(recorded, "seed_revealed")
    report = audit(with_event(recorded, reveal, seed="forged"))
    assert (report.bad_index, report.error and report.error.code) == (reveal, "seed_mismatch")

    commit = index_of(recorded, "deal_committed", 1)
    report = audit(with_event(recorded, commit, commitment="ab" * 32))
    assert report.error is not None and not report.ok
    assert report.bad_index is not None and report.bad_index > commit


def test_a_corrupt_line_or_header_is_named(recorded: list[str]) -> None:
    bad = [*recorded[:6], "{not json", *recorded[7:]]
    report = audit(bad)
    assert (report.bad_index, report.error and report.error.code) == (5, "log_event_json")
    report = audit(['{"type": "something else"}', *recorded[1:]])
    assert report.error is not None and report.error.code == "log_header_kind"


@pytest.mark.parametrize(
    ("header", "code", "zh", "en"),
    [
        (
            "not json",
            "log_header_json",
            "不是 JSON（第 1 个字符处有误）",
            "not JSON (wrong at character 1)",
        ),
        ('{"type": "paiju_log"', "log_header_json", "第 21 个字符", "character 21"),
        ('["paiju_log"]', "log_header_kind", "不是牌局日志的头", "not a Paiju log header"),
        ('{"type": "paiju_log", "v": 99}', "log_header_kind", "版本 1 至", "version 1 to"),
        (
            '{"type": "paiju_log", "v": 1, "config": {"game": "guanpai"}}',
            "log_header_field",
            "缺少“variant”",
            'no "variant"',
        ),
        (
            '{"type": "paiju_log", "v": 1, "config": {"game": "nope", "variant": "x", "players": 3}}',
            "unknown_game",
            "没有这个游戏：nope（已有：banzipao",
            "No such game: nope (there are: banzipao",
        ),
    ],
)
def test_a_bad_header_is_told_in_each_language_without_the_parser_s_text(
    recorded: list[str], header: str, code: str, zh: str, en: str
) -> None:
    """What is wrong with the first line, in the reader's language: no JSON parser message
    ("Expecting value: line 1 column 1") nor a Python key in quotes."""
    report = audit([header, *recorded[1:]])
    assert report.error is not None and report.error.code == code
    assert zh in report.error.zh and en in report.error.en, (report.error.zh, report.error.en)
    assert "Expecting" not in report.error.zh + report.error.en


def english(lines: list[str]) -> list[str]:
    return [en for _, en in describe(audit(lines))]


def chinese(lines: list[str]) -> list[str]:
    return [zh for zh, _ in describe(audit(lines))]


def test_an_honest_log_is_told_hand_by_hand_with_seats_from_1(recorded: list[str]) -> None:
    report = audit(recorded)
    assert (report.verdict, report.complete) == ("sound", True)
    told = english(recorded)
    assert told[0] == f"Guanpai (Mainstream rules), 3 players, {len(recorded) - 1} events"
    deal = "the deal follows from the commitment and the seeds"
    hands = [t for t in told if t.startswith("hand ") and "finishing order" not in t]
    assert [t.split(";")[0] for t in hands] == [f"hand 1: {deal}", f"hand 2: {deal}"]
    assert all(t.endswith("moves follow the rules; its score follows the rules") for t in hands)
    ended = [json.loads(line) for line in recorded if '"hand_ended"' in line]
    first = ended[0]
    scores = ", ".join(
        f"Seat {s + 1} {'+' if v > 0 else ''}{v}" for s, v in enumerate(first["scores"])
    )
    assert f"  scores: {scores}" in told
    for line in first["lines"]:
        assert (
            f"  Seat {line['payer'] + 1} pays Seat {line['payee'] + 1} {line['amount']} "
            "(cards left)" in told
        )
    assert not any("seat 0" in t.lower() for t in told)  # seats are numbered from 1
    assert told[-1] == VERDICTS["sound"][1]
    assert chinese(recorded)[-1] == "审核通过：日志完整，每一步都符合规则"


def test_a_header_only_log_is_incomplete_and_says_nothing_could_be_checked(
    recorded: list[str],
) -> None:
    report = audit(recorded[:1])
    assert report.ok and not report.complete and report.verdict == "incomplete"
    assert english(recorded[:1])[1:] == [
        "the log has its header and no event: no deal, move or score could be checked",
        "audit: INCOMPLETE — what the log holds follows the rules, but it stops before the "
        "match ends",
    ]


def test_a_log_cut_off_mid_hand_is_incomplete_and_says_what_is_unchecked(
    recorded: list[str],
) -> None:
    played = index_of(recorded, "played", 10)
    cut = recorded[: played + 2]  # the header and events 0 … played
    report = audit(cut)
    assert report.verdict == "incomplete" and report.error is None
    assert [d.status for d in report.deals] == ["unrevealed"]
    told = english(cut)
    assert (
        f"the log stops after line {played + 2}, in the middle of hand 1 (playing): the rest of "
        "its moves and its score are not recorded, and its seed is not revealed, so its deal "
        "cannot be checked"
    ) in told
    assert "the match's result (the totals) cannot be checked" in told
    assert any(t.startswith("hand 1: the seed is not revealed") for t in told)
    assert "第1局还在进行（出牌中）" in " ".join(chinese(cut))


def test_a_log_cut_before_the_score_of_its_last_play_is_incomplete_not_wrong(
    recorded: list[str],
) -> None:
    """The play that ends a hand is followed by its score: a log that stops between them is cut
    short, not forged."""
    ended = index_of(recorded, "hand_ended")
    report = audit(recorded[: ended + 1])
    assert report.verdict == "incomplete" and report.bad_index is None


def test_a_last_line_cut_in_the_middle_is_incomplete(recorded: list[str]) -> None:
    cut = [*recorded[:20], recorded[20][:17]]
    report = audit(cut)
    assert report.verdict == "incomplete" and report.cut_off is not None
    assert "line 21, the last, is cut short and cannot be read: the file stops there" in english(
        cut
    )
    # the same bytes in the middle of a log are a corrupt line, not a cut
    assert audit([*cut, *recorded[21:]]).verdict == "failed"


def test_a_changed_card_is_explained_with_the_hand_it_was_not_in(recorded: list[str]) -> None:
    i = index_of(recorded, "played", 5)
    data = json.loads(recorded[i + 1])
    bad_card = "2S" if "2S" not in recorded[i + 1] else "3S"
    tampered = with_event(recorded, i, cards=[bad_card])
    bad = audit(tampered)
    assert bad.bad_index == i and bad.error is not None and bad.error.code == "not_in_hand"
    assert bad.state is not None
    held = bad.state.hands[data["seat"]]
    assert set(parse_cards(data["cards"])) <= set(held)  # the log's honest cards were in it
    seat = data["seat"] + 1
    name = card_names(parse_cards(bad_card), "en")
    assert english(tampered)[-2] == (
        f"line {i + 2}: Seat {seat} played {name}, but {name} is not in that hand; by the deal "
        f"it held {card_names(held, 'en')}"
    )
    zh = card_names(parse_cards(bad_card), "zh")
    assert chinese(tampered)[-2] == (
        f"第 {i + 2} 行：{seat}号位 出了 {zh}，但这手牌里没有 {zh}；按发牌，这时这手牌是 "
        f"{card_names(held, 'zh')}"
    )
    assert english(tampered)[-1] == "audit: FAILED — the log is wrong"


def test_a_forged_field_shows_the_log_s_value_against_the_rules_never_as_expected(
    recorded: list[str],
) -> None:
    i = index_of(recorded, "hand_ended")
    data = json.loads(recorded[i + 1])
    forged = [s * 2 for s in data["scores"]]
    told = english(with_event(recorded, i, scores=forged))

    def per_seat(values: list[int]) -> str:
        return ", ".join(f"Seat {s + 1} {'+' if v > 0 else ''}{v}" for s, v in enumerate(values))

    assert told[-3:] == [
        f"line {i + 2}: “The hand ends” does not follow from the rules",
        f"  scores: the log has {per_seat(forged)}, the rules give {per_seat(data['scores'])}",
        "audit: FAILED — the log is wrong",
    ]
    assert not any("expected" in t for t in told)


def test_a_changed_deal_names_the_seats_and_the_cards_that_differ(recorded: list[str]) -> None:
    dealt = index_of(recorded, "dealt")
    hands = json.loads(recorded[dealt + 1])["hands"]
    a, b = hands[0][0], hands[1][0]
    hands[0][0], hands[1][0] = b, a
    tampered = with_event(recorded, dealt, hands=hands)
    told = english(tampered)

    def en(code: str) -> str:
        return card_names(parse_cards(code), "en")

    assert told[1:] == [
        f"line {dealt + 2}: the deal of hand 1 does not follow from the seeds",
        f"  Seat 1: the log has {en(b)} where the seeds give {en(a)}",
        f"  Seat 2: the log has {en(a)} where the seeds give {en(b)}",
        "audit: FAILED — the log is wrong",
    ]
    assert not any("{" in t or "[" in t for t in told)  # no JSON
    zh = chinese(tampered)
    assert f"  1号位：日志里有 {card_names(parse_cards(b), 'zh')}，按种子应当是 " in zh[2]


def test_a_deal_in_another_order_is_named_as_such(recorded: list[str]) -> None:
    dealt = index_of(recorded, "dealt")
    hands = json.loads(recorded[dealt + 1])["hands"]
    hands[2] = hands[2][::-1]
    assert english(with_event(recorded, dealt, hands=hands))[2] == (
        "  Seat 3: the same cards, but not in the order dealt"
    )


def test_a_play_out_of_turn_names_whose_turn_it_was(recorded: list[str]) -> None:
    i = index_of(recorded, "passed")
    data = json.loads(recorded[i + 1])
    tampered = with_event(recorded, i, seat=(data["seat"] + 1) % 3)
    wrong = (data["seat"] + 1) % 3 + 1
    assert english(tampered)[-2] == (
        f"line {i + 2}: “Seat {wrong} passes”, but it was Seat {data['seat'] + 1}'s turn, not "
        f"Seat {wrong}'s"
    )


def test_players_names_in_the_header_name_the_seats(recorded: list[str]) -> None:
    config = GAME.config("mainstream", 3, hands=2)
    # the same events under a header that names the players
    named = [dump_lines(config, [], "t-1", names=["Ann", "Bo", "王五"])[0], *recorded[1:]]
    told = english(named)
    assert any("Seat 1 (Ann) pays" in t or "Seat 3 (王五) pays" in t for t in told)
    assert "3号位（王五）" in " ".join(chinese(named))
    assert audit(named).verdict == "sound"


def test_a_header_that_is_not_a_log_is_explained(recorded: list[str]) -> None:
    told = english(['{"type": "something else"}', *recorded[1:]])
    assert told[0].startswith("line 1 is not a Paiju log header: ")
    assert told[-1] == "audit: FAILED — the log is wrong"


CODE = re.compile(r"\b([2-9TJQKA][SHCD]|BJ|RJ)\b")


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_s_audit_is_told_in_words_without_codes(game_id: str) -> None:
    """Whatever the game: an honest log is sound, half of it incomplete, and a move moved to
    another seat wrong, each told with no card code and no unfilled template."""
    import random

    from paiju.simulate import random_chooser

    game = GAMES[game_id]
    config = game.config(game.info.variants[0].id)
    _, events = play_game(config, f"told-{game_id}", random_chooser(random.Random(7)))
    lines = dump_lines(config, events)
    moved = next(
        i for i, line in enumerate(lines[1:]) if json.loads(line)["type"] in ("played", "passed")
    )
    seat = json.loads(lines[moved + 1])["seat"]
    logs = {
        "sound": lines,
        "incomplete": lines[: len(lines) // 2],
        "failed": with_event(lines, moved, seat=(seat + 1) % config.players),
    }
    for verdict, log in logs.items():
        report = audit(log)
        assert report.verdict == verdict
        told = describe(report)
        assert told[-1] == VERDICTS[verdict]
        for zh, en in told:
            assert "{" not in zh + en and not CODE.search(zh + en), (zh, en)
    assert any(en.startswith(f"line {moved + 2}: ") for _, en in describe(audit(logs["failed"])))


# --- 板子炮: the auction and the call are commands too ---------------------------------------------


def banzipao_log(want: str) -> list[str]:
    """A recorded random 板子炮 hand whose auction ended in ``want`` (bao, fanbao or call)."""
    import random

    from paiju.games.banzipao import GAME as BANZIPAO
    from paiju.games.banzipao import mode_of
    from paiju.simulate import random_chooser

    config = BANZIPAO.config()
    for seed in range(200):
        state, events = play_game(config, f"audit-{seed}", random_chooser(random.Random(seed)))
        if mode_of(state) == want:  # type: ignore[arg-type]
            return dump_lines(config, events, table_id="t-bzp")
    raise AssertionError(f"no random hand ended in {want}")


@pytest.mark.parametrize("mode", ["bao", "fanbao", "call"])
def test_a_banzipao_log_replays_through_its_auction(mode: str) -> None:
    lines = banzipao_log(mode)
    report = audit(lines)
    assert report.ok and report.state is not None and report.state.phase == "over"
    assert index_of(lines, "bid_made") >= 0


def test_a_forged_bid_or_call_is_named() -> None:
    lines = banzipao_log("call")
    first_bid = index_of(lines, "bid_made")
    report = audit(with_event(lines, first_bid, bid="fanbao"))  # nobody has bid 包 yet
    assert report.bad_index == first_bid and report.error is not None
    assert report.error.code == "bid_not_allowed"
    call = index_of(lines, "card_called")
    dealer_hand = next(json.loads(line)["hands"] for line in lines if '"dealt"' in line)[
        json.loads(lines[call + 1])["seat"]
    ]
    report = audit(with_event(lines, call, card=dealer_hand[0]))  # a card the dealer holds
    assert report.bad_index == call and report.error is not None
    assert report.error.code == "call_own_card"


def test_a_tianpai_deal_ends_the_hand_in_the_log_with_or_without_the_seed() -> None:
    """板子炮's 十三烂 wins at the deal: the log has no auction, the score follows the deal, and
    the audit derives it both from the revealed seed and (seed withheld) from the dealt hands."""
    from paiju.games.banzipao import GAME as BANZIPAO

    config = BANZIPAO.config()
    state, events = play_game(config, "tianpai-3539", lambda s, seat, moves: moves[0])
    lines = dump_lines(config, events)
    kinds = [json.loads(line)["type"] for line in lines[1:]]
    assert kinds == ["deal_committed", "dealt", "hand_ended", "seed_revealed", "match_ended"]
    assert {line.reason for line in state.last_hand.lines} == {"shisanlan"}  # type: ignore[union-attr]
    assert audit(lines).ok
    withheld = [line for line in lines if '"seed_revealed"' not in line]
    report = audit(withheld[:-1])  # the match cannot end before the reveal
    assert report.error is None and [d.status for d in report.deals] == ["unrevealed"]
    assert report.state is not None and report.state.last_hand == state.last_hand
