"""Shared devnet fixtures: one small, fixed-genesis simulation reused by the in-process and the
HTTP tests (reproducible: explicit genesis and a manual clock)."""
from __future__ import annotations

import pytest

from devnet.server import DevnetServer, build_state

GENESIS = 1_750_000_000 - 1_750_000_000 % 3600  # 2025-06-15T15:00:00Z, a Sunday
HISTORY_DAYS = 9
SEED = 56


@pytest.fixture(scope="session")
def devnet_state():
    return build_state(seed=SEED, history_days=HISTORY_DAYS, chains=(56,), genesis_ts=GENESIS,
                       manual_clock=True)


@pytest.fixture(scope="session")
def sim(devnet_state):
    return devnet_state.chains[56].sim


@pytest.fixture(scope="session")
def subgraph(devnet_state):
    return devnet_state.chains[56].subgraph


@pytest.fixture(scope="session")
def devnet_server(devnet_state):
    """HTTP server over the shared state. Tests must leave the clock alone and clear faults."""
    server = DevnetServer(state=devnet_state).start()
    yield server
    server.stop()
