"""The /v1 reference routes (spec v1-api.md: Reference; ADR 0009): chains, deployments, health.
`ROUTES` and `SCHEMAS` are the domain's, for ../routes.py."""
from __future__ import annotations

from ...routes import ErrorDoc, Route
from ...schema import array_of, ref
from . import handlers as reference
from .schemas import SCHEMAS
from ..common.params import CHAIN_IDS, HEALTH_SECONDS, REFERENCE_SECONDS

__all__ = ["ROUTES", "SCHEMAS"]

UNHEALTHY_DOC = ErrorDoc(503, reference.UNHEALTHY, "The warehouse is unreachable, or no chain has a published snapshot "
                         "within the freshness limit.")


def reference_route(path: str, name: str, handler, summary: str, schema: dict, description: str) -> Route:
    return Route(path, name, handler, summary, schema, params=(CHAIN_IDS,), cache_seconds=REFERENCE_SECONDS,
                 snapshot=True, multichain=True, description=description, tags=("reference",))


ROUTES: tuple[Route, ...] = (
    reference_route(
        "/chains", "chains", reference.chains, "Public chains: features, freshness and indexed coverage", array_of("V1Chain"),
        "Every selected public chain: name, network, each feature with its status (unsupported, or the chain's state), "
        "its latest published snapshot (snapshotAt, indexedAt, availableAt) and state, and what its indexed data "
        "covers (first market activity, history and snapshot ranges, subgraph lag). Start here: request a capability "
        "only where its status is fresh, failed or stale."),
    reference_route(
        "/deployments", "deployments", reference.deployments, "Contract addresses per chain", array_of("V1Deployment"),
        "The protocol's contracts on every selected chain, each with the feature it serves and whether it is indexed "
        "(a deployment alone does not establish indexed data: `indexed` is true only when the chain has a published "
        "snapshot and supports the feature)."),
    Route("/health", "health", reference.health, "Service health over every public chain", ref("V1Health"),
          cache_seconds=HEALTH_SECONDS, snapshot=False, errors=(UNHEALTHY_DOC,), tags=("reference",),
          description="200 `ok` when every public chain is fresh, `degraded` (naming the failed, stale and unavailable "
          "chains) when some are not; 503 `unhealthy` when the warehouse is unreachable or no chain's snapshot is within the "
          "freshness limit."),
    Route("/health/chains", "health_chains", reference.health_chains, "Health per public chain", array_of("V1ChainHealth"),
          cache_seconds=HEALTH_SECONDS, snapshot=False, errors=(UNHEALTHY_DOC,), tags=("reference",),
          description="Per public chain: the latest published snapshot and its age, the latest attempt, subgraph lag, "
          "coverage, what is still filling in, and whether the chain's RPC answers now. A chain past the freshness "
          "limit is `stale` while the others stay `fresh`; 503 `unhealthy` only when the warehouse is unreachable."),
)
