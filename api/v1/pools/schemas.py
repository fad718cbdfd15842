"""JSON Schemas of the /v1 pool detail answers (components of /openapi.json)."""
from __future__ import annotations

from ...schema import ISO_TIME, RAW_INTEGER, nullable, nullable_ref, obj
from ..common.prices import REASONS
from ..common.schemas import DECIMAL, LOWER_ADDRESS
from ..discovery.schemas import FLOW_WINDOW, SCHEMAS as DISCOVERY_SCHEMAS
from ..protocol.schemas import HEAD, SPAN
from .history import NO_SAFE_PRICE, STATE_GAPS, VALUATION, VALUATION_PENDING
from .state import CUSTODY_FIELDS, CUSTODY_SOURCE, DEPOSIT_USD

PRICE = {**DECIMAL, "description": "token1 per token0 (or its inverse) in human units, exact from the pool's integer "
         "state, truncated toward zero at 36 places; null: the state gives no price (an empty side)"}

HOLDING = obj({
    "token": LOWER_ADDRESS,
    "symbol": {"type": "string"},
    "decimals": nullable("integer"),
    "amountRaw": {**RAW_INTEGER, "description": "the pool's holding of the token in raw units (exact integer); null "
                  "when not recorded for the snapshot"},
    "amount": {**DECIMAL, "description": "amountRaw / 10^decimals"},
    "price": nullable_ref("V1PriceAtBoundary", "the token's accepted price at the snapshot, with its source, time and "
                          "age; null: see priceReason"),
    "priceReason": {"type": ["string", "null"], "enum": [*REASONS, None],
                    "description": "why the leg has no price (null when it has one)"},
    "valueUsd": {**DECIMAL, "description": "amount x price; null when either is unavailable"},
}, "One token the pool holds, priced on its own.")

LIQUIDITY_STATE = obj({
    "snapshotAt": {**ISO_TIME, "description": "the published snapshot the state was read at"},
    "custody": obj({
        "source": {"enum": [CUSTODY_SOURCE]},
        "entity": {"enum": ["Pool"]},
        "fields": {"type": "array", "items": {"enum": list(CUSTODY_FIELDS)}},
        "blockNumber": {"type": "integer", "minimum": 0},
        "blockTimestamp": {"type": ["string", "null"], "format": "date-time", "pattern": ISO_TIME["pattern"]},
    }, "What the holdings were read from: the indexed Pool entity's reserves at this block."),
    "holdings": {"type": "array", "minItems": 2, "maxItems": 2, "items": HOLDING, "description": "token0, then token1"},
    "valueUsd": {**DECIMAL, "description": "the sum of both legs' valueUsd; null unless both are known (never a "
                 "partial sum)"},
    "usdComplete": {"type": "boolean", "description": "both legs are valued"},
    "marginalPrices": obj({
        "token1PerToken0": PRICE,
        "token0PerToken1": PRICE,
        "derivedFrom": {"type": ["string", "null"], "enum": ["sqrtPriceX96", "reserves", None],
                        "description": "concentrated liquidity: (sqrtPriceX96 / 2^96)^2; V2 volatile: reserve1 / "
                                       "reserve0; V2 stable: the slope of x^3 y + y^3 x = k at the reserves"},
    }, "The pool's marginal price both ways: what an infinitesimal trade pays at this state, before fees. An "
       "indexed observation, not an execution quote."),
    "sqrtPriceX96": {**RAW_INTEGER, "description": "concentrated liquidity: sqrt(price) x 2^96 (null for V2 pools)"},
    "tick": nullable("integer", "concentrated liquidity: the current tick (null for V2 pools)"),
    "activeLiquidityRaw": {**RAW_INTEGER, "description": "concentrated liquidity: the in-range liquidity (raw, not a "
                           "token amount; null for V2 pools)"},
}, "The pool's holdings and prices at the published snapshot.")

RANGE = obj({
    "tickLower": {"type": "integer", "description": "inclusive"},
    "tickUpper": {"type": "integer", "description": "exclusive"},
    "widthTicks": {"type": "integer", "minimum": 1, "description": "the actual width: tickUpper - tickLower"},
    "widthSpacings": {"type": "integer", "minimum": 1, "description": "the width in tick-spacing intervals"},
    "priceLower": {**PRICE, "description": "token1 per token0 at tickLower (TickMath's sqrt ratio)"},
    "priceUpper": {**PRICE, "description": "token1 per token0 at tickUpper"},
    "priceWidthRatio": {**DECIMAL, "description": "priceUpper / priceLower (about 1.0001^widthTicks)"},
    "currentTick": {"type": "integer"},
    "inRange": {"type": "boolean", "description": "tickLower <= currentTick < tickUpper"},
}, "The profile's range around the current tick: minimum, one tick-spacing interval; five-spacing, that interval "
   "and two on each side; standard, every price within a factor 1.1 of the current one, widened outward to spacing "
   "multiples. Clamped to the usable ticks.")

