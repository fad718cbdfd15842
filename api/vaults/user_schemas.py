"""JSON Schemas of /api/v1's answers from the vault warehouse tables (OpenAPI
components.schemas): a vault's history and a wallet's positions and interactions, the routes of
users.py. The checksummed address and the vault reference are schemas.py's."""
from __future__ import annotations

from ..schema import ISO_TIME, RAW_INTEGER, nullable, obj, ref
from .schemas import CHECKSUM, VAULT_REF

USD_OR_NULL = "USD; null when unknown (never 0 for unknown)"

HISTORY_POINT = obj(
    {
        "periodStart": {**ISO_TIME, "description": "start of the UTC hour or day"},
        "totalSupplyRaw": RAW_INTEGER,
        "amount0Raw": RAW_INTEGER,
        "amount1Raw": RAW_INTEGER,
        "amount0": nullable("number", "amount0Raw scaled by token0's decimals; null when the decimals are unknown"),
        "amount1": nullable("number"),
        "tvlUsd": nullable("number", USD_OR_NULL),
        "sharePriceUsd": nullable("number", "tvlUsd per whole share"),
        "harvestedUsd": nullable("number", "rewards harvested in the period, USD at harvest time"),
        "apr": nullable("number", "harvestedUsd / tvlUsd x periods per year, a fraction"),
        "deposits": {"type": "integer", "minimum": 0},
        "withdrawals": {"type": "integer", "minimum": 0},
        "partial": {"type": "boolean", "description": "the period was still running when it was read (the current UTC day)"},
    },
    "State as of the period's last block (vault_hourly / vault_daily).",
)
VAULT_HISTORY = obj(
    {
        "vault": ref("VaultRef"),
        "period": {"type": "string", "enum": ["hourly", "daily"]},
        "days": {"type": "integer", "minimum": 1, "maximum": 365},
        "points": {"type": "array", "items": ref("VaultHistoryPoint"), "description": "oldest first; the last `days` days ending at the newest row"},
    }
)

POSITION = obj(
    {
        "vault": ref("VaultRef"),
        "token0": ref("Token"),
        "token1": ref("Token"),
        "sharesRaw": {**RAW_INTEGER, "description": "live balanceOf(user) at meta.indexedBlock; null when the read failed"},
        "shares": nullable("number", "sharesRaw scaled by the vault's decimals"),
        "amount0Raw": {**RAW_INTEGER, "description": "totalAmount0 * shares / totalSupply, rounded down"},
        "amount1Raw": RAW_INTEGER,
        "amount0": nullable("number"),
        "amount1": nullable("number"),
        "valueUsd": nullable("number", "amounts at the latest published token prices; " + USD_OR_NULL),
        "depositedUsd": nullable("number", "sum of the deposits' USD values at their own time; null unless pnlComplete"),
        "withdrawnUsd": nullable("number", "sum of the withdrawals' USD values at their own time; null unless pnlComplete"),
        "pnlUsd": nullable("number", "valueUsd + withdrawnUsd - depositedUsd; null unless pnlComplete"),
        "pnlComplete": {
            "type": "boolean",
            "description": "true only when the indexed interactions reconcile with the chain (deposited minus withdrawn "
            "shares = the live balance), each has a USD value, and valueUsd is known. The interactions are indexed by "
            "the hourly history run, so a very recent deposit or withdrawal makes this false until it is indexed.",
        },
        "indexedNetSharesRaw": {**RAW_INTEGER, "description": "deposited minus withdrawn shares of the indexed interactions"},
        "interactions": nullable("integer", "indexed deposits and withdrawals; null when the warehouse did not answer"),
    }
)
INTERACTION = obj(
    {
        "type": {"type": "string", "enum": ["deposit", "withdrawal"]},
        "timestamp": {"type": "integer", "description": "Unix seconds"},
        "blockNumber": {"type": "integer"},
        "transactionHash": {"type": "string", "pattern": "^0x[0-9a-fA-F]{64}$"},
        "logIndex": nullable("integer"),
        "sharesRaw": RAW_INTEGER,
        "amount0Raw": RAW_INTEGER,
        "amount1Raw": RAW_INTEGER,
        "amount0": nullable("number"),
        "amount1": nullable("number"),
        "amountUsd": nullable("number", "USD value at the interaction's time"),
    }
)
PORTFOLIO = obj(
    {
        "address": CHECKSUM,
        "positions": {"type": "array", "items": ref("Position"), "description": "vaults where the live balance is positive (or unknown)"},
        "totals": obj(
            {
                "usd": nullable("number", "sum of the positions' valueUsd; null when any is unknown; 0 for an empty portfolio"),
                "usdComplete": {"type": "boolean"},
            }
        ),
        "totalPnlUsd": nullable("number", "sum of the listed positions' pnlUsd; null when any is unknown; 0 for an empty portfolio"),
        "pnlComplete": {"type": "boolean"},
    }
)
USER_VAULT = {
    "allOf": [{**POSITION, "additionalProperties": True}],
    "required": ["address", "history"],
    "properties": {
        "address": CHECKSUM,
        "history": {"type": "array", "items": ref("Interaction"), "description": "deposits and withdrawals, newest first"},
    },
    "unevaluatedProperties": False,
    "description": "One wallet's position in one vault (zero shares and an empty history when it never interacted).",
}

SCHEMAS = {
    "VaultRef": VAULT_REF,
    "VaultHistoryPoint": HISTORY_POINT,
    "VaultHistory": VAULT_HISTORY,
    "Position": POSITION,
    "Interaction": INTERACTION,
    "Portfolio": PORTFOLIO,
    "UserVault": USER_VAULT,
}
