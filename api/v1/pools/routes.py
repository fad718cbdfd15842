"""The /v1 pool detail routes (spec v1-api.md: Pool and token detail routes; ADR 0013):
/v1/pools/{chainId}/{poolAddress}. `ROUTES` and `SCHEMAS` are the domain's, for ../routes.py."""
from __future__ import annotations

from ...routes import ErrorDoc, Route
from ...schema import ref
from ...validation import Param
from . import handlers as pools
from . import ticks
from .trailing import trailing
from .bribes import bribes
from .history import periods
from .schemas import SCHEMAS
from ...cursors import CURSOR_EXPIRED, MAX_CURSOR_CHARS
from ..common.params import ALIGNMENT, APR_PROFILE, CHAIN_UNAVAILABLE_DOC, CURATION_TEXT, MARKET_SECONDS, PATH_CHAIN_ID, windows_param

__all__ = ["ROUTES", "SCHEMAS"]

POOL_ADDRESS = Param("poolAddress", "address", "Pool contract address (either case)", location="path")
SCOPE = Param("scope", "enum", "curated: a curated pool; all: any indexed factory pool. Hidden and deprecated pools "
              "are readable by address (their status says so); blocked pools never", default="curated",
              choices=("curated", "all"))
POOL_NOT_FOUND_DOC = ErrorDoc(404, pools.POOL_NOT_FOUND, "The chain's published snapshot does not list the pool in "
                              "the requested scope, or the curation blocks it.")

TICK_PAGE, TICK_PAGE_MAX = 200, 500
TICK_PARAMS = (
    PATH_CHAIN_ID, POOL_ADDRESS, SCOPE,
    Param("limit", "integer", "Boundaries per page", default=TICK_PAGE, minimum=1, maximum=TICK_PAGE_MAX),
    Param("cursor", "string", "pageInfo.nextCursor of the previous page, the other parameters unchanged (limit may "
          "change); bound to them, the first page's snapshot and the curation publication; valid 24 hours",
          max_length=MAX_CURSOR_CHARS),
    Param("tickLower", "integer", "Inclusive lower bound (default: the full range)", default=-887272, minimum=-887272,
          maximum=887272),
    Param("tickUpper", "integer", "Exclusive upper bound (default: the full range)", default=887273, minimum=-887271,
          maximum=887273),
)
TICK_ERRORS = (
    CHAIN_UNAVAILABLE_DOC, POOL_NOT_FOUND_DOC,
    ErrorDoc(400, ticks.INVALID_TICK_RANGE, "tickLower is not below tickUpper."),
    ErrorDoc(400, ticks.NOT_CONCENTRATED, "The pool is a V2 pool: it has reserves, not ticks."),
    ErrorDoc(503, ticks.NOT_MATERIALIZED, "The chain's published snapshot has no tick table for the pool (captured "
             "before tick capture existed, or the capture could not read it); a later snapshot will."),
    ErrorDoc(400, CURSOR_EXPIRED, "The cursor is older than 24 hours, was issued by an earlier release, or the curation "
             "publication changed: restart the traversal without it."),
)

HISTORY_TEXT = (
    " Periods end at the chain's anchor (the end of the latest hourly bucket completed by the published snapshot; "
    "alignment=rolling) or on UTC boundaries with the running one clipped there and `partial` (utc), as "
    "/v1/protocol/history. Flows: with every hourly bucket of the chain in the period stored, the sum of the pool's "
    "buckets (zero where it did not trade or did not exist yet); otherwise null, never a partial sum. "
    "`historicalState`: the pool's state at the close of its latest hourly bucket at or before the period's end "
    "(holdings, liquidity, price), `activity: carried` when no bucket of the period recorded a transaction; each "
    "holding valued with the token's historical valuation at the period's closing hour boundary (a leg without one "
    "leaves the total null). Where no state exists, `stateGap` says why (before_pool_created, not_indexed, "
    "not_yet_observed)." + CURATION_TEXT)


