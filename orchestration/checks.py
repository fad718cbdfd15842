"""Asset checks: the same rules the API and the health route rely on, visible in the Dagster UI.

Each check is one SQL file in warehouse_sql/transforms/checks/ run against the warehouse:

- freshness: the newest successful snapshot is at most STALE_AFTER_MINUTES old (45 by default);
- row counts: one protocol row per published snapshot and `pool_count` pool rows;
- reconciliation: protocol TVL == sum of pool TVL (and v2 + CL == total) within 1e-9 relative;
  protocol_daily == sum of protocol_hourly per day;
- hourly completeness: 24 buckets per complete day, no bucket for an hour that had not ended,
  protocol pool_count == pool buckets per hour;
- governance snapshots: ve split and lock counts add up, foundation summary equals its vote rows,
  gauge total APR equals its parts, KPI classifications valid and stamped with the methodology;
- core token: one factsheet row per snapshot, market cap = price x supply, null when unknown;
- governance events: bribes and votes in the epoch of their block, claims for an ended epoch;
- vaults: one row per configured vault per published snapshot (from its first row on: before it
  the vault was not deployed), TVL = amount0 x p0 + amount1 x p1 (null when a price is);
  vault_hourly holds no bucket for an unfinished hour.

Checks run after their asset (and after publication where they read published snapshots).
"""

import time
from typing import Sequence

from dagster import AssetCheckExecutionContext, AssetCheckResult, AssetCheckSeverity, AssetChecksDefinition, asset_check

from assets.writers import query_rows
from core.config import Settings
from core.epochs import iso
from core.methodology import METHODOLOGY_VERSION
from core.vaults import vaults_for
from orchestration.resources import ChainResource, WarehouseResource

REL_TOL = 1e-9
FAR_FUTURE = 32503680000  # year 3000: "no upper bound" for range-parameterized check SQL


