"""What the /v1 route tables share: the chain selection, the cache classes, common errors, the
words of a curation-backed route."""
from __future__ import annotations

from ...coverage import CHAIN_UNAVAILABLE
from ...param_kinds import MAX_CHAIN_ID, numbers_up_to
from ...routes import ErrorDoc
from ...validation import Param

# Cache-Control s-maxage per route class (ADR 0009): reference documents change with the chain
# book and each publication; market and protocol figures with each publication; health is never cached.
REFERENCE_SECONDS, MARKET_SECONDS, HEALTH_SECONDS = 300, 60, 0

CHAIN_IDS = Param("chainIds", "chain_ids", "Comma-separated public chain IDs, or all", default="all")
PATH_CHAIN_ID = Param("chainId", "integer", "Chain ID", location="path", minimum=1, maximum=MAX_CHAIN_ID)  # an entity's chain
# an address, optionally qualified by its chain: 56:0x... (`qualified` parses it)
QUALIFIED_ADDRESS = f"(?:(?:{numbers_up_to(MAX_CHAIN_ID)}):)?0x[0-9a-fA-F]{{40}}"
CHAIN_UNAVAILABLE_DOC = ErrorDoc(503, CHAIN_UNAVAILABLE, "No selected chain has a published snapshot yet.")
CURATION_TEXT = " Rests on the reviewed curation publication (`meta.curation`, header X-Curation-Version)."


def windows_param(default: str) -> Param:
    """The `windows` parameter of the trailing-window routes, with the route's default."""
    return Param("windows", "windows", "Up to six trailing windows, whole hours or days from 1h to 366d", default=default)


APR_PROFILE = Param("aprProfile", "enum", "Concentrated-liquidity emissions preset: minimum (one tick-spacing "
                    "interval), five-spacing (five intervals) or standard (the aligned half-spread); V2 pools are "
                    "unaffected; feeApr stays a separate pool-average estimate", default="standard",
                    choices=("minimum", "five-spacing", "standard"))
ALIGNMENT = Param("alignment", "enum", "rolling: periods end at each chain's latest completed hourly bucket; utc: "
                  "calendar periods shared by every chain, the running one clipped and marked partial",
                  default="rolling", choices=("rolling", "utc"))


def qualified(raw: str | None) -> tuple[int, str]:
    """A QUALIFIED_ADDRESS parameter as (chain ID or 0 for any chain, lower-case address or "")."""
    if not raw:
        return 0, ""
    head, _, tail = raw.rpartition(":")
    return (int(head) if head else 0), tail.lower()


def qualified_param(name: str, what: str) -> Param:
    """A QUALIFIED_ADDRESS query parameter: `what` it selects (a sentence start, e.g. "Pools holding this token")."""
    return Param(name, "string", f"{what}: an address, optionally prefixed with a chain ID and a colon (56:0x...)",
                 pattern=QUALIFIED_ADDRESS,
                 rule=f"0x and 40 hex digits (either case), optionally after a chain ID from 1 to {MAX_CHAIN_ID} and a colon")
