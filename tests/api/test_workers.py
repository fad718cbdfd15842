"""Several API workers on one port: each follows publications through its own snapshot pointer
and keeps its own response cache, and they agree. A new success row is served by every worker
within 2 s; none goes back to the older snapshot afterwards; a 304 holds on every worker."""
from __future__ import annotations

import dataclasses
import time

import httpx
import pytest

from api_settings import settings_for
from market_seed import PROTOCOL_COLUMNS, RUN_COLUMNS, SOURCES, block_of, ts
from support import instant
from support.api_server import ApiServer
from ve_analytics.core.epochs import iso
from ve_analytics.warehouse.client import get_client
from ve_analytics.warehouse.migrate import migrate

T0 = 1_767_225_600  # 2026-01-01T00:00:00Z, pinned: nothing here depends on the wall clock
T1 = T0 + 900
WORKERS = 2
SAMPLES = 40  # requests on new connections: the kernel spreads them over the workers
BOUND_SECONDS = 2.0


def run_row(at: int, run_id: str) -> list:
    return [56, ts(at), run_id, "success", block_of(at), ts(at), ts(at), ts(at + 40), {"protocol_snap15m": 1}, SOURCES, ""]


def protocol_row(at: int, tvl: float) -> list:
    return [56, ts(at), block_of(at), ts(at - 2), tvl, 3, None, None, None, 0, ts(at)]


def snapshot_of(url: str, **headers: str) -> tuple[int, str | None]:
    """(status, meta.snapshotAt) of /api/stats/protocol on a connection of its own."""
    r = httpx.get(url + "/api/stats/protocol", headers={"connection": "close", **headers}, timeout=10)
    return r.status_code, (r.json()["meta"]["snapshotAt"] if r.status_code == 200 else None)


@pytest.fixture(scope="module")
def two_workers(warehouse, chains, tmp_path_factory):
    settings = settings_for(warehouse.url, "api_workers", tmp_path_factory.mktemp("workers"), chains)
    migrate(settings)
    client = get_client(settings)
    client.insert("snapshot_runs", [run_row(T0, "run-t0")], column_names=RUN_COLUMNS)
    client.insert("protocol_snap15m", [protocol_row(T0, 100.0)], column_names=PROTOCOL_COLUMNS)
    server = ApiServer(dataclasses.replace(settings, api_workers=WORKERS), log_path=settings.data_dir / "api.log", env=instant.frozen_env()).start()
    try:
        yield server, client
    finally:
        server.stop()
        client.close()


def test_every_worker_follows_a_publication_within_the_bound_and_never_goes_back(two_workers):
    server, client = two_workers
    assert f"({WORKERS} workers)" in server.log()
    assert {snapshot_of(server.url) for _ in range(SAMPLES)} == {(200, iso(T0))}

    client.insert("protocol_snap15m", [protocol_row(T1, 200.0)], column_names=PROTOCOL_COLUMNS)
    client.insert("snapshot_runs", [run_row(T1, "run-t1")], column_names=RUN_COLUMNS)
    published = time.monotonic()
    seen: list[tuple[float, str | None]] = []
    while time.monotonic() - published < BOUND_SECONDS + 1.0:
        status, at = snapshot_of(server.url)
        assert status == 200
        seen.append((time.monotonic() - published, at))
    late = [(t, at) for t, at in seen if t >= BOUND_SECONDS and at != iso(T1)]
    assert not late, f"still the older snapshot {BOUND_SECONDS} s after the success row: {late[:3]}"
    assert {at for _, at in seen} <= {iso(T0), iso(T1)}

    etag = f'W/"snap-{iso(T1)}"'
    assert {snapshot_of(server.url, **{"if-none-match": etag})[0] for _ in range(SAMPLES)} == {304}
