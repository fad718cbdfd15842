"""Crafted snapshot_runs and chain_coverage rows of five chains, relative to a `latest` boundary,
for the per-chain health and /v1 reference tests (a module of its own: test modules import it).

Chain 56 fresh and complete; 4663 fresh and young; 8453 stale with a failed latest attempt; 5042
stale with its subgraph lagging; chain 1 without any row; chain 999 outside the book.
"""
from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

from ve_analytics.api.coverage_holes import MAX_RANGES_SHOWN
from ve_analytics.core.epochs import DAY, HOUR, QUARTER_HOUR, iso
from ve_analytics.warehouse.client import get_client

RUN_COLUMNS = ["chain_id", "snapshot_at", "run_id", "status", "block_number", "block_timestamp", "started_at",
               "finished_at", "rows_written", "sources", "error"]
COVERAGE_COLUMNS = ["chain_id", "dataset", "first_at", "last_at", "updated_at"]
BOOK_CHAINS = (56, 4663, 8453, 1, 5042)
LONG_ERROR = "subgraph timed out; " * 30  # 600 characters: served cut to 300


def ts(unix: int) -> datetime:
    return datetime.fromtimestamp(unix, tz=timezone.utc)


def hour(unix: int) -> int:
    return unix // HOUR * HOUR


def write_book(folder: Path, overrides: dict[int, dict] | None = None) -> Path:
    """Five chains of unreachable endpoints, each with the snapshot depth the API assumes when the
    book has none; `overrides` adds or replaces fields of a chain's entry."""
    entries = [{"chainId": cid, "name": f"chain {cid}", "network": f"net{cid}", "snapshotDays": 30 if cid == 56 else 7,
                "subgraphUrl": "http://127.0.0.1:9/subgraph", "rpcUrl": "http://127.0.0.1:9/rpc",
                **(overrides or {}).get(cid, {})} for cid in BOOK_CHAINS]
    path = folder / "chain-book.json"
    path.write_text(json.dumps({"chains": entries}))
    return path


