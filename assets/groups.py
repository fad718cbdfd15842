"""The Dagster UI groups of the assets. Every module that defines assets imports this one.

It also silences Dagster's BetaWarning: every asset declares a BackfillPolicy, which Dagster marks
beta; the project relies on it knowingly (single-run range backfills), so the warning would only
repeat itself per asset. The filter lives here rather than in the package's __init__ so that
assets.rows, which has nothing to do with Dagster, loads without it.
"""
import warnings

from dagster import BackfillPolicy, BetaWarning, PartitionsDefinition

warnings.filterwarnings("ignore", category=BetaWarning)

HISTORY = "history"  # hourly buckets, daily rollups, events: daily partitions
SNAPSHOTS = "snapshots"  # the 15-minute snapshot tables and their publication


def history_asset(partitions_def: PartitionsDefinition, *, kinds: tuple[str, ...] = ("clickhouse", "python")) -> dict:
    """The options every history asset shares: daily partitions, the history group, and one run
    for a whole backfill range (a range run reads and writes its days in one pass)."""
    return {"partitions_def": partitions_def, "backfill_policy": BackfillPolicy.single_run(),
            "group_name": HISTORY, "kinds": set(kinds)}
