"""What the /v1 route tables share: the chain selection, the cache classes, common errors, the
words of a curation-backed route."""
from __future__ import annotations

from ...coverage import CHAIN_UNAVAILABLE
from ...param_kinds import MAX_CHAIN_ID
from ...routes import ErrorDoc
from ...validation import Param

# Cache-Control s-maxage per route class (ADR 0009): reference documents change with the chain
# book and each publication; market and protocol figures with each publication; health is never cached.
REFERENCE_SECONDS, MARKET_SECONDS, HEALTH_SECONDS = 300, 60, 0

CHAIN_IDS = Param("chainIds", "chain_ids", "Comma-separated public chain IDs, or all", default="all")
PATH_CHAIN_ID = Param("chainId", "integer", "Chain ID", location="path", minimum=1, maximum=MAX_CHAIN_ID)  # an entity's chain
CHAIN_UNAVAILABLE_DOC = ErrorDoc(503, CHAIN_UNAVAILABLE, "No selected chain has a published snapshot yet.")
CURATION_TEXT = " Rests on the reviewed curation publication (`meta.curation`, header X-Curation-Version)."


def windows_param(default: str) -> Param:
    """The `windows` parameter of the trailing-window routes, with the route's default."""
    return Param("windows", "windows", "Up to six trailing windows, whole hours or days from 1h to 366d", default=default)


ALIGNMENT = Param("alignment", "enum", "rolling: periods end at each chain's latest completed hourly bucket; utc: "
                  "calendar periods shared by every chain, the running one clipped and marked partial",
                  default="rolling", choices=("rolling", "utc"))
