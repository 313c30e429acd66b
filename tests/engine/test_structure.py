"""The shape of the code, read from the source with ``ast``: the engine (``shared-engine/src/paiju``)
and the services (``services/src/paiju_services``) each import as a DAG, keep every module under
500 lines, and no module reaches into another's private names.

How the import graph is counted: an edge goes from a module to every module of the same package
it imports, wherever the import stands (a function-level import runs too, only later: deferring
an import hides a circle, it does not break it); ``from pkg import name`` is an edge to
``pkg.name`` when that is a module, else to ``pkg``. An import inside ``if TYPE_CHECKING:`` never
runs, so it is no runtime circle: those edges are counted on their own. The runtime graph (without
them) must be a DAG, and the graph with them must be one too (a circle through the types is
still modules that cannot be read, or split, apart). The parent packages an import initialises are
not edges: a package's ``__init__`` that imports its modules is then a circle only through what it
imports explicitly.

A private reach is ``x._name`` (the regex ``\\b[a-z_]+\\._[a-z]`` in the source, read here from the
syntax tree so that a docstring or a comment never counts), or ``from m import _name``, where
``x`` is not ``self`` or ``cls`` and ``_name`` is not one of the module's own names (defined in it:
a function, a class, a variable or an attribute it sets). ``writer._load`` in ``tables/clock.py``
would be one: ``_load`` belongs to ``tables/writer.py``.

Some modules break these rules today: the engine's and the services' long modules. Each is listed
below by name (as are the circles through the type-only imports and the private reaches, none
left), so the lists can only shrink: a new circle, a new private reach or a module grown past the
bound fails, and so does an entry that no longer holds (remove it from its list).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

SRC = Path(__file__).resolve().parents[2]
ENGINE = SRC / "shared-engine" / "src" / "paiju"
SERVICES = SRC / "services" / "src" / "paiju_services"
MAX_LINES = 500
PRIVATE = re.compile(r"^_[a-zA-Z]")  # _name, not a __dunder__
# underscore names that are their owner's public API (the stdlib's named tuples document them)
PUBLIC_UNDERSCORED = frozenset({"_replace", "_asdict", "_fields", "_make"})

# --- the known breaches, as they stand; each list can only shrink ----------------------------------

# modules of 500 lines or more: none is left (each game's rules are in modules by job)
ENGINE_LONG: frozenset[str] = frozenset()

# The services' modules that import each other only for their types would be circles still (a
# strongly connected component of the graph with the TYPE_CHECKING imports): none is left.
SERVICES_TYPE_CYCLES: frozenset[frozenset[str]] = frozenset()
# private reaches: module -> the private names of another module it reads (none left: the table
# service's parts drive its writer through its public interface, tables/writer.py)
SERVICES_REACHES: dict[str, frozenset[str]] = {}
SERVICES_LONG: frozenset[str] = frozenset()


@dataclass
class Module:
    """One source file: its dotted name, its lines, the modules of its package it imports (at run
    time, and under ``if TYPE_CHECKING:`` only) and the private names it reaches into."""

    name: str
    path: Path
    lines: int
    tree: ast.Module
    runtime: set[str] = field(default_factory=set)
    typing: set[str] = field(default_factory=set)


def read_package(root: Path) -> dict[str, Module]:
    """Every module under ``root`` (a package directory), by dotted name, with its imports."""
    modules = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text, filename=str(path))
        modules[name] = Module(name, path, len(text.splitlines()), tree)
    for module in modules.values():
        for node, type_only in _imports(module.tree):
            targets = set(_targets(module, node, modules)) - {module.name}
            (module.typing if type_only else module.runtime).update(targets)
    return modules


def _imports(tree: ast.AST, type_only: bool = False) -> Iterator[tuple[ast.AST, bool]]:
    """Every import statement, and whether it stands under ``if TYPE_CHECKING:``."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, type_only
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                yield from _imports(ast.Module(body=[child], type_ignores=[]), True)
            for child in node.orelse:
                yield from _imports(ast.Module(body=[child], type_ignores=[]), type_only)
        else:
            yield from _imports(node, type_only)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _targets(module: Module, node: ast.AST, modules: dict[str, Module]) -> Iterator[str]:
    """The modules of the package that one import statement loads (by their explicit names)."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            yield from _known(alias.name, modules)
        return
    assert isinstance(node, ast.ImportFrom)
    base = node.module or ""
    if node.level:
        package = module.name.split(".")
        if module.path.name != "__init__.py":
            package = package[:-1]
        package = package[: len(package) - node.level + 1]
        base = ".".join([*package, base] if base else package)
    for alias in node.names:
        if f"{base}.{alias.name}" in modules:
            yield f"{base}.{alias.name}"
        else:
            yield from _known(base, modules)


def _known(name: str, modules: dict[str, Module]) -> Iterator[str]:
    """``name``, or the longest of its prefixes that is a module of the package, if any."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        if ".".join(parts[:end]) in modules:
            yield ".".join(parts[:end])
            return


