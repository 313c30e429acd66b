"""`paiju play` (what `make run` starts until the services exist): a person plays a whole hand
against bots in the terminal, with hints, refusals explained in both languages with the cards
named as players read them, every prompt saying what to type, and a log that `paiju audit`
accepts. (A closed input, Ctrl-C and the exit statuses: tests/engine/test_cli.py.)"""

from __future__ import annotations

import argparse
import io
import json
import re
from collections.abc import Callable
from pathlib import Path

from paiju.cards import card_names, parse_cards
from paiju.cli import main
from paiju.console import EXIT_FAILED, EXIT_INCOMPLETE
from paiju.games.banzipao import GAME as BANZIPAO
from paiju.terminal import cmd_play

HINT = "提示 hint: "
MOST_PROMPTS = 2000  # a reply the game keeps refusing would otherwise loop for ever


def play_args(
    game: str, variant: str | None, seat: int, seed: str, log: Path
) -> argparse.Namespace:
    return argparse.Namespace(
        game=game, variant=variant, seat=seat, seed=seed, log=str(log), lang="both"
    )


def reply_to(hint: str) -> str:
    """What a person types to follow a hint: a play's cards as the hint names them (``♠3 ♥3``:
    names read back), ``p``, or a word with its name (``pass（不包 / No bid (不包)）``)."""
    if hint.startswith("p（"):
        return "p"
    return hint


def hinted(out: io.StringIO, head: str = HINT) -> str:
    """The reply to the last hint printed (the line that starts with ``head``)."""
    hint = next(line for line in reversed(out.getvalue().splitlines()) if line.startswith(head))
    return reply_to(hint.removeprefix(head))


def a_person(
    out: io.StringIO, choose: Callable[[str, list[str]], str]
) -> tuple[Callable[[str], str], list[str], list[str]]:
    """A person at the terminal: the function the game asks, whose reply to each prompt is
    ``choose(prompt, the replies so far)``; the prompts and the replies, kept. A game that keeps
    asking fails the test rather than loop for ever."""
    prompts: list[str] = []
    replies: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        assert len(prompts) < MOST_PROMPTS, out.getvalue()[-2000:]
        replies.append(choose(prompt, replies))
        return replies[-1]

    return ask, prompts, replies


def test_a_person_plays_a_whole_hand_against_bots(tmp_path: Path) -> None:
    out = io.StringIO()
    log = tmp_path / "game.jsonl"
    # first a bad code, then ask for a hint and play it, again and again
    person, prompts, _ = a_person(
        out, lambda _, said: "ZZ" if not said else "h" if said[-1] != "h" else hinted(out)
    )

    assert cmd_play(play_args("guanpai", "boke", 1, "terminal", log), out, person) == 0
    text = out.getvalue()
    assert "✗ “ZZ” 不是一张牌 / “ZZ” is not a card" in text
    assert "你坐 1号位" in text and "you sit in Seat 1" in text
    assert "  scores: " in text and "总分：" in text and "totals: " in text
    # every prompt says what to type, in both languages, and ends where the person types
    for prompt in prompts:
        assert prompt.endswith("\n> ")
        assert "输入要出的牌" in prompt and "type the cards to play, e.g. 3S 3H" in prompt
        assert "h 提示，q 退出" in prompt and "h for a hint, q to quit" in prompt
    assert any("p to pass" in p for p in prompts) and any("you lead: no pass" in p for p in prompts)
    # the hand and the plays are named as players read them, never by code
    hands = [line for line in text.splitlines() if line.startswith("your hand: ")]
    for line in hands:
        cards = parse_cards(line.removeprefix("your hand: "))
        assert line == f"your hand: {card_names(cards, 'en')}"
    assert not re.search(r"\b[2-9TJQKA][SHCD]\b", text.replace("3S 3H", ""))
    assert main(["audit", str(log)]) == 0


