"""The asset checks' SQL (warehouse_sql/transforms/checks/) on crafted rows: consistent rows pass,
each kind of inconsistency is counted. The Dagster suite shows them passing on real runs; this
shows they can fail."""
from __future__ import annotations

import dataclasses
from datetime import datetime, timezone

import pytest

from ve_analytics.assets.writers import query_rows
from ve_analytics.core.epochs import WEEK
from ve_analytics.warehouse.client import get_client
from ve_analytics.warehouse.migrate import migrate

CHAIN = 56
T0 = 1_763_600_400  # a 15-minute boundary (Thursday 2025-11-20 01:00 UTC)
TOL = 1e-9


def utc(ts: int) -> datetime:
    return datetime.fromtimestamp(ts, tz=timezone.utc)


@pytest.fixture(scope="module")
def client(wh):
    settings = dataclasses.replace(wh.settings, clickhouse_database="checks_sql")
    migrate(settings)
    with get_client(settings) as c:
        yield c


def insert(client, table: str, rows: list[dict]) -> None:
    names = list(rows[0])
    client.insert(table, [[r[n] for n in names] for r in rows], column_names=names)


def publish(client, *times: int) -> None:
    insert(client, "snapshot_runs", [
        {"chain_id": CHAIN, "snapshot_at": utc(t), "run_id": f"run-{t}", "status": "success",
         "block_number": 1, "block_timestamp": utc(t), "started_at": utc(t), "finished_at": utc(t),
         "rows_written": {}, "sources": ["subgraph"], "error": ""} for t in times])


def ve_row(t: int, *, locked=100, permanent=60, decaying=40, locks=5, perm_locks=2, dec_locks=2, expired=1) -> dict:
    return {"chain_id": CHAIN, "snapshot_at": utc(t), "block_number": 1, "locked_raw": locked,
            "voting_power_raw": 90, "permanent_locked_raw": permanent, "decaying_locked_raw": decaying,
            "lock_count": locks, "permanent_lock_count": perm_locks, "decaying_lock_count": dec_locks,
            "expired_lock_count": expired, "avg_remaining_lock_seconds": 3600.0}


def venft_row(t: int, token: int, locked: int) -> dict:
    return {"chain_id": CHAIN, "snapshot_at": utc(t), "block_number": 1, "block_timestamp": utc(t),
            "venft_id": token, "owner": "0xo", "locked_raw": locked, "unlock_time": None, "permanent": 1,
            "voting_power_raw": locked}


def foundation_row(t: int, votes: int, count: int) -> dict:
    return {"chain_id": CHAIN, "snapshot_at": utc(t), "block_number": 1, "epoch_start": utc(T0 - T0 % WEEK),
            "wallet": "0xf", "venft_ids": [1, 2], "locked_raw": 10, "voting_power_raw": 10,
            "votes_epoch_raw": votes, "vote_count": count, "voted_pool_count": count}


def foundation_vote(t: int, pool: str, weight: int) -> dict:
    return {"chain_id": CHAIN, "snapshot_at": utc(t), "epoch_start": utc(T0 - T0 % WEEK), "venft_id": 1,
            "pool_address": pool, "gauge_address": "0xg" + pool, "weight_raw": weight, "voted_at": utc(t)}


def gauge_row(t: int, gauge: str, total: float | None) -> dict:
    return {"chain_id": CHAIN, "snapshot_at": utc(t), "gauge_address": gauge, "pool_address": "0xp",
            "is_alive": True, "epoch_start": utc(T0 - T0 % WEEK), "votes_raw": 1, "foundation_votes_raw": 0,
            "foundation_vote_share": 0.0, "emissions_epoch_raw": 1, "emission_apr": 0.1, "fee_apr": 0.2,
            "bribe_apr": 0.3, "total_apr": total, "bribes_epoch_usd": 1.0, "fees_epoch_usd": 1.0}


def governance(client, lo: int, hi: int) -> dict:
    from ve_analytics.core.methodology import METHODOLOGY_VERSION

    return query_rows(client, "checks/governance_snapshot_consistency.sql",
                      {"chain_id": CHAIN, "from_ts": lo, "to_ts": hi, "rel_tol": TOL,
                       "methodology": METHODOLOGY_VERSION})[0]


