"""The Dagster UI groups of the assets. Every module that defines assets imports this one.

It also silences Dagster's BetaWarning: every asset declares a BackfillPolicy, which Dagster marks
beta; the project relies on it knowingly (single-run range backfills), so the warning would only
repeat itself per asset. The filter lives here rather than in the package's __init__ so that
assets.rows, which has nothing to do with Dagster, loads without it.
"""
import warnings

from dagster import BetaWarning

warnings.filterwarnings("ignore", category=BetaWarning)

HISTORY = "history"  # hourly buckets, daily rollups, events: daily partitions
SNAPSHOTS = "snapshots"  # the 15-minute snapshot tables and their publication