def period_route(path: str, name: str, summary: str, description: str, days: Param) -> Route:
    return Route(path, name, periods, summary, ref("V1PoolPeriods"),
                 params=(PATH_CHAIN_ID, POOL_ADDRESS, SCOPE, ALIGNMENT, days), cache_seconds=MARKET_SECONDS,
                 snapshot=True, multichain=True, feature="pools", curation=True, tags=("pools",),
                 errors=(CHAIN_UNAVAILABLE_DOC, POOL_NOT_FOUND_DOC), description=description + HISTORY_TEXT)


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
    Route("/pools/{chainId}/{poolAddress}/ticks", "pool_ticks", ticks.page, "A pool's initialized ticks",
          ref("V1PoolTicks"), params=TICK_PARAMS, cache_seconds=MARKET_SECONDS, snapshot=True, multichain=True,
          feature="clTicks", curation=True, paginated=True, tags=("pools",), errors=TICK_ERRORS,
          description="The initialized boundaries of a concentrated-liquidity pool at its chain's published snapshot, "
                      "ascending by signed tick within [tickLower, tickUpper). Each carries liquidityNet and "
                      "liquidityAfterRaw, the active liquidity just right of it; the answer carries the liquidity left "
                      "of the range and of the page, and the invariants verified when the table was captured (whole "
                      "table read at one block with slot0() and liquidity(); liquidityNet sums to 0; the running "
                      "liquidity at the current tick equals the active liquidity; it is never negative): `complete` "
                      "says they held. Follow pageInfo.nextCursor with the other parameters unchanged: every page reads "
                      "the first page's snapshot, even after newer publications. A verified empty set is 200 with no "
                      "ticks; a V2 pool is 400 `pool_not_concentrated_liquidity`; a chain without concentrated "
                      "liquidity 404 `feature_unsupported`; a snapshot without a tick table 503 "
                      "`ticks_not_materialized`. Raw liquidity is not a token amount, TVL, a quote or a position. "
                      "Indexed observations are not live execution quotes." + CURATION_TEXT),
    Route("/pools/{chainId}/{poolAddress}/trailing", "pool_trailing", trailing, "A pool's trailing windows",
          ref("V1PoolTrailing"), params=(PATH_CHAIN_ID, POOL_ADDRESS, SCOPE, windows_param("24h,7d,30d")),
          cache_seconds=MARKET_SECONDS, snapshot=True, multichain=True, feature="pools", curation=True,
          tags=("pools",), errors=(CHAIN_UNAVAILABLE_DOC, POOL_NOT_FOUND_DOC),
          description="The pool's volume and fees over each requested trailing window, ending at its chain's anchor "
                      "(the end of the latest hourly bucket completed by the published snapshot), with the evidence of "
                      "a /v1/pools row's flowWindows: with every hourly bucket of the window indexed, the sum of the "
                      "pool's buckets (zero where it did not trade or did not exist yet); otherwise null, never a "
                      "partial sum. The 24h and 7d windows equal the pool's /v1/pools row." + CURATION_TEXT),
    period_route("/pools/{chainId}/{poolAddress}/history", "pool_history", "A pool's hourly periods",
                 "The last `days` days of the pool's hourly periods, oldest first: volume, fees and transactions, "
                 "and the state closing each hour.",
                 Param("days", "integer", "Days of hourly periods", default=7, minimum=1, maximum=90)),
    period_route("/pools/{chainId}/{poolAddress}/daily", "pool_daily", "A pool's daily periods",
                 "The pool's last `days` daily periods, oldest first: volume, fees and transactions, and the state "
                 "closing each day.",
                 Param("days", "integer", "Daily periods", default=90, minimum=1, maximum=3660)),
    Route("/pools/{chainId}/{poolAddress}/bribes", "pool_bribes", bribes, "A pool's notified funding per epoch",
          ref("V1PoolBribes"), params=(
              PATH_CHAIN_ID, POOL_ADDRESS, SCOPE,
              Param("limit", "integer", "Epochs per page", default=12, minimum=1, maximum=260),
              Param("cursor", "string", "pageInfo.nextCursor of the previous page, the other parameters unchanged "
                    "(limit may change); bound to them, the first page's snapshot and the curation publication; "
                    "valid 24 hours", max_length=MAX_CURSOR_CHARS)),
          cache_seconds=MARKET_SECONDS, snapshot=True, multichain=True, feature="bribes", curation=True,
          paginated=True, tags=("pools",), errors=(CHAIN_UNAVAILABLE_DOC, POOL_NOT_FOUND_DOC, TICK_ERRORS[-1]),
          description="The bribes notified to the pool's gauges, per epoch (Thursday 00:00 UTC weeks), newest first, "
                      "from the epoch of the published snapshot back to the pool's first: per token the exact raw "
                      "amount, its decimal amount, the USD value at deposit time and the deposits and gauges. An "
                      "unfunded epoch lists no tokens; one the chain's governance events do not reach is `tokens: "
                      "null`, `gap: not_indexed`; the running epoch, and any not indexed to its end, is `partial` "
                      "with `indexedUntil`. Deposits at or after the snapshot's time are left out. Notified funding is not claimed "
                      "rewards, trading fees or emissions. Follow pageInfo.nextCursor with the other parameters "
                      "unchanged." + CURATION_TEXT),
)
