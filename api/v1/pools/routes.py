"""The /v1 pool detail routes (spec v1-api.md: Pool and token detail routes; ADR 0013):
/v1/pools/{chainId}/{poolAddress}. `ROUTES` and `SCHEMAS` are the domain's, for ../routes.py."""
from __future__ import annotations

from ...routes import ErrorDoc, Route
from ...schema import ref
from ...validation import Param
from . import handlers as pools
from .schemas import SCHEMAS
from ..common.params import CHAIN_UNAVAILABLE_DOC, CURATION_TEXT, MARKET_SECONDS, PATH_CHAIN_ID

__all__ = ["ROUTES", "SCHEMAS"]

POOL_ADDRESS = Param("poolAddress", "address", "Pool contract address (either case)", location="path")
SCOPE = Param("scope", "enum", "curated: a curated pool; all: any indexed factory pool. Hidden and deprecated pools "
              "are readable by address (their status says so); blocked pools never", default="curated",
              choices=("curated", "all"))
APR_PROFILE = Param("aprProfile", "enum", "Concentrated-liquidity emissions preset: minimum (one tick-spacing "
                    "interval), five-spacing (five intervals) or standard (the aligned half-spread); V2 pools are "
                    "unaffected; feeApr stays a separate pool-average estimate", default="standard",
                    choices=("minimum", "five-spacing", "standard"))
POOL_NOT_FOUND_DOC = ErrorDoc(404, pools.POOL_NOT_FOUND, "The chain's published snapshot does not list the pool in "
                              "the requested scope, or the curation blocks it.")

ROUTES = (
    Route("/pools/{chainId}/{poolAddress}", "pool", pools.pool, "One pool", ref("V1PoolDetail"),
          params=(PATH_CHAIN_ID, POOL_ADDRESS, SCOPE, APR_PROFILE), cache_seconds=MARKET_SECONDS, snapshot=True,
          multichain=True, feature="pools", curation=True, valuations=True, tags=("pools",),
          errors=(CHAIN_UNAVAILABLE_DOC, POOL_NOT_FOUND_DOC),
          description="The pool at its chain's published snapshot, as one observation: the fields of its /v1/pools "
                      "row (the same values: TVL with its own time, 24h and 7d flow windows, fee APR, emissions APR of "
                      "the aprProfile), the emissions scenario that APR estimates (concentrated liquidity: the "
                      "profile's range as ticks and prices, its actual width, a 100 USD deposit diluting the in-range "
                      "liquidity) and `liquidityState`: exact raw and decimal holdings of each token, each leg priced "
                      "on its own (a leg without a price leaves the USD total null, never a partial sum), what they "
                      "were read from at which block, and the marginal price both ways. Raw liquidity is not a token "
                      "amount. Indexed observations are not live execution quotes." + CURATION_TEXT),
)
