"""A small fixed-genesis devnet (manual clock) served on a free port for the reader tests."""
from __future__ import annotations

import httpx
import pytest


from ve_analytics.core.chains import MULTICALL3
from devnet.server import DevnetServer
from ve_analytics.readers.chain import ChainReader
from ve_analytics.readers.graphql import SubgraphClient

GENESIS = 1_767_225_600  # 2026-01-01T00:00:00Z
HISTORY_DAYS = 2
SEED = 11


@pytest.fixture(scope="module")
def devnet():
    server = DevnetServer(seed=SEED, history_days=HISTORY_DAYS, genesis_ts=GENESIS, manual_clock=True).start()
    yield server
    server.stop()


@pytest.fixture
def fault(devnet):
    """Switch a devnet fault on; every fault is cleared when the test ends."""

    def set_fault(target: str, mode: str, **extra) -> None:
        body = {"chainId": 56, "target": target, "mode": mode, **extra}
        httpx.post(f"{devnet.url}/control/faults", json=body, timeout=5).raise_for_status()

    yield set_fault
    httpx.post(f"{devnet.url}/control/faults", json={"target": "all", "mode": "ok"}, timeout=5)


@pytest.fixture
def subgraph(devnet):
    with SubgraphClient(devnet.subgraph_url(), timeout=5, retries=5, backoff=0.05) as client:
        yield client


@pytest.fixture
def chain(devnet):
    return ChainReader(devnet.rpc_url(), 56, MULTICALL3, contracts=httpx.get(f"{devnet.url}/chains/56/deployment", timeout=30).json()["contracts"], timeout=5, retries=2)


@pytest.fixture
def truth(devnet):
    """The devnet's ground truth: truth("flows", **{"from": a, "to": b}), truth("state", block=n)."""

    def get(path: str, **params) -> dict:
        r = httpx.get(f"{devnet.url}/chains/56/truth/{path}", params=params, timeout=10)
        r.raise_for_status()
        return r.json()

    return get


@pytest.fixture
def genesis() -> int:
    return GENESIS
