"""Dagster assets over shared workers.

- Dagster definitions: `snapshots` (with `core_token`, `governance`, `vaults` for their snapshot
  tables), `hourly`, `rollups`, `governance_events`, `vault_history`, over `resources`,
  `partitions`, `groups` and `runs` (what an asset reads of its run).
- Workers: `upstream` (blocks and reads), `writers` (ClickHouse I/O), `publication`
  (snapshot_runs) and `rows` (pure row building, no Dagster).
"""
