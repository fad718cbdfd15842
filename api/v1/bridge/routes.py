"""The /v1 bridge routes (spec v1-api.md: Routes named only, Bridge): /v1/bridge and
/v1/bridge/{guid}. `ROUTES` and `SCHEMAS` are the domain's, for ../routes.py."""
from __future__ import annotations

from ...cursors import CURSOR_EXPIRED, MAX_CURSOR_CHARS
from ...routes import ErrorDoc, Route
from ...schema import ref
from ...validation import Param
from ...param_kinds import MAX_CHAIN_ID
from ..common.params import CHAIN_UNAVAILABLE_DOC, MARKET_SECONDS
from . import messages
from .schemas import SCHEMAS

__all__ = ["ROUTES", "SCHEMAS"]

STATE_LIST = "(?:" + "|".join(messages.STATES) + ")(?:,(?:" + "|".join(messages.STATES) + "))*"
CURSOR = Param("cursor", "string", "pageInfo.nextCursor of the previous page, the other parameters unchanged (limit "
               "may change); bound to them and each chain's snapshot and boundary; valid 24 hours",
               max_length=MAX_CURSOR_CHARS)
SHOWN = ("Each chain's side is shown up to its boundary (`coverage`: its published snapshot's time, or the end of its "
         "indexed bridge events when earlier), so a message seen on one side only is in flight, not lost, and "
         "`missingSide` names the side that has shown nothing yet. States are LayerZero Scan's words: DELIVERED and "
         "FAILED are terminal, PAYLOAD_STORED and BLOCKED retryable, INFLIGHT and CONFIRMING on their way.")

ROUTES = (
    Route("/bridge", "bridge", messages.messages, "Cross-chain messages", ref("V1BridgePage"), params=(
        Param("srcChainId", "integer", "Only messages sent from this chain", minimum=1, maximum=MAX_CHAIN_ID),
        Param("dstChainId", "integer", "Only messages sent to this chain", minimum=1, maximum=MAX_CHAIN_ID),
        Param("state", "string", "Only messages in these states: comma-separated", pattern=STATE_LIST,
              rule=f"one or more of {', '.join(messages.STATES)}, comma-separated", max_length=200),
        Param("address", "address", "Only messages whose wallet (sender or recipient of a transfer) or application "
              "(either side) is this address"),
        Param("limit", "integer", "Messages per page", default=100, minimum=1, maximum=500),
        CURSOR),
        cache_seconds=MARKET_SECONDS, snapshot=True, multichain=True, feature="bridge", paginated=True,
        tags=("bridge",), errors=(CHAIN_UNAVAILABLE_DOC, ErrorDoc(400, CURSOR_EXPIRED, "The cursor is older than 24 "
                                  "hours or was issued by an earlier release: restart the traversal without it.")),
        description="The core token's cross-chain messages between the chains with a bridge, newest first, each "
                    "with its state, both sides' times and transactions, and the transfer it carries. " + SHOWN
                    + " Follow pageInfo.nextCursor with the other parameters unchanged: every page reads the first "
                    "page's snapshots and boundaries."),
    Route("/bridge/{guid}", "bridge_message", messages.message, "One cross-chain message",
          ref("V1BridgeMessageDetail"), params=(
              Param("guid", "string", "The message's guid: 0x and 64 hex digits", location="path",
                    pattern="0x[0-9a-fA-F]{64}", rule="0x and 64 hex digits (either case)"),),
          cache_seconds=MARKET_SECONDS, snapshot=True, multichain=True, feature="bridge", tags=("bridge",),
          errors=(CHAIN_UNAVAILABLE_DOC,
                  ErrorDoc(404, messages.MESSAGE_NOT_FOUND, "No indexed message has this guid (yet: its chains may not "
                           "be indexed that far; see GET /v1/bridge's coverage).")),
          description="One cross-chain message by its guid: its state, both sides' times and transactions, the "
                      "transfer it carries and how far each chain is shown. " + SHOWN),
)
