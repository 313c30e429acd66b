"""The compressed copies of the static files the gateway serves (``static.py``), made once per
content and kept in a cache folder shared by the gateway's copies.

A file is compressed once, never per request, into the cache folder (``Settings.static_cache``,
default ``var/static/``) under the sha256 of its bytes: ``<sha256>.gz`` (stdlib gzip, level 9) and
``<sha256>.br`` (brotli, the ``brotli_quality`` setting: 11 by default). At the gateway's start every file of the served folders is
hashed (tens of milliseconds for Pyodide's 14 MB) and whatever the cache lacks is made: the gzip
copies before the gateway answers its first request (about 2 s for all of Pyodide), the brotli
copies in a background thread, smallest first (some 30 s, 25 of them for Pyodide's 9.6 MB wasm),
gzip being served meanwhile. A file that changes while the gateway runs is hashed again when next
asked for (its size or mtime moved) and compressed in the background; until then it is sent as it
is. Since a copy is named by the hash of the bytes it was made from, a changed file is never
answered with an old copy; copies of contents no file has any more are removed at the next start.
Several gateway copies may share the folder: one makes a copy while it holds a lock file (the
others wait for a gzip copy, and leave a brotli copy to it), writing through a temporary file and
an atomic rename. The background thread runs at nice 10, so serving comes first. A copy is kept
only when it is smaller than the file. Copies made at another brotli quality (the setting
changed) are served until their file changes: clear the folder to make them again.

Separate from the serving (``static.py``: the URLs, negotiation, ETags and caching headers): this
module knows files, hashes and the cache folder, nothing of HTTP.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import gzip
import hashlib
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import brotli  # type: ignore[import-untyped]  # no stubs; one function used, typed below

from paiju_services.logs import log

logger = logging.getLogger("paiju.gateway.static")  # as before the split: log filters still match

GZIP_LEVEL = 9
SKIP_DIRS = frozenset({"node_modules", "__pycache__"})  # of the web client's folder, at start

# Already compressed as a whole: another pass would only cost time.
PACKED = frozenset(
    {".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".woff", ".woff2", ".gz", ".br", ".zst"}
    | {".mp3", ".ogg", ".opus", ".mp4", ".webm"}
)


def _brotli(data: bytes, quality: int) -> bytes:
    out: bytes = brotli.compress(data, quality=quality)
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


def codings(brotli_quality: int) -> tuple[Coding, ...]:
    """The codings the copies are made in, in our order of preference. gzip of all of Pyodide
    takes about 2 s; brotli at quality 11 about 30 s (25 s the wasm alone, 12% smaller than at
    quality 9, which takes 3 s), at quality 5 under a second.

    Raises:
        ValueError: ``brotli_quality`` is not 0 to 11.
    """
    if not 0 <= brotli_quality <= 11:
        raise ValueError(f"brotli_quality is 0 to 11, not {brotli_quality}")
    return (
        Coding("br", ".br", functools.partial(_brotli, quality=brotli_quality), False),
        Coding("gzip", ".gz", _gzip, True),
    )


@dataclass(frozen=True)
class Entry:
    """A file as last seen: what its stat said when it was hashed, and the hash."""

    size: int
    mtime_ns: int
    digest: str  # sha256, hex
    compressible: bool

    @classmethod
    def hashed(cls, path: Path, st: os.stat_result) -> Entry:
        """The entry of ``path`` as it is now: ``st`` its stat, its bytes hashed.

        Raises:
            OSError: the file cannot be read.
        """
        return cls(st.st_size, st.st_mtime_ns, _hash_file(path), path.suffix.lower() not in PACKED)


def _hash_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


class Precompressed:
    """The cache folder of compressed copies, what is known of each file served, and the one
    background thread that makes the slow copies."""

    def __init__(self, cache: Path, brotli_quality: int) -> None:
        self.cache = cache
        self.codings = codings(brotli_quality)
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
            entry = Entry.hashed(path, st)
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
            for coding in self.codings
            if self.copy(entry.digest, coding).is_file()
        ]

    def missing(self, entry: Entry) -> list[Coding]:
        if not entry.compressible:
            return []
        return [
            coding
            for coding in self.codings
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
                _failed(path, exc)
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
        for path in walk(roots):
            st = path.stat()
            entry = self.known(path, st) or Entry.hashed(path, st)
            self._entries[path] = entry
            files += 1
            for coding in self.missing(entry):
                if coding.at_start and not unwritable:
                    try:
                        self.make(path, entry.digest, coding)
                        made += 1
                    except OSError as exc:  # a read-only cache: files are sent as they are
                        _failed(path, exc)
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
        than an hour (a copy interrupted by a stop); the number removed. A file another process
        removes meanwhile (its copy made, its lock let go) is passed over."""
        removed = 0
        if not self.cache.is_dir():
            return 0
        for item in self.cache.iterdir():
            with contextlib.suppress(FileNotFoundError):
                if self._stale(item, digests):
                    item.unlink()
                    removed += 1
        return removed

    def _stale(self, item: Path, digests: set[str]) -> bool:
        name = item.name
        if name.startswith("."):
            return name.endswith((".tmp", ".lock")) and time.time() - item.stat().st_mtime > 3600
        return name.split(".", 1)[0] not in digests and any(
            name.endswith(c.suffix) for c in self.codings
        )


def _failed(path: Path, exc: BaseException) -> None:
    """Log that a copy of ``path`` could not be made; the file is sent as it is meanwhile."""
    log(logger, "static compression failed", logging.WARNING, path=str(path), error=repr(exc))


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


def walk(roots: list[Path]) -> Iterator[Path]:
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