def build_checks(settings: Settings) -> Sequence[AssetChecksDefinition]:
    stale_after = settings.stale_after_minutes * 60

    @asset_check(
        asset="protocol_snapshot",
        name="protocol_snapshot_fresh",
        additional_deps=["snapshot_publication"],
        description=f"The newest successful snapshot is at most {settings.stale_after_minutes} minutes old.",
    )
    def protocol_snapshot_fresh(
        context: AssetCheckExecutionContext, warehouse: WarehouseResource, chain: ChainResource
    ) -> AssetCheckResult:
        with warehouse.client() as client:
            row = query_rows(client, "checks/snapshot_freshness.sql", {"chain_id": chain.chain_id})[0]
        last = row["last_success_ts"]
        age = None if last is None else int(time.time()) - int(last)
        return AssetCheckResult(
            passed=age is not None and age <= stale_after,
            severity=AssetCheckSeverity.ERROR,
            metadata={
                "last_success": iso(last) if last is not None else "none",
                "age_seconds": age if age is not None else -1,
                "stale_after_seconds": stale_after,
                "successful_snapshots": int(row["successes"]),
                "failed_attempts": int(row["failures"]),
            },
        )

    @asset_check(
        asset="snapshot_publication",
        name="published_snapshot_row_counts",
        description="Every published snapshot has one protocol row and pool_count pool rows.",
    )
    def published_snapshot_row_counts(
        context: AssetCheckExecutionContext, warehouse: WarehouseResource, chain: ChainResource
    ) -> AssetCheckResult:
        with warehouse.client() as client:
            row = query_rows(client, "checks/snapshot_row_counts.sql",
                             {"chain_id": chain.chain_id, "from_ts": 0, "to_ts": FAR_FUTURE})[0]
        bad = int(row["bad_protocol_rows"]) + int(row["bad_pool_rows"])
        return AssetCheckResult(
            passed=bad == 0,
            metadata={
                "published": int(row["published"]),
                "bad_protocol_rows": int(row["bad_protocol_rows"]),
                "bad_pool_rows": int(row["bad_pool_rows"]),
                "examples": ", ".join(iso(t) for t in row["examples"]),
            },
        )

    @asset_check(
        asset="protocol_snapshot",
        name="protocol_tvl_reconciles_with_pools",
        additional_deps=["pool_snapshots", "snapshot_publication"],
        description="Protocol TVL equals the sum of its pools' TVL (and v2 + CL equals the total), 1e-9 relative.",
    )
    def protocol_tvl_reconciles_with_pools(
        context: AssetCheckExecutionContext, warehouse: WarehouseResource, chain: ChainResource
    ) -> AssetCheckResult:
        with warehouse.client() as client:
            row = query_rows(client, "checks/protocol_tvl_reconciliation.sql",
                             {"chain_id": chain.chain_id, "from_ts": 0, "to_ts": FAR_FUTURE, "rel_tol": REL_TOL})[0]
        return AssetCheckResult(
            passed=int(row["mismatched"]) == 0,
            metadata={
                "checked": int(row["checked"]),
                "mismatched": int(row["mismatched"]),
                "max_rel_err": float(row["max_rel_err"] or 0.0),
                "examples": ", ".join(iso(t) for t in row["examples"]),
            },
        )

    @asset_check(
        asset="daily_rollups",
        name="protocol_daily_reconciles_with_hourly",
        description="protocol_daily volume/fees equal the sum of protocol_hourly per day (1e-9 relative).",
    )
    def protocol_daily_reconciles_with_hourly(
        context: AssetCheckExecutionContext, warehouse: WarehouseResource, chain: ChainResource
    ) -> AssetCheckResult:
        with warehouse.client() as client:
            row = query_rows(client, "checks/daily_reconciliation.sql",
                             {"chain_id": chain.chain_id, "from_ts": 0, "to_ts": FAR_FUTURE, "rel_tol": REL_TOL})[0]
        return AssetCheckResult(
            passed=int(row["mismatched"]) == 0,
            metadata={
                "days_checked": int(row["checked"]),
                "mismatched": int(row["mismatched"]),
                "max_rel_err": float(row["max_rel_err"] or 0.0),
                "examples": ", ".join(row["examples"]),
            },
        )

    @asset_check(
        asset="pool_hourly",
        name="hourly_buckets_complete",
        description="24 protocol buckets per complete day, none for an unfinished hour, pool counts consistent.",
    )
    def hourly_buckets_complete(
        context: AssetCheckExecutionContext, warehouse: WarehouseResource, chain: ChainResource
    ) -> AssetCheckResult:
        with warehouse.client() as client:
            row = query_rows(client, "checks/hourly_completeness.sql",
                             {"chain_id": chain.chain_id, "now_ts": int(time.time())})[0]
        bad = int(row["incomplete_days"]) + int(row["future_buckets"]) + int(row["pool_count_mismatches"])
        return AssetCheckResult(
            passed=bad == 0,
            metadata={
                "buckets": int(row["buckets"]),
                "complete_days": int(row["complete_days"]),
                "incomplete_days": int(row["incomplete_days"]),
                "incomplete_examples": ", ".join(row["incomplete_examples"]),
                "future_buckets": int(row["future_buckets"]),
                "pool_count_mismatches": int(row["pool_count_mismatches"]),
            },
        )

    @asset_check(
        asset="gauge_snapshots",
        name="governance_snapshots_consistent",
        additional_deps=["ve_snapshots", "foundation_snapshots", "kpi_snapshots", "snapshot_publication"],
        description="Per published snapshot: ve split and lock counts add up, the foundation summary equals its "
        "vote rows, gauge total APR = emission + fee + bribe, KPI classifications valid for the methodology.",
    )
    def governance_snapshots_consistent(
        context: AssetCheckExecutionContext, warehouse: WarehouseResource, chain: ChainResource
    ) -> AssetCheckResult:
        with warehouse.client() as client:
            row = query_rows(client, "checks/governance_snapshot_consistency.sql",
                             {"chain_id": chain.chain_id, "from_ts": 0, "to_ts": FAR_FUTURE, "rel_tol": REL_TOL,
                              "methodology": METHODOLOGY_VERSION})[0]
        counts = {k: int(v) for k, v in row.items()}
        return AssetCheckResult(passed=sum(v for k, v in counts.items() if k != "published") == 0, metadata=counts)

    @asset_check(
        asset="core_token_snapshot",
        name="core_token_factsheet_consistent",
        additional_deps=["snapshot_publication"],
        description="One core-token row per published snapshot; market cap = price x supply, null when either is unknown.",
    )
    def core_token_factsheet_consistent(
        context: AssetCheckExecutionContext, warehouse: WarehouseResource, chain: ChainResource
    ) -> AssetCheckResult:
        with warehouse.client() as client:
            row = query_rows(client, "checks/core_token_consistency.sql",
                             {"chain_id": chain.chain_id, "from_ts": 0, "to_ts": FAR_FUTURE, "rel_tol": REL_TOL})[0]
        return AssetCheckResult(
            passed=int(row["bad_row_counts"]) + int(row["bad_market_caps"]) == 0,
            metadata={
                "published": int(row["published"]),
                "bad_row_counts": int(row["bad_row_counts"]),
                "bad_market_caps": int(row["bad_market_caps"]),
                "examples": ", ".join(iso(t) for t in row["examples"]),
            },
        )

    @asset_check(
        asset="governance_events",
        name="governance_events_in_their_epochs",
        description="Bribes and votes in the epoch of their block, claims for an epoch that had ended, "
        "nothing in the future, no negative USD.",
    )
    def governance_events_in_their_epochs(
        context: AssetCheckExecutionContext, warehouse: WarehouseResource, chain: ChainResource
    ) -> AssetCheckResult:
        with warehouse.client() as client:
            row = query_rows(client, "checks/governance_event_epochs.sql",
                             {"chain_id": chain.chain_id, "now_ts": int(time.time())})[0]
        counts = {k: int(v) for k, v in row.items()}
        return AssetCheckResult(
            passed=counts["bad_bribes"] + counts["bad_votes"] + counts["bad_claims"] == 0, metadata=counts
        )

    @asset_check(
        asset="vault_snapshots",
        name="vault_snapshots_consistent",
        additional_deps=["snapshot_publication"],
        description="One row per configured vault per published snapshot (from its first row on); "
        "TVL = amount0 x p0 / 10^d0 + amount1 x p1 / 10^d1 within 1e-9 relative, null when a price is unknown.",
    )
    def vault_snapshots_consistent(
        context: AssetCheckExecutionContext, warehouse: WarehouseResource, chain: ChainResource
    ) -> AssetCheckResult:
        vaults = [v.address.lower() for v in vaults_for(chain.chain_id)]
        with warehouse.client() as client:
            row = query_rows(client, "checks/vault_snapshot_consistency.sql",
                             {"chain_id": chain.chain_id, "from_ts": 0, "to_ts": FAR_FUTURE, "vaults": vaults,
                              "rel_tol": REL_TOL})[0]
        counts = {k: int(v) for k, v in row.items()}
        return AssetCheckResult(passed=counts["missing"] + counts["bad_tvl"] == 0,
                                metadata={**counts, "configured_vaults": len(vaults)})

    @asset_check(
        asset="vault_history",
        name="vault_hourly_buckets_final",
        description="vault_hourly has no bucket for an hour that had not ended and none flagged partial.",
    )
    def vault_hourly_buckets_final(
        context: AssetCheckExecutionContext, warehouse: WarehouseResource, chain: ChainResource
    ) -> AssetCheckResult:
        with warehouse.client() as client:
            row = query_rows(client, "checks/vault_hourly_final.sql",
                             {"chain_id": chain.chain_id, "now_ts": int(time.time())})[0]
        counts = {k: int(v) for k, v in row.items()}
        return AssetCheckResult(passed=counts["future_buckets"] + counts["partial_buckets"] == 0, metadata=counts)

    return [
        protocol_snapshot_fresh,
        published_snapshot_row_counts,
        protocol_tvl_reconciles_with_pools,
        protocol_daily_reconciles_with_hourly,
        hourly_buckets_complete,
        governance_snapshots_consistent,
        core_token_factsheet_consistent,
        governance_events_in_their_epochs,
        vault_snapshots_consistent,
        vault_hourly_buckets_final,
    ]
