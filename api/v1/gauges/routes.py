"""The /v1 gauge routes (spec v1-api.md: Routes named only, Gauges): /v1/gauges and
/v1/gauges/{chainId}/{gaugeAddress}. `ROUTES` and `SCHEMAS` are the domain's, for ../routes.py."""
from __future__ import annotations

from ...cursors import MAX_CURSOR_CHARS
from ...routes import ErrorDoc, Route
from ...schema import ref
from ...validation import Param
from ..common.params import (APR_PROFILE, CHAIN_IDS, CHAIN_UNAVAILABLE_DOC, MARKET_SECONDS, PATH_CHAIN_ID,
                             qualified_param)
from ..governance.routes import CURSOR as CHAINS_CURSOR, CURSOR_EXPIRED_DOC, EPOCH_NOT_ALIGNED_DOC
from . import epochs
from . import handlers as gauges
from .schemas import SCHEMAS

__all__ = ["ROUTES", "SCHEMAS"]

GAUGE_TEXT = (" Per gauge: its kind (a user pool's gauge, or a system gauge without a user pool), target and pool, "
              "whether it is alive and its timeline (created, killed, revived: block, time, epoch, transaction), the "
              "Voter's weight on it and its share of the chain's total, this epoch's emissions and reward rate (core "
              "token per second, and in USD) with the reason where it emits nothing, this epoch's bribes and fees "
              "in USD, and an APR breakdown. Emissions are a rate; notified funding (bribes), claimed rewards and "
              "trading fees are other quantities, never added into one number.")

GAUGE_PATH = (PATH_CHAIN_ID, Param("gaugeAddress", "address", "Gauge contract address (either case)", location="path"))
GAUGE_NOT_FOUND_DOC = ErrorDoc(404, gauges.GAUGE_NOT_FOUND, "The chain's published snapshot does not list the gauge.")
CURSOR = Param("cursor", "string", "pageInfo.nextCursor of the previous page, the other parameters unchanged (limit may "
               "change); bound to them and the first page's snapshot; valid 24 hours", max_length=MAX_CURSOR_CHARS)


def epochs_route(sub: str, name: str, summary: str, schema: str, description: str) -> Route:
    return Route(f"/gauges/{{chainId}}/{{gaugeAddress}}/{sub}", name, epochs.epochs, summary, ref(schema), params=(
        *GAUGE_PATH, Param("limit", "integer", "Epochs per page", default=12, minimum=1, maximum=260), CURSOR),
        cache_seconds=MARKET_SECONDS, snapshot=True, multichain=True, feature="gauges", paginated=True,
        tags=("gauges",), errors=(CHAIN_UNAVAILABLE_DOC, GAUGE_NOT_FOUND_DOC, CURSOR_EXPIRED_DOC),
        description=description + " Every epoch from the one of the published snapshot back to the gauge's creation, "
                    "newest first, in pages of `limit` epochs (follow pageInfo.nextCursor: every page reads the first "
                    "page's snapshot); an epoch the chain's governance events have not read is `gap: not_indexed`, "
                    "the running one `partial`.")


ROUTES = (
    Route("/gauges", "gauges", gauges.page, "Discover gauges", ref("V1GaugePage"), params=(
        CHAIN_IDS,
        Param("kind", "enum", "pool: user pools' gauges; system: gauges without a user pool", choices=("pool", "system")),
        Param("alive", "flag", "Only live gauges (true) or only killed ones (false); absent: both"),
        qualified_param("pool", "Only the gauge of this pool"),
        qualified_param("token", "Only gauges of pools holding this token"),
        Param("sort", "enum", "votes: the Voter's weight; emissions: this epoch's emissions; emissionsApr, "
              "totalApr: of the aprProfile", default="votes", choices=("votes", "emissions", "emissionsApr", "totalApr")),
        Param("direction", "enum", "Sort direction", default="desc", choices=("asc", "desc")),
        APR_PROFILE,
        Param("limit", "integer", "Gauges per page", default=100, minimum=1, maximum=500),
        CHAINS_CURSOR),
        cache_seconds=MARKET_SECONDS, snapshot=True, multichain=True, feature="gauges", paginated=True,
        tags=("gauges",), errors=(CHAIN_UNAVAILABLE_DOC, CURSOR_EXPIRED_DOC),
        description="Every gauge of the covered chains at each chain's published snapshot, in pages: sorted by the "
                    "requested value (NULL last in either direction), then chain ID and address." + GAUGE_TEXT),
    Route("/gauges/{chainId}/{gaugeAddress}", "gauge", gauges.detail, "One gauge", ref("V1GaugeDetail"), params=(
        *GAUGE_PATH, APR_PROFILE),
        cache_seconds=MARKET_SECONDS, snapshot=True, multichain=True, feature="gauges", tags=("gauges",),
        errors=(CHAIN_UNAVAILABLE_DOC, GAUGE_NOT_FOUND_DOC),
        description="One gauge at its chain's published snapshot, as in /v1/gauges, with this epoch's notified bribes "
                    "per token (USD at deposit time) and the trading fees accrued to its fee reward per pool token "
                    "(USD at each swap's time), each with its own total." + GAUGE_TEXT),
    epochs_route("history", "gauge_history", "A gauge per epoch", "V1GaugeHistory",
                 "The gauge per epoch: alive, the allocations in effect, the weight that split the epoch's emissions, "
                 "emissions, reward rate and what it emitted, trading fees and bribes in USD (separate quantities)."),
    epochs_route("rewards", "gauge_rewards", "A gauge's voter rewards per epoch", "V1GaugeRewards",
                 "The rewards offered to the gauge's voters per epoch, token by token: trading fees accrued to its fee "
                 "reward (USD at each swap's time) and bribes notified to it (USD at deposit time), each with its own "
                 "total, never added together."),
    Route("/gauges/{chainId}/{gaugeAddress}/bribes", "gauge_bribes", epochs.bribes, "A gauge's notified funding",
          ref("V1BribePage"), params=(
              *GAUGE_PATH,
              Param("epoch", "timestamp", "Only deposits funding this epoch: its start (Thursday 00:00 UTC), ISO 8601"),
              qualified_param("token", "Only deposits of this token"),
              Param("limit", "integer", "Records per page", default=100, minimum=1, maximum=500), CURSOR),
          cache_seconds=MARKET_SECONDS, snapshot=True, multichain=True, feature="bribes", paginated=True,
          tags=("gauges",), errors=(CHAIN_UNAVAILABLE_DOC, GAUGE_NOT_FOUND_DOC, EPOCH_NOT_ALIGNED_DOC,
                                    CURSOR_EXPIRED_DOC),
          description="The gauge's notified funding records, newest first: the records of /v1/bribes?gauge= for this "
                      "gauge, with the same fields, coverage and pinned cursor pages."),
)
