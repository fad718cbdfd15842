"""The /v1 protocol routes (spec v1-api.md: Protocol; ADR 0009): /v1/protocol, /history, /daily,
/trailing, /volume. `ROUTES` and `SCHEMAS` are the domain's, for ../routes.py."""
from __future__ import annotations

from ...routes import Route
from ...schema import ref
from ...validation import Param
from . import handlers as protocol
from .schemas import SCHEMAS
from ..common.params import ALIGNMENT, CHAIN_IDS, CHAIN_UNAVAILABLE_DOC, MARKET_SECONDS, windows_param

__all__ = ["ROUTES", "SCHEMAS"]

WINDOWS = windows_param("24h,7d,30d")
PROTOCOL_DESCRIPTION = (
    " Covers the chains with the `pools` feature (default: all of them; a selected chain without it is 404 "
    "`feature_unsupported`). Each chain's flows are sums of its hourly buckets over spans ending at or before its "
    "own anchor (the end of its latest hourly bucket completed by its published snapshot); totals add these independently observed spans and say "
    "which chains they added and which are missing: a missing chain makes a total a known subtotal (`complete: false`), "
    "never a silent zero. Backing, bridge balances, holders, prices and APRs are never added (`policy`)."
)


def protocol_route(path: str, name: str, handler, summary: str, schema: str, description: str,
                   params: tuple[Param, ...] = (CHAIN_IDS,)) -> Route:
    return Route(path, name, handler, summary, ref(schema), params=params, cache_seconds=MARKET_SECONDS,
                 snapshot=True, multichain=True, feature="pools", description=description + PROTOCOL_DESCRIPTION,
                 tags=("protocol",), errors=(CHAIN_UNAVAILABLE_DOC,))


ROUTES: tuple[Route, ...] = (
    protocol_route(
        "/protocol", "protocol", protocol.protocol, "Protocol observation per chain and totals", "V1Protocol",
        "Per covered chain, at its published snapshot: eligible user-pool liquidity (TVL, split V2 / CL), pool and "
        "active gauge counts, and rolling 24h and 7d volume and fees, each window saying what it summed; and their "
        "totals."),
    protocol_route(
        "/protocol/history", "protocol_history", protocol.periods, "Hourly protocol flows and TVL per chain", "V1ProtocolPeriods",
        "The last `days` days of hourly periods per covered chain (oldest first): volume and fees summed from its "
        "hourly buckets, the TVL of its latest published snapshot in the period, and per period index the totals. "
        "Gaps are kept with their reason.",
        params=(CHAIN_IDS, ALIGNMENT, Param("days", "integer", "Days of hourly periods", default=7, minimum=1, maximum=90))),
    protocol_route(
        "/protocol/daily", "protocol_daily", protocol.periods, "Daily protocol flows and TVL per chain", "V1ProtocolPeriods",
        "The last `days` daily periods per covered chain (oldest first): rolling 24-hour periods ending at its anchor, "
        "or UTC days (alignment=utc) with the running day clipped at the anchor and marked partial; per period index "
        "the totals. Gaps are kept with their reason.",
        params=(CHAIN_IDS, ALIGNMENT, Param("days", "integer", "Daily periods", default=90, minimum=1, maximum=3660))),
    protocol_route(
        "/protocol/trailing", "protocol_trailing", protocol.trailing, "Trailing windows per chain and totals",
        "V1ProtocolTrailing",
        "Volume and fees over each requested trailing window of every covered chain, with the buckets each summed, "
        "and per window the totals.", params=(CHAIN_IDS, WINDOWS)),
    protocol_route(
        "/protocol/volume", "protocol_volume", protocol.volume, "Cumulative volume per chain", "V1ProtocolVolume",
        "Every public chain's cumulative volume and fees, from its first market activity to its anchor, and their "
        "totals.", params=()),
)
