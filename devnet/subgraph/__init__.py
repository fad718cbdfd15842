"""Subgraph-style GraphQL endpoint over the simulation (entities in the spirit of Uniswap v3)."""
