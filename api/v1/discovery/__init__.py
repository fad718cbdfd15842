"""/v1 discovery: /v1/pools and /v1/tokens, their rows, filters, sorts, facets and cursors."""
