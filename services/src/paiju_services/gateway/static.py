"""Static files, compressed once and cached by the browser: Pyodide (``/pyodide/``), the engine
wheel (``/wheels/``) and the web client (``/``), as the gateway serves them.

**Compression, once per content.** A file is compressed once, never per request, into a cache
folder (``Settings.static_cache``, default ``var/static/``) under the sha256 of its bytes:
``<sha256>.gz`` (stdlib gzip, level 9) and ``<sha256>.br`` (brotli, quality 11). At the gateway's
start every file of the three folders is hashed (tens of milliseconds for Pyodide's 14 MB) and
whatever the cache lacks is made: the gzip copies before the gateway answers its first request
(about 2 s for all of Pyodide), the brotli copies in a background thread, smallest first (some
30 s, 25 of them for Pyodide's 9.6 MB wasm), gzip being served meanwhile. A file that changes
while the gateway runs is hashed again when next asked for (its size or mtime moved) and
compressed in the background; until then it is sent as it is. Since a copy is named by the hash
of the bytes it was made from, a changed file is never answered with an old copy; copies of
contents no file has any more are removed at the next start. Several gateway copies may share
the folder: one makes a copy while it holds a lock file (the others wait for a gzip copy, and
leave a brotli copy to it), writing through a temporary file and an atomic rename. The
background thread runs at nice 10, so serving comes first.

**Negotiation.** ``br``, then ``gzip``, then the file as it is, as the request's
``Accept-Encoding`` allows (``q=0`` refuses a coding); a compressed copy is kept only when it is
smaller than the file. Every answer for a file that may have copies says
``Vary: Accept-Encoding``; ``Content-Type`` is the file's (``application/wasm`` for .wasm, which
``WebAssembly.instantiateStreaming`` insists on) and ``Content-Encoding`` names the coding sent.

**Caching: versioned URLs for Pyodide and the wheel, ETags for the rest.** Every answer has a
strong ETag, the content hash with the coding of a compressed copy (``"<hash>"``,
``"<hash>.gzip"``, ``"<hash>.br"``), and an ``If-None-Match`` naming any coding of the current
content answers ``304`` without a body. The web client's own files (and Pyodide's and the
wheel's plain URLs) say ``Cache-Control: no-cache``: kept, but revalidated on each visit, so an
edit shows at once. Pyodide and the wheel are also served under ``/pyodide/~<tag>/`` and
``/wheels/~<tag>/``, the tag a hash of every file of the folder, with ``Cache-Control: public,
max-age=31536000, immutable``; ``GET /versions.json`` (revalidated) names the current prefixes
and the engine worker loads from them. A new Pyodide or a rebuilt wheel changes the tag, hence
the URLs. Why not ETags alone: Chromium keeps V8's compiled code of a wasm module with the cached
response, and a revalidated response (even a 304) loses it, so every visit would compile
Pyodide's 9.6 MB wasm again (measured on 2 cores: a warm start 0.5–1 s slower). A request under
an old tag (a page loaded before the files changed) gets the current file, marked ``no-cache``.
docs/services.md ("Static files") says the same for operators.
"""

from __future__ import annotations

import contextlib
import fcntl
import gzip
import hashlib
import json
import logging
import mimetypes
import os
import queue
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from email.utils import formatdate
from pathlib import Path, PurePath
from typing import Any

import anyio.to_thread
import brotli  # type: ignore[import-untyped]  # no stubs; one function used, typed below
from litestar import Litestar, Request, route
from litestar.exceptions import NotFoundException
from litestar.handlers import HTTPRouteHandler
from litestar.params import FromPath
from litestar.response.base import ASGIResponse
from litestar.response.file import ASGIFileResponse
from litestar.router import Router

from paiju_services.logs import log

logger = logging.getLogger("paiju.gateway.static")

