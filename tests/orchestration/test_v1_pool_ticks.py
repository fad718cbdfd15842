"""/v1/pools/{chainId}/{poolAddress}/ticks over the session's backfilled chains, against the
devnet's tick truth at the served block: every boundary and its liquidityNet is truth's, each
liquidityAfterRaw is the running sum of truth's liquidityNet and equals the pool's active
liquidity at its current tick; pages concatenate to the unpaged answer, and a traversal stays on
its first page's snapshot across a new publication. The capture stored a changing table per pool
over time, every one verified. Errors answer as the contract says; every response is checked
against /openapi.json."""
from __future__ import annotations

import httpx
import pytest

from orchestration_session import CHAINS, LAGGING, NO_CL
from session_api import client_after, v1_server
from support.contract_check import CheckedClient

from ve_analytics.core.epochs import QUARTER_HOUR, iso

CL_CHAINS = tuple(c for c in CHAINS if c != NO_CL)
MIN_TICK, MAX_TICK = -887272, 887272


@pytest.fixture(scope="module")
def api(stack, tmp_path_factory):
    with v1_server(stack, tmp_path_factory.mktemp("v1-pool-ticks")) as server, httpx.Client(timeout=60) as http:
        yield CheckedClient(server.url, http)


def cl_rows(api, chain_id: int | None = None) -> list[dict]:
    chains = f"&chainIds={chain_id}" if chain_id else ""
    body = api.get(f"/v1/pools?scope=all&curated=all&limit=500&poolTypes=cl{chains}").json()
    assert body["pageInfo"]["hasNextPage"] is False
    return body["data"]["rows"]


def ticks_path(row: dict, **query) -> str:
    q = "&".join(f"{k}={v}" for k, v in {"scope": "all", **query}.items())
    return f"/v1/pools/{row['chainId']}/{row['address']}/ticks?{q}"


def traverse(api, path: str) -> list[dict]:
    """Every page of a traversal, in order."""
    pages, cursor = [], None
    while True:
        r = api.get(path + (f"&cursor={cursor}" if cursor else ""))
        assert r.status_code == 200, r.text
        pages.append(r.json())
        cursor = pages[-1]["pageInfo"]["nextCursor"]
        if not cursor:
            assert pages[-1]["pageInfo"]["hasNextPage"] is False
            return pages


def running(ticks: list[dict], upto: int | None = None) -> int:
    return sum(int(t["liquidityNet"]) for t in ticks if upto is None or t["tick"] <= upto)


def test_every_boundary_is_truths_and_its_running_liquidity_is_exact(api, stack):
    seen = {cid: 0 for cid in CL_CHAINS}
    for row in cl_rows(api):
        cid = row["chainId"]
        whole = api.get(ticks_path(row, limit=500)).json()
        data = whole["data"]
        truth = stack.truth("ticks", cid, pool=row["address"], block=data["blockNumber"])
        expected = [(t["tick"], t["liquidityNet"], t["liquidityGross"]) for t in truth["ticks"]]
        assert [(t["tick"], t["liquidityNet"], t["liquidityGross"]) for t in data["ticks"]] == expected
        total = 0
        for t in data["ticks"]:
            total += int(t["liquidityNet"])
            assert t["liquidityAfterRaw"] == str(total) and total >= 0
        assert total == 0
        tick, active = truth["tick"], truth["liquidity"]
        assert (data["currentTick"], data["activeLiquidityRaw"]) == (tick, active)
        assert str(running(truth["ticks"], tick)) == active
        assert (data["liquidityBeforeRangeRaw"], data["liquidityBeforePageRaw"]) == ("0", "0")
        assert data["complete"] is True and whole["meta"]["complete"] is (cid != LAGGING)  # the lagging chain is stale
        assert data["invariants"] == {"tickCount": len(expected), "liquidityNetSum": "0",
                                      "liquidityAtCurrentTickRaw": active, "minimumRunningLiquidityRaw": "0",
                                      "holds": True, "problem": None}
        pages = traverse(api, ticks_path(row, limit=3))
        assert [t for p in pages for t in p["data"]["ticks"]] == data["ticks"]
        assert all(p["data"]["snapshotAt"] == data["snapshotAt"] for p in pages)
        for before, after in zip(pages, pages[1:]):
            assert after["data"]["liquidityBeforePageRaw"] == before["data"]["ticks"][-1]["liquidityAfterRaw"]
        seen[cid] += 1
    assert all(seen.values()), seen


