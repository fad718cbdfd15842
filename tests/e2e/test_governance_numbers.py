"""Governance numbers served by the API (bribes, votes, vote escrow, epochs) against the devnet's
independent ground truth. Every response is validated against the served OpenAPI document
(`Stack.get`)."""
from __future__ import annotations

import math

import httpx
import pytest

from ve_analytics.core.epochs import WEEK, epoch_start

REL = 1e-9


def close(a: float | None, b: float | None, rel: float = REL) -> bool:
    if a is None or b is None:
        return a is b
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-12)


@pytest.fixture(scope="module")
def api(fresh):
    return fresh


@pytest.fixture(scope="module")
def snapshot(api) -> dict:
    return api.get("/api/stats/protocol").json()["data"]


def completed_epochs(snapshot: dict) -> list[int]:
    """The epochs that ended before the snapshot (the devnet's history is 32 days)."""
    return list(range(snapshot["epochStart"] - 5 * WEEK, snapshot["epochStart"], WEEK))


def test_bribe_totals_per_epoch_equal_ground_truth(api, fresh, snapshot):
    served = {r["epochStart"]: r for r in api.data("/api/stats/bribes/totals")}
    truth = {t["epoch"]: t for t in fresh.truth("bribes")["epochs"]}
    checked = 0
    for epoch in completed_epochs(snapshot):
        t = truth.get(epoch)
        if t is None or t["count"] == 0:
            assert epoch not in served
            continue
        row = served[epoch]
        assert row["count"] == t["count"], (epoch, row, t)
        assert close(row["totalUsd"], t["totalUsd"]), (epoch, row, t)
        checked += 1
    assert checked >= 3
    # the snapshot's own epoch: never more than the devnet has seen
    current = served.get(snapshot["epochStart"])
    if current is not None:
        assert current["count"] <= fresh.truth("bribes", epoch=snapshot["epochStart"])["count"]


def test_epoch_summaries_equal_ground_truth(api, fresh, snapshot):
    rows = {r["epochStart"]: r for r in api.data("/api/stats/epochs?limit=52")}
    deployment = httpx.get(f"{fresh.devnet_url}/chains/56/deployment", timeout=30).json()
    system = {g["target"].lower() for g in deployment["gauges"] if g["kind"] == "system"}
    epochs = [r for r in rows]
    assert epochs == sorted(epochs, reverse=True)
    for epoch in completed_epochs(snapshot):
        if epoch not in rows:
            continue
        row = rows[epoch]
        bribes = fresh.truth("bribes", epoch=epoch)
        votes = fresh.truth("votes", epoch=epoch)
        assert row["bribeCount"] == bribes["count"]
        assert close(row["totalBribesUsd"], bribes["totalUsd"])
        assert row["foundationBribeCount"] == bribes["foundationCount"]
        assert close(row["foundationBribesUsd"], bribes["foundationUsd"])
        assert row["totalVotesRaw"] == votes["totalWeight"]
        assert row["foundationVotesRaw"] == votes["foundationWeight"]
        share = int(votes["foundationWeight"]) / int(votes["totalWeight"])
        assert close(row["foundationVoteShare"], share, 1e-12)
        assert row["gaugeCount"] == len(votes["pools"])
        ranked = sorted(votes["pools"].items(), key=lambda kv: int(kv[1]), reverse=True)[:5]
        assert [g["votesRaw"] for g in row["topGauges"]] == [w for _, w in ranked]
        for g in row["topGauges"]:  # a system gauge (its target in the pool's place) has no pool symbols
            assert bool(g["token0Symbol"] and g["token1Symbol"]) is (g["poolAddress"] not in system), g


def test_vote_weights_per_pool_equal_ground_truth(api, fresh, snapshot):
    epoch = snapshot["epochStart"] - WEEK  # the last completed epoch: every vote is ingested
    rows = api.data(f"/api/stats/votes?epoch={epoch}&latestOnly=false")
    truth = fresh.truth("votes", epoch=epoch)
    assert len(rows) == truth["count"] > 0
    per_pool: dict[str, int] = {}
    for r in rows:
        assert r["epoch"] == epoch
        per_pool[r["poolAddress"]] = per_pool.get(r["poolAddress"], 0) + int(r["weightRaw"])
    assert {p: str(w) for p, w in per_pool.items()} == truth["pools"]
    # latestOnly: one voting epoch per veNFT, never later than the snapshot's epoch
    latest = api.data("/api/stats/votes")
    by_nft: dict[int, set[int]] = {}
    for r in latest:
        by_nft.setdefault(r["veNftId"], set()).add(r["epoch"])
    assert by_nft and all(len(e) == 1 and max(e) <= snapshot["epochStart"] for e in by_nft.values())