GZIP_LEVEL = 9
BROTLI_QUALITY = 11
REVALIDATE = "no-cache"  # keep it, but ask with If-None-Match before each use
IMMUTABLE = "public, max-age=31536000, immutable"  # a versioned URL: never ask again
VERSIONS = "/versions.json"  # the versioned prefixes of the folders that have them
TAG_LENGTH = 16  # hex digits of a folder's version tag
SKIP_DIRS = frozenset({"node_modules", "__pycache__"})  # of the web client's folder, at start

# The types the browser must be told exactly; anything else is guessed from the name.
MEDIA_TYPES: dict[str, str] = {
    ".wasm": "application/wasm",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".json": "application/json",
    ".map": "application/json",
    ".css": "text/css",
    ".html": "text/html",
    ".svg": "image/svg+xml",
    ".md": "text/markdown",
    ".txt": "text/plain",
    ".ts": "text/plain",  # Pyodide's .d.ts (not MPEG transport streams)
    ".whl": "application/zip",
    ".zip": "application/zip",
}
# Already compressed as a whole: another pass would only cost time.
PACKED = frozenset(
    {".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".woff", ".woff2", ".gz", ".br", ".zst"}
    | {".mp3", ".ogg", ".opus", ".mp4", ".webm"}
)


def media_type(path: PurePath) -> str:
    """The ``Content-Type`` of a file, from its name."""
    known = MEDIA_TYPES.get(path.suffix.lower())
    if known:
        return known
    guessed, _ = mimetypes.guess_type(path.name)
    return guessed or "application/octet-stream"


def _brotli(data: bytes) -> bytes:
    out: bytes = brotli.compress(data, quality=BROTLI_QUALITY)
    return out


def _gzip(data: bytes) -> bytes:
    return gzip.compress(data, GZIP_LEVEL, mtime=0)  # mtime=0: the same bytes every time


@dataclass(frozen=True)
class Coding:
    """A content coding: its ``Content-Encoding`` token, its copies' suffix and its compressor."""

    token: str
    suffix: str
    compress: Callable[[bytes], bytes]
    at_start: bool  # made before the first answer (fast enough), else in the background


# gzip of all of Pyodide takes about 2 s; brotli at quality 11, about 30 s (25 s the wasm alone)
CODINGS = (Coding("br", ".br", _brotli, False), Coding("gzip", ".gz", _gzip, True))


def accepted(header: str) -> dict[str, float]:
    """``Accept-Encoding`` as {coding: q}; ``*`` stands for every coding not named.

    >>> accepted("gzip, deflate, br;q=0.5, zstd;q=0")
    {'gzip': 1.0, 'deflate': 1.0, 'br': 0.5, 'zstd': 0.0}
    """
    out: dict[str, float] = {}
    for item in header.split(","):
        token, _, params = item.strip().partition(";")
        token = token.strip().lower()
        if not token:
            continue
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        out[token] = q
    return out


def choose(header: str, available: list[str]) -> str | None:
    """The coding to send among ``available`` (in our order of preference), or None for the file
    as it is. The client's highest q wins; a tie goes to our preference.

    >>> choose("gzip, deflate, br, zstd", ["br", "gzip"])
    'br'
    >>> choose("gzip;q=1, br;q=0.5", ["br", "gzip"])
    'gzip'
    >>> choose("identity", ["br", "gzip"]) is None
    True
    """
    wanted = accepted(header)
    star = wanted.get("*", 0.0)
    best: tuple[float, int, str] | None = None
    for rank, token in enumerate(available):
        q = wanted.get(token, star)
        if q > 0 and (best is None or (q, -rank) > best[:2]):
            best = (q, -rank, token)
    return best[2] if best else None


def matches(if_none_match: str, digest: str) -> bool:
    """Whether ``If-None-Match`` names a representation of the content ``digest`` (weak
    comparison, as RFC 9110 asks for this header; any of its codings counts).

    >>> matches('W/"ab12.gzip", "ff00"', "ab12")
    True
    >>> matches('"ab12x"', "ab12")
    False
    """
    for tag in if_none_match.split(","):
        tag = tag.strip()
        if tag == "*":
            return True
        tag = tag.removeprefix("W/").strip('"')
        if tag.split(".", 1)[0] == digest:
            return True
    return False


def etag(digest: str, coding: str | None) -> str:
    return f'"{digest}.{coding}"' if coding else f'"{digest}"'


@dataclass(frozen=True)
class Entry:
    """A file as last seen: what its stat said when it was hashed, and the hash."""

    size: int
    mtime_ns: int
    digest: str  # sha256, hex
    compressible: bool


def _hash_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


class Precompressed:
    """The cache folder of compressed copies, what is known of each file served, and the one
    background thread that makes the slow copies."""

    def __init__(self, cache: Path) -> None:
        self.cache = cache
        self._entries: dict[Path, Entry] = {}
        self._useless: set[tuple[str, str]] = set()  # (digest, coding): not smaller than the file
        self._queued: set[tuple[str, str]] = set()
        self._jobs: queue.SimpleQueue[tuple[Path, str, Coding]] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._worker: threading.Thread | None = None

    # --- what a request needs ----------------------------------------------------------------

    def known(self, path: Path, st: os.stat_result) -> Entry | None:
        """The entry of ``path`` if its size and mtime are what they were when it was hashed."""
        entry = self._entries.get(path)
        if entry and entry.size == st.st_size and entry.mtime_ns == st.st_mtime_ns:
            return entry
        return None

    def entry(self, path: Path, st: os.stat_result) -> Entry:
        """The entry of ``path``, hashed again if it changed; its missing copies are queued."""
        entry = self.known(path, st)
        if entry is None:
            entry = Entry(
                st.st_size, st.st_mtime_ns, _hash_file(path), path.suffix.lower() not in PACKED
            )
            self._entries[path] = entry
            for coding in self.missing(entry):
                self.enqueue(path, entry.digest, coding)
        return entry

    def copy(self, digest: str, coding: Coding) -> Path:
        return self.cache / f"{digest}{coding.suffix}"

    def available(self, entry: Entry) -> list[tuple[Coding, Path]]:
        """The compressed copies of ``entry`` there are now, in our order of preference."""
        if not entry.compressible:
            return []
        return [
            (coding, self.copy(entry.digest, coding))
            for coding in CODINGS
            if self.copy(entry.digest, coding).is_file()
        ]

    def missing(self, entry: Entry) -> list[Coding]:
        if not entry.compressible:
            return []
        return [
            coding
            for coding in CODINGS
            if (entry.digest, coding.token) not in self._useless
            and not self.copy(entry.digest, coding).is_file()
        ]

    # --- making copies -----------------------------------------------------------------------

    def make(self, path: Path, digest: str, coding: Coding, *, wait: bool = True) -> bool:
        """Compress ``path`` with ``coding`` into the cache, unless the copy is there already.
        The copy is named by the hash of the bytes actually read, so a file changed since it was
        hashed still gets a true copy. Another process making the same copy (gateway copies
        sharing the folder) holds its lock: wait for it, or (``wait=False``) leave it the work
        and return False.

        Raises:
            OSError: the file cannot be read, or the cache folder cannot be written.
        """
        self.cache.mkdir(parents=True, exist_ok=True)
        with _locked(self.cache / f".{digest}{coding.suffix}.lock", wait) as held:
            if not held:
                return False
            if self.copy(digest, coding).is_file():  # made meanwhile by another process
                return True
            data = path.read_bytes()
            actual = hashlib.sha256(data).hexdigest()
            packed = coding.compress(data)
            if len(packed) >= len(data):
                with self._lock:
                    self._useless.add((actual, coding.token))
                return True
            target = self.copy(actual, coding)
            temp = target.with_name(f".{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")
            temp.write_bytes(packed)
            os.replace(temp, target)
        if actual != digest:
            log(logger, "static file changed while compressed", path=str(path))
        return True

    def enqueue(self, path: Path, digest: str, coding: Coding) -> None:
        """Make a copy in the background thread (started on first use; a daemon, so that a
        gateway stopping mid-copy does not wait for it: the next start redoes the copy)."""
        with self._lock:
            if (digest, coding.token) in self._queued:
                return
            self._queued.add((digest, coding.token))
            if self._worker is None:
                self._worker = threading.Thread(
                    target=self._work, name="paiju-static-compress", daemon=True
                )
                self._worker.start()
        self._jobs.put((path, digest, coding))

    def _work(self) -> None:
        with contextlib.suppress(OSError, AttributeError):  # Linux: this thread alone, nice 10
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
        while True:
            path, digest, coding = self._jobs.get()
            started = time.perf_counter()
            try:
                made = self.make(path, digest, coding, wait=False)
                log(
                    logger,
                    "static file compressed" if made else "static file left to another process",
                    path=path.name,
                    coding=coding.token,
                    ms=round((time.perf_counter() - started) * 1000),
                )
            except Exception as exc:  # the file went away, the cache is not writable, ...
                log(
                    logger,
                    "static compression failed",
                    logging.WARNING,
                    path=str(path),
                    error=repr(exc),
                )
            finally:
                with self._idle:
                    self._queued.discard((digest, coding.token))
                    self._idle.notify_all()

    def settle(self, timeout: float) -> bool:
        """Wait until the background thread has no copy left to make; False on ``timeout``."""
        with self._idle:
            return self._idle.wait_for(lambda: not self._queued, timeout)

    # --- at start ------------------------------------------------------------------------------

    def prepare(self, roots: list[Path]) -> None:
        """Hash every file under ``roots``; make the missing gzip copies now and queue the missing
        brotli ones, smallest first; remove copies no file needs any more."""
        started = time.perf_counter()
        made = files = 0
        unwritable = False
        later: list[tuple[int, Path, str, Coding]] = []
        for path in _walk(roots):
            st = path.stat()
            entry = self.known(path, st) or Entry(
                st.st_size, st.st_mtime_ns, _hash_file(path), path.suffix.lower() not in PACKED
            )
            self._entries[path] = entry
            files += 1
            for coding in self.missing(entry):
                if coding.at_start and not unwritable:
                    try:
                        self.make(path, entry.digest, coding)
                        made += 1
                    except OSError as exc:  # a read-only cache: files are sent as they are
                        log(
                            logger,
                            "static compression failed",
                            logging.WARNING,
                            path=str(path),
                            error=repr(exc),
                        )
                        unwritable = True
                elif not coding.at_start:
                    later.append((entry.size, path, entry.digest, coding))
        for _, path, digest, coding in sorted(later, key=lambda job: job[0]):  # small ones first
            self.enqueue(path, digest, coding)
        removed = self.prune({entry.digest for entry in self._entries.values()})
        log(
            logger,
            "static files ready",
            files=files,
            made=made,
            queued=len(later),
            removed=removed,
            cache=str(self.cache),
            ms=round((time.perf_counter() - started) * 1000),
        )

    def prune(self, digests: set[str]) -> int:
        """Remove the copies of contents not in ``digests``, and temporary and lock files older
        than an hour (a copy interrupted by a stop); the number removed."""
        removed = 0
        if not self.cache.is_dir():
            return 0
        for item in self.cache.iterdir():
            name = item.name
            stale = (
                name.endswith((".tmp", ".lock")) and time.time() - item.stat().st_mtime > 3600
                if name.startswith(".")
                else name.split(".", 1)[0] not in digests
                and any(name.endswith(c.suffix) for c in CODINGS)
            )
            if stale:
                with contextlib.suppress(FileNotFoundError):
                    item.unlink()
                    removed += 1
        return removed


@contextlib.contextmanager
def _locked(path: Path, wait: bool) -> Iterator[bool]:
    """An exclusive lock on ``path`` (created if need be) across processes: yields True while it
    is held, or False at once if ``wait`` is False and another process holds it."""
    with path.open("a") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        os.utime(path)  # a lock in use is never an hour old (prune)
        try:
            yield True
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _walk(roots: list[Path]) -> Iterator[Path]:
    """Every file under ``roots`` (symbolic links followed once; dot-folders and SKIP_DIRS
    left out)."""
    seen: set[str] = set()
    for root in roots:
        for folder, dirs, names in os.walk(root, followlinks=True):
            real = os.path.realpath(folder)
            if real in seen:
                dirs[:] = []
                continue
            seen.add(real)
            dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.startswith(".")]
            for name in names:
                path = Path(folder, name)
                if path.is_file():
                    yield path