def test_a_person_bids_calls_and_plays_banzipao_in_the_terminal(tmp_path: Path) -> None:
    """板子炮 in the terminal: the bid prompt says how to bid 包 and how not to, in the game's
    own words; the auction answered in Chinese words (不包); a refused call of one's own card
    explained with the card's name; then hints followed to the end of the hand."""
    out = io.StringIO()
    log = tmp_path / "banzipao.jsonl"
    answers: list[str] = []
    prompts: list[str] = []
    own: list[str] = []  # the card of one's own that was called
    bid = BANZIPAO.words.commands["bid"]

    def person(prompt: str) -> str:
        prompts.append(prompt)
        assert len(prompts) < MOST_PROMPTS, out.getvalue()[-2000:]
        lines = out.getvalue().splitlines()
        hand = next(line for line in reversed(lines) if line.startswith("your hand: "))
        if bid["bao"].button[1] in prompt:  # the auction: decline
            answer = bid["pass"].button[0]
        elif "type a card" in prompt and "✗" not in out.getvalue():
            answer = hand.split()[-1]  # a card of one's own, by its English name: refused
            own.append(answer)
        elif not answers or answers[-1] != "h":
            answer = "h"
        else:
            hint = next(line for line in reversed(lines) if line.startswith(HINT))
            answer = reply_to(hint.removeprefix(HINT))
        answers.append(answer)
        return answer

    for seed in range(200):  # until seat 1 deals a hand nobody bids on
        out.truncate(0)
        out.seek(0)
        answers.clear()
        prompts.clear()
        own.clear()
        assert cmd_play(play_args("banzipao", None, 1, f"t{seed}", log), out, person) == 0
        if "✗" in out.getvalue():
            break
    text = out.getvalue()
    assert "不包" in answers
    bid_prompts = [p for p in prompts if bid["bao"].button[1] in p]
    assert bid_prompts
    for prompt in bid_prompts:  # how to bid 包 and how not to, from the game's words
        assert (
            f"{bid['bao'].button[0]}（bao）" in prompt and f"bao ({bid['bao'].button[1]})" in prompt
        )
        assert f"{bid['pass'].button[0]}（pass）" in prompt
    # the dealer (seat 1 here) called his own card: refused, the card named in each language
    refusal = next(line for line in text.splitlines() if line.startswith("✗"))
    called = parse_cards(own[0])
    assert refusal == (
        f"✗ 叫牌必须叫一张自己手里没有的牌：{card_names(called, 'zh')} 在你手里 / "
        f"You must call a card you do not hold: {card_names(called, 'en')} is in your hand"
    )
    assert any('"card_called"' in line for line in log.read_text().splitlines())
    assert "  scores: " in text and main(["audit", str(log)]) == 0


def test_a_bot_burying_the_kitty_is_told_without_its_cards() -> None:
    """The terminal shows a bot's move as the person at the table may know it: a bot dealer
    burying the kitty (a play that puts no card on the table) is told by the game's words, never
    by the cards it buried."""
    from paiju import api, bots
    from paiju.registry import get_game
    from paiju.simulate import table_command
    from paiju.terminal import _bot_line

    game = get_game("dabang")
    state = api.initial_state(game.config(None))
    while state.phase != "bury":
        command = table_command(state, "kitty")
        if command is None:
            command = bots.choose(state, api.to_move(state))
        state, _ = api.apply(state, command)
    seat = api.to_move(state)
    burial = bots.choose(state, seat)
    events = api.decide(state, burial)
    line = _bot_line(state, burial, events, seat, ["", "", "", ""], game.words, "both")
    assert "扣底" in line and "bur" in line
    zh, en = card_names(burial.cards, "zh"), card_names(burial.cards, "en")
    assert not [name for name in zh.split() + en.split() if name in line]


