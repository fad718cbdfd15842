"""Best-effort per-client rate limiting: one token bucket per client address and worker.

A client may burst `burst` requests, then `rate` requests per second on average; past that a
route answers 429 `rate_limited` with `Retry-After` (whole seconds until one token is back).
It is per worker process and keyed by the peer address (`request.ip`), so it protects the
server from one noisy client; it is not a quota (a CDN in front sees its own address).
Buckets of clients idle long enough to be full again are dropped, so memory stays bounded.
"""
from __future__ import annotations

import math
import time
from typing import Any, Callable

from .errors import ApiError

RATE_LIMITED = "rate_limited"
MAX_CLIENTS = 10_000


class RateLimiter:
    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic):
        if rate <= 0 or burst < 1:
            raise ValueError("rate must be > 0 and burst >= 1")
        self.rate = float(rate)
        self.burst = int(burst)
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # client -> (tokens, updated at)

    def take(self, client: str) -> float:
        """Spend one token; 0.0 when allowed, else the seconds until a token is available."""
        now = self.clock()
        tokens, updated = self._buckets.get(client, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - updated) * self.rate)
        if tokens < 1.0:
            self._buckets[client] = (tokens, now)
            return (1.0 - tokens) / self.rate
        self._buckets[client] = (tokens - 1.0, now)
        if len(self._buckets) > MAX_CLIENTS:
            self._forget_full(now)
        return 0.0

    def _forget_full(self, now: float) -> None:
        refill = self.burst / self.rate
        self._buckets = {c: b for c, b in self._buckets.items() if now - b[1] < refill}

    def check(self, request: Any) -> None:
        wait = self.take(request.ip or "unknown")
        if wait > 0:
            retry = max(1, math.ceil(wait))
            raise ApiError(
                429,
                RATE_LIMITED,
                f"too many requests: at most {self.burst} at once, then {self.rate:g} per second per client; retry after {retry} s",
                headers={"retry-after": str(retry)},
            )