class Folder:
    """One folder served under one URL prefix. ``html``: a folder's URL answers its index.html.
    ``versioned``: the folder is also served under ``<prefix>/~<tag>/``, its tag a hash of every
    file's name and content, and answers there may be kept for a year."""

    def __init__(self, root: Path, store: Precompressed, *, html: bool, versioned: bool) -> None:
        self.root = Path(os.path.normpath(root.absolute()))
        self.store = store
        self.html = html
        self.versioned = versioned

    def tag(self) -> str:
        """``~`` and the first hex digits of a hash of every file's path and content (a file
        changed since it was last hashed is hashed again: run it off the event loop)."""
        digest = hashlib.sha256()
        for path in sorted(_walk([self.root])):
            entry = self.store.entry(path, path.stat())
            digest.update(f"{path.relative_to(self.root).as_posix()}\t{entry.digest}\n".encode())
        return "~" + digest.hexdigest()[:TAG_LENGTH]

    def locate(self, relative: str) -> Path:
        """The file a URL path (relative to the prefix) names.

        Raises:
            NotFoundException: no such file, or a path that leaves the folder.
        """
        parts = [p for p in PurePath(relative).parts if p not in ("/", "")]
        if any(p == ".." for p in parts):
            raise NotFoundException(f"no file {relative}")
        path = self.root.joinpath(*parts)
        if os.path.commonpath([self.root, os.path.normpath(path)]) != str(self.root):
            raise NotFoundException(f"no file {relative}")
        if self.html and path.is_dir():
            path = path / "index.html"
        if not path.is_file():
            raise NotFoundException(f"no file {relative}")
        return path

    async def answer(self, request: Request[Any, Any, Any], relative: str) -> ASGIResponse:
        """A file: compressed as the client accepts, 304 if it holds this content already. Under
        the current version tag it may be kept for a year; under another tag (a page loaded
        before the files changed) the current file is sent, to be revalidated like any other."""
        cache_control = REVALIDATE
        first, _, rest = relative.lstrip("/").partition("/")
        if self.versioned and first.startswith("~"):
            current = await anyio.to_thread.run_sync(self.tag)
            cache_control = IMMUTABLE if first == current else REVALIDATE
            relative = rest
        path = self.locate(relative)
        st = path.stat()
        entry = self.store.known(path, st)
        if entry is None:  # new or changed: hash it off the event loop
            entry = await anyio.to_thread.run_sync(self.store.entry, path, st)
        copies = self.store.available(entry)
        coding = choose(request.headers.get("accept-encoding", ""), [c.token for c, _ in copies])
        headers = {
            "cache-control": cache_control,
            "etag": etag(entry.digest, coding),
            "x-content-type-options": "nosniff",
            "last-modified": formatdate(st.st_mtime, usegmt=True),
        }
        if entry.compressible:
            headers["vary"] = "Accept-Encoding"
        if_none_match = request.headers.get("if-none-match")
        if if_none_match and matches(if_none_match, entry.digest):
            return ASGIResponse(status_code=304, headers=headers)
        served = path
        if coding:
            headers["content-encoding"] = coding
            served = next(p for c, p in copies if c.token == coding)
        return ASGIFileResponse(
            file_path=served,
            stat_result=served.stat() if coding else st,
            filename=path.name,
            media_type=media_type(path),
            content_disposition_type="inline",
            headers=headers,
            is_head_response=request.method == "HEAD",
        )


