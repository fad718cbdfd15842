"""Warehouse rows built from upstream reads: pure functions of subgraph entities, chain reads and
times, one module per group of tables. Nothing here reads, writes or imports Dagster."""
