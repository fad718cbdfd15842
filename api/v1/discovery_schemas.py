"""JSON Schemas of the /v1 curation and discovery answers (OpenAPI components of /openapi.json)."""
from __future__ import annotations

from ..schema import ADDRESS, ISO_TIME, nullable, obj
from .schemas import CHAIN_ID

DECIMAL = {"type": ["string", "null"], "pattern": r"^-?[0-9]+(\.[0-9]{1,36})?$",
           "description": "exact decimal, truncated toward zero at 36 places; null when unknown or when a nonzero value "
                          "truncates to zero"}
LOWER_ADDRESS = {"type": "string", "pattern": "^0x[0-9a-f]{40}$"}
STATUS = {"enum": ["active", "hidden", "deprecated"]}
NAMES = {"type": "array", "items": {"type": "string"}}
SEMVER = {"type": "string", "pattern": r"^[0-9]+\.[0-9]+\.[0-9]+$"}
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
    "V1Curation": obj({
        "version": SEMVER,
        "digest": {"type": "string"},
        "publishedAt": ISO_TIME,
        "review": {"type": "object", "description": "who reviewed the publication, when, and the reference of the review"},
        "tags": {"type": "array", "items": obj({"id": {"type": "string"}, "name": {"type": "string"},
                                                "description": {"type": "string"}})},
        "statuses": NAMES,
        "chains": {"type": "array", "items": {"type": "object", "required": ["chainId"],
                                              "properties": {"chainId": CHAIN_ID}}},
        "tokenLists": {"type": "array", "items": obj({"chainId": CHAIN_ID, "name": {"type": "string"}, "version": SEMVER,
                                                      "tokenCount": {"type": "integer"}})},
    }, "CurationMetadata: the reviewed publication, tag definitions, statuses and token-list versions."),
    "V1Categories": obj({
        "version": SEMVER,
        "digest": {"type": "string"},
        "categories": {"type": "array", "items": {"type": "object", "required": ["id", "rule", "defaultScope"], "properties": {
            "id": {"type": "string"}, "name": {"type": "string"}, "description": {"type": "string"},
            "rule": {"type": "object", "description": "poolTypes (any of them) and tokenTags (of either token, with "
                                                      "tokenTagMode any or all); an absent member does not restrict"},
            "defaultScope": {"enum": ["curated", "all"],
                             "description": "the scope /v1/pools uses for this category when `scope` is not given"},
        }}},
    }, "CategoryMetadata: pool categories with their canonical rules and default scope."),
    "V1TokenList": {
        "type": "object", "required": ["name", "timestamp", "version", "tokens"],
        "description": "A token list in the format wallets load (the Uniswap token-list schema).",
        "properties": {
            "name": {"type": "string"},
            "timestamp": ISO_TIME,
            "version": obj({"major": {"type": "integer"}, "minor": {"type": "integer"}, "patch": {"type": "integer"}}),
            "tokens": {"type": "array", "items": {
                "type": "object", "required": ["chainId", "address", "symbol", "name", "decimals"],
                "properties": {"chainId": CHAIN_ID, "address": ADDRESS, "symbol": {"type": "string"},
                               "name": {"type": "string"}, "decimals": {"type": "integer"}, "tags": NAMES}}},
            "tags": {"type": "object"},
        },
    },
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
