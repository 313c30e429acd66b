"""The web client as files: it names the wheel that `make wheel` builds, loads nothing from
elsewhere, and its rules link reaches docs/rules. (No browser, no stack: these run in a blink.)"""

from __future__ import annotations

import re
import tomllib

from e2e.stack import ROOT

WEB = ROOT / "web-client"
SOURCES = [
    p
    for p in WEB.rglob("*")
    if p.is_file()
    and "node_modules" not in p.parts
    and p.suffix in {".js", ".css", ".html", ".svg"}
]


def test_the_client_names_the_engine_wheel_that_make_wheel_builds() -> None:
    version = tomllib.loads((ROOT / "shared-engine" / "pyproject.toml").read_text())["project"][
        "version"
    ]
    config = (WEB / "js" / "config.js").read_text()
    wheel = re.search(r'ENGINE_WHEEL = "([^"]+)"', config)
    assert wheel is not None
    assert wheel[1] == f"/wheels/paiju-{version}-py3-none-any.whl"


def test_nothing_is_loaded_from_another_site() -> None:
    assert SOURCES
    for path in SOURCES:
        text = path.read_text()
        for url in re.findall(r"(?:https?:)?//[\w.-]+\.[a-z]{2,}[^\s\"')]*", text):
            assert url.startswith("http://www.w3.org/"), f"{path.name} names {url}"


def test_the_worker_is_a_module_worker_with_pyodide_from_our_server() -> None:
    engine = (WEB / "js" / "engine.js").read_text()
    assert '{ type: "module" }' in engine
    assert 'PYODIDE_URL = "/pyodide/"' in (WEB / "js" / "config.js").read_text()
    worker = (WEB / "js" / "engine-worker.js").read_text()
    assert "unpackArchive(new Uint8Array(" in worker


def test_the_rules_link_reaches_docs_rules() -> None:
    rules = WEB / "rules"
    assert rules.is_symlink() and rules.resolve() == (ROOT / "docs" / "rules").resolve()
