"""The /v1 auto-managed vault routes (ADR 0018)."""
