"""A table's options: how the lobby names them (``OptionLabel``), and how a table's choices are
checked and applied to a variant's preset (``apply_options``) and listed for the lobby
(``option_catalogue``).

Each game declares its options as a frozen dataclass whose field types say what a value may be
(a ``Literal``'s choices, a bool, a bounded integer, a bounded list of ints or strings): this
module reads those types, once per class, and holds every value a person sends to them, so that
no option reaches the rules unchecked. It is apart from the table (``paiju.table``) because it
knows nothing of play: the lobby's catalogue and a table's creation are its only callers.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

# the bounds of any option's value: a list's length, an integer's magnitude
MAX_OPTION_ITEMS = 64
MAX_OPTION_INT = 1_000_000


@dataclass(frozen=True, slots=True)
class OptionLabel:
    """How the lobby names one table option: in Chinese and English, each choice of a ``Literal``
    field whose raw value says too little (value → (zh, en)), the least value of a number, and the
    named presets of a list (a 番 table, the cards taken out): ``(zh, en, value)`` each."""

    zh: str
    en: str
    choices: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    min: int = 0
    presets: tuple[tuple[str, str, tuple[Any, ...]], ...] = ()


# the number of hands of a match, as most games name it
MATCH_HANDS = OptionLabel("局数", "Hands per match", min=1)

OptionsT = TypeVar("OptionsT")


def apply_options(base: OptionsT, overrides: Mapping[str, Any]) -> OptionsT:
    """An options dataclass with ``overrides`` applied, each checked against its field's type
    (JSON lists become tuples).

    Raises:
        ValueError: an unknown option, or a value of the wrong type or outside its choices.
    """
    if not overrides:
        return base
    hints = _option_types(type(base))
    unknown = set(overrides) - set(hints)
    if unknown:
        raise ValueError(f"unknown options: {sorted(unknown)}")
    fixed = {name: _checked_option(name, hints[name], value) for name, value in overrides.items()}
    return dataclasses.replace(base, **fixed)  # type: ignore[type-var]


_OPTION_TYPES: dict[type, dict[str, Any]] = {}


def _option_types(cls: type) -> dict[str, Any]:
    """The type of each field of an options dataclass (resolving annotations is slow: once per
    class)."""
    found = _OPTION_TYPES.get(cls)
    if found is None:
        hints = typing.get_type_hints(cls)
        found = _OPTION_TYPES[cls] = {f.name: hints[f.name] for f in dataclasses.fields(cls)}
    return found


def option_catalogue(preset: Any, labels: Mapping[str, OptionLabel]) -> list[dict[str, Any]]:
    """The fields of an options dataclass a person may set in the lobby, in field order, as JSON:
    ``{"name", "kind": "bool" | "choice" | "int" | "list", "default", "zh", "en"}``, plus
    ``"choices"`` (``[{"value", "zh", "en"}]``) for a ``Literal``, ``"min"`` for an int, and for a
    list (a tuple field) ``"item"`` (``"int"`` or ``"str"``) and ``"presets"`` (``[{"value", "zh",
    "en"}]``, the label's named values). The defaults are ``preset``'s values, lists as lists.

    >>> from paiju.games.banzipao import BanzipaoOptions
    >>> [o["name"] for o in option_catalogue(BanzipaoOptions(), {})]
    ['fanbao_rights', 'bystanders_pay_bonus', 'open_trick', 'hands']
    """
    out: list[dict[str, Any]] = []
    for name, hint in _option_types(type(preset)).items():
        kind = _option_kind(hint)
        if kind is None:
            continue
        label = labels.get(name) or OptionLabel(name, name)
        entry: dict[str, Any] = {
            "name": name,
            "kind": kind,
            "default": list(value) if isinstance(value := getattr(preset, name), tuple) else value,
            "zh": label.zh,
            "en": label.en,
        }
        if kind == "choice":
            choices = [(v, label.choices.get(v, (v, v))) for v in typing.get_args(hint)]
            entry["choices"] = [{"value": v, "zh": zh, "en": en} for v, (zh, en) in choices]
        elif kind == "int":
            entry["min"] = label.min
        elif kind == "list":
            entry["item"] = "int" if typing.get_args(hint)[0] is int else "str"
            entry["presets"] = [
                {"value": list(value), "zh": zh, "en": en} for zh, en, value in label.presets
            ]
        out.append(entry)
    return out


def _option_kind(hint: Any) -> str | None:
    if typing.get_origin(hint) is Literal:
        return "choice"
    if hint is bool:
        return "bool"
    if typing.get_origin(hint) is tuple and typing.get_args(hint)[0] in (int, str):
        return "list"
    return "int" if hint is int else None


def _checked_option(name: str, hint: Any, value: Any) -> Any:
    """``value`` as option ``name`` of type ``hint`` holds it: one of its choices (of the same
    JSON type: ``true`` is not ``1``), a list of at most ``MAX_OPTION_ITEMS`` of its item type, or
    an integer (a bool for a bool) within ±``MAX_OPTION_INT``.

    Raises:
        ValueError: a value of another type, outside its choices or beyond the bounds.
    """
    origin = typing.get_origin(hint)
    if origin is Literal:
        choices = typing.get_args(hint)
        if not any(type(c) is type(value) and c == value for c in choices):
            raise ValueError(f"option {name} must be one of {choices}")
        return value
    if origin is tuple:
        item = typing.get_args(hint)[0]
        if not isinstance(value, list | tuple) or not all(
            isinstance(v, item) and not isinstance(v, bool) for v in value
        ):
            raise ValueError(f"option {name} must be a list of {item.__name__}")
        if len(value) > MAX_OPTION_ITEMS or not all(_bounded(v) for v in value):
            raise ValueError(f"option {name}: at most {MAX_OPTION_ITEMS} items, {_BOUNDS}")
        return tuple(value)
    if not isinstance(value, int) or isinstance(value, bool) != (hint is bool):
        raise ValueError(f"option {name} must be {hint.__name__}, not {value!r}")
    if not _bounded(value):
        raise ValueError(f"option {name}: {_BOUNDS}")
    return value


_BOUNDS = f"numbers are at most {MAX_OPTION_INT:,}"


def _bounded(value: Any) -> bool:
    return not isinstance(value, int) or abs(value) <= MAX_OPTION_INT
