"""JSON Schemas of the token detail and price answers (OpenAPI components of /openapi.json):
/v1/tokens/{chainId}/{tokenAddress} and its /prices, /trailing, /price-changes, /price-history;
/v1/prices. A token's detail is its discovery row and more (discovery/schemas.py `V1Token`)."""
from __future__ import annotations

from ...coverage import CHAIN_UNAVAILABLE
from ...schema import ISO_TIME, obj, ref
from ....core.prices import CURRENT_PRICE_UNAVAILABLE, GAP_REASONS, INTERVALS, REFERENCE_PRICE_ZERO
from ..common import observations as price_observations
from ..common.flows import ANCHOR
from ..common.schemas import CHAIN_ID, DECIMAL, LOWER_ADDRESS
from ..discovery.schemas import SCHEMAS as DISCOVERY_SCHEMAS
from ..common.prices import REASONS, TOKEN_NOT_FOUND

SIGNED = {"type": ["string", "null"], "pattern": r"^-?[0-9]+(\.[0-9]{1,36})?$",
          "description": "signed exact decimal, truncated toward zero at 36 places; null when unavailable"}
MAX_AGE = {"type": "integer", "minimum": 1, "description": "the age limit: an observation older than this at its "
           "boundary is not a price there (seconds)"}
REASON = {"type": ["string", "null"], "enum": [*REASONS, None],
          "description": "why there is no price at the boundary (null when there is one): before_first_market_activity "
                         "(the boundary is at or before the chain's first market activity), no_price_observation (no "
                         "stored observation with a price at or before it), price_observation_too_old (the latest one "
                         "is older than maxAgeSeconds)"}


def _aged(schema: dict) -> dict:
    """The observation with its age at the boundary it answers."""
    age = {"type": "integer", "minimum": 0, "description": "seconds from sampledAt to the boundary"}
    return {**schema, "required": [*schema["required"], "ageSeconds"],
            "properties": {**schema["properties"], "ageSeconds": age},
            "description": "The price at a boundary: the latest stored observation with a price at or before it (a "
                           "canonical observation wins a tie), no older than maxAgeSeconds."}


def _or_null(name: str, description: str) -> dict:
    return {"oneOf": [ref(name), {"type": "null"}], "description": description}


CURRENT = _or_null("V1PriceAtBoundary", "the price at the boundary, or null (see the reason)")
COMPARISON = obj({
    "window": {"type": "string", "description": "the window as requested (24h)"},
    "seconds": {"type": "integer"},
    "referenceAt": {**ISO_TIME, "description": "the reference boundary: the comparison's end minus the window"},
    "reference": _or_null("V1PriceAtBoundary", "the price at referenceAt, or null"),
    "changeUsd": {**SIGNED, "description": "current minus reference price (USD), null when either is unavailable"},
    "changePercent": {**SIGNED, "description": "(current / reference - 1) x 100; null when either price is unavailable "
                      "or the reference is zero"},
    "reason": {"type": ["string", "null"], "enum": [*REASONS, CURRENT_PRICE_UNAVAILABLE, REFERENCE_PRICE_ZERO, None],
               "description": "null, or why the comparison (or its percentage) is unavailable: the reference's reason, "
                              "current_price_unavailable, or reference_price_zero (changeUsd kept, changePercent null)"},
}, "A trailing price comparison: both prices are the latest stored observation at or before their exact "
   "boundaries and within the age limit; otherwise the comparison is unavailable.")
IDENTITY = {"chainId": CHAIN_ID, "address": LOWER_ADDRESS}
EVIDENCE = obj({
    "from": ISO_TIME,
    "toExclusive": ISO_TIME,
    "hoursExpected": {"type": "integer", "description": "the window's hours since the chain's first market activity"},
    "hoursCovered": {"type": "integer", "description": "its hours with a stored volume of the token"},
    "complete": {"type": "boolean", "description": "every expected hour is covered; otherwise volumeUsd is null"},
}, "What the window's volume summed: the token's hourly volumes in [from, toExclusive).")

