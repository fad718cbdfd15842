"""The /v1 envelope: `meta` says which chains an answer covers and, per chain, the observation
times it rests on (ADR 0009), built and published by one `Envelope` subclass.

    meta: {chainIds, chains: [{chainId, state, snapshotAt, indexedAt, availableAt}], complete,
           generatedAt, cacheTtlSeconds}

`snapshotAt` is the 15-minute boundary read, `indexedAt` the time of the chain block read at it,
`availableAt` when that snapshot was published; `generatedAt` and `cacheTtlSeconds` are serving
only. Curation-backed answers add `curation`, price-history answers `historicalCoverage`.
`complete` is false when a covered chain is not fresh or the handler says a total misses a chain.
Routes that read no snapshot (health) give their chains themselves (`ctx.meta`).
"""
from __future__ import annotations

from typing import Any, Iterable

from ..coverage import Coverage
from ..envelope import Envelope, now_iso
from ..schema import ISO_TIME, obj
from .common.schemas import CHAIN_ID, NULLABLE_TIME, OBSERVATION

# meta.historicalCoverage of price-history answers: what their historical valuations rest on (ADR 0011)
HISTORICAL_COVERAGE = {**obj({
    "generation": {"type": "integer", "minimum": 1, "description": "the current price generation (how stored prices "
                   "are derived)"},
    "revision": {"type": ["integer", "null"], "minimum": 1, "description": "the highest valuation revision among the "
                 "range's UTC days; null: none of them is valued"},
    "valuedFrom": {**NULLABLE_TIME, "description": "the chain's first valued hour boundary (the close of its first "
                   "valued hour); null: nothing valued yet"},
    "valuedThrough": {**NULLABLE_TIME, "description": "the last hour boundary of the valued hours contiguous from "
                      "valuedFrom; later hours are pending"},
    "firstMarketActivity": {**NULLABLE_TIME, "description": "the chain's first indexed swap or liquidity event"},
}), "description": "on price-history answers: the generation, revision and valued range of the historical valuations"}


class V1Envelope(Envelope):
    def success_meta(self, basis: Any, cache_seconds: int, sources: Iterable[str], extra: dict[str, Any]) -> dict[str, Any]:
        if "pinned" in extra:  # a traversal's later page: the chains its first page read (api/v1/common/traversal.py)
            chains = extra["pinned"]
            complete = all(c["state"] == "fresh" for c in chains) and extra.get("complete", True)
        elif isinstance(basis, Coverage):
            chains = [c.meta() for c in basis.chains]
            complete = basis.complete and extra.get("complete", True)
        else:
            chains = extra.get("chains", [])
            complete = extra.get("complete", all(c["state"] == "fresh" for c in chains))
        meta = {
            "chainIds": [c["chainId"] for c in chains],
            "chains": chains,
            "complete": bool(complete),
            "generatedAt": now_iso(),
            "cacheTtlSeconds": max(cache_seconds, 0),
        }
        curation = getattr(basis, "curation", None)
        if curation is not None:
            meta["curation"] = curation.meta()
        if "historicalCoverage" in extra:  # price history (api/v1/tokens/history.py)
            meta["historicalCoverage"] = extra["historicalCoverage"]
        return meta

    def failure_meta(self, sources: Iterable[str] = ()) -> dict[str, Any]:
        return {"generatedAt": now_iso()}

    def meta_schemas(self, chain_id: int) -> tuple[dict[str, Any], dict[str, Any]]:
        chain = obj({"chainId": CHAIN_ID, **OBSERVATION})
        api_meta = {
            "type": "object",
            "required": ["chainIds", "chains", "complete", "generatedAt", "cacheTtlSeconds"],
            "additionalProperties": False,
            "properties": {
                "chainIds": {"type": "array", "items": {"type": "integer"}, "description": "the chains the answer covers"},
                "chains": {"type": "array", "items": chain, "description": "per covered chain, what the answer rests on"},
                "complete": {"type": "boolean", "description": "false when a covered chain is not fresh, or a total "
                             "misses a chain: known values are then a subtotal"},
                "generatedAt": {**ISO_TIME, "description": "serving only: when the answer was assembled (a cached "
                                "answer keeps its first); not a chain observation"},
                "cacheTtlSeconds": {"type": "integer", "minimum": 0, "description": "serving only: equals the s-maxage of Cache-Control"},
                "curation": {**obj({"version": {"type": "string", "description": "semantic version (X-Curation-Version)"},
                                    "digest": {"type": "string", "pattern": "^[0-9a-f]{64}$",
                                               "description": "sha256 of the publication: what ETags and cursors bind to"},
                                    "publishedAt": ISO_TIME}),
                             "description": "on answers resting on curation: the reviewed publication they read"},
                "historicalCoverage": HISTORICAL_COVERAGE,
            },
        }
        error_meta = {
            "type": "object",
            "required": ["generatedAt"],
            "additionalProperties": False,
            "properties": {"generatedAt": api_meta["properties"]["generatedAt"]},
        }
        return api_meta, error_meta

    snapshot_required = ()  # a multichain meta says per chain what it rests on (`chains`)

    def etag_header(self) -> dict[str, Any]:
        return {
            "description": 'Weak validator of the coverage served: W/"cov-<digest>", a digest of each covered chain\'s '
                           "published snapshot and state; the same for every content coding. Send it back in If-None-Match.",
            "schema": {"type": "string", "pattern": r'^W/"cov-[0-9a-f]{24}"$'},
        }

    def failure_text(self) -> str:
        return "`{ok: false, error: {code, message[, details]}, meta: {generatedAt}}`"


V1_ENVELOPE = V1Envelope()
