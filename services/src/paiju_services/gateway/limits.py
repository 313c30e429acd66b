"""Rate limits: token buckets per WebSocket (frames a second) and per client address (API requests
a second, WebSocket connections opened a second). A client over its limit gets ``rate_limited``
(429 over HTTP; on a socket, an error frame, and a new socket is closed with 1013 before it
watches anything) and nothing it sent is acted on."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

from litestar.enums import ScopeType
from litestar.exceptions import HTTPException
from litestar.types import ASGIApp, Receive, Scope, Send

from paiju_services import metrics
from paiju_services.config import Settings

API_PREFIX = "/api/"  # static files (the client, Pyodide, the wheel) are not limited
MAX_CLIENTS = 10_000  # buckets kept; the least recently seen client is forgotten first


class RateLimit:
    """A token bucket: ``rate`` a second, bursts of ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.last = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


class PerClient:
    """A token bucket per client address; the least recently seen address is forgotten first,
    past ``MAX_CLIENTS`` (its next request starts with a full bucket)."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.buckets: OrderedDict[str, RateLimit] = OrderedDict()

    def allow(self, address: str) -> bool:
        bucket = self.buckets.pop(address, None) or RateLimit(self.rate, self.burst)
        self.buckets[address] = bucket
        if len(self.buckets) > MAX_CLIENTS:
            self.buckets.popitem(last=False)
        return bucket.allow()


def client_address(scope: Scope) -> str:
    client = scope.get("client")
    return client[0] if client else "?"


def http_rate_limit(settings: Settings) -> Callable[[ASGIApp], ASGIApp]:
    """Middleware: ``settings.http_rate`` API requests a second per client address, bursts of
    ``settings.http_burst``."""

    def factory(app: ASGIApp) -> ASGIApp:
        clients = PerClient(settings.http_rate, settings.http_burst)

        async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
            api = scope["type"] == ScopeType.HTTP and scope["path"].startswith(API_PREFIX)
            if api and not clients.allow(client_address(scope)):
                metrics.RATE_LIMITED.labels("http").inc()
                raise HTTPException(status_code=429)
            await app(scope, receive, send)

        return middleware

    return factory
