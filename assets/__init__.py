"""Dagster assets, one module per domain (snapshots, hourly, rollups) over shared workers
(`writers` for ClickHouse I/O, `upstream` for reads, `flows` for window sums)."""

import warnings

from dagster import BetaWarning

# Every asset here declares a BackfillPolicy, which Dagster marks beta; the project relies on it
# knowingly (single-run range backfills), so the warning would only repeat itself per asset.
warnings.filterwarnings("ignore", category=BetaWarning)
