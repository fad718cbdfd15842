"""The /api/v1 envelope: `meta` = chainId, network, apiVersion, generatedAt, indexedBlock,
degraded, conventions (the vault API spec), built and published by one `Envelope` subclass."""
from __future__ import annotations

from typing import Any, Iterable

from ..envelope import MEMO_ETAG_HEADER, Envelope, now_iso
from ..schema import ISO_TIME
from ...core.chains import STATS_CHAIN_ID

API_VERSION = "v1"

# The number conventions every answer states (and the OpenAPI document publishes as a const).
CONVENTIONS = {
    "rawIntegers": "raw on-chain integers (wei, share base units, 1e36 prices, NFT ids) are decimal strings; fields end in Raw",
    "scaledNumbers": "human token amounts, USD values and percentages are JSON numbers, or null when an input (e.g. a price) is unknown; never 0 for unknown",
    "addresses": "EIP-55 checksummed",
    "nullWhenDegraded": "when meta.degraded is true, a null value means unknown, not zero",
    "percentages": "APRs are fractions per year (0.25 = 25 %)",
    "timestamps": "Unix seconds (integers) for chain times; ISO 8601 UTC for generatedAt and snapshotAt",
}


class VaultEnvelope(Envelope):
    def __init__(self, chain_id: int = STATS_CHAIN_ID, network: str | None = None):
        self.chain_id = chain_id
        self.network = network  # the chain book's name of the network, bound by `for_settings`

    def for_settings(self, settings: Any) -> "VaultEnvelope":
        return VaultEnvelope(self.chain_id, settings.chain(self.chain_id).network)

    def _base(self) -> dict[str, Any]:
        return {"chainId": self.chain_id, "network": self.network, "apiVersion": API_VERSION, "generatedAt": now_iso()}

    def success_meta(self, snapshot: Any, cache_seconds: int, sources: Iterable[str], extra: dict[str, Any]) -> dict[str, Any]:
        return {
            **self._base(),
            "indexedBlock": extra.get("indexedBlock"),
            "degraded": bool(extra.get("degraded", False)),
            "conventions": CONVENTIONS,
        }

    def failure_meta(self, sources: Iterable[str] = ()) -> dict[str, Any]:
        return {**self._base(), "indexedBlock": None, "degraded": True, "conventions": CONVENTIONS}

    def meta_schemas(self, chain_id: int) -> tuple[dict[str, Any], dict[str, Any]]:
        properties = {
            "chainId": {"const": chain_id},
            "network": {"const": self.network},
            "apiVersion": {"const": API_VERSION},
            "generatedAt": {**ISO_TIME, "description": "when the answer was assembled (a memoized answer keeps its first)"},
            "indexedBlock": {
                "type": ["integer", "null"],
                "minimum": 0,
                "description": "the chain block the on-chain values were read at (one block per answer); null only when no "
                "upstream answered (failures, or /health with every source down)",
            },
            "degraded": {"type": "boolean", "description": "true when any upstream came back partial; null values are then unknown"},
            "conventions": {
                "type": "object",
                "properties": {k: {"const": v} for k, v in CONVENTIONS.items()},
                "required": list(CONVENTIONS),
                "additionalProperties": False,
            },
        }
        api_meta = {"type": "object", "required": list(properties), "additionalProperties": False, "properties": properties}
        return api_meta, api_meta

    def meta_name(self, cache_seconds: int, snapshot: bool) -> str:
        return "ApiMeta"  # one meta for every route (no TTL in it)

    def meta_components(self, chain_id: int, routes: Iterable[Any]) -> dict[str, dict[str, Any]]:
        api_meta, error_meta = self.meta_schemas(chain_id)
        return {"ApiMeta": api_meta, "ErrorMeta": error_meta}

    def etag_header(self) -> dict[str, Any]:
        return MEMO_ETAG_HEADER

    def failure_text(self) -> str:
        return "`{ok: false, error: {code, message}, meta}` (meta as on success, indexedBlock null, degraded true)"
