"""The options every asset of a kind shares, per chain: key prefix, UI group, partitions and
backfill policy. Every module that defines assets imports this one.

It also silences Dagster's BetaWarning: every asset declares a BackfillPolicy, which Dagster marks
beta; the project relies on it knowingly (range backfills), so the warning would only repeat
itself per asset. The filter lives here rather than in the package's __init__ so that
assets.rows, which has nothing to do with Dagster, loads without it.
"""
import warnings

from dagster import BackfillPolicy, BetaWarning

from .chain_scope import ChainScope
from .partitions import SNAPSHOT_DAYS_PER_RUN
from ..core.pipeline_names import asset_prefix

warnings.filterwarnings("ignore", category=BetaWarning)


def history_asset(scope: ChainScope, *, kinds: tuple[str, ...] = ("clickhouse", "python")) -> dict:
    """Hourly buckets, rollups and events: daily partitions from the chain's deployment, and one
    run for a whole backfill range (a range run reads and writes its days in one pass)."""
    return {"key_prefix": [asset_prefix(scope.chain_id)], "partitions_def": scope.history_partitions,
            "backfill_policy": BackfillPolicy.single_run(), "group_name": scope.history_group, "kinds": set(kinds)}


def snapshot_asset(scope: ChainScope) -> dict:
    """15-minute snapshots: daily partitions over the chain's snapshot window, runs of
    SNAPSHOT_DAYS_PER_RUN days in a backfill."""
    return {"key_prefix": [asset_prefix(scope.chain_id)], "partitions_def": scope.snapshot_partitions,
            "backfill_policy": BackfillPolicy.multi_run(SNAPSHOT_DAYS_PER_RUN), "group_name": scope.snapshot_group,
            "kinds": {"clickhouse", "python"}}