SCENARIO = obj({
    "aprProfile": {"enum": ["minimum", "five-spacing", "standard"]},
    "basis": {"enum": ["cl-range-deposit", "v2-staked-lp"],
              "description": "cl-range-deposit: a deposit of depositUsd in the profile's range; v2-staked-lp: the "
                             "staked LP value (the pool's TVL), whatever the profile"},
    "depositUsd": {"type": ["string", "null"], "pattern": "^[0-9]+$",
                   "description": f"concentrated liquidity: the deposit the estimate is sized for ({DEPOSIT_USD} USD)"},
    "emissionsApr": {**DECIMAL, "description": "the emissions APR of the scenario (a fraction: 0.25 = 25 %), equal to "
                     "emissionsApr"},
    "range": {"oneOf": [RANGE, {"type": "null"}], "description": "concentrated liquidity: the profile's range"},
    "inRangeLiquidityRaw": {**RAW_INTEGER, "description": "concentrated liquidity: the liquidity the deposit joins "
                            "(the active liquidity, all of it treated as staked)"},
}, "What emissionsApr estimates. Concentrated liquidity: the liquidity a deposit of depositUsd buys in the range at "
   "the snapshot's prices dilutes the active liquidity, and its share of the gauge's emissions (this epoch's, at the "
   "current core-token price, for a year) over depositUsd is the APR; the price is assumed to stay in range all year, "
   "and all active liquidity is treated as staked (a lower bound where less is). V2: emissions over the staked LP "
   "value. Fee APR is a separate pool average (feeApr) under every profile. Methodology: "
   "docs/methodology/cl-emissions-apr.md.")

SIGNED_RAW = {"type": "string", "pattern": "^-?[0-9]+$"}
RAW_LIQUIDITY = ("Raw liquidity (an exact integer string) is the pool's L between two boundaries: not a token amount, "
                 "TVL, a quote or a position.")

TICK = obj({
    "tick": {"type": "integer", "minimum": -887272, "maximum": 887272},
    "liquidityNet": {**SIGNED_RAW, "description": "the liquidity added when the price crosses this boundary left to "
                     "right (removed right to left); exact signed integer"},
    "liquidityGross": {"type": "string", "pattern": "^[0-9]+$",
                       "description": "the liquidity of every position with this boundary, either end"},
    "liquidityAfterRaw": {**SIGNED_RAW, "description": "the active liquidity just right of this boundary: the running "
                          "sum of liquidityNet from the left end of the table through this tick (never negative in a "
                          "complete table)"},
}, "An initialized boundary.")

TICKS = obj({
    "chainId": {"type": "integer"},
    "address": LOWER_ADDRESS,
    "snapshotAt": {**ISO_TIME, "description": "the published snapshot every page of the traversal reads (the first "
                   "page's)"},
    "blockNumber": {"type": "integer", "minimum": 0, "description": "the block the table, slot0() and liquidity() "
                    "were read at"},
    "tickLower": {"type": "integer", "description": "inclusive bound of the request"},
    "tickUpper": {"type": "integer", "description": "exclusive bound of the request"},
    "currentTick": {"type": "integer", "description": "slot0().tick at the block"},
    "activeLiquidityRaw": {"type": "string", "pattern": "^[0-9]+$", "description": "liquidity() at the block: the "
                           "liquidity in range at the current tick"},
    "liquidityBeforeRangeRaw": {**SIGNED_RAW, "description": "the active liquidity left of tickLower (the sum of "
                                "liquidityNet below it)"},
    "liquidityBeforePageRaw": {**SIGNED_RAW, "description": "the active liquidity left of this page's first boundary "
                               "(liquidityBeforeRangeRaw on the first page)"},
    "complete": {"type": "boolean", "description": "the whole table was read at one block and every invariant held "
                 "(invariants.holds): a client can trust every boundary; false: served as read, with the problem"},
    "invariants": obj({
        "tickCount": {"type": "integer", "minimum": 0, "description": "initialized ticks in the whole table"},
        "liquidityNetSum": {**SIGNED_RAW, "description": "the sum of liquidityNet over the whole table: 0"},
        "liquidityAtCurrentTickRaw": {**SIGNED_RAW, "description": "the running liquidity at currentTick (the sum "
                                      "over ticks <= currentTick): equals activeLiquidityRaw"},
        "minimumRunningLiquidityRaw": {**SIGNED_RAW, "description": "the lowest running liquidity over the table: "
                                       "not negative"},
        "holds": {"type": "boolean", "description": "all three held at capture (equals complete)"},
        "problem": {"type": ["string", "null"], "description": "which did not hold; null when all did"},
    }, "What a client can check without a second request, verified when the table was captured."),
    "ticks": {"type": "array", "items": TICK, "description": "ascending by signed tick"},
}, "A page of a concentrated-liquidity pool's initialized ticks at its chain's published snapshot. " + RAW_LIQUIDITY)