def test_governance_snapshot_check_counts_each_inconsistency(client):
    good, bad = T0, T0 + 900
    publish(client, good, bad)
    insert(client, "ve_snap15m", [ve_row(good), ve_row(bad, decaying=39)])  # split does not add up
    # the good snapshot's 5 locks hold its 100 locked; the bad one's 5 locks hold 99
    insert(client, "venft_snap15m", [venft_row(good, i, 20) for i in range(5)]
           + [venft_row(bad, i, 20) for i in range(4)] + [venft_row(bad, 4, 19)])
    insert(client, "foundation_snap15m", [foundation_row(good, 30, 2), foundation_row(bad, 30, 2)])
    insert(client, "foundation_vote_snap15m", [foundation_vote(good, "0xa", 10), foundation_vote(good, "0xb", 20),
                                               foundation_vote(bad, "0xa", 10)])  # one allocation missing
    insert(client, "gauge_snap15m", [gauge_row(good, "0x1", 0.6), gauge_row(good, "0x2", None),
                                     gauge_row(bad, "0x1", 0.7)])  # total != parts

    row = governance(client, good, good)
    assert {k: int(v) for k, v in row.items()} == {"published": 1, "bad_ve": 0, "bad_venft": 0, "bad_foundation": 0,
                                                    "snapshots_without_gauges": 0, "bad_gauge_apr": 0, "bad_kpi": 0}
    row = governance(client, bad, bad)
    assert (row["bad_ve"], row["bad_venft"], row["bad_foundation"], row["bad_gauge_apr"]) == (1, 1, 1, 1)

    missing = bad + 900  # published, but no governance rows at all
    publish(client, missing)
    row = governance(client, missing, missing)
    # no per-lock rows is not an inconsistency: they are kept for the recent snapshots alone
    assert (row["bad_ve"], row["bad_venft"], row["bad_foundation"], row["snapshots_without_gauges"]) == (1, 0, 1, 1)


def test_governance_check_keeps_kpi_rows_of_an_earlier_minor_version(client):
    from ve_analytics.core.methodology import METHODOLOGY_VERSION

    at = T0 + 3 * 86400
    publish(client, at)

    def kpi(gauge: str, version: str) -> dict:
        return {"chain_id": CHAIN, "snapshot_at": utc(at), "epoch_start": utc(at - at % WEEK), "gauge_address": gauge,
                "pool_address": "0xp", "foundation_votes_raw": 1, "pool_votes_raw": 2, "emissions_directed_raw": 1,
                "classification": "repeat", "methodology_version": version}

    major = METHODOLOGY_VERSION.split(".")[0]
    insert(client, "kpi_snap15m", [kpi("0x1", METHODOLOGY_VERSION), kpi("0x2", f"{major}.0.0"),
                                   kpi("0x3", f"{int(major) - 1}.9.0"), kpi("0x4", f"{int(major) + 1}.0.0")])
    assert int(governance(client, at, at)["bad_kpi"]) == 2  # another major's rows were classified differently


def test_core_token_check_requires_one_row_and_a_consistent_or_null_market_cap(client):
    times = [T0 + 86400 + i * 900 for i in range(4)]
    publish(client, *times)

    def core(t: int, price, supply, cap) -> dict:
        return {"chain_id": CHAIN, "snapshot_at": utc(t), "block_number": 1, "token_address": "0xc",
                "symbol": "CORE", "decimals": 18, "price_usd": price, "total_supply_raw": supply,
                "market_cap_usd": cap, "price_source": "pool", "pool_count": 1, "hours_24h": 24,
                "hours_day": 1, "hours_7d": 168, "hours_30d": 720}

    insert(client, "core_token_snap15m", [
        core(times[0], 2.0, 3 * 10**18, 6.0),       # consistent
        core(times[1], None, 3 * 10**18, None),     # unknown price: null cap, fine
        core(times[2], None, 3 * 10**18, 0.0),      # unknown price served as zero: bad
    ])                                               # times[3]: no row at all: bad
    row = query_rows(client, "checks/core_token_consistency.sql",
                     {"chain_id": CHAIN, "from_ts": times[0], "to_ts": times[-1], "rel_tol": TOL})[0]
    assert (row["published"], row["bad_row_counts"], row["bad_market_caps"]) == (4, 1, 1)
    assert sorted(row["examples"]) == [times[2], times[3]]


