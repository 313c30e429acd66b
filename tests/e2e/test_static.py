"""The web client as files, and how the gateway serves them.

- As files: the client names the wheel that `make wheel` builds, loads nothing from elsewhere,
  and its rules link reaches docs/rules (no browser, no stack: these run in a blink).
- Served (gateway/static.py): each file compressed once (gzip, brotli) and sent in the coding the
  client accepts, with its own Content-Type and `Vary: Accept-Encoding`; an ETag per content and
  `Cache-Control: no-cache`, a 304 for an unchanged file, the new content as soon as a file
  changes; Pyodide and the wheel also under versioned URLs (/versions.json names them), kept a
  year. First on folders of our own through the static routes alone, then Pyodide and the wheel
  from the running gateway, then in Chromium: the engine loads from compressed files at versioned
  URLs, starts before the lobby asks for anything, and a reload does not ask for Pyodide again.
"""

from __future__ import annotations

import gzip
import hashlib
import re
import tomllib
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import brotli  # type: ignore[import-untyped]
import pytest
from litestar import Litestar
from litestar.exceptions import NotFoundException
from litestar.testing import TestClient

from e2e.conftest import Browsers
from e2e.probe import engine
from e2e.stack import ROOT, Stack, wait_until
from paiju_services.config import Settings
from paiju_services.gateway import precompressed, static
from paiju_services.gateway.app import error_response

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


# --- the static routes alone, on folders of our own -------------------------------------------

SNAPSHOT = "engine.snapshot"
WASM = bytes(range(256)) * 64 + b"(module)" * 4096  # 48 KiB that compress well
WHEEL = b"PK\x03\x04" + b"paiju/__init__.py " * 3000


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[TestClient[Litestar], static.StaticFiles, Path]]:
    """The static routes of a gateway (no NATS) over folders in ``tmp_path``, started, with a
    cache folder of their own: the client, the StaticFiles and the root of the folders."""
    for folder, name, data in [
        ("pyodide", "pyodide.asm.wasm", WASM),
        ("dist", "paiju-0.1.0-py3-none-any.whl", WHEEL),
        ("web", "index.html", b"<!doctype html><title>Paiju</title>" + b"<p>Paiju</p>" * 200),
    ]:
        (tmp_path / folder).mkdir()
        (tmp_path / folder / name).write_bytes(data)
    files = static.StaticFiles(
        pyodide=str(tmp_path / "pyodide"),
        wheels=str(tmp_path / "dist"),
        web_client=str(tmp_path / "web"),
        cache=str(tmp_path / "cache"),
        brotli_quality=Settings().brotli_quality,
    )
    app = Litestar(
        route_handlers=files.routers(),
        lifespan=[files.lifespan],
        exception_handlers={Exception: error_response},  # the gateway's error bodies
    )
    with TestClient(app) as client:
        assert files.store.settle(60), "the brotli copies were not made within a minute"
        yield client, files, tmp_path


def test_each_file_goes_in_the_coding_the_client_accepts(
    served: tuple[TestClient[Litestar], static.StaticFiles, Path],
) -> None:
    client, _, _ = served
    cases = [
        ("gzip, deflate, br, zstd", "br"),  # Chromium's
        ("gzip, deflate", "gzip"),
        ("br;q=0.5, gzip", "gzip"),  # the client's preference wins
        ("gzip;q=0, br;q=0", None),
        ("identity", None),
        ("", None),
    ]
    for path, media_type, original in [
        ("/pyodide/pyodide.asm.wasm", "application/wasm", WASM),
        ("/wheels/paiju-0.1.0-py3-none-any.whl", "application/zip", WHEEL),
        ("/", "text/html; charset=utf-8", None),
    ]:
        for accept, coding in cases:
            response = client.get(path, headers={"Accept-Encoding": accept})
            assert response.status_code == 200
            assert response.headers["content-type"] == media_type
            assert response.headers["vary"] == "Accept-Encoding"
            assert response.headers["cache-control"] == "no-cache"
            assert response.headers.get("content-encoding") == coding, (path, accept)
            body = response.content  # httpx decodes gzip and br
            if original is not None:
                assert body == original
            digest = hashlib.sha256(body).hexdigest()
            assert response.headers["etag"] == (f'"{digest}.{coding}"' if coding else f'"{digest}"')
            if coding:  # what went over the wire was the compressed copy
                assert int(response.headers["content-length"]) < len(body) / 4


