"""JSON Schemas of /api/v1's answers from the vault book (OpenAPI components.schemas): vaults
with their integration manifest, rebalance health, the protocol root, source health, gauges and
tokens. A vault's history and a wallet's positions are user_schemas.py's."""
from __future__ import annotations

from ..schema import ADDRESS, ISO_TIME, RAW_INTEGER, nullable, obj, ref

CHECKSUM = {**ADDRESS, "description": "EIP-55 checksummed address"}
CHECKSUM_OR_NULL = {**ADDRESS, "type": ["string", "null"], "description": "EIP-55 checksummed address; null when unknown"}
KIND = {"type": "string", "enum": ["cl", "v2"]}
STATUS = {"type": "string", "enum": ["ok", "degraded", "down"]}
STRINGS = {"type": "array", "items": {"type": "string"}}
NULL_ISO = {**ISO_TIME, "type": ["string", "null"]}
VAULT_REF = obj({"key": {"type": "string"}, "address": CHECKSUM, "kind": KIND})  # published as VaultRef (user_schemas.py)

TOKEN = obj({"address": CHECKSUM_OR_NULL, "symbol": nullable("string"), "decimals": nullable("integer")})
APPROVAL = obj({"token": CHECKSUM_OR_NULL, "spender": CHECKSUM_OR_NULL, "symbol": nullable("string")})
SLIPPAGE = obj({"bps": nullable("integer"), "denominator": {"const": 10000}, "rule": {"type": "string"}})
ABI_PARAMS = {"type": "array", "items": {"type": "object", "description": "an ABI parameter (name, type, ...)"}}
ABI_ITEM = {"type": "object", "required": ["type", "name", "inputs", "outputs", "stateMutability"],
            "properties": {"type": {"type": "string"}, "name": {"type": "string"}, "inputs": ABI_PARAMS,
                           "outputs": ABI_PARAMS, "stateMutability": {"type": "string"}}}
GATING = obj({"requires": {"type": "string"}, "checks": STRINGS})

MANIFEST = obj(
    {
        "kind": KIND,
        "contracts": obj({k: CHECKSUM_OR_NULL for k in ("vault", "strategy", "pool", "gauge", "zapper", "positionManager", "factory")}),
        "tokens": obj({"token0": ref("Token"), "token1": ref("Token"), "base": ref("Token"), "shares": ref("Token")}),
        "state": obj(
            {
                "isCalm": nullable("boolean"),
                "globalPause": nullable("boolean"),
                "strategyPaused": nullable("boolean"),
                "depositsAvailable": nullable("boolean", "isCalm and not globalPause and not strategyPaused; null when unknown"),
                "slippageBps": nullable("integer"),
            }
        ),
        "deposit": obj(
            {
                "direct": obj(
                    {
                        "approvals": {"type": "array", "items": ref("Approval")},
                        "methods": STRINGS,
                        "preview": obj({"method": {"type": "string"}, "returns": {"type": "string"}, "minShares": {"type": "string"}}),
                        "gating": ref("Gating"),
                        "slippage": ref("Slippage"),
                    }
                ),
                "zap": obj(
                    {
                        "approvals": {"type": "array", "items": ref("Approval")},
                        "methods": obj({"token": {"type": "string"}, "dual": {"type": "string"}, "native": {"type": "string"}}),
                        "quote": obj({"how": {"type": "string"}, "method": {"type": "string"}, "minShares": {"type": "string"}}),
                        "gating": ref("Gating"),
                        "slippage": ref("Slippage"),
                        "gas": obj({"multiplier": {"const": 2}, "minimum": {"const": 3000000}, "rule": {"type": "string"}}),
                    }
                ),
            }
        ),
        "withdraw": obj(
            {
                "approvals": {"type": "array", "items": ref("Approval"), "maxItems": 0,
                              "description": "none: withdrawing burns the caller's own shares"},
                "methods": STRINGS,
                "preview": obj({"method": {"type": "string"}, "returns": {"type": "string"}}),
                "gating": {"const": "none"},
                "slippage": ref("Slippage"),
            }
        ),
        "abiSignatures": obj({"vault": STRINGS, "zapper": STRINGS, "erc20": STRINGS}),
        "abi": {
            "type": "object",
            "required": ["vault", "zapper", "erc20"],
            "additionalProperties": False,
            "properties": {k: {"type": "array", "items": ABI_ITEM} for k in ("vault", "zapper", "erc20")},
            "description": "full JSON ABIs generated from abiSignatures; only with include=abi",
        },
        "notes": STRINGS,
    },
    "What a client needs to deposit, zap and withdraw (vault API spec, integration manifest).",
)
MANIFEST["required"].remove("abi")

CL_STATE = {
    "oneOf": [
        obj(
            {
                "tick": nullable("integer"),
                "tickLower": nullable("integer"),
                "tickUpper": nullable("integer"),
                "positionTokenIdRaw": RAW_INTEGER,
                "lastRebalance": nullable("integer", "Unix seconds"),
            }
        ),
        {"type": "null"},
    ],
    "description": "concentrated-liquidity position; null for v2 vaults",
}