def test_a_range_carries_the_liquidity_left_of_it_and_the_extreme_ticks_are_served(api, stack):
    extreme = 0
    for row in cl_rows(api):
        full = api.get(ticks_path(row, limit=500)).json()["data"]
        ticks = full["ticks"]
        current = full["currentTick"]
        lower, upper = current - 50 * 200, current + 50 * 200
        part = api.get(ticks_path(row, limit=500, tickLower=lower, tickUpper=upper)).json()["data"]
        assert part["ticks"] == [t for t in ticks if lower <= t["tick"] < upper]
        assert part["liquidityBeforeRangeRaw"] == str(sum(int(t["liquidityNet"]) for t in ticks if t["tick"] < lower))
        if any(t["tick"] == MIN_TICK for t in ticks):
            extreme += 1
            assert api.get(ticks_path(row, tickLower=MIN_TICK, tickUpper=MIN_TICK + 1)).json()["data"]["ticks"] == [
                t for t in ticks if t["tick"] == MIN_TICK]
        if any(t["tick"] == MAX_TICK for t in ticks):  # the default tickUpper (887273) admits the last tick
            assert ticks[-1]["tick"] == MAX_TICK
        empty = api.get(ticks_path(row, tickLower=MAX_TICK, tickUpper=MAX_TICK + 1)).json()
        if ticks[-1]["tick"] != MAX_TICK:  # a verified empty set is a 200 with no ticks
            assert empty["data"]["ticks"] == [] and empty["pageInfo"] == {"nextCursor": None, "hasNextPage": False}
    assert extreme, "no pool holds a position at the minimum tick"


def test_every_captured_table_is_truths_at_its_block_and_tables_change(stack):
    markers = stack.query(
        "SELECT chain_id, pool_address, block_number, set_id, tick_count, verified FROM pool_tick_snap15m FINAL "
        "ORDER BY chain_id, pool_address, snapshot_at")
    assert {m[0] for m in markers} == set(CL_CHAINS)
    tables = {}
    for cid, pool, sid, tick, net, gross in stack.query(
            "SELECT chain_id, pool_address, set_id, tick, toString(liquidity_net), toString(liquidity_gross) "
            "FROM pool_tick_sets FINAL ORDER BY chain_id, pool_address, set_id, tick"):
        tables.setdefault((cid, pool, sid), []).append((tick, net, gross))
    for cid, pool, block, sid, count, verified in markers:
        truth = stack.truth("ticks", cid, pool=pool, block=block)
        assert tables.get((cid, pool, sid), []) == [(t["tick"], t["liquidityNet"], t["liquidityGross"])
                                                     for t in truth["ticks"]], (cid, pool, block)
        assert count == len(truth["ticks"]) and verified == 1
    changed = {(cid, pool) for cid, pool, _ in tables}
    assert len(changed) < len(tables), "no pool's table changed between the session's snapshots"
    # each table is stored once, whatever number of snapshots share it
    assert stack.scalar("SELECT count() FROM pool_tick_sets") == stack.scalar("SELECT count() FROM pool_tick_sets FINAL")


def test_a_traversal_stays_on_its_snapshot_across_a_new_publication(api, stack, tmp_path):
    from ve_analytics.orchestration.backfill import run_snapshot

    row = max(cl_rows(api, 56), key=lambda r: float(r["tvlUsd"] or 0))
    path = ticks_path(row, limit=1)
    answer = api.get(ticks_path(row, limit=500)).json()
    whole = answer["data"]
    first = api.get(path).json()
    previous = stack.latest_success(56)
    target = previous + QUARTER_HOUR
    if stack.devnet_now() < target + 60:
        stack.advance_clock(target + 60 - stack.devnet_now())
    run_snapshot(stack.settings, target, chain_id=56)
    with client_after(stack, tmp_path) as after:  # an API that serves the new snapshot continues it
        fresh = after.get(ticks_path(row, limit=2)).json()["data"]
        assert fresh["snapshotAt"] == iso(target)
        ticks, cursor = list(first["data"]["ticks"]), first["pageInfo"]["nextCursor"]
        while cursor:
            body = after.get(f"{path}&cursor={cursor}").json()
            assert body["data"]["snapshotAt"] == whole["snapshotAt"] and body["meta"]["chains"] == answer["meta"]["chains"]
            ticks += body["data"]["ticks"]
            cursor = body["pageInfo"]["nextCursor"]
    assert ticks == whole["ticks"]
    truth = stack.truth("ticks", 56, pool=row["address"], block=fresh["blockNumber"])
    assert [t["tick"] for t in fresh["ticks"]] == [t["tick"] for t in truth["ticks"][:2]]