def test_copies_are_made_once_per_content_under_its_hash(
    served: tuple[TestClient[Litestar], static.StaticFiles, Path],
) -> None:
    _, _, root = served
    digest = hashlib.sha256(WASM).hexdigest()
    br, gz = root / "cache" / f"{digest}.br", root / "cache" / f"{digest}.gz"
    assert brotli.decompress(br.read_bytes()) == WASM
    assert gzip.decompress(gz.read_bytes()) == WASM
    made = gz.stat().st_mtime_ns
    # a second gateway on the same cache folder makes nothing again, and drops nothing it needs
    again = static.StaticFiles(
        pyodide=str(root / "pyodide"),
        wheels=str(root / "dist"),
        web_client=str(root / "web"),
        cache=str(root / "cache"),
        brotli_quality=Settings().brotli_quality,
    )
    (root / "cache" / ("0" * 64 + ".gz")).write_bytes(b"a copy of a content no file has")
    again.store.prepare([folder.root for folder in again.folders.values()])
    assert gz.stat().st_mtime_ns == made and br.is_file()
    assert not (root / "cache" / ("0" * 64 + ".gz")).exists()
    # a copy another process is making (its lock held) is left to it, not made twice
    br.unlink()
    with precompressed._locked(root / "cache" / f".{digest}.br.lock", wait=True):
        coding = again.store.codings[0]
        assert not again.store.make(
            root / "pyodide" / "pyodide.asm.wasm", digest, coding, wait=False
        )
        assert not br.exists()
    assert again.store.make(root / "pyodide" / "pyodide.asm.wasm", digest, coding, wait=False)
    assert brotli.decompress(br.read_bytes()) == WASM


