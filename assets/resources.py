"""Dagster resources: the warehouse, and the chains (a subgraph client and a chain reader per chain).

Each resource resolves its endpoints from `Settings.from_env()` and the chain book (every default
is the local stack), and a field set on the resource overrides one value; `resources_for(settings)` builds
them from an explicit Settings (tests, backfill). Secrets (the ClickHouse password) are never
resource fields, so they never show up in run configuration: they come from the environment.
"""
from __future__ import annotations

import dataclasses
import logging
import os
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Hashable, Iterator, Optional, TypeVar

from dagster import ConfigurableResource, InitResourceContext, ResourceDefinition
from pydantic import PrivateAttr

from ..core.chains import MULTICALL3, ChainConfig, load_book
from ..core.config import Settings
from ..readers.breaker import CircuitBreaker
from ..readers.chain import ChainReader
from ..readers.graphql import SubgraphClient
from ..warehouse.client import get_client

log = logging.getLogger("orchestration.progress")
T = TypeVar("T")


class WarehouseResource(ConfigurableResource):
    """ClickHouse through `warehouse.client.get_client` (the one client code path). Within a run,
    every asset and check shares one client (sessionless, so concurrent queries are independent):
    a client fetches the server's settings when it is made, which costs more than most queries."""

    clickhouse_url: Optional[str] = None
    database: Optional[str] = None
    user: Optional[str] = None

    _shared: Any = PrivateAttr(default=None)
    _in_run: bool = PrivateAttr(default=False)
    _lock: Any = PrivateAttr(default_factory=threading.Lock)

    def settings(self) -> Settings:
        base = Settings.from_env()
        overrides = {
            "clickhouse_url": self.clickhouse_url,
            "clickhouse_database": self.database,
            "clickhouse_user": self.user,
        }
        return dataclasses.replace(base, **{k: v for k, v in overrides.items() if v})

    def setup_for_execution(self, context: InitResourceContext) -> None:
        self._in_run = True

    def teardown_after_execution(self, context: InitResourceContext) -> None:
        self._in_run = False
        if self._shared is not None:
            self._shared.close()
            self._shared = None

    @contextmanager
    def client(self) -> Iterator[Any]:
        if self._in_run:
            with self._lock:
                if self._shared is None:
                    self._shared = get_client(self.settings())
            yield self._shared
            return
        client = get_client(self.settings())  # outside a run (direct use): one client per use
        try:
            yield client
        finally:
            client.close()


# Reads a run's assets share per block (ChainHandle.shared): a snapshot run holds at most
# SNAPSHOT_DAYS_PER_RUN x 96 blocks; beyond this many entries the oldest go first.
SHARED_READS = 4096


@dataclasses.dataclass
class ChainHandle:
    """One chain's configuration and its two upstream clients, for the assets of that chain.
    A handle lives for one run (ChainsResource)."""

    chain_id: int
    chain: ChainConfig
    reader: ChainReader
    subgraph: SubgraphClient
    _shared: dict = dataclasses.field(default_factory=dict, repr=False)

    def shared(self, key: Hashable, read: Callable[[], T]) -> T:
        """`read()`, or what it returned for `key` earlier in this run: the assets of one run
        that need the same compact state at a block (the gauge and KPI snapshots' epoch state)
        read it once. Two threads asking at once may both read; either result is kept."""
        if key in self._shared:
            return self._shared[key]
        value = self._shared[key] = read()
        while len(self._shared) > SHARED_READS:
            self._shared.pop(next(iter(self._shared)), None)
        return value

    def config(self) -> ChainConfig:
        return self.chain

    def contracts(self) -> dict[str, str]:
        return dict(self.chain.contracts)