def test_errors_have_their_own_codes(api, stack):
    row = cl_rows(api, 56)[0]
    v2 = next(r for r in api.get("/v1/pools?scope=all&curated=all&limit=500&chainIds=56").json()["data"]["rows"]
              if r["poolType"] != "cl")
    cases = {
        ticks_path(v2): (400, "pool_not_concentrated_liquidity"),
        ticks_path(row, tickLower=10, tickUpper=10): (400, "invalid_tick_range"),
        ticks_path(row, tickLower=MIN_TICK - 1): (400, "invalid_tick_lower"),
        ticks_path(row, tickUpper=MAX_TICK + 2): (400, "invalid_tick_upper"),
        ticks_path(row, limit=0): (400, "invalid_limit"),
        ticks_path(row, limit=501): (400, "invalid_limit"),
        ticks_path(row, cursor="x"): (400, "invalid_cursor"),
        f"/v1/pools/56/0x{'ab' * 20}/ticks?scope=all": (404, "pool_not_found"),
        f"/v1/pools/56/0x{'ab' * 19}/ticks": (400, "invalid_pool_address"),
        f"/v1/pools/{NO_CL}/0x{'ab' * 20}/ticks": (404, "feature_unsupported"),
        f"/v1/pools/999/{row['address']}/ticks": (404, "chain_not_public"),
    }
    for path, (status, code) in cases.items():
        r = api.get(path)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), (path, r.text)
    # a cursor of other filters is refused, not reinterpreted
    cursor = api.get(ticks_path(row, limit=1)).json()["pageInfo"]["nextCursor"]
    r = api.get(ticks_path(row, limit=1, tickLower=0) + f"&cursor={cursor}")
    assert (r.status_code, r.json()["error"]["code"]) == (400, "invalid_cursor")
    # conditional requests and HEAD
    first = api.get(ticks_path(row))
    assert first.headers["cache-control"].startswith("public") and first.headers["etag"]
    assert api.get(ticks_path(row), headers={"If-None-Match": first.headers["etag"]}).status_code == 304
    head = api.http.head(api.url + ticks_path(row))
    assert head.status_code == 200 and head.headers["etag"] == first.headers["etag"]


def test_a_snapshot_without_a_tick_table_is_503(api, stack):
    """Runs last: removes one pool's marker at the chain's published snapshot, then puts it back."""
    row = cl_rows(api, 4663)[-1]
    at = stack.latest_success(4663)
    where = "chain_id = 4663 AND pool_address = {p:String} AND snapshot_at = toDateTime64({t:Int64}, 3, 'UTC')"
    with stack.client() as client:
        remove_and_restore(api, client, row, where, at)
    assert api.get(ticks_path(row, limit=12)).status_code == 200


def remove_and_restore(api, client, row: dict, where: str, at: int) -> None:
    client.command("CREATE TABLE IF NOT EXISTS kept_tick_markers AS pool_tick_snap15m")
    client.command(f"INSERT INTO kept_tick_markers SELECT * FROM pool_tick_snap15m FINAL WHERE {where}",
                   parameters={"p": row["address"], "t": at})
    try:
        client.command(f"DELETE FROM pool_tick_snap15m WHERE {where}", parameters={"p": row["address"], "t": at},
                       settings={"mutations_sync": 2})
        r = api.get(ticks_path(row, limit=11))
        assert (r.status_code, r.json()["error"]["code"]) == (503, "ticks_not_materialized"), r.text
    finally:
        client.command("INSERT INTO pool_tick_snap15m SELECT * FROM kept_tick_markers")
        client.command("DROP TABLE kept_tick_markers")
