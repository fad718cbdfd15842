"""JSON Schemas of the /v1 curation answers (OpenAPI components of /openapi.json)."""
from __future__ import annotations

from ...schema import ADDRESS, ISO_TIME, obj
from ..common.schemas import CHAIN_ID, NAMES

SEMVER = {"type": "string", "pattern": r"^[0-9]+\.[0-9]+\.[0-9]+$"}

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
}
