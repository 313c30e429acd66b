"""The table's sounds, as the tests' probe of the page's audio module hears them (``window.__sounds``,
tests/e2e/probe/audio.js): a hand of 关牌 against two bots sounds the plays, the passes, the seat's
turn and the end of the hand, each voiced through Web Audio; the mute switch silences every sound
after it (asked for while muted, none voiced) and is remembered after a reload."""

from __future__ import annotations

from typing import Any

from e2e.conftest import Browsers
from e2e.stack import Stack, open_lobby
from e2e.test_layout import SIZES, open_my_table
from e2e.test_play import Played, my_turn_or_end, take_turn


def sounds(page: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = page.evaluate("window.__sounds.slice()")
    return out


def test_plays_passes_turns_and_the_end_sound_and_mute_silences_them(
    browsers: Browsers, stack: Stack
) -> None:
    page, watch = browsers.page(*SIZES["desktop"])
    open_lobby(page, stack, "guanpai")
    assert page.get_attribute("#mute-switch", "aria-pressed") == "false"
    table = open_my_table(stack, page, "guanpai", "boke", 3)
    record = Played(table, watch, watch, 0.0)
    page.mouse.click(5, 300)  # a gesture: the browser lets the page's audio start
    muted_at = None
    while my_turn_or_end(page) == "turn":
        names = {s["sound"] for s in sounds(page)}
        if muted_at is None and {"play", "pass", "turn"} <= names:
            page.click("#mute-switch")  # mute for the rest of the hand
            page.wait_for_selector("#mute-switch[aria-pressed='true']")
            muted_at = len(sounds(page))
        take_turn(page, record)
    log = sounds(page)
    assert muted_at is not None, log
    before, after = log[:muted_at], log[muted_at:]
    assert {"play", "pass", "turn"} <= {s["sound"] for s in before}
    assert all(s["voiced"] and not s["muted"] for s in before), before
    assert after, "nothing happened after the mute"
    assert all(s["muted"] and not s["voiced"] for s in after), after
    assert log[-1]["sound"] == "end" or any(s["sound"] == "end" for s in after)
    # remembered: after a reload the switch is still off, and sounds stay silent
    page.reload()
    page.wait_for_selector("#mute-switch[aria-pressed='true']")
    assert page.evaluate("localStorage.getItem('paiju.mute')") == "1"
    page.click("#mute-switch")
    page.wait_for_selector("#mute-switch[aria-pressed='false']")
    assert page.evaluate("localStorage.getItem('paiju.mute')") == "0"
