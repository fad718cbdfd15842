"""/v1/xcore: the escrow-share token (spec v1-api.md: Escrow-share token; ADR 0019)."""
