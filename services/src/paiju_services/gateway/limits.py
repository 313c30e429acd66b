"""Rate limits: a token bucket per WebSocket (frames a second) and per HTTP client (API requests a
second). A client over its limit gets ``rate_limited`` (429) and nothing it sent is acted on."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

from litestar.enums import ScopeType
from litestar.exceptions import HTTPException
from litestar.types import ASGIApp, Receive, Scope, Send

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


def http_rate_limit(settings: Settings) -> Callable[[ASGIApp], ASGIApp]:
    """Middleware: ``settings.http_rate`` API requests a second per client address, bursts of
    ``settings.http_burst``."""

    def factory(app: ASGIApp) -> ASGIApp:
        buckets: OrderedDict[str, RateLimit] = OrderedDict()

        async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] == ScopeType.HTTP and scope["path"].startswith(API_PREFIX):
                client = scope.get("client")
                address = client[0] if client else "?"
                bucket = buckets.pop(address, None) or RateLimit(
                    settings.http_rate, settings.http_burst
                )
                buckets[address] = bucket
                if len(buckets) > MAX_CLIENTS:
                    buckets.popitem(last=False)
                if not bucket.allow():
                    raise HTTPException(status_code=429)
            await app(scope, receive, send)

        return middleware

    return factory
