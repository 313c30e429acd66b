"""Static files, compressed once and cached by the browser: Pyodide (``/pyodide/``), the engine
wheel (``/wheels/``) and the web client (``/``), as the gateway serves them.

**Compression, once per content** (``precompressed.py``): each file's compressed copies are
made once, gzip before the first answer and brotli in the background, and kept in a cache folder
under the hash of their content; this module sends the copy the request accepts.

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

**Offline.** ``GET /offline.json`` lists what a page needs with no network (``OFFLINE_FILES``:
the app shell, the rules pages, Pyodide's files and the wheel under their versioned prefixes) and
a version that changes with their contents; the service worker (web-client/sw.js) keeps them.
docs/services.md ("Static files") says the same for operators.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import mimetypes
import os
from collections.abc import AsyncIterator, Callable
from email.utils import formatdate
from pathlib import Path, PurePath
from typing import Any

import anyio.to_thread
from litestar import Litestar, Request, route
from litestar.exceptions import NotFoundException
from litestar.handlers import HTTPRouteHandler
from litestar.params import FromPath
from litestar.response.base import ASGIResponse
from litestar.response.file import ASGIFileResponse
from litestar.router import Router

from paiju_services.config import Settings
from paiju_services.gateway.precompressed import Precompressed, walk

REVALIDATE = "no-cache"  # keep it, but ask with If-None-Match before each use
IMMUTABLE = "public, max-age=31536000, immutable"  # a versioned URL: never ask again
VERSIONS = "/versions.json"  # the versioned prefixes of the folders that have them
OFFLINE = "/offline.json"  # the files the service worker keeps for a visit without the network

# What a page needs with no network (web-client/sw.js keeps it): the app shell and every module,
# the players' rules pages, the Pyodide files its worker loads and the engine with its snapshot,
# by folder prefix, as glob patterns of paths in that folder.
OFFLINE_FILES: dict[str, tuple[str, ...]] = {
    "/": (
        "index.html",
        "favicon.svg",
        "manifest.webmanifest",
        "css/*",
        "js/*",
        "guide/*",
        "rules/*",
    ),
    "/pyodide": (
        "pyodide.mjs",
        "pyodide.asm.mjs",
        "pyodide.asm.wasm",
        "python_stdlib.zip",
        "pyodide-lock.json",
    ),
    "/wheels": ("*.whl", "engine.snapshot"),
}
TAG_LENGTH = 16  # hex digits of a folder's version tag

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
    ".webmanifest": "application/manifest+json",
    ".whl": "application/zip",
    ".zip": "application/zip",
}


def media_type(path: PurePath) -> str:
    """The ``Content-Type`` of a file, from its name."""
    known = MEDIA_TYPES.get(path.suffix.lower())
    if known:
        return known
    guessed, _ = mimetypes.guess_type(path.name)
    return guessed or "application/octet-stream"


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
        for path in sorted(walk([self.root])):
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

    def __init__(
        self, *, pyodide: str, wheels: str, web_client: str, cache: str, brotli_quality: int
    ) -> None:
        self.store = Precompressed(Path(cache), brotli_quality)
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

    @classmethod
    def of(cls, settings: Settings) -> StaticFiles:
        """The static folders and cache the settings name (the gateway's, a test stack's)."""
        return cls(
            pyodide=settings.pyodide,
            wheels=settings.wheels,
            web_client=settings.web_client,
            cache=settings.static_cache,
            brotli_quality=settings.brotli_quality,
        )

    def make_every_copy(self, timeout: float) -> bool:
        """Every compressed copy the gateway would make, made now, to the end (a gateway started
        on this cache then compresses nothing in the background); False if not all were made
        within ``timeout`` seconds. For a short-lived gateway (a test stack, a bench run), which
        would otherwise spend its life on Pyodide's brotli copy and be stopped before it ends."""
        self.store.prepare([folder.root for folder in self.folders.values()])
        return self.store.settle(timeout)

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

    def offline(self) -> dict[str, Any]:
        """The URLs a page needs with no network (``OFFLINE_FILES``; the web client's root as
        ``/``, Pyodide and the wheel under their versioned prefixes) and a version that changes
        with any of their contents: ``{"version": "3f09…", "files": ["/", "/css/app.css", …]}``."""
        files: list[str] = []
        digest = hashlib.sha256()
        for prefix, patterns in OFFLINE_FILES.items():
            folder = self.folders.get(prefix)
            if folder is None:
                continue
            base = prefix.rstrip("/") + "/" + (folder.tag() + "/" if folder.versioned else "")
            for pattern in patterns:
                for path in sorted(folder.root.glob(pattern)):
                    if not path.is_file():
                        continue
                    relative = path.relative_to(folder.root).as_posix()
                    url = base if relative == "index.html" and folder.html else base + relative
                    entry = self.store.entry(path, path.stat())
                    digest.update(f"{url}\t{entry.digest}\n".encode())
                    files.append(url)
        return {"version": digest.hexdigest()[:TAG_LENGTH], "files": files}

    def routers(self) -> list[Router]:
        manifests = [versions_route(self), offline_route(self)]
        return [router(prefix, folder) for prefix, folder in self.folders.items()] + [
            Router(path="/", route_handlers=manifests, include_in_schema=False)
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
    return manifest_route(VERSIONS, "versions", files.versions)


def offline_route(files: StaticFiles) -> HTTPRouteHandler:
    """``GET /offline.json``: what the service worker keeps for a visit with no network."""
    return manifest_route(OFFLINE, "offline", files.offline)


def manifest_route(path: str, name: str, make: Callable[[], Any]) -> HTTPRouteHandler:
    """A JSON document made by ``make`` (off the event loop: it hashes files), with an ETag and
    revalidated on each use."""

    @route(path, http_method=["GET", "HEAD"], name=name, include_in_schema=False)
    async def manifest(request: Request[Any, Any, Any]) -> ASGIResponse:
        body = json.dumps(await anyio.to_thread.run_sync(make), sort_keys=True).encode()
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

    return manifest
