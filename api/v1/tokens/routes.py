"""The /v1 token detail and price routes (spec v1-api.md: Pool and token detail routes; ADR 0011):
/v1/tokens/{chainId}/{tokenAddress} and its /prices, /trailing, /price-changes; /v1/prices; and the
price history's (history_routes.py). `ROUTES` and `SCHEMAS` are the domain's, for ../routes.py."""
from __future__ import annotations

from ...param_kinds import MAX_CHAIN_ID, numbers_up_to
from ...routes import ErrorDoc, Route
from ...schema import components, ref
from ...validation import Param
from . import changes as token_changes
from . import handlers as tokens
from . import history_routes, schemas
from ..common import observations
from ..common.params import CHAIN_UNAVAILABLE_DOC, CURATION_TEXT, MARKET_SECONDS, PATH_CHAIN_ID, windows_param
from ..common.prices import TOKEN_NOT_FOUND

__all__ = ["ROUTES", "SCHEMAS"]

MAX_BATCH = 100
TOKEN_REF = f"(?:{numbers_up_to(MAX_CHAIN_ID)}):0x[0-9a-fA-F]{{40}}"
MAX_TOKENS_TEXT = MAX_BATCH * len(f"{MAX_CHAIN_ID}:0x{'0' * 40},") - 1

TOKEN_ADDRESS = Param("tokenAddress", "address", "Token contract address (either case)", location="path")
TOKEN_NOT_FOUND_DOC = ErrorDoc(404, TOKEN_NOT_FOUND, "The chain's published snapshot does not list the token, or the "
                               "curation blocks it.")
TOKENS = Param("tokens", "string", f"Up to {MAX_BATCH} comma-separated tokens, each `<chainId>:<address>` (56:0x...); "
               "a token named twice is answered once, in its first place",
               pattern=f"{TOKEN_REF}(?:,{TOKEN_REF}){{0,{MAX_BATCH - 1}}}", max_length=MAX_TOKENS_TEXT, mandatory=True,
               rule=f"1 to {MAX_BATCH} comma-separated <chainId>:<address> (a chain ID from 1 to {MAX_CHAIN_ID}, a colon, 0x "
                    "and 40 hex digits in either case)")
TO = Param("to", "timestamp", "The as-of boundary of the current price (inclusive), at or after 1970-01-01; default "
           "the server time; a later time is 400 invalid_to")

PRICE_TEXT = (
    " The price at a boundary is the latest stored observation with a price at or before it (a canonical observation "
    "of a published snapshot, at or before the chain's published one, or the historical valuation of an ended hour; "
    "the canonical one wins a tie), accepted only if it is at most maxAgeSeconds old there; otherwise it is null with "
    "its reason. Indexed observations are not live execution quotes."
)


def token_route(path: str, name: str, handler, summary: str, schema: str, description: str,
                params: tuple[Param, ...] = (), errors: tuple[ErrorDoc, ...] = (TOKEN_NOT_FOUND_DOC,),
                valuations: bool = True) -> Route:
    """A token route; one that reads the hourly valuations (`valuations`) is a new answer when they change."""
    return Route(path, name, handler, summary, ref(schema), params=(PATH_CHAIN_ID, TOKEN_ADDRESS, *params) if
                 "{tokenAddress}" in path else params, cache_seconds=MARKET_SECONDS, snapshot=True, multichain=True,
                 feature="pools", curation=True, description=description + CURATION_TEXT, tags=("tokens",),
                 errors=(CHAIN_UNAVAILABLE_DOC, *errors), valuations=valuations)


ROUTES = (
    token_route("/tokens/{chainId}/{tokenAddress}", "token", tokens.token, "One token", "V1TokenDetail",
                "The token's metadata and market observations at its chain's published snapshot (the fields of a "
                "/v1/tokens row, whatever its curation status) and `price`: its canonical observation in that "
                "snapshot. Supply, market cap and holders are not implied by a price.", valuations=False),
    token_route("/tokens/{chainId}/{tokenAddress}/prices", "token_prices", tokens.prices, "Current price of one token",
                "V1TokenPrices", "The token's current price at its chain's published snapshot (`at`), with its age, or "
                "null with the reason; and the latest canonical observation and historical valuation at or before it."
                + PRICE_TEXT),
    token_route("/tokens/{chainId}/{tokenAddress}/trailing", "token_trailing", token_changes.trailing,
                "Trailing volume and price change of one token", "V1TokenTrailing",
                "Per window of whole hours ending at the chain's anchor (its latest hourly bucket completed by the "
                "published snapshot): the token's volume summed from its hourly volumes, with what it summed (null "
                "unless every hour is stored), and the price change over the window." + PRICE_TEXT,
                params=(windows_param("24h,7d,30d"),)),
    token_route("/tokens/{chainId}/{tokenAddress}/price-changes", "token_price_changes", token_changes.price_changes,
                "Trailing price changes of one token", "V1TokenPriceChanges",
                "The price at `to` and, per window, the price at `to` minus the window, their observations and ages, "
                "the signed USD change and the percentage change; a comparison without both prices is unavailable "
                "(its reason), a zero reference leaves the percentage null." + PRICE_TEXT,
                params=(windows_param("24h,7d"), TO)),
    token_route("/prices", "prices", tokens.batch, "Current prices of several tokens", "V1PriceBatch",
                "The current price (as /v1/tokens/{chainId}/{tokenAddress}/prices gives it) of each named token at its "
                "chain's published snapshot; a token the snapshot does not list, or the curation blocks, is an item "
                "with reason token_not_found. Covers the chains named (a chain that is not public is 404)." + PRICE_TEXT,
                params=(TOKENS,), errors=()),
    *history_routes.ROUTES,
)
SCHEMAS = components(observations.SCHEMAS, schemas.SCHEMAS)
