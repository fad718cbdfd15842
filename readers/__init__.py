"""Upstream readers: the subgraph (GraphQL over HTTP) and chain JSON-RPC (web3).

Both are configured per chain from `Settings.chain(chain_id)`, so pointing them at real
endpoints is a configuration change. Neither knows about Dagster or ClickHouse.
"""
from .chain import ChainReader, ChainReadError, GovernanceState
from .graphql import SubgraphClient, SubgraphError

__all__ = ["ChainReader", "ChainReadError", "GovernanceState", "SubgraphClient", "SubgraphError"]
