"""Dagster assets, one module per domain (snapshots, hourly, rollups) over shared workers
(`writers` for ClickHouse I/O, `upstream` for reads, `flows` for window sums)."""
