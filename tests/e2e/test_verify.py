"""Verify a game in your own browser (#/verify): a player drops a finished table's exported log,
or opens #/verify/<table id>, and the rules engine in the page's worker audits it. For an honest
log, a log with a changed card in a play, one with a changed deal and one cut off in the middle of
the hand, the page's verdict is the verdict of ``paiju audit`` run on the same bytes (the command
itself, in a subprocess), and what is wrong is shown in words with the cards as players read them.

One browser page does every check: the engine starts once. The verify page is photographed at
1280×800 and 390×844 in both languages (artifacts/e2e/verify-*.png).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from e2e.conftest import Browsers
from e2e.stack import Stack, wait_until
from e2e.test_a11y import serious_violations
from paiju.cards import card_name, parse_card

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
HAN = re.compile(r"[\u4e00-\u9fff]")
VERDICT_WORDS = {
    "zh": {"sound": "可信", "incomplete": "不完整", "failed": "有问题"},
    "en": {"sound": "Verified", "incomplete": "Incomplete", "failed": "Problem found"},
}


@pytest.fixture(scope="module")
def finished(stack: Stack) -> tuple[str, str]:
    """A 关牌 table played to its end by three bots: its id and its log file's text, as the
    gateway exports it."""
    table = str(
        stack.api("/api/tables", {"game": "guanpai", "variant": "boke", "players": 3})["id"]
    )
    stack.api(f"/api/tables/{table}/bots", {})
    wait_until(
        lambda: stack.api(f"/api/tables/{table}")["status"] == "finished",
        120,
        "the bots to finish the table",
        interval=0.3,
    )
    url = f"{stack.url}api/tables/{table}/log?format=jsonl"
    with urllib.request.urlopen(url, timeout=20) as response:
        return table, response.read().decode("utf-8")


def command_verdict(tmp_path: Path, name: str, text: str) -> dict[str, Any]:
    """``paiju audit --json`` on the text, as a person runs it: its report, and its exit status
    checked against the verdict (0 sound, 1 failed, 3 incomplete)."""
    path = tmp_path / f"{name}.jsonl"
    path.write_bytes(text.encode("utf-8"))
    done = subprocess.run(
        [sys.executable, "-m", "paiju", "audit", str(path), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    report: dict[str, Any] = json.loads(done.stdout)
    assert done.returncode == {"sound": 0, "failed": 1, "incomplete": 3}[report["verdict"]], (
        done.stderr
    )
    return report


def events_of(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def as_text(lines: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


def tampered_play(text: str) -> tuple[str, str, int]:
    """The log with the first card of its fourth play replaced by a card the next seat was dealt
    (so not in the player's hand): the text, the card's code, and the file line changed."""
    lines = events_of(text)
    dealt = next(e for e in lines if e["type"] == "dealt")
    i = [n for n, e in enumerate(lines) if e["type"] == "played"][3]
    seat = lines[i]["seat"]
    foreign = dealt["hands"][(seat + 1) % len(dealt["hands"])][0]
    lines[i] = lines[i] | {"cards": [foreign, *lines[i]["cards"][1:]]}
    return as_text(lines), foreign, i + 1


def tampered_deal(text: str) -> tuple[str, tuple[str, str], int]:
    """The log with the first cards of seats 1 and 2 swapped in the deal: the text, the two
    cards, and the file line changed."""
    lines = events_of(text)
    i = next(n for n, e in enumerate(lines) if e["type"] == "dealt")
    hands = [list(h) for h in lines[i]["hands"]]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    lines[i] = lines[i] | {"hands": hands}
    return as_text(lines), (hands[0][0], hands[1][0]), i + 1


def truncated(text: str) -> str:
    """The log cut in the middle of the hand, in the middle of a line (a download that broke)."""
    raw = text.splitlines(keepends=True)
    first_play = next(n for n, line in enumerate(raw) if '"played"' in line)
    cut = first_play + 8
    return "".join(raw[:cut]) + raw[cut][: len(raw[cut]) // 2]


def drop_file(page: Any, name: str, text: str) -> None:
    """Drag a file onto the page's drop zone and let go, as from a file manager."""
    transfer = page.evaluate_handle(
        """([name, text]) => {
            const dt = new DataTransfer();
            dt.items.add(new File([text], name, { type: "application/x-ndjson" }));
            return dt;
        }""",
        [name, text],
    )
    page.dispatch_event("#verify-drop", "dragenter", {"dataTransfer": transfer})
    page.dispatch_event("#verify-drop", "dragover", {"dataTransfer": transfer})
    page.dispatch_event("#verify-drop", "drop", {"dataTransfer": transfer})


def choose_file(page: Any, name: str, text: str) -> None:
    page.set_input_files(
        "#verify-file",
        files=[{"name": name, "mimeType": "application/x-ndjson", "buffer": text.encode("utf-8")}],
    )


def audited(page: Any, run: int) -> dict[str, Any]:
    """What the page shows once its ``run``-th audit is done."""
    page.wait_for_selector(f".verify-page[data-state='done'][data-run='{run}']", timeout=60_000)
    shown: dict[str, Any] = page.evaluate(
        """() => ({
            verdict: document.querySelector('.verify-page').dataset.verdict,
            word: document.querySelector('#verdict .verdict-word').textContent,
            checks: Object.fromEntries([...document.querySelectorAll('#verify-checks li')]
                .map((li) => [li.dataset.check, li.dataset.status])),
            checkText: [...document.querySelectorAll('#verify-checks li')].map((li) => li.textContent),
            findings: [...document.querySelectorAll('#verify-findings li')].map((li) => li.textContent),
            report: [...document.querySelectorAll('#verify-report li')].map((li) => li.textContent),
        })"""
    )
    return shown


def shoot(page: Any, artifacts: Path, name: str) -> None:
    """The page at both sizes, the phone first, back at the desktop size after."""
    for size in ("phone", "desktop"):
        width, height = SIZES[size]
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function(f"window.innerWidth === {width}")
        page.evaluate(
            "() => { window.scrollTo(0, 0);"
            " return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))); }"
        )
        page.screenshot(path=str(artifacts / f"verify-{name}-{size}.png"), full_page=True)


def set_lang(page: Any, lang: str) -> None:
    if page.evaluate("document.documentElement.lang").startswith(lang):
        return
    page.click("#lang-switch")
    page.wait_for_function(f"document.documentElement.lang.startsWith('{lang}')")


def test_the_page_gives_the_verdicts_of_paiju_audit(
    browsers: Browsers, stack: Stack, finished: tuple[str, str], tmp_path: Path, artifacts: Path
) -> None:
    table, honest = finished
    page, _ = browsers.page(*SIZES["desktop"])
    page.goto(f"{stack.url}#/verify")
    page.wait_for_function("document.body.dataset.engine === 'ready'", timeout=60_000)
    page.wait_for_selector("#verify-drop")
    shoot(page, artifacts, "drop")

    # an honest log, dropped on the page
    expected = command_verdict(tmp_path, "honest", honest)
    drop_file(page, f"{table}.jsonl", honest)
    shown = audited(page, 1)
    assert shown["verdict"] == expected["verdict"] == "sound"
    assert shown["word"] == VERDICT_WORDS["zh"]["sound"]
    assert shown["checks"] == {"deal": "ok", "rules": "ok", "scores": "ok"}
    assert shown["findings"] == []
    assert shown["report"] == [m.strip() for m in expected["messages"]["zh"]]
    shoot(page, artifacts, "sound")

    # a changed card in a play: the line, the player and the card, named as players read them
    text, card, line = tampered_play(honest)
    expected = command_verdict(tmp_path, "played", text)
    choose_file(page, "played.jsonl", text)
    shown = audited(page, 2)
    assert shown["verdict"] == expected["verdict"] == "failed"
    assert expected["bad_line"] == line
    assert shown["checks"]["rules"] == "failed"
    assert shown["findings"], "a finding is shown for a changed card"
    finding = shown["findings"][0]
    assert f"第 {line} 行" in finding and card_name(parse_card(card), "zh") in finding
    assert card not in finding.split()  # never the code
    shoot(page, artifacts, "failed")
    problems = serious_violations(page, "the verify page (zh)")
    set_lang(page, "en")
    english = audited(page, 2)
    assert english["word"] == VERDICT_WORDS["en"]["failed"]
    assert f"line {line}" in english["findings"][0]
    assert card_name(parse_card(card), "en") in english["findings"][0]
    page_text = page.inner_text(".verify-page")
    assert not HAN.findall(page_text), f"Han characters in English: {HAN.findall(page_text)}"
    assert "：" not in page_text and "，" not in page_text
    shoot(page, artifacts, "failed-en")
    problems += serious_violations(page, "the verify page (en)")
    assert not problems, "\n".join(problems)  # axe-core: no serious or critical violation
    set_lang(page, "zh")

    # a changed deal: the seats and the cards that differ
    text, cards, line = tampered_deal(honest)
    expected = command_verdict(tmp_path, "deal", text)
    drop_file(page, "deal.jsonl", text)
    shown = audited(page, 3)
    assert shown["verdict"] == expected["verdict"] == "failed"
    assert shown["checks"]["deal"] == "failed"
    told = " ".join(shown["findings"])
    assert f"第 {line} 行" in told and "1号位" in told and "2号位" in told
    assert all(card_name(parse_card(c), "zh") in told for c in cards)
    page.click("#verify-report summary")  # the whole report, as the command prints it
    shoot(page, artifacts, "deal")

    # cut off in the middle of the hand: nothing wrong, but incomplete, and it says what is not
    # checked
    text = truncated(honest)
    expected = command_verdict(tmp_path, "cut", text)
    choose_file(page, "cut.jsonl", text)
    shown = audited(page, 4)
    assert shown["verdict"] == expected["verdict"] == "incomplete"
    assert shown["word"] == VERDICT_WORDS["zh"]["incomplete"]
    assert shown["checks"]["scores"] == "none" and shown["checks"]["rules"] == "partial"
    assert any("中断" in f for f in shown["findings"])
    shoot(page, artifacts, "incomplete")

    # a file that is not UTF-8 is refused, as the command refuses it, with no verdict
    page.set_input_files(
        "#verify-file", files=[{"name": "x.jsonl", "mimeType": "text/plain", "buffer": b"\xff\xfe"}]
    )
    page.wait_for_selector(".verify-page[data-state='error'] #verify-error")
    assert page.get_attribute(".verify-page", "data-verdict") is None


def test_a_finished_table_is_verified_from_its_replay(
    browsers: Browsers, stack: Stack, finished: tuple[str, str], tmp_path: Path, artifacts: Path
) -> None:
    table, honest = finished
    expected = command_verdict(tmp_path, "table", honest)
    page, watch = browsers.page(*SIZES["desktop"])
    # from the lobby: a link to the page for a file, and a table's inline audit leads to it
    page.goto(stack.url)
    assert page.get_attribute("#lobby-verify", "href") == "#/verify"
    row = f"#finished-list .table-row[data-table='{table}']"
    page.click(f"{row} .audit-button")
    page.wait_for_selector(f"{row} a.audit-verdict[data-verdict='sound']", timeout=60_000)
    assert page.get_attribute(f"{row} a.audit-verdict", "href") == f"#/verify/{table}"
    shoot(page, artifacts, "lobby-link")

    page.goto(f"{stack.url}#/replay/{table}")
    page.wait_for_selector(".replay-page[data-ready='1']")
    assert page.get_attribute("#replay-verify", "href") == f"#/verify/{table}"
    shoot(page, artifacts, "replay-link")
    page.click("#replay-verify")
    page.wait_for_url(re.compile(rf".*#/verify/{table}$"))
    shown = audited(page, 1)
    assert shown["verdict"] == expected["verdict"] == "sound"
    assert shown["report"] == [m.strip() for m in expected["messages"]["zh"]]
    assert page.get_attribute("#verify-download", "href") == (
        f"/api/tables/{table}/log?format=jsonl"
    )
    shoot(page, artifacts, "table")
    set_lang(page, "en")
    page.wait_for_selector("#verdict .verdict-word:text('Verified')")
    assert not HAN.findall(page.inner_text(".verify-page"))
    shoot(page, artifacts, "table-en")

    # a table that is not finished has no public log: the page says so, with no verdict
    live = str(stack.api("/api/tables", {"game": "guanpai", "variant": "boke", "players": 3})["id"])
    page.goto(f"{stack.url}#/verify/{live}")
    page.wait_for_selector(".verify-page[data-state='error'] #verify-error")
    assert "finished" in page.inner_text("#verify-error")
    # the browser logs the refused download (409) itself: that one error, and no other, was caused
    refused = [e for e in watch.errors if "409" in e and f"/api/tables/{live}/log" in e]
    assert len(refused) == 1
    watch.errors.remove(refused[0])