TRAILING = obj({
    "chainId": {"type": "integer"},
    "address": LOWER_ADDRESS,
    "snapshotAt": {**ISO_TIME, "description": "the chain's published snapshot the windows end by"},
    "windows": {"type": "array", "items": obj({
        **FLOW_WINDOW["properties"],
        "volumeUsd": {**DECIMAL, "description": "the pool's volume over the window (USD at each swap); null when the "
                      "window's evidence is unavailable, never a partial sum"},
        "feesUsd": {**DECIMAL, "description": "the pool's trading fees over the window; null as volumeUsd"},
    }, "One window: the pool's hourly buckets in [from, toExclusive), and whether all of them are indexed.")},
}, "A pool's volume and fees over trailing windows ending at its chain's latest completed hourly bucket.")

FUNDING = obj({
    "token": LOWER_ADDRESS,
    "symbol": {"type": "string"},
    "decimals": {"type": "integer", "minimum": 0},
    "amountRaw": {"type": "string", "pattern": "^[0-9]+$", "description": "the token's notified amount in the epoch, "
                  "raw units, exact"},
    "amount": {**DECIMAL, "description": "amountRaw / 10^decimals"},
    "amountUsd": {**DECIMAL, "description": "the deposits' USD values at deposit time, summed; null when a deposit of "
                  "the token has none"},
    "deposits": {"type": "integer", "minimum": 1},
    "gauges": {"type": "array", "items": LOWER_ADDRESS, "description": "the pool's gauges that were funded"},
}, "One token notified to the pool's gauges in the epoch.")

BRIBES = obj({
    "chainId": {"type": "integer"},
    "address": LOWER_ADDRESS,
    "snapshotAt": {**ISO_TIME, "description": "the published snapshot every page reads (deposits before its time)"},
    "firstEpoch": {**ISO_TIME, "description": "the epoch of the pool's first hourly bucket: the oldest epoch listed"},
    "epochs": {"type": "array", "description": "newest first", "items": obj({
        "epochStart": {**ISO_TIME, "description": "Thursday 00:00 UTC"},
        "epochEnd": {**ISO_TIME, "description": "exclusive: the next epoch's start"},
        "partial": {"type": "boolean", "description": "the governance events are not indexed to the epoch's end (the "
                    "running epoch always)"},
        "indexedUntil": {"type": ["string", "null"], "format": "date-time", "pattern": ISO_TIME["pattern"],
                         "description": "exclusive: the deposits before this time are included (at most the epoch's "
                                        "end and the snapshot's time); null with gap"},
        "tokens": {"oneOf": [{"type": "array", "items": FUNDING}, {"type": "null"}],
                   "description": "the notified tokens; [] when none was notified; null when the events do not reach "
                                  "the epoch (gap)"},
        "totalUsd": {**DECIMAL, "description": "the tokens' amountUsd summed; null unless every one is known"},
        "usdComplete": {"type": "boolean"},
        "gap": {"type": ["string", "null"], "enum": ["not_indexed", None],
                "description": "not_indexed: the chain's governance events are not indexed for the epoch"},
    })},
}, "The notified funding (bribes) of a pool's gauges per epoch. Not claimed rewards, trading fees or emissions.")