def test_bu_yao_passes_and_q_writes_the_log_so_far_said_in_the_chosen_language(
    tmp_path: Path,
) -> None:
    """不要 (or 过) passes as p does; q leaves the match unfinished and, with --log, writes what
    was played, which the audit reads as a log that stops before the match's end; the log's line
    is in the language asked for."""
    out = io.StringIO()
    log = tmp_path / "quit.jsonl"

    def choose(prompt: str, said: list[str]) -> str:
        if "p 不要" in prompt and "不要" not in said:
            return "不要"
        if "不要" in said:
            return "q"  # once 不要 was taken
        return "h" if not said or said[-1] != "h" else hinted(out, "提示: ")

    person, _, replies = a_person(out, choose)

    args = play_args("guanpai", "boke", 1, "bu-yao", log)
    args.lang = "zh"
    assert cmd_play(args, out, person) == EXIT_FAILED
    text = out.getvalue()
    assert "不要" in replies and replies[-1] == "q"
    assert "✗" not in text.split("不要")[-1]  # 不要 was taken, not refused
    assert f"牌局记录已写入 {log}，可用 paiju audit {log} 核对" in text
    assert "log written" not in text  # Chinese only, as asked
    assert main(["audit", str(log)]) == EXIT_INCOMPLETE


def test_no_pass_is_explained_as_leading_only_where_the_seat_leads() -> None:
    """打棒 never lets a seat pass: 「你先出，不能不要」 is said when the seat leads a trick, and
    not when it follows one or buries the kitty."""
    out = io.StringIO()
    person, prompts, _ = a_person(
        out,
        lambda _, said: (
            "q" if len(said) >= 160 else "h" if len(said) % 2 == 0 else hinted(out, "提示: ")
        ),
    )
    args = play_args("dabang", None, 1, "leading", Path("unused"))
    args.lang, args.log = "zh", None
    cmd_play(args, out, person)
    note = "（你先出，不能不要）"
    plays = [p for p in prompts if "输入要出的牌" in p]
    assert any(note in p for p in plays), "a lead"
    assert any(note not in p and "p 不要" not in p for p in plays), "a trick followed"


def test_a_selection_read_several_ways_is_played_by_the_number_of_its_reading(
    tmp_path: Path,
) -> None:
    """打拱: ♠8 ♣8 with both jokers is a bomb or a run of pairs. Typed as such, the terminal
    numbers the readings with their names, and the number typed next plays the cards under
    that reading, as the log records it (the deal of seed ``reading-36`` gives seat 1 the lead
    and these cards)."""
    out = io.StringIO()
    log = tmp_path / "reading.jsonl"
    cards = "♠8 ♣8 小王 大王"
    replies: list[str] = []

    def person(prompt: str) -> str:
        if "明独" in prompt:
            reply = "budu"
        elif not replies or replies[-1] == "budu":
            assert "不能不要" in prompt, prompt  # the lead, with these cards in hand
            reply = cards
        else:
            reply = "1" if replies[-1] == cards else "q"
        replies.append(reply)
        return reply

    args = play_args("dagong", None, 1, "reading-36", log)
    args.lang = "zh"
    assert cmd_play(args, out, person) == EXIT_FAILED
    assert replies[-3:] == [cards, "1", "q"]
    text = out.getvalue()
    offered = re.findall(r"^  (\d) (.+)$", text, re.MULTILINE)
    # named as players say them: the ranks, each joker as what it stands for, then the kind
    assert offered == [("1", "8888 炸弹"), ("2", "7788 连对"), ("3", "8899 连对")]
    assert "输入 1–3 选择读法" in text
    events = [json.loads(line) for line in log.read_text().splitlines()[1:]]
    played = [e for e in events if e["type"] == "played" and e["seat"] == 0]
    assert len(played) == 1 and sorted(played[0]["cards"]) == sorted(["8S", "8C", "BJ", "RJ"])
    assert (played[0]["kind"], played[0]["stands_for"]) == ("bomb", ["8S", "8S"])  # reading 1
