"""Dagster resources: the warehouse, the subgraph reader and the chain reader, per chain.

Each resource resolves its endpoint from `Settings.from_env()` (every default is the local
stack), and a field set on the resource overrides one value; `resources_for(settings)` builds
them from an explicit Settings (tests, backfill). Secrets (the ClickHouse password) are never
resource fields, so they never show up in run configuration: they come from the environment.
"""
from __future__ import annotations

import dataclasses
import logging
import os
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Optional

from dagster import ConfigurableResource, InitResourceContext, ResourceDefinition
from pydantic import PrivateAttr

from ..core.chains import MULTICALL3, STATS_CHAIN_ID, ChainConfig, load_book
from ..core.config import Settings
from ..readers.chain import ChainReader
from ..readers.graphql import SubgraphClient
from ..warehouse.client import get_client

log = logging.getLogger("orchestration.progress")


class WarehouseResource(ConfigurableResource):
    """ClickHouse through `warehouse.client.get_client` (the one client code path)."""

    clickhouse_url: Optional[str] = None
    database: Optional[str] = None
    user: Optional[str] = None

    def settings(self) -> Settings:
        base = Settings.from_env()
        overrides = {
            "clickhouse_url": self.clickhouse_url,
            "clickhouse_database": self.database,
            "clickhouse_user": self.user,
        }
        return dataclasses.replace(base, **{k: v for k, v in overrides.items() if v})

    @contextmanager
    def client(self) -> Iterator[Any]:
        client = get_client(self.settings())
        try:
            yield client
        finally:
            client.close()


def chain_config(chain_id: int, chain_book: Optional[str]) -> ChainConfig:
    """The chain's entry in `chain_book` (a path) or, when unset, in the configured book."""
    if chain_book:
        book = load_book(Path(chain_book), os.environ)
        if chain_id not in book:
            raise LookupError(f"chain {chain_id} is not in the chain book {chain_book}")
        return book[chain_id]
    return Settings.from_env().chain(chain_id)


class SubgraphResource(ConfigurableResource):
    """The chain's subgraph endpoint (from the chain book; `url` overrides it)."""

    chain_id: int = STATS_CHAIN_ID
    chain_book: Optional[str] = None
    url: Optional[str] = None
    timeout_seconds: float = 30.0
    retries: int = 4
    backoff_seconds: float = 0.5

    _client: Optional[SubgraphClient] = PrivateAttr(default=None)

    def endpoint(self) -> str:
        return self.url or chain_config(self.chain_id, self.chain_book).subgraph_url

    def setup_for_execution(self, context: InitResourceContext) -> None:
        self._client = SubgraphClient(
            self.endpoint(), timeout=self.timeout_seconds, retries=self.retries, backoff=self.backoff_seconds
        )

    def teardown_after_execution(self, context: InitResourceContext) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    @property
    def client(self) -> SubgraphClient:
        if self._client is None:  # used outside a Dagster run (direct invocation)
            self.setup_for_execution(None)  # type: ignore[arg-type]
        return self._client  # type: ignore[return-value]


class ChainResource(ConfigurableResource):
    """The chain's JSON-RPC endpoint, contracts and vaults (from the chain book; `rpc_url` overrides
    the endpoint)."""

    chain_id: int = STATS_CHAIN_ID
    chain_book: Optional[str] = None
    rpc_url: Optional[str] = None
    timeout_seconds: float = 30.0
    retries: int = 5

    _reader: Optional[ChainReader] = PrivateAttr(default=None)

    def setup_for_execution(self, context: InitResourceContext) -> None:
        config = self.config()
        contracts = dict(config.contracts)
        self._reader = ChainReader(
            self.rpc_url or config.rpc_url,
            self.chain_id,
            contracts.get("multicall3") or MULTICALL3,
            contracts=contracts,
            timeout=self.timeout_seconds,
            retries=self.retries,
        )

    @property
    def reader(self) -> ChainReader:
        if self._reader is None:
            self.setup_for_execution(None)  # type: ignore[arg-type]
        return self._reader  # type: ignore[return-value]

    def config(self) -> ChainConfig:
        return chain_config(self.chain_id, self.chain_book)

    def contracts(self) -> dict[str, str]:
        return dict(self.config().contracts)


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


def resources_for(settings: Settings | None = None, *, chain_id: int = STATS_CHAIN_ID) -> dict[str, Any]:
    """The resource dict of the code location; with `settings`, endpoints pinned to them."""
    if settings is None:
        warehouse = WarehouseResource()
        subgraph = SubgraphResource(chain_id=chain_id)
        chain = ChainResource(chain_id=chain_id)
    else:
        warehouse = WarehouseResource(
            clickhouse_url=settings.clickhouse_url,
            database=settings.clickhouse_database,
            user=settings.clickhouse_user,
        )
        book = str(settings.chain_book)
        subgraph = SubgraphResource(chain_id=chain_id, chain_book=book, url=settings.chain(chain_id).subgraph_url)
        chain = ChainResource(chain_id=chain_id, chain_book=book, rpc_url=settings.chain(chain_id).rpc_url)
    return {
        "warehouse": warehouse,
        "subgraph": subgraph,
        "chain": chain,
        "progress": ResourceDefinition.hardcoded_resource(Progress(), "progress lines (logged)"),
    }
