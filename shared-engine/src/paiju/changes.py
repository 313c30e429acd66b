"""How a frozen state changes: ``Changes`` (field name → new value) and ``copy_with``, which makes
the new state from the old one and its changes.

Every game's ``evolve`` goes through here once per event, so it is the engine's hottest path:
the copy is straight-line code made once per state class. It is a module of its own because it
is the one way a state changes, whatever the state is (a game's, the climbing core's), and needs
nothing else of the engine.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

# A state update: field name → new value. ``copy_with`` refuses a name the state does not have.
Changes = dict[str, Any]
StateT = TypeVar("StateT")

_new = object.__new__
_set = object.__setattr__


_COPIERS: dict[type, Callable[[Any], Any]] = {}


def _copier(cls: type) -> Callable[[Any], Any]:
    """A function that copies a state of ``cls`` field by field, written out once per class (the
    hot path of ``evolve``: straight-line code, no loop over the fields)."""
    names = tuple(f.name for f in dataclasses.fields(cls))
    lines = [f"    _set(new, {name!r}, state.{name})" for name in names]
    source = "def copy(state):\n    new = _new(cls)\n" + "\n".join(lines) + "\n    return new\n"
    scope: dict[str, Any] = {"_new": _new, "_set": _set, "cls": cls}
    exec(source, scope)
    copy: Callable[[Any], Any] = scope["copy"]
    return copy


def copy_with(state: StateT, changes: Changes) -> StateT:
    """``dataclasses.replace`` for frozen slotted states, several times as fast (the hot path of
    ``evolve``): the state is copied by straight-line code made once per class, then the changes
    are written over. States have no ``__post_init__``, so skipping ``__init__`` loses nothing; a
    slotted state has no room for a name it does not declare, so a misspelled change cannot be
    stored.

    Raises:
        TypeError: a change names a field the state does not have (a misspelled update).
    """
    cls: type = type(state)
    copy = _COPIERS.get(cls)
    if copy is None:
        copy = _COPIERS[cls] = _copier(cls)
    new: StateT = copy(state)
    try:
        for name, value in changes.items():
            _set(new, name, value)
    except AttributeError:
        unknown = sorted(set(changes) - {f.name for f in dataclasses.fields(cls)})
        raise TypeError(f"{cls.__name__} has no field {unknown}") from None
    return new
