"""The /v1 price-history route (spec v1-api.md: Pool and token detail routes; ADR 0011); its
answer's schemas are in schemas.py."""
from __future__ import annotations

from ...cursors import CURSOR_EXPIRED, MAX_CURSOR_CHARS
from ...routes import ErrorDoc, Route
from ...schema import ref
from ...validation import Param
from ....core.prices import INTERVALS
from . import history as price_history
from ..common.params import CHAIN_UNAVAILABLE_DOC, MARKET_SECONDS, PATH_CHAIN_ID
from ..common.prices import TOKEN_NOT_FOUND
from ..common.ranges import CAPS, INVALID_RANGE

MAX_PAGE, DEFAULT_PAGE = 500, 200

PARAMS = (
    PATH_CHAIN_ID,
    Param("tokenAddress", "address", "Token contract address (any case; answered in lower case)", location="path"),
    Param("from", "timestamp", "Inclusive start of the range, or `earliest`: the chain's first market activity "
          "(GET /v1/chains: coverage.firstMarketActivity). Default: 24 hours before the end", choices=("earliest",)),
    Param("to", "timestamp", "Exclusive end of the range, not later than the server time. Default: the server time"),
    Param("interval", "enum", "Period length; periods are anchored backward from the end, the oldest clipped at the "
          f"start. Longest range per interval: {CAPS}", default="1h", choices=tuple(INTERVALS)),
    Param("limit", "integer", "Periods per page", default=DEFAULT_PAGE, minimum=1, maximum=MAX_PAGE),
    Param("cursor", "string", "pageInfo.nextCursor of the previous page, the other parameters unchanged (limit may "
          "change); bound to them, the resolved range, the chain's snapshot, the curation publication and the "
          "valuations and snapshots of the range; valid 24 hours", max_length=MAX_CURSOR_CHARS),
)

ERRORS = (
    CHAIN_UNAVAILABLE_DOC,
    ErrorDoc(404, TOKEN_NOT_FOUND, "No published snapshot of the chain lists the token and no valuation "
             "holds it, or the curation publication blocks it."),
    ErrorDoc(400, INVALID_RANGE, f"from is not before to, or the range is longer than the interval allows "
             f"({CAPS}; the message suggests a coarser interval), or from=earliest on a chain without recorded market "
             "activity."),
    ErrorDoc(400, CURSOR_EXPIRED, "The cursor is older than 24 hours, was issued by an earlier release, or the curation "
             "publication changed: restart the traversal without it."),
    ErrorDoc(400, price_history.SOURCE_CHANGED, "The price source, policy or generation changed during the traversal, "
             "or a valuation or a published snapshot of the range was revised (a rerun): the whole traversal is invalid; "
             "restart it without the cursor."),
)

DESCRIPTION = (
    "Rolling-period price samples of one token of one chain, oldest first. Each period [from, toExclusive) returns "
    "its latest canonical price observation (a published 15-minute snapshot at or before the chain's snapshot), else "
    "the historical valuation at its closing hour boundary (the latest hour boundary in (from, toExclusive]; a 15-minute "
    "period has one only when it closes on the hour), else `observation: null` with exactly one `gapReason`, the first "
    "that holds: `before_first_market_activity` (the sample point, that boundary or else the period's end, is at or "
    "before the chain's first market activity), `historical_valuation_pending` (the boundary's hour is not valued "
    "yet: temporary), `no_safe_price_source` (a published snapshot in the period, or the valued boundary's hour, has no "
    "price for the token), `history_resolution_unavailable` (nothing observed the period at this resolution: 15-minute "
    "periods before snapshot collection). These are samples, not OHLC candles or interpolations. `from=earliest` is the "
    "chain's first market activity; on a chain without any it is 400 `invalid_range`. `meta.complete` is true when every "
    "period of this page has a sample and the chain is fresh, whatever the other pages hold; "
    "`meta.historicalCoverage` reports the price generation, the highest valuation revision of the range's days and "
    "the chain's valued range. Hidden and deprecated tokens are served; blocked ones are 404 `token_not_found`. Follow "
    "`pageInfo.nextCursor` until `hasNextPage` is false with the other parameters unchanged: every page reads the "
    "snapshot and range the first one did; a valuation or snapshot of the range revised meanwhile is 400 "
    "`price_history_source_changed`. Reads stored observations only."
)

ROUTES = (
    Route("/tokens/{chainId}/{tokenAddress}/price-history", "price_history", price_history.page,
          "Price history of a token: a sample or a gap reason per period", ref("V1PriceHistory"), params=PARAMS,
          cache_seconds=MARKET_SECONDS, snapshot=True, multichain=True, feature="pools", curation=True, paginated=True,
          valuations=True, description=DESCRIPTION, tags=("tokens",), errors=ERRORS),
)
