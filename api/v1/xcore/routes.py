"""The /v1 escrow-share token routes (spec v1-api.md: Routes named only, Escrow-share token; ADR
0019): /v1/xcore, /v1/xcore/rate-history and /v1/xcore/epochs. `ROUTES` and `SCHEMAS` are the
domain's, for ../routes.py."""
from __future__ import annotations

from ...cursors import CURSOR_EXPIRED, MAX_CURSOR_CHARS
from ...routes import ErrorDoc, Route
from ...schema import ref
from ...validation import Param
from ....core.prices import INTERVALS
from ..common.params import CHAIN_UNAVAILABLE_DOC, MARKET_SECONDS
from ..common.ranges import CAPS, INVALID_RANGE
from . import epochs, rates, state
from .schemas import SCHEMAS

__all__ = ["ROUTES", "SCHEMAS"]

COMMON = dict(cache_seconds=MARKET_SECONDS, snapshot=True, multichain=True, feature="xcore", tags=("xcore",))
NOT_DEPLOYED = ErrorDoc(404, state.TOKEN_NOT_DEPLOYED, "No chain of the chain book holds the token (its canonical "
                        "chain, with the bridge adapter).")
EXPIRED = ErrorDoc(400, CURSOR_EXPIRED, "The cursor is older than 24 hours or was issued by an earlier release: "
                   "restart the traversal without it.")


def cursor(bound: str) -> Param:
    return Param("cursor", "string", "pageInfo.nextCursor of the previous page, the other parameters unchanged (limit "
                 f"may change); bound to them and {bound}; valid 24 hours", max_length=MAX_CURSOR_CHARS)


ROUTES = (
    Route("/xcore", "xcore", state.xcore, "The escrow-share token: rate, supply, backing and their reconciliation",
          ref("V1Xcore"), errors=(CHAIN_UNAVAILABLE_DOC, NOT_DEPLOYED), **COMMON,
          description="xCORE wraps locked core token at a rate (core token per xCORE). Its rate, supply and backing "
          "are read by RPC at the canonical chain's published snapshot block (`observation`); every other covered "
          "chain's bridged representation at its own snapshot (`chains`). The canonical supply is counted once: the "
          "representations are shares its bridge adapter locks. `reconciliation` compares those locked shares with the "
          "representations' supplies and explains the difference from the indexed transfers each chain shows at its "
          "observation (in flight, observer skew, shares held for chains not covered); `status` says whether it "
          "reconciles, is explained, or cannot be explained yet (`events_behind`: a chain's indexed events end "
          "before its observation; meta.complete is then false)."),
    Route("/xcore/rate-history", "xcore_rate_history", rates.rate_history,
          "The escrow-share token's rate in rolling periods", ref("V1XcoreRateHistory"), paginated=True, params=(
              Param("from", "timestamp", "Inclusive start of the range, or `earliest`: the token's first event. "
                    "Default: 24 hours before the end", choices=("earliest",)),
              Param("to", "timestamp", "Exclusive end of the range, not later than the server time. Default: the "
                    "server time"),
              Param("interval", "enum", "Period length; periods are anchored backward from the end, the oldest "
                    f"clipped at the start. Longest range per interval: {CAPS}", default="1h",
                    choices=tuple(INTERVALS)),
              Param("limit", "integer", "Periods per page", default=200, minimum=1, maximum=500),
              cursor("the resolved range and the canonical chain's indexed boundary")),
          errors=(CHAIN_UNAVAILABLE_DOC, NOT_DEPLOYED, EXPIRED,
                  ErrorDoc(400, INVALID_RANGE, f"from is not before to, the range is longer than the interval allows "
                           f"({CAPS}), or from=earliest before any event is indexed.")), **COMMON,
          description="The rate (with supply and backing) in effect at each period's close, oldest first, with the "
          "price history's range rules and paging. No source publishes the rate as a series; every event carries the "
          "rate before and after it, so the rate in effect at any instant is exact: the new rate of the last event "
          "before the period's end. `activity` is changed when an event in the period changed the rate, else "
          "carried. Without a sample, one gapReason: before_token_deployment, or events_not_indexed (the period "
          "closes after the canonical chain's indexed events, or its published snapshot: temporary). meta.complete "
          "is false when a period of the page has no sample. Every page of a traversal reads the boundary the first "
          "one did."),
    Route("/xcore/epochs", "xcore_epochs", epochs.epochs, "The escrow-share token per epoch: rate change by cause",
          ref("V1XcoreEpochs"), paginated=True, params=(
              Param("limit", "integer", "Epochs per page", default=52, minimum=1, maximum=520),
              cursor("the canonical chain's indexed boundary")),
          errors=(CHAIN_UNAVAILABLE_DOC, NOT_DEPLOYED, EXPIRED), **COMMON,
          description="Per epoch (Thursday 00:00 UTC), newest first, from the token's first to the one holding the "
          "canonical chain's indexed boundary (partial): the rate at its start and end, the change split by cause "
          "(exit-penalty rebases: an exit's penalty stays in the backing; compounded incentives; distributions; "
          "each the sum of the rate after minus before over the epoch's events of that kind, so they sum exactly to "
          "the change), event counts, flows, and supply and backing at its end."),
)