def test_event_epoch_check_places_bribes_votes_and_claims(client):
    epoch = T0 - T0 % WEEK
    ts = epoch + 3 * 86400

    def bribe(i: int, at: int, ep: int, usd: float) -> dict:
        return {"chain_id": CHAIN, "epoch": utc(ep), "id": f"b{i}", "block_timestamp": utc(at), "block_number": 1,
                "transaction_hash": "0x", "gauge_address": "0xg", "pool_address": "0xp", "token_address": "0xt",
                "token_symbol": "T", "token_decimals": 18, "amount_raw": 1, "amount_usd": usd, "sender": "0xs",
                "is_foundation": False}

    def vote(i: int, at: int, ep: int) -> dict:
        return {"chain_id": CHAIN, "epoch": utc(ep), "id": f"v{i}", "block_timestamp": utc(at), "block_number": 1,
                "venft_id": 1, "owner": "0xo", "is_foundation": False, "gauge_address": "0xg",
                "pool_address": "0xp", "weight_raw": 1}

    def claim(i: int, at: int, ep: int) -> dict:
        return {"chain_id": CHAIN, "epoch": utc(ep), "id": f"c{i}", "block_timestamp": utc(at), "block_number": 1,
                "transaction_hash": "0x", "venft_id": 1, "is_foundation": False, "kind": "bribe",
                "gauge_address": "0xg", "pool_address": "0xp", "token_address": "0xt", "token_symbol": "T",
                "token_decimals": 18, "amount_raw": 1, "amount_usd": 1.0}

    insert(client, "bribe_events", [bribe(1, ts, epoch, 5.0), bribe(2, ts, epoch - WEEK, 5.0), bribe(3, ts, epoch, -1.0)])
    insert(client, "vote_events", [vote(1, ts, epoch), vote(2, ts, epoch + 86400)])
    insert(client, "claim_events", [claim(1, ts, epoch - WEEK), claim(2, ts, epoch)])  # the epoch had not ended
    row = query_rows(client, "checks/governance_event_epochs.sql", {"chain_id": CHAIN, "now_ts": ts + 60})[0]
    assert {k: int(v) for k, v in row.items()} == {"bribes": 3, "votes": 2, "claims": 2,
                                                    "bad_bribes": 2, "bad_votes": 1, "bad_claims": 1}
    later = query_rows(client, "checks/governance_event_epochs.sql", {"chain_id": CHAIN, "now_ts": ts - 60})[0]
    assert (later["bad_bribes"], later["bad_votes"], later["bad_claims"]) == (3, 2, 2)  # all in the future


def vault_row(t: int, vault: str, *, a0=2 * 10**18, a1=3 * 10**6, p0=1.5, p1=2.0, tvl=None) -> dict:
    if tvl is None:
        tvl = 2 * 1.5 + 3 * 2.0 if p0 is not None and p1 is not None else None
    return {"chain_id": CHAIN, "snapshot_at": utc(t), "block_number": 1, "vault_address": vault, "vault_key": vault,
            "kind": "cl", "pool_address": "0xp", "gauge_address": "", "strategy_address": "0xs",
            "token0_address": "0xt0", "token1_address": "0xt1", "token0_symbol": "A", "token1_symbol": "B",
            "token0_decimals": 18, "token1_decimals": 6, "share_decimals": 18, "total_supply_raw": 10**18,
            "amount0_raw": a0, "amount1_raw": a1, "token0_price_usd": p0, "token1_price_usd": p1, "tvl_usd": tvl,
            "share_price_usd": tvl, "is_calm": True, "strategy_paused": False, "global_pause": False,
            "slippage_bps": 50, "tick": 1, "tick_lower": 0, "tick_upper": 10, "liquidity_raw": 1,
            "needs_rebalance": False, "last_rebalance": None, "last_harvest": None}


