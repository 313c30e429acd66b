"""The gateway's wiring: ``create_app(settings)`` builds the Litestar app (routes, error mapping,
OpenAPI, static files) with a lifespan that owns the NATS connection; ``serve`` runs it under
uvicorn until SIGINT or SIGTERM."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import msgspec
import uvicorn
from litestar import Litestar, Request, Response, get
from litestar.di import Provide
from litestar.enums import ScopeType
from litestar.exceptions import HTTPException, ValidationException
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import ScalarRenderPlugin, SwaggerRenderPlugin
from litestar.router import Router
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from paiju_services import __version__, bus, metrics, streams, subjects
from paiju_services.config import Settings
from paiju_services.errors import ErrorBody, ServiceError, error_body, http_status, short
from paiju_services.gateway import controllers, static
from paiju_services.gateway.backend import Backend
from paiju_services.gateway.gzip import gzip_api
from paiju_services.gateway.limits import PerClient, http_rate_limit
from paiju_services.gateway.ws import table_socket
from paiju_services.logs import log
from paiju_services.runner import close

logger = logging.getLogger("paiju.gateway")

_STATUS_CODES = {
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    429: "rate_limited",
}


def error_response(request: Request[Any, Any, Any], exc: Exception) -> Response[ErrorBody]:
    """The one mapping from any error to an HTTP response: ``{"code", "zh", "en", "cards"}``."""
    if isinstance(exc, HTTPException) and not isinstance(exc, ServiceError):
        status = exc.status_code
        if isinstance(exc, ValidationException) or status == 400:
            detail = exc.detail or ""
            extra = exc.extra if isinstance(exc.extra, list | dict) else None
            text = f"{detail} {msgspec.json.encode(extra).decode() if extra else ''}"
            code = "bad_json" if _malformed(exc) else "bad_request"
            body = ServiceError(code, detail=short(text)).body()
        elif status in _STATUS_CODES:
            code = _STATUS_CODES[status]
            params: dict[str, Any] = {"path": request.url.path[:80], "limit": "?"}
            body = (
                ServiceError(code, **params).body()
                if code != "too_large"
                else ServiceError("too_large", limit=request.app.state.settings.max_body).body()
            )
        else:
            body = ErrorBody(
                "internal" if status >= 500 else "bad_request", str(exc.detail), str(exc.detail)
            )
        return Response(body, status_code=status)
    body = error_body(exc)
    if body.code == "internal":
        log(logger, "unhandled error", logging.ERROR, path=request.url.path, error=repr(exc))
    # overloaded: when to come back, as the table service said (RFC 9110 Retry-After, seconds)
    retry = {} if body.retry_after is msgspec.UNSET else {"Retry-After": str(body.retry_after)}
    return Response(body, status_code=http_status(body), headers=retry)


def _malformed(exc: BaseException) -> bool:
    """Whether a 400 came from a body that is not JSON at all (not from JSON of the wrong shape)."""
    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, msgspec.DecodeError) and not isinstance(
            cause, msgspec.ValidationError
        ):
            return True
        cause = cause.__cause__
    return False


def access_log(app: ASGIApp) -> ASGIApp:
    """One structured log line per HTTP request (method, path, status, milliseconds)."""

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:
            await app(scope, receive, send)
            return
        t0 = time.perf_counter()
        status = 500

        async def send_wrapper(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await app(scope, receive, send_wrapper)
        finally:
            log(
                logger,
                "http",
                method=scope.get("method"),
                path=scope.get("path"),
                status=status,
                ms=round((time.perf_counter() - t0) * 1000, 2),
            )

    return middleware


def get_backend(request: Request[Any, Any, Any]) -> Backend:
    backend: Backend = request.app.state.backend
    return backend


def create_app(settings: Settings) -> Litestar:
    @contextlib.asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        reconnected: list[Callable[[], None]] = []
        nc = await bus.connect(settings, settings.instance, reconnected)
        js = nc.jetstream(timeout=settings.request_timeout)
        await streams.ensure(js, settings.replicas, create=False)  # the table service creates
        tables_kv = await js.key_value(subjects.TABLES_BUCKET)
        app.state.backend = Backend(settings, nc, js, tables_kv)
        reconnected.append(app.state.backend.reconnected)  # its feeds read what they missed
        await app.state.backend.start()
        log(logger, "gateway ready", url=f"http://{settings.host}:{settings.port}/")
        try:
            yield
        finally:
            await app.state.backend.close()
            await close(nc)
            log(logger, "gateway stopped")

    handlers: list[Any] = [
        controllers.health,
        controllers.games,
        controllers.TablesController,
        table_socket,
    ]
    # Pyodide, the wheel and the web client: compressed once, revalidated by ETag (static.py)
    statics = static.StaticFiles.of(settings)
    handlers += statics.routers()
    if not statics.has_web_client:
        handlers.append(Router(path="/", route_handlers=[placeholder]))
    return Litestar(
        route_handlers=handlers,
        lifespan=[lifespan, statics.lifespan],
        dependencies={"backend": Provide(get_backend, sync_to_thread=False)},
        exception_handlers={Exception: error_response},
        before_request=controllers.check_body,
        # the API's JSON answers gzipped (gateway/gzip.py; static files are precompressed)
        middleware=[access_log, http_rate_limit(settings), gzip_api],
        request_max_body_size=settings.max_body,
        logging_config=None,
        openapi_config=OpenAPIConfig(
            title="Paiju 牌局 API",
            version=__version__,
            description="Tables, seats, bots, commands, replay and audit. docs/services.md has the details.",
            path="/api/schema",
            render_plugins=[ScalarRenderPlugin(), SwaggerRenderPlugin(path="/swagger")],
        ),
        state=_state(settings),
        debug=False,
    )


def _state(settings: Settings) -> Any:
    from litestar.datastructures import State

    return State({"settings": settings, "openings": PerClient(settings.ws_rate, settings.ws_burst)})


@get("/", include_in_schema=False, media_type="text/html")
async def placeholder() -> str:
    return (
        "<!doctype html><meta charset=utf-8><title>Paiju 牌局</title>"
        "<h1>Paiju 牌局</h1><p>The web client is not built into web-client/ yet. "
        "API: <a href=/api/games>/api/games</a>, <a href=/api/tables>/api/tables</a>, "
        "<a href=/api/schema>OpenAPI</a>, <a href=/api/health>health</a>.</p>"
    )


async def serve(settings: Settings) -> None:
    metrics.serve(settings.metrics_port)
    config = uvicorn.Config(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        ws_max_size=settings.ws_max_size,
        ws_per_message_deflate=settings.ws_compress,
        log_config=None,
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=5,
    )
    await uvicorn.Server(config).serve()
