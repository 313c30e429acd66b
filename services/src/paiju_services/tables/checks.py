"""The table service's checks of a new table's settings, beyond the engine's own (``api.make_config``):
an option of its default's JSON type, lists of at most 64 items, integers within ±``MAX_OPTION_INT``,
and settings under which a hand played by bots from a fixed seed ends cleanly (cached per settings).
"""

from __future__ import annotations

import functools
from typing import Any

import msgspec

from paiju import api, bots
from paiju.protocol import HandEnded
from paiju.simulate import table_command
from paiju.table import Config
from paiju_services.errors import ServiceError, short

MAX_OPTION_INT = 1_000_000  # the magnitude of any integer in a table's options


def check_config(config: Config[Any], options: dict[str, Any]) -> None:
    """Refuse table settings the engine would accept but cannot play: an option of the wrong JSON
    type, or settings under which a hand played by bots does not end cleanly. Game-agnostic.

    Raises:
        ServiceError: ``bad_config``.
    """
    defaults = api.make_config(config.game, config.variant, config.players).options
    for name, value in options.items():
        default = getattr(defaults, name)
        if not _same_json_type(default, value):
            raise ServiceError("bad_config", detail=f"option {name!r}: expected {default!r}-like")
        if not _bounded(value):
            raise ServiceError(
                "bad_config", detail=f"option {name!r}: numbers are at most {MAX_OPTION_INT:,}"
            )
    problem = _unplayable(msgspec.json.encode(config.to_dict(), order="sorted"))
    if problem is not None:
        raise ServiceError("bad_config", detail=problem)


@functools.lru_cache(maxsize=256)
def _unplayable(config_json: bytes) -> str | None:
    """Why a hand of these settings, played by bots, does not end cleanly (None: it does). The
    hand is dealt from a fixed seed, so the answer depends on the settings alone: it is kept for
    the settings asked most recently (a create plays no hand for settings checked before)."""
    try:
        state = api.initial_state(api.config_from_dict(msgspec.json.decode(config_json)))
        for _ in range(5000):
            command = table_command(state, "settings-check")
            if command is None:
                seat = api.to_move(state)
                if seat is None:
                    raise ValueError(f"nobody to move in phase {state.phase}")
                command = bots.choose(state, seat)
            state, events = api.apply(state, command)
            if any(isinstance(e, HandEnded) for e in events):
                return None
        raise ValueError("a hand did not end")
    except Exception as exc:
        return short(exc)


def _bounded(value: Any) -> bool:
    if isinstance(value, list | tuple):
        return all(_bounded(v) for v in value)
    return not isinstance(value, int) or abs(value) <= MAX_OPTION_INT


def _same_json_type(default: Any, value: Any) -> bool:
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(default, bool) and isinstance(value, bool)
    if isinstance(default, tuple | list):
        if not isinstance(value, list | tuple) or len(value) > 64:
            return False
        return not default or all(_same_json_type(default[0], v) for v in value)
    return type(default) is type(value)