HISTORICAL_HOLDING = obj({
    **{k: HOLDING["properties"][k] for k in ("token", "symbol", "decimals", "amount")},
    "amountRaw": {**RAW_INTEGER, "description": "the pool's holding of the token at the bucket's close, raw units "
                  "(exact); null when the token's decimals were unknown"},
    "priceUsd": {**DECIMAL, "description": "the token's historical valuation at valuedAt (the period's closing hour "
                 "boundary); null: see priceReason"},
    "priceSource": {"type": ["string", "null"], "enum": [VALUATION, None]},
    "priceRevision": nullable("integer", "how often that hour's valuation changed since first written (1: never)"),
    "priceReason": {"type": ["string", "null"], "enum": [VALUATION_PENDING, NO_SAFE_PRICE, None],
                    "description": f"{VALUATION_PENDING}: the hour is not valued yet; {NO_SAFE_PRICE}: it was valued "
                                   "without a safe price"},
    "valueUsd": {**DECIMAL, "description": "amount x priceUsd; null when either is unavailable"},
}, "One token the pool held at the period's close, valued with the period's historical price.")

HISTORICAL_STATE = obj({
    "bucketHour": {**ISO_TIME, "description": "the hourly bucket whose close state this is: the latest one at or "
                   "before the period's close that recorded a state (earlier than the period when carried)"},
    "activity": {"enum": ["changed", "carried"], "description": "changed: a bucket of the period recorded a "
                 "transaction; carried: none did, the state is the previous one's"},
    "holdings": {"type": "array", "minItems": 2, "maxItems": 2, "items": HISTORICAL_HOLDING,
                 "description": "token0, then token1"},
    "valueUsd": {**DECIMAL, "description": "both legs' valueUsd summed; null unless both are known"},
    "usdComplete": {"type": "boolean"},
    "valuedAt": {**ISO_TIME, "description": "the boundary the legs are valued at: the period's end (a running "
                 "period's: the chain's anchor)"},
    "marginalPrices": LIQUIDITY_STATE["properties"]["marginalPrices"],
    "sqrtPriceX96": LIQUIDITY_STATE["properties"]["sqrtPriceX96"],
    "tick": LIQUIDITY_STATE["properties"]["tick"],
    "activeLiquidityRaw": LIQUIDITY_STATE["properties"]["activeLiquidityRaw"],
}, "The pool's indexed state closing the period (its latest hourly bucket's close), valued with the period's "
   "historical prices. An indexed observation, not a quote.")

PERIODS = obj({
    "chainId": {"type": "integer"},
    "address": LOWER_ADDRESS,
    **HEAD,
    "alignment": {"enum": ["rolling", "utc"]},
    "periodSeconds": {"enum": [3600, 86400]},
    "periods": {"type": "array", "description": "oldest first", "items": obj({
        **SPAN,
        "hoursCovered": {**SPAN["hoursCovered"], "description": "the chain's hourly buckets stored in the period"},
        "volumeUsd": {**DECIMAL, "description": "the pool's volume in the period (USD at each swap); null unless every "
                      "expected hour of the chain is stored, never a partial sum"},
        "feesUsd": {**DECIMAL, "description": "the pool's trading fees in the period; null as volumeUsd"},
        "txCount": nullable("integer", "the pool's transactions in the period; null as volumeUsd"),
        "historicalState": {"oneOf": [HISTORICAL_STATE, {"type": "null"}], "description": "null: see stateGap"},
        "stateGap": {"type": ["string", "null"], "enum": [*STATE_GAPS, None],
                     "description": "why the period has no state: before_pool_created, not_indexed (a chain hour "
                                    "since the pool's last state is not stored), not_yet_observed (the period starts "
                                    "at or after the anchor)"},
    })},
}, "A pool's periods: published volume, fees and transactions, and the indexed state closing each period with its "
   "holdings valued at the period's historical prices and its marginal price (the sampled price history).")

SCHEMAS = {
    "V1PoolPeriods": PERIODS,
    "V1PoolBribes": BRIBES,
    "V1PoolTrailing": TRAILING,
    "V1PoolTicks": TICKS,
    "V1PoolDetail": obj({
        **DISCOVERY_SCHEMAS["V1Pool"]["properties"],
        "snapshotAt": {**ISO_TIME, "description": "the chain's published snapshot every figure was read at"},
        "blockNumber": {"type": "integer", "minimum": 0, "description": "that snapshot's block"},
        "emissionsScenario": SCENARIO,
        "liquidityState": LIQUIDITY_STATE,
    }, "A pool of one chain at its published snapshot: the fields of its /v1/pools row (the same values), the "
       "emissions scenario of the selected aprProfile, and its liquidity state."),
}