class ChainsResource(ConfigurableResource):
    """Every configured chain's endpoints, contracts and vaults (the chain book), and a handle per
    chain with its subgraph client and JSON-RPC reader, opened when an asset first asks for it.

    `chain_book` names the book file (default: the configured CHAIN_BOOK); `overrides` are
    per-entry values in the book's environment form (`SUBGRAPH_URL_<id>`, `RPC_URL_<id>`, ...)
    applied on top of it, so a run can be pinned to explicit endpoints (tests, backfill).

    Each chain's two upstreams get a circuit breaker for the run (readers.breaker), shared by
    every reader the run makes of them: once one read gives up on an upstream, the run's other
    reads of it fail at once instead of each waiting out its timeouts. Of a request's attempts,
    `timeout_attempts` may time out: a hung endpoint costs that many timeouts, not `*_retries`
    (both from core.run_limits, through `resources_for`)."""

    chain_book: Optional[str] = None
    overrides: dict[str, str] = {}
    timeout_seconds: float = 30.0
    timeout_attempts: int = 2
    subgraph_retries: int = 4
    rpc_retries: int = 5
    backoff_seconds: float = 0.5

    _handles: dict[int, ChainHandle] = PrivateAttr(default_factory=dict)

    def book(self) -> dict[int, ChainConfig]:
        path = Path(self.chain_book) if self.chain_book else Settings.from_env().chain_book
        return load_book(path, {**os.environ, **self.overrides})

    def config(self, chain_id: int) -> ChainConfig:
        book = self.book()
        if chain_id not in book:
            raise LookupError(f"chain {chain_id} is not in the chain book {self.chain_book or '(CHAIN_BOOK)'}")
        return book[chain_id]

    def chain(self, chain_id: int) -> ChainHandle:
        handle = self._handles.get(chain_id)
        if handle is None:
            config = self.config(chain_id)
            reader = ChainReader(config.rpc_url, chain_id, config.contracts.get("multicall3") or MULTICALL3,
                                 contracts=dict(config.contracts), timeout=self.timeout_seconds,
                                 retries=self.rpc_retries, timeout_attempts=self.timeout_attempts,
                                 breaker=CircuitBreaker(f"chain {chain_id} rpc {config.rpc_url}"))
            subgraph = SubgraphClient(config.subgraph_url, timeout=self.timeout_seconds,
                                      retries=self.subgraph_retries, backoff=self.backoff_seconds,
                                      timeout_attempts=self.timeout_attempts,
                                      breaker=CircuitBreaker(f"chain {chain_id} subgraph {config.subgraph_url}"))
            handle = self._handles[chain_id] = ChainHandle(chain_id, config, reader, subgraph)
        return handle

    def teardown_after_execution(self, context: InitResourceContext) -> None:
        for handle in self._handles.values():
            handle.subgraph.close()
            handle.reader.rpc.close()
        self._handles.clear()


class Progress:
    """Progress of long asset runs, in the run's log: a readable line every `every` items and at
    the end (each launched run is a process of its own, so the clock starts with the run)."""

    def __init__(self, *, every: int = 96):
        self.every = max(1, every)
        self.started = time.monotonic()

    def report(self, stage: str, done: int, total: int, *, force: bool = False) -> None:
        if not force and done % self.every and done != total:
            return
        pct = 100.0 * done / total if total else 100.0
        log.info("%s %s/%s (%.0f%%) %.0f s elapsed", stage, f"{done:,}", f"{total:,}", pct, time.monotonic() - self.started)


def endpoint_overrides(settings: Settings) -> dict[str, str]:
    """The settings' chain endpoints in the book's override form (they may differ from the file's)."""
    out: dict[str, str] = {}
    for cid, chain in settings.chains.items():
        out[f"SUBGRAPH_URL_{cid}"] = chain.subgraph_url
        out[f"RPC_URL_{cid}"] = chain.rpc_url
    return out


def resources_for(settings: Settings | None = None) -> dict[str, Any]:
    """The resource dict of the code location; with `settings`, endpoints pinned to them."""
    limits = (settings or Settings.from_env()).run_limits
    upstream = {"timeout_seconds": limits.upstream_timeout_seconds, "timeout_attempts": limits.upstream_timeout_attempts}
    if settings is None:
        warehouse, chains = WarehouseResource(), ChainsResource(**upstream)
    else:
        warehouse = WarehouseResource(
            clickhouse_url=settings.clickhouse_url,
            database=settings.clickhouse_database,
            user=settings.clickhouse_user,
        )
        chains = ChainsResource(chain_book=str(settings.chain_book), overrides=endpoint_overrides(settings), **upstream)
    return {
        "warehouse": warehouse,
        "chains": chains,
        "progress": ResourceDefinition.hardcoded_resource(Progress(), "progress lines (logged)"),
    }
