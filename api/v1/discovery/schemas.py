"""JSON Schemas of the /v1 discovery answers: pool and token rows and their pages (OpenAPI
components of /openapi.json)."""
from __future__ import annotations

from ...schema import ISO_TIME, nullable, obj
from ..common.schemas import CHAIN_ID, DECIMAL, LOWER_ADDRESS, NAMES

STATUS = {"enum": ["active", "hidden", "deprecated"]}
FLOW_WINDOW = obj({
    "label": {"type": "string"},
    "from": ISO_TIME,
    "toExclusive": ISO_TIME,
    "durationSeconds": {"type": "integer"},
    "anchor": {"const": "latest_completed_hour"},
    "anchorAt": ISO_TIME,
    "hoursCovered": {"type": "integer"},
    "hoursExpected": {"type": "integer"},
    "evidence": {"enum": ["available", "unavailable"],
                 "description": "unavailable: not every hourly bucket of the window is indexed; its amounts are null"},
}, "What a row's window amounts summed: the chain's hourly buckets in [from, toExclusive).")
CURATION_FIELDS = {
    "curated": {"type": "boolean", "description": "listed in the curation publication"},
    "status": STATUS,
    "featured": {"type": "boolean", "description": "presentation only: never changes the order"},
    "displayOrder": {**nullable("integer"), "description": "curated display order (null: uncurated or unordered)"},
}
FACET = {"type": "array", "items": obj({"value": {"type": ["string", "integer"]}, "count": {"type": "integer"}})}


def facets(*names: str) -> dict:
    return {"type": "object", "additionalProperties": False, "properties": {n: FACET for n in names},
            "description": "complete counts of every matching row before paging (values without a row are left out)"}


def page(row: str, facet_names: tuple[str, ...], description: str) -> dict:
    return {
        "type": "object", "required": ["rows", "filters"], "additionalProperties": False, "description": description,
        "properties": {
            "rows": {"type": "array", "items": {"$ref": f"#/components/schemas/{row}"}},
            "filters": {"type": "object", "description": "the normalized filters the page answers (what its cursor binds to)"},
            "facets": facets(*facet_names),
            "unknownNames": {"type": "object", "additionalProperties": NAMES,
                             "description": "tags or categories of the request the curation does not define (they select "
                                            "nothing); absent when every name is defined"},
        },
    }


TOKEN_SIDE = obj({"address": LOWER_ADDRESS, "symbol": {"type": "string"}, "name": nullable("string"),
                  "decimals": nullable("integer"), "tags": NAMES})

SCHEMAS = {
    "V1Token": obj({
        "chainId": CHAIN_ID, "address": LOWER_ADDRESS, "symbol": {"type": "string"}, "name": {"type": "string"},
        "decimals": {"type": "integer"},
        "priceUsd": DECIMAL,
        "priceObservedAt": {**ISO_TIME, "description": "the time of the chain block the price was read at"},
        "tvlUsd": DECIMAL,
        "volume24hUsd": {**DECIMAL, "description": "the rolling 24-hour volume of the token's pools"},
        "flowWindows": {"type": "array", "items": FLOW_WINDOW},
        "poolCount": {"type": "integer"},
        "tags": NAMES,
        **CURATION_FIELDS,
    }, "A token of one chain at its published snapshot."),
    "V1Pool": obj({
        "chainId": CHAIN_ID, "address": LOWER_ADDRESS,
        "poolType": {"enum": ["v2-volatile", "v2-stable", "cl"]},
        "token0": TOKEN_SIDE, "token1": TOKEN_SIDE,
        "feePips": {"type": "integer"}, "customFee": {"type": "boolean"}, "dynamicFee": {"type": "boolean"},
        "tickSpacing": nullable("integer"),
        "tvlUsd": DECIMAL,
        "tvlObservedAt": {**ISO_TIME, "description": "TVL is its own observation: the time of the chain block read"},
        "volume24hUsd": DECIMAL, "volume7dUsd": DECIMAL, "fees24hUsd": DECIMAL, "fees7dUsd": DECIMAL,
        "flowWindows": {"type": "array", "items": FLOW_WINDOW},
        "feeApr": {**DECIMAL, "description": "pool-average fee APR: 24h fees x 365 / TVL (a fraction)"},
        "emissionsApr": {**DECIMAL, "description": "emissions APR of the aprProfile (CL pools: a 100 USD deposit in the "
                         "profile's range, its dilution included; V2 pools: staked LP value)"},
        "emissionsRange": {"oneOf": [obj({"tickLower": {"type": "integer"}, "tickUpper": {"type": "integer"},
                                          "widthTicks": {"type": "integer"}}), {"type": "null"}],
                           "description": "CL pools: the standard profile's range"},
        "gauge": {"oneOf": [obj({"address": {"type": "string"}, "alive": {"type": "boolean"}}), {"type": "null"}]},
        "incentivized": {"type": "boolean"}, "liveGauge": {"type": "boolean"},
        "categories": NAMES, "tokenTags": {**NAMES, "description": "the union of both tokens' tags"},
        **CURATION_FIELDS,
    }, "A pool of one chain at its published snapshot."),
    "V1TokenPage": page("V1Token", ("chainIds", "tags", "statuses"), "A page of tokens."),
    "V1PoolPage": page("V1Pool", ("chainIds", "poolTypes", "categories", "tokenTags", "statuses"), "A page of pools."),
}