def cycles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """The circles of an import graph: its strongly connected components of two modules or more
    (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: set[frozenset[str]] = set()

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.add(frozenset(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def own_names(tree: ast.AST) -> set[str]:
    """The names a module defines: its functions, classes, variables, parameters and the
    attributes it sets (``self._x = …``, a dataclass field)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return names


def private_reaches(module: Module) -> set[str]:
    """The private names of other modules that ``module`` reads (see the module's docstring)."""
    own = own_names(module.tree)
    reached = set()
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Attribute) and PRIVATE.match(node.attr):
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                continue
            if node.attr not in own and node.attr not in PUBLIC_UNDERSCORED:
                reached.add(node.attr)
        elif isinstance(node, ast.ImportFrom):
            reached.update(a.name for a in node.names if PRIVATE.match(a.name))
    return reached


def check(
    root: Path,
    known_type_cycles: frozenset[frozenset[str]],
    known_reaches: dict[str, frozenset[str]],
    known_long: frozenset[str],
) -> None:
    """Assert the rules on a package: no runtime circle at all; no circle through the type-only
    imports, no private reach and no long module but the known ones (and each of those still
    there)."""
    modules = read_package(root)
    runtime = sorted(sorted(c) for c in cycles({m.name: m.runtime for m in modules.values()}))
    assert not runtime, f"import circles (each a set of modules that import each other): {runtime}"
    typed = cycles({m.name: m.runtime | m.typing for m in modules.values()})
    new = sorted(sorted(c) for c in typed - known_type_cycles)
    gone = sorted(sorted(c) for c in known_type_cycles - typed)
    assert not new, f"import circles counting the TYPE_CHECKING imports: {new}"
    assert not gone, f"listed circles that are no longer there (remove them from the list): {gone}"

    reaches = {m.name: private_reaches(m) for m in modules.values()}
    new_reaches = {
        name: sorted(r - known_reaches.get(name, frozenset()))
        for name, r in reaches.items()
        if r - known_reaches.get(name, frozenset())
    }
    assert not new_reaches, f"modules reading another module's private names: {new_reaches}"
    stale = {
        name: sorted(r - reaches.get(name, set()))
        for name, r in known_reaches.items()
        if r - reaches.get(name, set())
    }
    assert not stale, f"listed private reaches no longer made (remove them from the list): {stale}"

    long = {m.name: m.lines for m in modules.values() if m.lines >= MAX_LINES}
    too_long = {name: n for name, n in long.items() if name not in known_long}
    assert not too_long, f"modules of {MAX_LINES} lines or more (split them): {too_long}"
    short = sorted(known_long - set(long))
    assert not short, f"listed long modules now under {MAX_LINES} lines (remove them): {short}"


def test_the_engine_has_no_circle_no_private_reach_and_no_new_long_module() -> None:
    check(ENGINE, frozenset(), {}, ENGINE_LONG)


def test_the_services_have_no_runtime_circle_and_no_breach_but_the_listed_ones() -> None:
    check(SERVICES, SERVICES_TYPE_CYCLES, SERVICES_REACHES, SERVICES_LONG)


def test_the_checks_see_what_they_are_meant_to_see() -> None:
    """The reader finds a circle, a type-only import, a private reach and a module's own names."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == {frozenset({"a", "b", "c"})}
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from p.x import T\n"
        "def f(service, other):\n"
        "    from p import y\n"
        "    self._mine = 1\n"
        "    return service._lock, other._mine, self._z, state._replace()\n"
    )
    module = Module("p.m", Path("p/m.py"), 7, tree)
    modules = {name: module for name in ("p", "p.m", "p.x", "p.y")}
    runtime: set[str] = set()
    typing: set[str] = set()
    for node, type_only in _imports(tree):
        (typing if type_only else runtime).update(_targets(module, node, modules))
    assert (runtime, typing) == ({"p.y"}, {"p.x"})
    assert private_reaches(module) == {"_lock"}
