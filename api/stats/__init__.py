"""The single-chain, snapshot-backed /api/stats family (spec: stats-api.md)."""
