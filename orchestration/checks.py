"""Asset checks, per chain: the same rules the API and the health route rely on, visible in the
Dagster UI on each chain's assets (so a data team sees which chain is stale or inconsistent).

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

Checks run after their asset (and after publication where they read published snapshots). Every
check is one row of CHECKS: its SQL returns one row whose `failing` columns count violations (the
check passes when they are all 0); every column of that row is shown as metadata.
"""

from dataclasses import dataclass
from typing import Any, Sequence

from dagster import AssetCheckExecutionContext, AssetCheckResult, AssetChecksDefinition, asset_check

from ..assets import registry
from ..assets.chain_scope import ChainScope
from ..assets.resources import WarehouseResource
from ..assets.writers import query_rows
from ..core.config import Settings
from ..core.epochs import iso
from ..core.methodology import METHODOLOGY_VERSION
from ..warehouse import sqlbook
from ..core import clock

REL_TOL = 1e-9
FAR_FUTURE = 32503680000  # year 3000: "no upper bound" for range-parameterized check SQL


@dataclass(frozen=True)
class SqlCheck:
    name: str
    asset: str
    sql: str  # file in warehouse_sql/transforms/checks/
    failing: tuple[str, ...]  # columns counting violations
    description: str
    deps: tuple[str, ...] = ()


CHECKS = (
    SqlCheck("protocol_snapshot_fresh", registry.PROTOCOL.name, "snapshot_freshness.sql", ("stale",),
             "The newest successful snapshot is at most STALE_AFTER_MINUTES (45 by default) old.",
             (registry.PUBLICATION,)),
    SqlCheck("published_snapshot_row_counts", registry.PUBLICATION, "snapshot_row_counts.sql",
             ("bad_protocol_rows", "bad_pool_rows"),
             "Every published snapshot has one protocol row and pool_count pool rows."),
    SqlCheck("protocol_tvl_reconciles_with_pools", registry.PROTOCOL.name, "protocol_tvl_reconciliation.sql",
             ("mismatched",),
             "Protocol TVL equals the sum of its pools' TVL (and v2 + CL equals the total), 1e-9 relative.",
             (registry.POOLS.name, registry.PUBLICATION)),
    SqlCheck("protocol_daily_reconciles_with_hourly", "daily_rollups", "daily_reconciliation.sql", ("mismatched",),
             "protocol_daily volume/fees equal the sum of protocol_hourly per day (1e-9 relative)."),
    SqlCheck("hourly_buckets_complete", "pool_hourly", "hourly_completeness.sql",
             ("incomplete_days", "future_buckets", "pool_count_mismatches"),
             "24 protocol buckets per complete day, none for an unfinished hour, pool counts consistent."),
    SqlCheck("governance_snapshots_consistent", registry.GAUGES.name, "governance_snapshot_consistency.sql",
             ("bad_ve", "bad_venft", "bad_foundation", "snapshots_without_gauges", "bad_gauge_apr", "bad_kpi"),
             "Per published snapshot: ve split and lock counts add up, the per-lock rows sum to VotingEscrow's "
             "supply, the foundation summary equals its vote rows, "
             "gauge total APR = emission + fee + bribe, KPI classifications valid for the methodology.",
             (registry.VE.name, registry.FOUNDATION.name, registry.KPIS.name, registry.PUBLICATION)),
    SqlCheck("core_token_factsheet_consistent", registry.CORE_TOKEN.name, "core_token_consistency.sql",
             ("bad_row_counts", "bad_market_caps"),
             "One core-token row per published snapshot; market cap = price x supply, null when either is unknown.",
             (registry.PUBLICATION,)),
    SqlCheck("governance_events_in_their_epochs", "governance_events", "governance_event_epochs.sql",
             ("bad_bribes", "bad_votes", "bad_claims"),
             "Bribes and votes in the epoch of their block, claims for an epoch that had ended, nothing in the "
             "future, no negative USD."),
    SqlCheck("vault_snapshots_consistent", registry.VAULTS.name, "vault_snapshot_consistency.sql", ("missing", "bad_tvl"),
             "One row per configured vault per published snapshot (from its first row on); TVL = amount0 x p0 / "
             "10^d0 + amount1 x p1 / 10^d1 within 1e-9 relative, null when a price is unknown.",
             (registry.PUBLICATION,)),
    SqlCheck("vault_hourly_buckets_final", "vault_history", "vault_hourly_final.sql",
             ("future_buckets", "partial_buckets"),
             "vault_hourly has no bucket for an hour that had not ended and none flagged partial."),
)


def _metadata(row: dict[str, Any]) -> dict[str, Any]:
    """A check row as Dagster metadata: Unix-second columns (`*_ts`, examples of times) as ISO."""
    out: dict[str, Any] = {}
    for key, value in row.items():
        if isinstance(value, (list, tuple)):
            value = ", ".join(iso(v) if isinstance(v, int) else str(v) for v in value)
        elif value is None:
            value = "none"
        elif key.endswith("_ts"):
            key, value = key[:-3], iso(value)
        elif not isinstance(value, (int, float, str)):
            value = str(value)
        out[key] = value
    return out


def _check(spec: SqlCheck, scope: ChainScope, settings: Settings) -> AssetChecksDefinition:
    sql = f"checks/{spec.sql}"
    declared = set(sqlbook.sql(f"transforms/{sql}").parameters)
    cid, vaults = scope.chain_id, [v.address.lower() for v in scope.chain.vaults]

    @asset_check(asset=scope.key(spec.asset), name=spec.name, additional_deps=[scope.key(d) for d in spec.deps],
                 description=f"Chain {cid}: {spec.description}")
    def _sql_check(context: AssetCheckExecutionContext, warehouse: WarehouseResource) -> AssetCheckResult:
        values = {
            "chain_id": cid, "from_ts": 0, "to_ts": FAR_FUTURE, "rel_tol": REL_TOL,
            "now_ts": int(clock.now()), "stale_after": settings.stale_after_minutes * 60,
            "methodology": METHODOLOGY_VERSION, "vaults": vaults,
        }
        with warehouse.client() as client:
            row = query_rows(client, sql, {k: v for k, v in values.items() if k in declared})[0]
        return AssetCheckResult(passed=all(int(row[c] or 0) == 0 for c in spec.failing), metadata=_metadata(row))

    return _sql_check


VAULT_ASSETS = (registry.VAULTS.name, "vault_history")


def build_checks(scope: ChainScope, settings: Settings) -> Sequence[AssetChecksDefinition]:
    """The chain's checks (the vault checks only where the chain has vault assets)."""
    return [_check(spec, scope, settings) for spec in CHECKS
            if scope.chain.has_vaults or spec.asset not in VAULT_ASSETS]