def test_ve_stats_equal_ground_truth_at_the_snapshot_block(api, fresh):
    ve = api.data("/api/stats/ve")
    truth = fresh.truth("state", block=ve["blockNumber"])
    assert ve["totalLockedRaw"] == truth["veSupply"]
    assert ve["totalVotingPowerRaw"] == truth["veVotingPower"]
    assert ve["permanentLockedRaw"] == truth["vePermanentLocked"]
    assert int(ve["decayingLockedRaw"]) == int(truth["veSupply"]) - int(truth["vePermanentLocked"])
    assert close(ve["totalLocked"], int(truth["veSupply"]) / 1e18)
    assert ve["lockCount"] == truth["veLockCount"]
    assert ve["permanentLockCount"] == truth["vePermanentLockCount"]
    assert ve["decayingLockCount"] == truth["veDecayingLockCount"]
    assert ve["expiredLockCount"] == truth["veExpiredLockCount"]
    assert close(ve["averageLockDurationSeconds"], truth["veAverageRemainingLockSeconds"])
    assert math.isclose(ve["averageLockDurationDays"] * 86400, ve["averageLockDurationSeconds"])


def test_pool_bribes_alias_and_foundation_filter(api, fresh, snapshot):
    rows = api.data("/api/stats/bribes?limit=1000")
    assert rows and [r["timestamp"] for r in rows] == sorted((r["timestamp"] for r in rows), reverse=True)
    pool = rows[0]["poolAddress"]
    alias = api.get(f"/api/stats/pools/{pool}/bribes?limit=1000")
    plain = api.get(f"/api/stats/bribes?pool={pool}&limit=1000")
    assert alias.json()["data"] == plain.json()["data"] and alias.json()["data"]
    epoch = snapshot["epochStart"] - WEEK
    foundation = api.data(f"/api/stats/bribes?epoch={epoch}&foundationOnly=true")
    truth = fresh.truth("bribes", epoch=epoch)
    assert len(foundation) == truth["foundationCount"]
    assert close(math.fsum(r["amountUsd"] for r in foundation), truth["foundationUsd"])
    assert api.get(f"/api/stats/bribes?epoch={epoch + 3600}").status_code == 400


def test_gauge_votes_and_foundation_share_equal_ground_truth_at_the_snapshot_block(api, fresh, snapshot):
    gauges = api.data("/api/stats/gauges")
    truth = fresh.truth("votes", epoch=snapshot["epochStart"], block=snapshot["blockNumber"])
    state = fresh.truth("state", block=snapshot["blockNumber"])
    assert len(gauges) == state["gaugeCount"]
    assert {g["poolAddress"]: g["votesRaw"] for g in gauges if g["votesRaw"] != "0"} == truth["pools"]
    assert all(g["epochStart"] == snapshot["epochStart"] for g in gauges)
    served_foundation = sum(int(g["foundationVotesRaw"]) for g in gauges)
    assert str(served_foundation) == truth["foundationWeight"]
    deployment = httpx.get(f"{fresh.devnet_url}/chains/56/deployment", timeout=30).json()
    system = {g["target"].lower() for g in deployment["gauges"] if g["kind"] == "system"}
    assert system and system <= {g["poolAddress"] for g in gauges}
    for g in gauges:
        if g["poolAddress"] in system:  # the Voter keeps a system gauge's target in the pool's place: no pool
            assert g["poolType"] is None and g["token0Symbol"] is None and g["apr"]["emission"] is None
            continue
        pool = state["pools"][g["poolAddress"]]
        assert g["token0Symbol"] and g["poolType"] == pool["type"]
        if g["apr"]["emission"] is not None:
            expected = g["emissionsEpoch"] * state["corePriceUsd"] * (365 / 7) / pool["tvlUsd"]
            assert close(g["apr"]["emission"], expected, 1e-9)
    top = gauges[0]
    detail = api.data(f"/api/stats/gauges/{top['gaugeAddress']}")
    assert detail["current"] == top
    assert detail["history"][-1]["snapshotAt"] == snapshot["snapshotAt"]
    times = [p["snapshotAt"] for p in detail["history"]]
    assert times == sorted(times) and len(times) >= 2