class StaticFiles:
    """The gateway's static folders, from its settings: a router per folder that exists, the
    versions manifest, and a lifespan hook that prepares the compressed copies before the first
    request."""

    def __init__(self, *, pyodide: str, wheels: str, web_client: str, cache: str) -> None:
        self.store = Precompressed(Path(cache))
        mounts = [
            ("/pyodide", pyodide, False, True),
            ("/wheels", wheels, False, True),
            ("/", web_client, True, False),
        ]
        self.folders = {
            prefix: Folder(Path(directory), self.store, html=html, versioned=versioned)
            for prefix, directory, html, versioned in mounts
            if Path(directory).is_dir() and (not html or (Path(directory) / "index.html").is_file())
        }

    @property
    def has_web_client(self) -> bool:
        return "/" in self.folders

    def versions(self) -> dict[str, str]:
        """Each versioned folder's prefix and its versioned prefix now:
        ``{"/pyodide/": "/pyodide/~3f09…/", "/wheels/": "/wheels/~9c41…/"}``."""
        return {
            f"{prefix}/": f"{prefix}/{folder.tag()}/"
            for prefix, folder in self.folders.items()
            if folder.versioned
        }

    def routers(self) -> list[Router]:
        return [router(prefix, folder) for prefix, folder in self.folders.items()] + [
            Router(path="/", route_handlers=[versions_route(self)], include_in_schema=False)
        ]

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Litestar) -> AsyncIterator[None]:
        roots = [folder.root for folder in self.folders.values()]
        await anyio.to_thread.run_sync(self.store.prepare, roots)
        yield


