"""Crafted governance rows (bribe and vote events, vote-escrow snapshot) of the `fresh` scenario.

Written by `seed_fresh` before the API serves anything (responses are cached per snapshot), relative
to the scenario's latest snapshot: some rows before it (visible), some after it (never visible),
and a superseded row version (FINAL serves the newer one).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

from ve_analytics.core.epochs import WEEK, epoch_start


def ts(unix: int) -> datetime:
    return datetime.fromtimestamp(unix, tz=timezone.utc)


POOL_A = "0x" + "a" * 40  # WBNB-USDT in the fresh snapshot's pool rows
POOL_C = "0x" + "c" * 40  # CAKE-WBNB
POOL_X = "0x" + "e" * 40  # not in the snapshot's pool rows
GAUGE = {POOL_A: "0x" + "1a" * 20, POOL_C: "0x" + "1c" * 20, POOL_X: "0x" + "1e" * 20}
TOKEN = "0x" + "7" * 40
WALLET = "0x" + "f" * 40
E18 = 10**18

BRIBE_COLUMNS = ["chain_id", "epoch", "id", "block_timestamp", "block_number", "transaction_hash", "gauge_address",
                 "pool_address", "token_address", "token_symbol", "token_decimals", "amount_raw", "amount_usd",
                 "sender", "is_foundation", "ingested_at"]
VOTE_COLUMNS = ["chain_id", "epoch", "id", "block_timestamp", "block_number", "venft_id", "owner", "is_foundation",
                "gauge_address", "pool_address", "weight_raw"]
GAUGE_COLUMNS = ["chain_id", "snapshot_at", "gauge_address", "pool_address", "is_alive", "epoch_start", "votes_raw",
                 "foundation_votes_raw", "foundation_vote_share", "emissions_epoch_raw", "emission_apr", "fee_apr",
                 "bribe_apr", "total_apr", "bribes_epoch_usd", "fees_epoch_usd"]
CLAIM_COLUMNS = ["chain_id", "epoch", "id", "block_timestamp", "block_number", "transaction_hash", "venft_id",
                 "is_foundation", "kind", "gauge_address", "pool_address", "token_address", "token_symbol",
                 "token_decimals", "amount_raw", "amount_usd"]
FOUNDATION_COLUMNS = ["chain_id", "snapshot_at", "block_number", "epoch_start", "wallet", "venft_ids", "locked_raw",
                      "voting_power_raw", "votes_epoch_raw", "vote_count", "voted_pool_count"]
FOUNDATION_VOTE_COLUMNS = ["chain_id", "snapshot_at", "epoch_start", "venft_id", "pool_address", "gauge_address",
                           "weight_raw", "voted_at"]
KPI_COLUMNS = ["chain_id", "snapshot_at", "epoch_start", "gauge_address", "pool_address", "foundation_votes_raw",
               "pool_votes_raw", "vote_share", "bribe_cost_usd", "emissions_directed_raw", "emissions_directed_usd",
               "tvl_usd", "tvl_prev_usd", "volume_usd", "volume_prev_usd", "fees_usd", "fees_prev_usd", "tvl_delta",
               "volume_delta", "fees_delta", "value_per_bribe_usd", "classification", "methodology_version"]
WBNB = "0x" + "6" * 40
VE_COLUMNS = ["chain_id", "snapshot_at", "block_number", "locked_raw", "voting_power_raw", "permanent_locked_raw",
              "decaying_locked_raw", "lock_count", "permanent_lock_count", "decaying_lock_count", "expired_lock_count",
              "avg_remaining_lock_seconds"]


@dataclass
class Gov:
    latest: int
    e0: int  # the snapshot's epoch
    e1: int
    e2: int
    cur_ts: int  # a time in e0 at or before the snapshot
    failed_at: int  # a failed run's snapshot time (its gauge row is never served)


def bribe(bid: str, at: int, pool: str, usd: float | None, foundation: bool = False, ingested: int = 0,
          amount: int = 5 * E18) -> list:
    return [56, ts(epoch_start(at)), bid, ts(at), at // 3, "0x" + bid.rjust(64, "0")[-64:], GAUGE[pool], pool, TOKEN,
            "USDT", 18, amount, usd, WALLET if foundation else "0x" + "9" * 40, foundation, ts(ingested or at)]


def vote(venft: int, at: int, pool: str, weight: int, foundation: bool) -> list:
    e = epoch_start(at)
    return [56, ts(e), f"{e}-{venft}-{pool}", ts(at), at // 3, venft, WALLET if foundation else "0x" + "8" * 40,
            foundation, GAUGE[pool], pool, weight]


def seed_governance(client, latest: int) -> Gov:
    """Write the crafted governance rows around the snapshot at `latest`."""
    e0 = epoch_start(latest)
    e1, e2 = e0 - WEEK, e0 - 2 * WEEK
    cur = max(e0, latest - 60)
    bribes = [
        bribe("b1", e2 + 100, POOL_A, 10.0),
        bribe("b2", e1 + 200, POOL_A, 20.0, foundation=True),
        bribe("b3", e1 + 300, POOL_C, 999.0, ingested=e1 + 301),  # superseded version
        bribe("b3", e1 + 300, POOL_C, 30.0, ingested=e1 + 302),
        bribe("b4", e1 + 400, POOL_X, 1.5, amount=3 * 10**17),
        bribe("b5", cur, POOL_A, 40.0, foundation=True),
        bribe("b6", latest + 60, POOL_A, 1000.0),  # after the snapshot: never visible
    ]
    votes = [
        vote(9, e2 + 50, POOL_A, 2 * E18, False),
        vote(1, e1 + 500, POOL_A, 3 * E18, True),
        vote(1, e1 + 500, POOL_C, 1 * E18, True),
        vote(7, e1 + 600, POOL_C, 4 * E18, False),
        vote(1, cur, POOL_A, 6 * E18, True),
        vote(7, latest + 60, POOL_A, 5 * E18, False),  # after the snapshot
    ]
    ve = [[56, ts(latest), 1_000_000 + latest // 3, 700 * E18, 450 * E18, 300 * E18, 400 * E18, 12, 2, 9, 1, 86400.0 * 100]]
    client.insert("bribe_events", bribes, column_names=BRIBE_COLUMNS)
    client.insert("vote_events", votes, column_names=VOTE_COLUMNS)
    client.insert("ve_snap15m", ve, column_names=VE_COLUMNS)
    failed_at = latest - 4 * 900  # the fresh scenario's failed run

    def gauge(at: int, pool: str, votes: int, apr: float | None) -> list:
        return [56, ts(at), GAUGE[pool], pool, True, ts(epoch_start(at)), votes, votes // 4, 0.25, 1000 * E18,
                apr, 0.1, 0.05, None if apr is None else apr + 0.15, 40.0, 12.5]

    gauges = [gauge(latest - k * 900, POOL_A, 6 * E18, 0.5 + k / 100) for k in range(0, 6)]
    gauges += [gauge(latest, POOL_X, 9 * E18, None), gauge(latest - 900, POOL_C, E18, 0.2)]
    client.insert("gauge_snap15m", gauges, column_names=GAUGE_COLUMNS)
    claims = [
        [56, ts(e1), "c1", ts(e0 if e0 <= latest - 10 else e1 + 10), 1, "0x1", 1, True, "fee", GAUGE[POOL_A], POOL_A,
         WBNB, "WBNB", 18, 2 * E18, 600.0],
        [56, ts(e1), "c2", ts(e1 + 20), 1, "0x2", 1, True, "bribe", GAUGE[POOL_A], POOL_A, TOKEN, "USDT", 18, E18, 1.0],
        [56, ts(e2), "c3", ts(latest + 60), 1, "0x3", 1, True, "fee", GAUGE[POOL_A], POOL_A, WBNB, "WBNB", 18, E18, 1.0],
    ]
    client.insert("claim_events", claims, column_names=CLAIM_COLUMNS)
    client.insert("foundation_snap15m", [
        [56, ts(latest), 1, ts(e0), WALLET, [1, 2], 3000 * E18, 2500 * E18, 8 * E18, 2, 2],
        [56, ts(latest - 900), 1, ts(e0), WALLET, [1], 1, 1, 0, 0, 0],
    ], column_names=FOUNDATION_COLUMNS)

    def fvote(at: int, venft: int, pool: str, weight: int) -> list:
        return [56, ts(at), ts(epoch_start(at)), venft, pool, GAUGE[pool], weight, ts(cur)]

    client.insert("foundation_vote_snap15m", [
        fvote(latest, 1, POOL_A, 6 * E18), fvote(latest, 2, POOL_C, 2 * E18),
        fvote(latest - 900, 1, POOL_A, 5 * E18),  # an older snapshot of the epoch: not the representative
        fvote(failed_at, 1, POOL_X, 7 * E18),  # the failed run's rows: never served
        fvote(latest + 900, 1, POOL_X, 7 * E18),  # after the snapshot
    ], column_names=FOUNDATION_VOTE_COLUMNS)

    def kpi(at: int, pool: str, votes: int, cost: float | None, label: str) -> list:
        return [56, ts(at), ts(epoch_start(at)), GAUGE[pool], pool, votes, 2 * votes, 0.5, cost, votes // 10, 3.0,
                100.0, 80.0, 50.0, 40.0, 5.0, 4.0, 0.25, 0.25, 0.25, 1.5, label, "1.1.0"]

    client.insert("kpi_snap15m", [
        kpi(latest, POOL_A, 6 * E18, 40.0, "repeat"),
        kpi(latest, POOL_C, 2 * E18, None, "insufficient_data"),
        kpi(latest - 900, POOL_A, 5 * E18, 40.0, "stop"),  # older snapshot of the epoch
        kpi(failed_at, POOL_X, 9 * E18, 1.0, "scale"),  # the failed run: never served
    ], column_names=KPI_COLUMNS)
    return Gov(latest, e0, e1, e2, cur, failed_at)