def test_a_lock_another_gateway_lets_go_while_the_cache_is_pruned_is_passed_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Gateways (and the test workers warming their cache) share one cache folder: a lock or a
    temporary file listed by one may be gone before it looks at it (a run of three browser tests
    on one new build failed at its start on that)."""
    store = precompressed.Precompressed(tmp_path, Settings().brotli_quality)
    for name in (".abc.br.lock", ".abc.gz.tmp", "0" * 64 + ".gz"):
        (tmp_path / name).write_bytes(b"")
    listed = Path.iterdir

    def listed_then_let_go(folder: Path) -> Iterator[Path]:
        for item in listed(folder):
            if item.name.startswith("."):
                item.unlink()  # the other gateway's copy is made: its lock and temp file go
            yield item

    monkeypatch.setattr(Path, "iterdir", listed_then_let_go)
    assert store.prune(set()) == 1  # the stale copy only; the vanished files are passed over
    assert list(listed(tmp_path)) == []


def test_an_unchanged_file_is_revalidated_with_a_304_and_a_changed_one_sent_anew(
    served: tuple[TestClient[Litestar], static.StaticFiles, Path],
) -> None:
    client, files, root = served
    path = "/pyodide/pyodide.asm.wasm"
    first = client.get(path, headers={"Accept-Encoding": "gzip"})
    tag = first.headers["etag"]
    for accept in ("gzip", "br", ""):  # whichever coding the browser holds, it is still good
        again = client.get(path, headers={"Accept-Encoding": accept, "If-None-Match": tag})
        assert again.status_code == 304 and again.content == b""
        assert again.headers["cache-control"] == "no-cache" and "etag" in again.headers
    head = client.head(path, headers={"Accept-Encoding": "gzip"})
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-length"] == first.headers["content-length"]
    # the file changes (a new Pyodide, a rebuilt wheel): the old tag no longer matches, the new
    # bytes go at once (as they are until their copies exist), and never an old copy
    changed = WASM + b"(func)" * 100
    (root / "pyodide" / "pyodide.asm.wasm").write_bytes(changed)
    fresh = client.get(path, headers={"Accept-Encoding": "gzip", "If-None-Match": tag})
    assert fresh.status_code == 200 and fresh.content == changed
    assert fresh.headers["etag"].startswith(f'"{hashlib.sha256(changed).hexdigest()}')
    assert files.store.settle(60)
    compressed = client.get(path, headers={"Accept-Encoding": "gzip"})
    assert compressed.headers["content-encoding"] == "gzip" and compressed.content == changed


def test_pyodide_and_the_wheel_have_versioned_urls_kept_a_year_until_a_file_changes(
    served: tuple[TestClient[Litestar], static.StaticFiles, Path],
) -> None:
    client, _, root = served
    manifest = client.get("/versions.json")
    assert manifest.headers["cache-control"] == "no-cache"
    prefixes = manifest.json()
    assert set(prefixes) == {"/pyodide/", "/wheels/"}  # the web client's own files: ETags only
    pyodide = prefixes["/pyodide/"]
    assert re.fullmatch(r"/pyodide/~[0-9a-f]{16}/", pyodide)
    wasm = client.get(pyodide + "pyodide.asm.wasm", headers={"Accept-Encoding": "gzip"})
    assert wasm.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert wasm.headers["content-encoding"] == "gzip" and wasm.content == WASM
    assert wasm.headers["content-type"] == "application/wasm"
    plain = client.get("/pyodide/pyodide.asm.wasm", headers={"Accept-Encoding": "gzip"})
    assert plain.headers["cache-control"] == "no-cache"
    again = client.get("/versions.json", headers={"If-None-Match": manifest.headers["etag"]})
    assert again.status_code == 304
    # a file changes: a new tag; the old one still answers (a page loaded before), not to keep
    (root / "pyodide" / "pyodide.asm.wasm").write_bytes(WASM + b"(data)")
    moved = client.get("/versions.json", headers={"If-None-Match": manifest.headers["etag"]})
    assert moved.status_code == 200
    assert moved.json()["/pyodide/"] != pyodide
    assert moved.json()["/wheels/"] == prefixes["/wheels/"]  # its own folder did not change
    old = client.get(pyodide + "pyodide.asm.wasm")
    assert old.headers["cache-control"] == "no-cache" and old.content == WASM + b"(data)"
    new = client.get(moved.json()["/pyodide/"] + "pyodide.asm.wasm")
    assert new.headers["cache-control"] == "public, max-age=31536000, immutable"


def test_only_files_inside_the_folders_are_served(
    served: tuple[TestClient[Litestar], static.StaticFiles, Path],
) -> None:
    client, files, root = served
    (root / "secret.txt").write_text("not for the web")
    assert client.get("/pyodide/nothing.wasm").status_code == 404
    assert client.get("/pyodide/nothing.wasm").json()["code"] == "not_found"
    folder = files.folders["/pyodide"]
    for outside in ("../secret.txt", "a/../../secret.txt", "../web/index.html"):
        with pytest.raises(NotFoundException):
            folder.locate(outside)
    assert folder.locate("pyodide.asm.wasm") == root / "pyodide" / "pyodide.asm.wasm"


# --- the running gateway: Pyodide and the engine wheel ----------------------------------------


def fetch(stack: Stack, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
    """A GET as it goes over the wire (urllib decodes no content coding)."""
    request = urllib.request.Request(stack.url.rstrip("/") + path, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return (
                response.status,
                {k.lower(): v for k, v in response.headers.items()},
                response.read(),
            )
    except urllib.error.HTTPError as err:
        return err.code, {k.lower(): v for k, v in err.headers.items()}, b""


def decoded(headers: dict[str, str], body: bytes) -> bytes:
    coding = headers.get("content-encoding")
    if coding == "gzip":
        return gzip.decompress(body)
    if coding == "br":
        out: bytes = brotli.decompress(body)
        return out
    assert coding is None, coding
    return body


def test_the_gateway_sends_pyodide_and_the_wheel_compressed_with_an_etag(stack: Stack) -> None:
    version = tomllib.loads((ROOT / "shared-engine" / "pyproject.toml").read_text())["project"][
        "version"
    ]
    wasm = "/pyodide/pyodide.asm.wasm"
    wheel = f"/wheels/paiju-{version}-py3-none-any.whl"
    wasm_size = (ROOT / "web-client" / "node_modules" / "pyodide" / "pyodide.asm.wasm").stat()
    for path, media_type in [(wasm, "application/wasm"), (wheel, "application/zip")]:
        status, headers, body = fetch(stack, path, {"Accept-Encoding": "gzip"})
        assert status == 200 and headers["content-encoding"] == "gzip"
        assert headers["content-type"] == media_type
        assert headers["vary"] == "Accept-Encoding" and headers["cache-control"] == "no-cache"
        content = decoded(headers, body)
        assert len(body) < len(content) and int(headers["content-length"]) == len(body)
        # the ETag names the content sent: the sha256 of the decoded bytes, and the coding
        assert headers["etag"] == f'"{hashlib.sha256(content).hexdigest()}.gzip"'
        if path == wasm:
            assert len(content) == wasm_size.st_size and len(body) < len(content) / 2
        # a client that accepts no coding gets the file as it is, the same content
        status, plain_headers, plain = fetch(stack, path, {"Accept-Encoding": "identity"})
        assert status == 200 and "content-encoding" not in plain_headers
        assert plain_headers["content-type"] == media_type and plain == content
        assert plain_headers["vary"] == "Accept-Encoding"
        # revalidation: the tag held answers 304, without a body
        status, again, rest = fetch(
            stack, path, {"Accept-Encoding": "gzip", "If-None-Match": headers["etag"]}
        )
        assert status == 304 and rest == b"" and again["etag"] == headers["etag"]

    # the versioned URLs the engine worker uses: the same answers, kept for a year
    prefixes = stack.api("/versions.json")
    for path in (wasm, wheel):
        plain, rest = path.split("/", 2)[1:]
        status, headers, body = fetch(
            stack, prefixes[f"/{plain}/"] + rest, {"Accept-Encoding": "gzip"}
        )
        assert status == 200 and headers["cache-control"] == "public, max-age=31536000, immutable"
        assert headers["content-encoding"] == "gzip"
        assert headers["etag"] == f'"{hashlib.sha256(decoded(headers, body)).hexdigest()}.gzip"'

    # brotli, once the gateway's background thread made the copy (small files come first)
    def brotli_answer() -> tuple[dict[str, str], bytes] | None:
        _, headers, body = fetch(stack, wheel, {"Accept-Encoding": "gzip, deflate, br"})
        return (headers, body) if headers.get("content-encoding") == "br" else None

    headers, body = wait_until(brotli_answer, 180, "the wheel's brotli copy", interval=0.5)
    assert headers["etag"] == f'"{hashlib.sha256(decoded(headers, body)).hexdigest()}.br"'


def test_the_engine_loads_from_compressed_files_starts_at_boot_and_is_not_downloaded_again(
    browsers: Browsers, stack: Stack
) -> None:
    page, _ = browsers.page()
    sent: dict[str, dict[str, str]] = {}
    page.on("response", lambda r: sent.setdefault(r.url.rsplit("/", 1)[-1], r.headers))
    page.goto(stack.url)
    page.wait_for_function("document.body.dataset.engine === 'ready'", timeout=60_000)
    wasm = sent["pyodide.asm.wasm"]
    assert wasm["content-encoding"] in ("br", "gzip") and wasm["content-type"] == "application/wasm"
    for name in ("pyodide.asm.mjs", "python_stdlib.zip", "paiju-0.1.0-py3-none-any.whl", SNAPSHOT):
        assert sent[name]["content-encoding"] in ("br", "gzip"), name
    # Python started from the snapshot `make wheel` made of this wheel, not by itself
    assert page.evaluate(engine("timings.snapshot")) is True
    # the worker was started at boot, before the lobby asked the gateway for anything
    started = page.evaluate(engine("startedAt"))
    first_api = page.evaluate(
        "Math.min(...performance.getEntriesByType('resource')"
        ".filter((e) => new URL(e.name).pathname.startsWith('/api/')).map((e) => e.startTime))"
    )
    assert started is not None and started <= first_api
    # Pyodide and the wheel came from their versioned URLs, kept a year
    loaded = page.workers[0].evaluate(
        "performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)"
    )
    prefixes = stack.api("/versions.json")
    for name in ("pyodide.asm.wasm", "python_stdlib.zip"):
        assert prefixes["/pyodide/"] + name in loaded
    assert prefixes["/wheels/"] + "paiju-0.1.0-py3-none-any.whl" in loaded
    assert prefixes["/wheels/"] + SNAPSHOT in loaded
    assert sent["pyodide.asm.wasm"]["cache-control"] == "public, max-age=31536000, immutable"
    # a reload asks only for /versions.json (a 304): Pyodide and the wheel come from the cache
    page.reload()
    page.wait_for_function("document.body.dataset.engine === 'ready'", timeout=60_000)
    transfers: dict[str, Any] = page.workers[0].evaluate(
        "Object.fromEntries(performance.getEntriesByType('resource')"
        ".map((e) => [e.name.split('/').pop(), e.transferSize]))"
    )
    for name in ("pyodide.asm.wasm", "python_stdlib.zip", "paiju-0.1.0-py3-none-any.whl", SNAPSHOT):
        assert transfers[name] == 0, (name, transfers[name])
    assert 0 < transfers["versions.json"] < 1000  # revalidated: headers only


def test_a_snapshot_of_another_wheel_is_not_used_and_python_starts_by_itself(
    browsers: Browsers, stack: Stack
) -> None:
    """The snapshot holds the engine's modules as `make wheel` imported them: one served beside
    another wheel (a deploy that copied one file and not the other) would run old code with the
    new wheel's files. Its header names its wheel's sha256; the worker checks it and, if it is
    not the wheel's it got, starts Python by itself, with a warning in the console."""
    page, _ = browsers.page()
    warnings: list[str] = []
    page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)

    with (ROOT / "dist" / SNAPSHOT).open("rb") as built:  # the header of the one served
        header = built.readline().rstrip(b"\n")
    assert header.startswith(b"paiju-snapshot ") and len(header) == len("paiju-snapshot ") + 64

    def other_wheels(route: Any) -> None:
        # another wheel's header; no memory behind it, as the worker must not read past it
        # (and 30 MB through Playwright's pipe and back cost this test half a minute)
        route.fulfill(body=b"paiju-snapshot " + b"0" * 64 + b"\n")

    page.context.route(re.compile(rf".*/{SNAPSHOT}$"), other_wheels)
    page.goto(stack.url)
    page.wait_for_function("document.body.dataset.engine === 'ready'", timeout=60_000)
    assert page.evaluate(engine("timings.snapshot")) is False
    assert any("snapshot is not of this wheel" in w for w in warnings), warnings
    assert page.evaluate(engine("python")).startswith("3.")  # Python ran