def router(prefix: str, folder: Folder) -> Router:
    """GET and HEAD of every file under ``prefix`` (and of ``prefix`` itself for an html folder)."""
    name = prefix.strip("/") or "web"

    @route("{file_path:path}", http_method=["GET", "HEAD"], name=name, include_in_schema=False)
    async def file(request: Request[Any, Any, Any], file_path: FromPath[PurePath]) -> ASGIResponse:
        return await folder.answer(request, file_path.as_posix())

    handlers = [file]
    if folder.html:

        @route("/", http_method=["GET", "HEAD"], name=f"{name}/index", include_in_schema=False)
        async def index(request: Request[Any, Any, Any]) -> ASGIResponse:
            return await folder.answer(request, "")

        handlers.append(index)
    return Router(path=prefix, route_handlers=handlers, include_in_schema=False)


def versions_route(files: StaticFiles) -> HTTPRouteHandler:
    """``GET /versions.json``: where the versioned files are now (the engine worker asks first,
    then loads Pyodide and the wheel from there); revalidated on each visit like the client."""

    @route(VERSIONS, http_method=["GET", "HEAD"], name="versions", include_in_schema=False)
    async def versions(request: Request[Any, Any, Any]) -> ASGIResponse:
        body = json.dumps(await anyio.to_thread.run_sync(files.versions), sort_keys=True).encode()
        digest = hashlib.sha256(body).hexdigest()
        headers = {"cache-control": REVALIDATE, "etag": etag(digest, None)}
        if_none_match = request.headers.get("if-none-match")
        if if_none_match and matches(if_none_match, digest):
            return ASGIResponse(status_code=304, headers=headers)
        return ASGIResponse(
            body=body,
            headers=headers,
            media_type="application/json",
            is_head_response=request.method == "HEAD",
        )

    return versions
