"""A vault API whose warehouse was filled by the real pipeline: its own devnet (3 days of
history, manual clock at 2.5 days so day and hour windows have real rows on both sides), its own
database on the session's warehouse server, `orchestration.backfill.backfill` through Dagster
(history: vault_hourly, vault_daily, vault_events; the last hour of snapshots: published
token prices), then an API server on that database and devnet."""
from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import httpx
import pytest

from vault_suite import Api
from support.chains import with_endpoints
from ve_analytics.core.epochs import DAY

SEED = 91
HISTORY_DAYS = 3
# A fixed genesis (a Thursday, so epochs fall the same way): the simulated activity depends on
# absolute time, and the tests name windows in which wallets interact. Only Dagster's partition
# window follows the wall clock, stretched back to cover it.
GENESIS = int(datetime(2026, 11, 5, tzinfo=timezone.utc).timestamp())
DATABASE = "vault_users_test"


@dataclass
class UsersStack:
    api: Api
    devnet: Any  # DevnetServer
    settings: Any
    start: Any  # start_api with this stack's overrides

    def truth(self, path: str, **params: Any) -> dict:
        r = httpx.get(f"{self.devnet.url}/chains/56/truth/{path}", params=params, timeout=30)
        r.raise_for_status()
        return r.json()

    def advance(self, seconds: int) -> None:
        httpx.post(f"{self.devnet.url}/control/clock", json={"advanceSeconds": seconds}, timeout=10).raise_for_status()

    def fresh_api(self) -> Api:
        """A new server: nothing memoized (the chain is read again at the new head)."""
        return Api(self.start(), self.api.contract, self.api.client)


@pytest.fixture(scope="module")
def users_stack(request, settings, start_api, contract, http, tmp_path_factory):
    from devnet.server import DevnetServer
    from ve_analytics.orchestration.backfill import backfill
    from ve_analytics.warehouse.migrate import migrate

    # 2.5 days in, 7 minutes past a 15-minute boundary (that boundary's block is final)
    now = GENESIS + 2 * DAY + DAY // 2 + 7 * 60
    devnet = DevnetServer(seed=SEED, history_days=HISTORY_DAYS, genesis_ts=GENESIS, now=now, manual_clock=True).start()
    database = f"{DATABASE}_{request.module.__name__}"  # each module that uses the stack has its own
    home = tmp_path_factory.mktemp("vault-users-dagster")
    (home / "dagster.yaml").write_text("telemetry:\n  enabled: false\n")
    chains = with_endpoints(settings, subgraph_url=devnet.subgraph_url(), rpc_url=devnet.rpc_url())
    window_days = (int(time.time()) // DAY * DAY - GENESIS) // DAY + 1  # daily partitions back to the genesis
    own = dataclasses.replace(settings, clickhouse_database=database, dagster_home=home, chains=chains,
                              snapshot_partition_days=window_days,
                              history_start=datetime.fromtimestamp(GENESIS, timezone.utc).strftime("%Y-%m-%d"))
    try:
        migrate(own)
        summary = backfill(own, snapshot_hours=1, progress=None)
        assert summary["published"] and summary["history_days"] >= 3

        def start() -> Any:
            return start_api(clickhouse_database=database, chains=chains)

        yield UsersStack(Api(start(), contract, http), devnet, own, start)
    finally:
        devnet.stop()