def test_dollar_per_vote_recomputed_from_ground_truth(api, fresh, snapshot):
    epoch = snapshot["epochStart"] - WEEK  # complete: every bribe, vote and fee hour is stored
    rows = api.data(f"/api/stats/markets/bribes?epoch={epoch}&limit=500")
    bribes = fresh.truth("bribes", epoch=epoch)["pools"]
    votes = fresh.truth("votes", epoch=epoch)["pools"]
    assert {r["poolAddress"] for r in rows} == set(bribes) | set(votes)
    totals = [r["totalRewardUsd"] for r in rows]  # unknown (a bribe token without a price) last
    known = [t for t in totals if t is not None]
    assert known == sorted(known, reverse=True) and totals == known + [None] * (len(totals) - len(known))
    deployment = httpx.get(f"{fresh.devnet_url}/chains/56/deployment", timeout=30).json()
    system = {g["target"].lower() for g in deployment["gauges"] if g["kind"] == "system"}
    assert system & {r["poolAddress"] for r in rows}
    for r in rows:
        pool = r["poolAddress"]
        b = bribes.get(pool, {"count": 0, "totalUsd": 0.0})
        assert r["bribeCount"] == b["count"] and close(r["totalBribesUsd"], b["totalUsd"])
        if pool in system:  # a system gauge's target: no pool, so no trading fees
            fees = 0.0
            assert r["feeHoursCovered"] == 0
        else:
            fees = fresh.truth("flows", **{"from": epoch, "to": epoch + WEEK, "pool": pool})["feesUsd"]
            assert 0 < r["feeHoursCovered"] <= WEEK // 3600
        assert close(r["totalFeesUsd"], fees, 1e-9)
        assert r["votesRaw"] == votes.get(pool, "0")
        if pool in votes and b["totalUsd"] is not None:
            expected = (b["totalUsd"] + fees) / (int(votes[pool]) / 1e18)
            assert close(r["dollarPerVote"], expected, 1e-9)
        else:
            assert r["dollarPerVote"] is None


def test_foundation_position_and_config_equal_ground_truth(api, fresh, snapshot, foundation_voted):
    deployment = httpx.get(f"{fresh.devnet_url}/chains/56/deployment", timeout=30).json()
    f = api.data("/api/stats/foundation")
    assert f["veNftIds"] == deployment["foundation"]["veNftIds"]
    assert f["wallet"] == deployment["foundation"]["wallet"].lower()
    assert api.data("/api/stats/config")["foundation"]["veNftIds"] == deployment["foundation"]["veNftIds"]
    truth = fresh.truth("votes", epoch=snapshot["epochStart"], block=snapshot["blockNumber"])
    assert f["votesThisEpochRaw"] == truth["foundationWeight"]
    bribes = fresh.truth("bribes")["epochs"]
    served = api.data("/api/stats/foundation/bribes?limit=1000")
    assert f["bribes"]["lifetimeCount"] == len(served)
    completed = sum(e["foundationCount"] for e in bribes if e["epoch"] < snapshot["epochStart"])
    assert f["bribes"]["lifetimeCount"] >= completed > 0
    kpis = api.data("/api/stats/foundation/kpis?limit=1000")
    assert kpis and all(k["classification"] in
                        ("scale", "repeat", "monitor", "reduce", "stop", "insufficient_data") for k in kpis)
    # newest first: a gauge has KPIs in an epoch the foundation voted or bribed in, so the newest is
    # the latest epoch it voted in (the devnet's truth), or a later one it has already bribed in
    newest = kpis[0]["epoch"]
    assert epoch_start(foundation_voted) <= newest <= snapshot["epochStart"]
    if newest != epoch_start(foundation_voted):
        assert fresh.truth("bribes", epoch=newest)["foundationCount"] > 0
    detail = api.data(f"/api/stats/epochs/{kpis[0]['epoch']}")
    assert {k["snapshotAt"] for k in detail["kpis"]} <= {detail["representativeSnapshotAt"]}
    assert api.get(f"/api/stats/epochs/{kpis[0]['epoch'] + 1}").status_code == 400