def test_vault_snapshot_check_counts_missing_and_unreconciled_rows(client):
    base = T0 + 20 * 86400  # clear of the other tests' snapshots
    a, b, c = base, base + 900, base + 1800
    publish(client, a, b, c)

    def check() -> dict:
        row = query_rows(client, "checks/vault_snapshot_consistency.sql",
                         {"chain_id": CHAIN, "from_ts": a, "to_ts": c, "vaults": ["0xv1", "0xv2", "0xv3"],
                          "rel_tol": TOL})[0]
        return {k: int(v) for k, v in row.items()}

    # v1 everywhere; v2 deployed from b on (no row at a is fine); v3 never deployed
    insert(client, "vault_snap15m", [vault_row(a, "0xv1"), vault_row(b, "0xv1"), vault_row(c, "0xv1"),
                                     vault_row(b, "0xv2"), vault_row(c, "0xv2", p0=None)])
    assert check() == {"published": 3, "vault_rows": 5, "missing": 0, "bad_tvl": 0,
                       "vaults_never_seen": 1}
    # a TVL off by more than 1e-9, a TVL where a price is unknown, a zero where it should be null
    insert(client, "vault_snap15m", [vault_row(a, "0xv1", tvl=9.0 * (1 + 1e-8)), vault_row(b, "0xv2", p1=None, tvl=6.0),
                                     vault_row(c, "0xv2", p0=None, tvl=0.0)])
    assert check()["bad_tvl"] == 3
    # v1 disappears from a published snapshot after its first row
    client.command("ALTER TABLE vault_snap15m DELETE WHERE vault_address = '0xv1' AND snapshot_at = "
                   "toDateTime64({t:Int64}, 3, 'UTC')", parameters={"t": b}, settings={"mutations_sync": 2})
    assert check()["missing"] == 1


def test_vault_hourly_check_flags_unfinished_and_partial_buckets(client):
    hour = T0 - T0 % 3600

    def period(start: int, partial: bool) -> dict:
        return {"chain_id": CHAIN, "vault_address": "0xv", "period_start": utc(start), "total_supply_raw": 1,
                "amount0_raw": 1, "amount1_raw": 1, "tvl_usd": 1.0, "share_price_usd": 1.0, "harvested_usd": 0.0,
                "apr": 0.0, "deposits": 0, "withdrawals": 0, "partial": partial}

    insert(client, "vault_hourly", [period(hour - 3600, False), period(hour, False), period(hour + 3600, True)])
    insert(client, "vault_daily", [period(hour - hour % 86400, True)])
    row = query_rows(client, "checks/vault_hourly_final.sql", {"chain_id": CHAIN, "now_ts": hour + 1800})[0]
    assert {k: int(v) for k, v in row.items()} == {"buckets": 3, "future_buckets": 2, "partial_buckets": 1,
                                                    "partial_days": 1}
    row = query_rows(client, "checks/vault_hourly_final.sql", {"chain_id": CHAIN, "now_ts": hour + 3 * 3600})[0]
    assert (row["future_buckets"], row["partial_buckets"]) == (0, 1)


def test_freshness_check_flags_a_missing_or_old_snapshot(client):
    latest = T0 + 30 * 86400
    publish(client, latest)

    def fresh(chain_id: int, now: int) -> dict:
        return query_rows(client, "checks/snapshot_freshness.sql",
                          {"chain_id": chain_id, "now_ts": now, "stale_after": 2700})[0]

    ok = fresh(CHAIN, latest + 2700)
    assert (ok["last_success_ts"], ok["age_seconds"], ok["stale"]) == (latest, 2700, 0)
    assert fresh(CHAIN, latest + 2701)["stale"] == 1
    none = fresh(CHAIN + 1, latest)  # a chain without any snapshot
    assert (none["last_success_ts"], none["age_seconds"], none["stale"]) == (None, None, 1)