def run(cid: int, at: int, run_id: str, status: str = "success", error: str = "") -> list:
    t = ts(at)
    return [cid, t, run_id, status, at // 3, t, t, ts(at + 40), {"protocol_snap15m": 1}, ["subgraph"], error]


def cov(cid: int, dataset: str, first: int, last: int) -> list:
    return [cid, dataset, ts(first), ts(last), ts(last + 60)]


def seed(settings, latest: int) -> dict:
    """The rows, and the times the expectations are built from (all relative to `latest`)."""
    t = {
        "m56": latest - 10 * DAY + 7 * 60,  # a chain younger than its 30-day depth
        "m8453": latest - 40 * DAY,
        "m5042": latest - 60 * DAY,
        "m4663": latest - 3 * DAY + 5 * 60,
    }
    runs = [
        run(56, latest - QUARTER_HOUR, "run-56-a"),
        run(56, latest, "run-56-b"),
        run(8453, latest - 3 * HOUR, "run-8453-ok"),
        run(8453, latest - 3 * HOUR + QUARTER_HOUR, "run-8453-failed", "failed", LONG_ERROR),
        run(5042, latest - 2 * HOUR, "run-5042"),
        run(4663, latest - QUARTER_HOUR, "run-4663"),
        run(999, latest + QUARTER_HOUR, "run-999"),  # a chain outside the book: never listed
    ]
    m56, m8453, m5042, m4663 = t["m56"], t["m8453"], t["m5042"], t["m4663"]
    coverage = [
        # chain 56: fresh, complete; two unmerged rows per dataset for some (the read takes min/max)
        cov(56, "market_activity", m56, hour(latest)),
        cov(56, "hourly", hour(m56) + HOUR, hour(latest) - 2 * HOUR),  # exactly one hour after: complete
        cov(56, "hourly", hour(m56) + 5 * HOUR, hour(latest) - HOUR),
        cov(56, "events", m56, latest - 300),
        cov(56, "events", m56 + DAY, latest - 120),
        cov(56, "snapshots", m56 + 8 * 60, latest),  # the first boundary after the first pool
        cov(56, "subgraph", m56, latest - 60),
        cov(56, "chain_head", latest - 600, latest),
        # chain 8453: stale (subgraph 5 minutes behind: not lagging), snapshots and history filling in
        cov(8453, "market_activity", m8453, hour(latest)),
        cov(8453, "hourly", latest - 5 * DAY, hour(latest) - HOUR),
        cov(8453, "snapshots", latest - 2 * DAY, latest - 3 * HOUR),
        cov(8453, "subgraph", m8453, latest - 3 * HOUR - 300),
        cov(8453, "chain_head", latest - 3 * HOUR, latest - 3 * HOUR),
        # chain 5042: stale and its subgraph 2h20 behind the head: lagging wins; snapshots reach
        # back exactly the depth minus the one-step tolerance: complete
        cov(5042, "market_activity", m5042, hour(latest)),
        cov(5042, "hourly", hour(m5042), hour(latest) - HOUR),
        cov(5042, "events", m5042, latest),
        cov(5042, "snapshots", latest - 2 * HOUR - (7 * DAY - QUARTER_HOUR), latest - 2 * HOUR),
        cov(5042, "subgraph", m5042, latest - 2 * HOUR - 20 * 60),
        cov(5042, "chain_head", latest, latest),
        # chain 4663: fresh, its head read before the subgraph's newest block (lag 0, not negative),
        # no hourly bucket yet while it has market activity
        cov(4663, "market_activity", m4663, hour(latest)),
        cov(4663, "snapshots", m4663 + 10 * 60, latest - QUARTER_HOUR),
        cov(4663, "subgraph", m4663, latest - 60),
        cov(4663, "chain_head", latest - 120, latest - 120),
        cov(999, "snapshots", latest, latest),
        # chain 1: no row at all
    ]
    client = get_client(settings)
    client.insert("snapshot_runs", runs, column_names=RUN_COLUMNS)
    for row in coverage:  # one insert per row: separate parts, as separate asset runs write them
        client.insert("chain_coverage", [row], column_names=COVERAGE_COLUMNS)
    client.close()
    return t


def _served(first: int, last: int, present: set[int], step: int) -> dict:
    """A missing-ranges answer by set arithmetic: the window's times minus the present ones, in runs."""
    runs: list[list[int]] = []
    for t in sorted(set(range(first, last + 1, step)) - present):
        if runs and runs[-1][-1] == t - step:
            runs[-1].append(t)
        else:
            runs.append([t])
    ranges = [{"from": iso(r[0]), "to": iso(r[-1]), "count": len(r)} for r in reversed(runs)]
    return {"window": {"from": iso(first), "to": iso(last)}, "count": sum(len(r) for r in runs), "rangeCount": len(runs),
            "ranges": ranges[:MAX_RANGES_SHOWN], "truncated": len(runs) > MAX_RANGES_SHOWN}


def missing_truth(published: set[int], market: int, depth_days: int, now: int) -> dict:
    """missingSnapshots: the window from the depth (not before the first activity's boundary) to
    the boundary 30 minutes before now."""
    first = max(now // QUARTER_HOUR * QUARTER_HOUR - depth_days * DAY + QUARTER_HOUR, -(-market // QUARTER_HOUR) * QUARTER_HOUR)
    return _served(first, (now - 2 * QUARTER_HOUR) // QUARTER_HOUR * QUARTER_HOUR, published, QUARTER_HOUR)


def missing_history_truth(hours: set[int], market: int, now: int) -> dict:
    """missingHistory: the hours after the first activity's hour up to the last one ended an hour before now."""
    return _served(market // HOUR * HOUR + HOUR, (now - HOUR) // HOUR * HOUR - HOUR, hours, HOUR)
