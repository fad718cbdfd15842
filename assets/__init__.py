"""Dagster assets over shared workers.

- Dagster definitions: `snapshots` (the snapshot assets of `registry` and their publication),
  `hourly`, `rollups`, `governance_events`, `vault_history`, over `resources`, `partitions`,
  `groups` and `runs` (what an asset reads of its run).
- What a snapshot asset does: `snapshot_plan` (the run's snapshot times), `snapshot_step`,
  `market_snapshots`, `governance_snapshots`, `vault_snapshots` (read, build rows, insert),
  `publication` (the snapshot_runs rows).
- Workers: `upstream` (blocks and reads), `flow_loads` (hourly buckets from the warehouse),
  `writers` (ClickHouse I/O) and `rows` (pure row building, no Dagster).
"""