VAULT = obj(
    {
        "key": {"type": "string"},
        "address": CHECKSUM,
        "kind": KIND,
        "name": nullable("string"),
        "symbol": nullable("string"),
        "decimals": nullable("integer"),
        "pool": CHECKSUM_OR_NULL,
        "gauge": CHECKSUM_OR_NULL,
        "strategy": CHECKSUM_OR_NULL,
        "token0": ref("Token"),
        "token1": ref("Token"),
        "totalSupplyRaw": RAW_INTEGER,
        "amount0Raw": RAW_INTEGER,
        "amount1Raw": RAW_INTEGER,
        "amount0": nullable("number"),
        "amount1": nullable("number"),
        "tvlUsd": nullable("number", "amounts at the latest published token prices; null when a price is unknown"),
        "sharePriceUsd": nullable("number", "tvlUsd per whole share"),
        "isCalm": nullable("boolean"),
        "paused": nullable("boolean", "vault.paused(): strategy paused or global pause"),
        "strategyPaused": nullable("boolean"),
        "globalPause": nullable("boolean"),
        "depositsAvailable": nullable("boolean"),
        "slippageBps": nullable("integer"),
        "needsRebalance": nullable("boolean"),
        "lastHarvest": nullable("integer", "Unix seconds"),
        "cl": CL_STATE,
        "complete": {"type": "boolean", "description": "false when any of this vault's reads failed (its nulls are unknown)"},
    }
)
VAULT_WITH_MANIFEST = {"allOf": [{**VAULT, "additionalProperties": True}], "properties": {"integration": ref("Manifest")}, "unevaluatedProperties": False}
VAULT_DETAIL = {**VAULT_WITH_MANIFEST, "required": ["integration"]}

VAULT_HEALTH = obj(
    {
        "key": {"type": "string"},
        "address": CHECKSUM,
        "tick": nullable("integer"),
        "tickLower": nullable("integer"),
        "tickUpper": nullable("integer"),
        "inRange": nullable("boolean", "tickLower <= tick < tickUpper"),
        "ticksToLower": nullable("integer", "tick - tickLower"),
        "ticksToUpper": nullable("integer", "tickUpper - tick"),
        "needsRebalance": nullable("boolean", "strategy.needsRebalance(): the tick left the inner band"),
        "lastRebalance": nullable("integer", "Unix seconds"),
        "isCalm": nullable("boolean"),
        "paused": nullable("boolean", "strategy paused or global pause"),
        "actionable": nullable("boolean", "needsRebalance and isCalm and not paused; null when an input is unknown"),
        "complete": {"type": "boolean"},
    }
)

SOURCE = {"type": "object", "required": ["status"], "properties": {"status": STATUS}}
HEALTH = obj(
    {
        "status": {**STATUS, "description": "the worst source status"},
        "sources": obj({"onchain": SOURCE, "stats": SOURCE, "subgraph": SOURCE}),
        "indexedBlock": nullable("integer"),
        "statuses": obj({"ok": {"type": "string"}, "degraded": {"type": "string"}, "down": {"type": "string"}}),
    }
)

META = obj(
    {
        "chainId": {"type": "integer"},
        "network": {"type": "string"},
        "contracts": {"type": "object", "additionalProperties": CHECKSUM_OR_NULL},
        "protocolTokens": obj({"core": CHECKSUM_OR_NULL}),
        "vaultCounts": obj({"total": {"type": "integer"}, "cl": {"type": "integer"}, "v2": {"type": "integer"}}),
        "globalPause": nullable("boolean"),
        "totalTvlUsd": nullable("number", "sum of the vaults' TVL; null when any vault's TVL is unknown"),
    }
)

GAUGE = obj(
    {
        "address": CHECKSUM,
        "pool": CHECKSUM_OR_NULL,
        "vault": {
            "oneOf": [VAULT_REF, {"type": "null"}],
            "description": "the configured vault whose gauge this is; null when no vault wraps it",
        },
        "isAlive": nullable("boolean", "Voter.isAlive(gauge): at meta.indexedBlock for a vault's gauge, "
                            "else at the stats snapshot (aprSnapshotAt)"),
        "apr": {
            "oneOf": [obj({k: nullable("number") for k in ("emission", "fee", "bribe", "total")}), {"type": "null"}],
            "description": "APR breakdown (fractions per year) of the latest published stats snapshot; null when it has no row",
        },
        "aprSnapshotAt": NULL_ISO,
    }
)

TOKEN_ROW = obj(
    {
        "address": CHECKSUM,
        "symbol": nullable("string"),
        "decimals": nullable("integer"),
        "logo": {"type": "null", "description": "no logo source is configured: always null (clients use their own token list)"},
        "priceUsd": nullable("number", "latest published stats snapshot's price; null when unknown"),
        "priceSnapshotAt": NULL_ISO,
        "vaults": STRINGS,
    }
)

SCHEMAS = {
    "Token": TOKEN,
    "Approval": APPROVAL,
    "Slippage": SLIPPAGE,
    "Gating": GATING,
    "Manifest": MANIFEST,
    "VaultWithManifest": VAULT_WITH_MANIFEST,
    "VaultDetail": VAULT_DETAIL,
    "VaultHealth": VAULT_HEALTH,
    "Health": HEALTH,
    "Meta": META,
    "Gauge": GAUGE,
    "TokenRow": TOKEN_ROW,
}
