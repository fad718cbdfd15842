"""The chain a single-entity route reads: its `chainId` path segment, pinned at the chain's
published snapshot by the coverage (503 `chain_unavailable` without one)."""
from __future__ import annotations

from ...coverage import ChainCoverage
from ...routes import RequestContext


def path_chain(ctx: RequestContext) -> ChainCoverage:
    ctx.coverage.require_usable()
    return ctx.coverage.chain(ctx.params["chainId"])
