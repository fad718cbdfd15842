"""A circuit breaker for one upstream (a chain's RPC or its subgraph) over one Dagster run.

A run's assets read the same upstream one after another, several threads at a time. When that
upstream is dead, each read would wait out its own timeouts and retries (minutes per asset). So
once a read has failed on the upstream's availability (a timeout, a refused or reset connection,
an HTTP error status) after its own retries, the reader trips the breaker, and from then on every
read of the run to that upstream fails at once with the same one line: which upstream, the first
cause, and when. The breaker never closes: the run has failed anyway (a snapshot publishes only
when every asset succeeded), and the next run, with its own breaker, tries again.

Readers that live longer than a run (the API's live routes) are built without a breaker.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Callable

from ..core import clock

log = logging.getLogger("readers.breaker")


def timed_out(attempts: int, timeout: float) -> str:
    """The cause a reader trips its breaker with when its attempts timed out."""
    return f"timed out after {attempts} attempt{'s' if attempts != 1 else ''} of {timeout:g} s"


class UpstreamDown(RuntimeError):
    """An upstream that does not answer. The readers mix it into their own errors (RpcDown,
    SubgraphDown) for a read refused, or given up, because the upstream is down for this run; the
    liveness probe (readers.liveness) raises it as is."""


class CircuitBreaker:
    """Open once, by the first read that gives up on the upstream; thread-safe."""

    def __init__(self, upstream: str):
        self.upstream = upstream  # "chain 8453 rpc http://…": how the message names it
        self._lock = threading.Lock()
        self._cause: str | None = None
        self._opened_at: float | None = None

    @property
    def is_open(self) -> bool:
        return self._cause is not None

    @property
    def opened_at(self) -> float | None:
        return self._opened_at

    def trip(self, cause: str) -> str:
        """Open the circuit with `cause` (the first one stays); the breaker's message."""
        with self._lock:
            if self._cause is None:
                self._cause, self._opened_at = cause, clock.now()  # told on the product's clock, as snapshot times are
                log.warning("%s", self._message())
            return self._message()

    def message(self) -> str | None:
        """The one line every refused read carries; None while the circuit is closed."""
        with self._lock:
            return self._message() if self._cause is not None else None

    def refuse_if_open(self, error: Callable[[str], Exception]) -> None:
        """Raise `error(line)` when the circuit is open (before a read asks the upstream)."""
        line = self.message()
        if line is not None:
            raise error(line)

    def _message(self) -> str:
        when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self._opened_at))
        return f"{self.upstream} {self._cause} at {when}; circuit open, not read again in this run"
