"""JSON-RPC over HTTP for the chain reader: its errors, the transport (`JsonRpc`: timeouts, retries,
the run's circuit breaker) and web3's HTTP provider behind the same breaker. `readers.chain`
re-exports the errors; callers import them from there.
"""
from __future__ import annotations

import itertools
import json
import os
import time
from typing import Any

import requests
from web3.providers.rpc import HTTPProvider

from .breaker import CircuitBreaker, UpstreamDown, timed_out


class ChainReadError(RuntimeError):
    """A chain read that failed (transport, revert, undecodable result, missing value)."""


# What a request is retried on (as the HTTPProvider's ExceptionRetryConfiguration was set).
RETRY_ERRORS = (ConnectionError, requests.ConnectionError, requests.HTTPError, requests.Timeout)


class RpcDown(ChainReadError, UpstreamDown):
    """The chain's RPC is down for this run (its circuit breaker is open)."""


class RpcError(ChainReadError):
    """A JSON-RPC error answer (a revert, an unknown block, ...)."""

    def __init__(self, message: str, code: Any = None, data: Any = None):
        super().__init__(message)
        self.code = code
        self.data = data


class JsonRpc:
    """JSON-RPC over HTTP POST on one `requests.Session` (thread-safe connection pool).

    `trust_env` is off: requests would otherwise look up proxy settings in the environment on
    every request (urllib's getproxies_environment walks os.environ), which cost more CPU than
    the request itself. The environment's proxies for the endpoint and its CA bundle
    (REQUESTS_CA_BUNDLE / CURL_CA_BUNDLE) are read once here instead. Each attempt that fails with a connection error, a timeout or an HTTP
    error status is retried after backoff * 2**attempt seconds, `retries` attempts in all, of which
    at most `timeout_attempts` may time out. With a `breaker` (readers.breaker), a request that
    gives up trips it, and every request after that fails at once with `RpcDown`.
    """

    def __init__(self, url: str, *, timeout: float, retries: int, backoff: float, pool_size: int = 8,
                 timeout_attempts: int | None = None, breaker: CircuitBreaker | None = None):
        self.url = url
        self.timeout = timeout
        self.retries = max(1, retries)
        self.timeout_attempts = max(1, timeout_attempts or self.retries)
        self.backoff = backoff
        self.breaker = breaker
        self._ids = itertools.count(1)
        session = requests.Session()
        session.proxies.update(requests.utils.get_environ_proxies(url))
        bundle = os.environ.get("REQUESTS_CA_BUNDLE") or os.environ.get("CURL_CA_BUNDLE")
        if bundle:
            session.verify = bundle
        session.trust_env = False
        adapter = requests.adapters.HTTPAdapter(pool_connections=1, pool_maxsize=pool_size)
        session.mount("http://", adapter)
        session.mount("https://", adapter)
        session.headers.update({"Content-Type": "application/json"})
        self.session = session

    def post(self, body: bytes) -> bytes:
        timeouts = 0
        for attempt in range(self.retries):
            self._refuse_if_down()
            try:
                resp = self.session.post(self.url, data=body, timeout=self.timeout)
                resp.raise_for_status()
                return resp.content
            except RETRY_ERRORS as exc:
                # a timeout that repeats is a hung endpoint: it gets fewer attempts than the rest
                timeouts += isinstance(exc, requests.Timeout)
                if attempt < self.retries - 1 and timeouts < self.timeout_attempts:
                    time.sleep(self.backoff * 2**attempt)
                    continue
                if self.breaker is None:
                    raise
                cause = (timed_out(timeouts, self.timeout) if isinstance(exc, requests.Timeout)
                         else f"failed after {attempt + 1} attempts: {exc!r}")
                raise RpcDown(self.breaker.trip(cause)) from exc
        raise AssertionError("unreachable")

    def _refuse_if_down(self) -> None:
        if self.breaker is not None:
            self.breaker.refuse_if_open(RpcDown)

    def request(self, method: str, params: list) -> Any:
        body = json.dumps({"jsonrpc": "2.0", "method": method, "params": params, "id": next(self._ids)},
                          separators=(",", ":")).encode()
        doc = json.loads(self.post(body))
        if not isinstance(doc, dict):
            raise ChainReadError(f"rpc {self.url}: {method}: not a JSON-RPC response: {str(doc)[:200]}")
        error = doc.get("error")
        if error is not None:
            if isinstance(error, dict):
                raise RpcError(f"rpc {self.url}: {method}: {error.get('message')} (code {error.get('code')})",
                               error.get("code"), error.get("data"))
            raise RpcError(f"rpc {self.url}: {method}: {error}")
        if "result" not in doc:
            raise ChainReadError(f"rpc {self.url}: {method}: response without result: {str(doc)[:200]}")
        return doc["result"]

    def close(self) -> None:
        self.session.close()


class GuardedProvider(HTTPProvider):
    """web3's HTTP provider behind the JsonRpc's breaker: refused at once while the RPC is down,
    and a request that gives up trips it."""

    def __init__(self, rpc: JsonRpc, **kwargs: Any):
        super().__init__(rpc.url, **kwargs)
        self._rpc = rpc

    def make_request(self, method: Any, params: Any) -> Any:
        self._rpc._refuse_if_down()
        try:
            return super().make_request(method, params)
        except RETRY_ERRORS as exc:
            if self._rpc.breaker is None:
                raise
            raise RpcDown(self._rpc.breaker.trip(f"failed: {exc!r}")) from exc