SCHEMAS = {
    "V1PriceAtBoundary": _aged(price_observations.SCHEMA),
    "V1TokenDetail": obj({
        **DISCOVERY_SCHEMAS["V1Token"]["properties"],
        "price": _or_null("V1PriceObservation", "the token's canonical observation in the chain's published snapshot "
                          "(null: none; its priceUsd is null when the snapshot lists it without a safe price)"),
    }, "A token of one chain at its published snapshot: metadata and market observations (supply, market cap and "
       "holders are not implied by a price)."),
    "V1TokenPrices": obj({
        **IDENTITY,
        "at": {**ISO_TIME, "description": "the boundary: the chain's published snapshot"},
        "maxAgeSeconds": MAX_AGE,
        "current": CURRENT,
        "reason": REASON,
        "latestCanonical": _or_null("V1PriceObservation", "the latest canonical observation at or before `at` (its "
                                    "price may be null)"),
        "latestHistorical": _or_null("V1PriceObservation", "the latest historical valuation at or before `at` (its "
                                     "price may be null)"),
    }, "A token's current price at its chain's published snapshot and the latest observation of each kind."),
    "V1PriceBatch": obj({
        "maxAgeSeconds": MAX_AGE,
        "items": {"type": "array", "items": obj({
            **IDENTITY,
            "current": CURRENT,
            "reason": {"type": ["string", "null"], "enum": [*REASONS, TOKEN_NOT_FOUND, CHAIN_UNAVAILABLE, None],
                       "description": REASON["description"] + "; token_not_found: the chain's published snapshot does "
                                      "not list the token, or the curation blocks it; chain_unavailable: the chain has "
                                      "no published snapshot"},
        }), "description": "one per distinct requested token, in the order given"},
    }, "The current price of each requested token at its chain's published snapshot (the /prices `current`)."),
    "V1TokenPriceChanges": obj({
        **IDENTITY,
        "to": {**ISO_TIME, "description": "the as-of boundary of the current price (inclusive)"},
        "maxAgeSeconds": MAX_AGE,
        "current": CURRENT,
        "currentReason": REASON,
        "comparisons": {"type": "array", "items": COMPARISON},
    }, "Trailing price comparisons of one token."),
    "V1TokenTrailing": obj({
        **IDENTITY,
        "anchor": {"const": ANCHOR},
        "anchorAt": {"type": ["string", "null"], "format": "date-time", "pattern": ISO_TIME["pattern"],
                     "description": "where the windows end: the end of the chain's latest hourly bucket completed by its "
                                    "published snapshot (null: none; every window is then unavailable)"},
        "maxAgeSeconds": MAX_AGE,
        "current": CURRENT,
        "currentReason": REASON,
        "windows": {"type": "array", "items": obj({
            "window": {"type": "string"},
            "seconds": {"type": "integer"},
            "volumeUsd": {**DECIMAL, "description": "the token's volume summed over the window's hours; null unless "
                          "every hour is covered"},
            "evidence": {"oneOf": [EVIDENCE, {"type": "null"}]},
            "priceChange": {"oneOf": [COMPARISON, {"type": "null"}], "description": "the price change over the window "
                            "(to = anchorAt)"},
        })},
    }, "A token's volume and price change over trailing windows ending at its chain's anchor."),
}

PERIOD = obj({
    "from": {**ISO_TIME, "description": "inclusive start"},
    "toExclusive": ISO_TIME,
    "durationSeconds": {"type": "integer", "minimum": 1},
    "partial": {"type": "boolean", "description": "clipped at the range's start: shorter than the interval"},
    "observation": {"oneOf": [ref("V1PriceObservation"), {"type": "null"}],
                    "description": "the period's sample; null when it has none (see gapReason)"},
    "gapReason": {"enum": [*GAP_REASONS, None], "description": "why the period has no sample; null when it has one"},
}, "One period and its sample.")

SCHEMAS |= {  # the price history's
    "V1PriceHistory": obj({
        "chainId": CHAIN_ID,
        "address": {"type": "string", "pattern": "^0x[0-9a-f]{40}$"},
        "interval": {"enum": list(INTERVALS)},
        "from": {**ISO_TIME, "description": "the resolved inclusive start of the whole range"},
        "toExclusive": {**ISO_TIME, "description": "the resolved exclusive end of the whole range"},
        "periodCount": {"type": "integer", "minimum": 1, "description": "periods of the whole range (every page)"},
        "periods": {"type": "array", "items": PERIOD, "description": "this page's periods, oldest first"},
    }, "Price samples of one token over a range, one page of its periods."),
}
