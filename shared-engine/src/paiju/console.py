"""How the ``paiju`` command speaks to a person, whatever it runs: its exit statuses, a text in
the chosen language (``say``), cards by their names in both languages, and the message for a file
it cannot read.

The command line and its audit (``paiju.cli``) and the terminal game (``paiju.terminal``) both
speak this way; it is a module of its own so that each imports it and neither imports the other.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from paiju.cards import card_names
from paiju.words import Text

EXIT_OK = 0  # audit: the log is complete and sound; play: the match was played to its end
EXIT_FAILED = 1  # audit: the log is wrong (see what it prints); play: the person quit (q)
EXIT_UNREADABLE = 2  # a file cannot be read, the input closed, or the command line is wrong
EXIT_INCOMPLETE = 3  # audit: nothing wrong, but the log stops before the match ends
EXIT_INTERRUPTED = 130  # Ctrl-C

EXIT_STATUS_HELP = """exit status:
  0  audit: the log is complete and every step follows the rules; play: played to the end
  1  audit: the log is wrong (the first wrong line is explained); play: you quit (q)
  2  a file cannot be read, the input was closed (Ctrl-D), or the command line is wrong
  3  audit: incomplete — nothing wrong so far, but the log stops before the match ends
     (a header-only log, or one cut off mid-hand): what could not be checked is listed
  130  interrupted (Ctrl-C)"""


def say(text: Text, lang: str, sep: str = " / ") -> str:
    """A text in the chosen language, or both (Chinese first, then ``sep``; said once when the
    two are the same).

    >>> say(("不要", "pass"), "both")
    '不要 / pass'
    """
    if lang == "zh":
        return text[0]
    if lang == "en":
        return text[1]
    return text[0] if text[0] == text[1] else f"{text[0]}{sep}{text[1]}"


def card_texts(cards: Sequence[int]) -> Text:
    """Cards by their names, in Chinese and in English (``paiju.cards.card_names``)."""
    return card_names(cards, "zh"), card_names(cards, "en")


def cannot_read(path: str, why: Text) -> int:
    """Say on stderr, in both languages, that ``path`` cannot be read and ``why``; the exit
    status that goes with it (``EXIT_UNREADABLE``)."""
    print(f"paiju: 无法读取 {path}：{why[0]} / cannot read {path}: {why[1]}", file=sys.stderr)
    return EXIT_UNREADABLE
