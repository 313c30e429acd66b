"""Input limits checked before anything else looks at a request: JSON nesting depth (scanned on
the raw bytes, before parsing), player names (request ids: ``messages.RequestId``), a table's turn clock. docs/services.md lists
them."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from paiju_services.errors import ServiceError, short

MAX_JSON_DEPTH = 32  # arrays and objects inside one another; the deepest request needs 5
MAX_NAME = 32  # characters of a player's name, once trimmed
MAX_CLOCK = 3600  # seconds: the longest a table's turn clock may give one decision

# a JSON string (with its escapes) or one bracket: strings are skipped, brackets counted
_TOKENS = re.compile(rb'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)
# not allowed in a name: controls, format characters (bidi overrides, zero-width ...), surrogates,
# private use, unassigned, line and paragraph separators
_BAD_NAME_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def too_deep(raw: bytes | str, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether a JSON text nests arrays and objects deeper than ``limit``, found without parsing
    it (brackets inside strings do not count; the text need not be valid JSON). A text with no
    more than ``limit`` brackets is passed at the cost of two byte counts."""
    data = raw.encode() if isinstance(raw, str) else raw
    if data.count(b"[") + data.count(b"{") <= limit:
        return False
    depth = 0
    for match in _TOKENS.finditer(data):
        token = match.group()
        if token in (b"[", b"{"):
            depth += 1
            if depth > limit:
                return True
        elif token in (b"]", b"}"):
            depth -= 1
    return False


def check_depth(raw: bytes | str, limit: int = MAX_JSON_DEPTH) -> None:
    """Raises:
    ServiceError: ``bad_json`` when the text nests arrays and objects deeper than ``limit``."""
    if too_deep(raw, limit):
        raise ServiceError("bad_json", detail=f"nested deeper than {limit} levels")


def clean_name(name: str) -> str:
    """A player's name, trimmed of surrounding whitespace.

    Raises:
        ServiceError: ``bad_name`` (a control or format character), ``name_length``.
    """
    clean = name.strip()
    if any(unicodedata.category(ch) in _BAD_NAME_CATEGORIES for ch in clean):
        raise ServiceError("bad_name")
    if not 1 <= len(clean) <= MAX_NAME:
        raise ServiceError("name_length", max=MAX_NAME)
    return clean


def command_seat(command: dict[str, Any]) -> int:
    """The seat a command names, which must be an integer (not ``"1"``, not ``true``).

    Raises:
        ServiceError: ``forbidden_command`` (no seat: a table's own command), ``bad_request``.
    """
    claimed = command.get("seat")
    if claimed is None:
        raise ServiceError("forbidden_command", command=short(command.get("type"), 40))
    if type(claimed) is not int:
        raise ServiceError("bad_request", detail="a command's seat is an integer")
    return claimed


def clean_clock(clock: Any, kinds: Iterable[str]) -> dict[str, int]:
    """A table's turn clock as asked for: seconds per kind of decision (``kinds``: the game's),
    each an integer from 0 (no limit) to ``MAX_CLOCK``.

    Raises:
        ServiceError: ``bad_config`` (not an object, an unknown kind, a value out of bounds).
    """
    known = set(kinds)
    if not isinstance(clock, dict):
        raise ServiceError("bad_config", detail="clock: an object of seconds per kind")
    for kind, seconds in clock.items():
        if kind not in known:
            raise ServiceError(
                "bad_config", detail=f"clock: no kind {short(kind, 20)!r} (kinds: {sorted(known)})"
            )
        if type(seconds) is not int or not 0 <= seconds <= MAX_CLOCK:
            raise ServiceError(
                "bad_config", detail=f"clock {kind}: whole seconds from 0 (no limit) to {MAX_CLOCK}"
            )
    return dict(clock)
