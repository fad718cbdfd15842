"""A vault API whose warehouse was filled by the real pipeline: its own devnet (3 days of
history, manual clock at 2.5 days so day and hour windows have real rows on both sides), a
database of its own on the session's warehouse server, filled once per session by
`orchestration.backfill.backfill` as Dagster backfills (history: vault_hourly, vault_daily,
vault_events; the last hour of snapshots: published token prices), then an API server on that
database and the module's devnet."""
from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import httpx
import pytest

from vault_suite import Api
from support import instant
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


# 2.5 days in, 7 minutes past a 15-minute boundary (that boundary's block is final)
NOW = GENESIS + 2 * DAY + DAY // 2 + 7 * 60
_filled: dict[str, Any] = {}  # the database's settings, once filled in this session


def _devnet():
    from devnet.server import DevnetServer

    return DevnetServer(seed=SEED, history_days=HISTORY_DAYS, genesis_ts=GENESIS, now=NOW, manual_clock=True).start()


def filled_database(settings, tmp_path_factory) -> Any:
    """Settings of the users database, filled by the pipeline once per session: a devnet of its
    own, a Dagster webserver and daemon on an instance of its own running the backfill, both
    stopped once it is done. The tests only read the database, so the modules share it; each
    module's devnet is started with the same seed, genesis and clock, so it is the chain the
    database was filled from (and a module may move its own clock on)."""
    if "settings" not in _filled:
        from ve_analytics.cli.processes import free_port
        from ve_analytics.cli.dagster_services import DagsterServices
        from ve_analytics.orchestration.backfill import backfill
        from ve_analytics.warehouse.migrate import migrate

        devnet = _devnet()
        chains = with_endpoints(settings, subgraph_url=devnet.subgraph_url(), rpc_url=devnet.rpc_url())
        window_days = (int(time.time()) // DAY * DAY - GENESIS) // DAY + 1  # daily partitions back to the genesis
        own = dataclasses.replace(settings, clickhouse_database=DATABASE, chains=chains,
                                  dagster_home=tmp_path_factory.mktemp("vault-users-dagster"),
                                  snapshot_partition_days=window_days,
                                  history_start=datetime.fromtimestamp(GENESIS, timezone.utc).strftime("%Y-%m-%d"))
        # schedules off: the devnet's clock is not the wall clock
        dagster = DagsterServices(own, tmp_path_factory.mktemp("vault-users-logs"), port=free_port(), schedules=False)
        try:
            migrate(own)
            with instant.wall_clock():  # the partition window above is the wall clock's
                summary = backfill(dagster.start().settings, snapshot_hours=1, progress=None, timeout=600)
            assert summary["chains"][56]["published"] and summary["chains"][56]["history_days"] >= 3
        finally:
            dagster.stop()
            devnet.stop()
        _filled["settings"] = own
    return _filled["settings"]


@pytest.fixture(scope="module")
def users_stack(settings, start_api, contract, http, tmp_path_factory):
    own = filled_database(settings, tmp_path_factory)
    devnet = _devnet()
    try:
        chains = with_endpoints(own, subgraph_url=devnet.subgraph_url(), rpc_url=devnet.rpc_url())
        stack_settings = dataclasses.replace(own, chains=chains)

        def start() -> Any:
            return start_api(clickhouse_database=DATABASE, chains=chains)

        yield UsersStack(Api(start(), contract, http), devnet, stack_settings, start)
    finally:
        devnet.stop()
