"""The /v1 pool detail routes (spec v1-api.md: Pool and token detail routes)."""
