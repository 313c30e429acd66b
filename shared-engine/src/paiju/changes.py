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

# A field's setter: the ``__set__`` of its slot's descriptor, which writes past the frozen
# ``__setattr__`` as ``object.__setattr__`` does, about twice as fast (no look-up of the name).
Setter = Callable[[Any, Any], None]


class _Copier:
    """A state class's copy, written out as straight-line code (no loop over the fields), and its
    fields' setters by name, for the changes."""

    def __init__(self, cls: type) -> None:
        names = tuple(f.name for f in dataclasses.fields(cls))
        self.setters: dict[str, Setter] = {name: getattr(cls, name).__set__ for name in names}
        lines = [f"    set_{name}(new, state.{name})" for name in names]
        source = "def copy(state):\n    new = _new(cls)\n" + "\n".join(lines) + "\n    return new\n"
        scope: dict[str, Any] = {"_new": _new, "cls": cls}
        scope |= {f"set_{name}": setter for name, setter in self.setters.items()}
        exec(source, scope)
        self.copy: Callable[[Any], Any] = scope["copy"]


_COPIERS: dict[type, _Copier] = {}


def copy_with(state: StateT, changes: Changes) -> StateT:
    """``dataclasses.replace`` for frozen slotted states, several times as fast (the hot path of
    ``evolve``): the state is copied by straight-line code made once per class, then the changes
    are written over. States have no ``__post_init__``, so skipping ``__init__`` loses nothing; a
    slotted state has a setter for every field it declares and for nothing else, so a misspelled
    change cannot be stored.

    Raises:
        TypeError: a change names a field the state does not have (a misspelled update).
    """
    cls: type = type(state)
    copier = _COPIERS.get(cls)
    if copier is None:
        copier = _COPIERS[cls] = _Copier(cls)
    new: StateT = copier.copy(state)
    setters = copier.setters
    try:
        for name, value in changes.items():
            setters[name](new, value)
    except KeyError:
        unknown = sorted(set(changes) - set(setters))
        raise TypeError(f"{cls.__name__} has no field {unknown}") from None
    return new
