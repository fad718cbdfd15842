"""The multichain /v1 family (spec v1-api.md; ADR 0009): route tables, handlers and schemas."""
