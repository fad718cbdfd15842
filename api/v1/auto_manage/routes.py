"""The /v1 auto-managed vault routes (spec v1-api.md: Routes named only, Auto vaults; ADR 0018):
/v1/auto-manage/vaults/{chainId}/{vault}/rebalances and /activity. `ROUTES` and `SCHEMAS` are the
domain's, for ../routes.py."""
from __future__ import annotations

from ...cursors import CURSOR_EXPIRED, MAX_CURSOR_CHARS
from ...routes import ErrorDoc, Route
from ...schema import ref
from ...validation import Param
from ..common.params import CHAIN_UNAVAILABLE_DOC, MARKET_SECONDS, PATH_CHAIN_ID
from . import events
from .schemas import SCHEMAS

__all__ = ["ROUTES", "SCHEMAS"]

PARAMS = (
    PATH_CHAIN_ID,
    Param("vault", "address", "Vault contract address (either case)", location="path"),
    Param("limit", "integer", "Events per page", default=100, minimum=1, maximum=500),
    Param("cursor", "string", "pageInfo.nextCursor of the previous page, the other parameters unchanged (limit may "
          "change); bound to them, the first page's snapshot and its coverage boundary; valid 24 hours",
          max_length=MAX_CURSOR_CHARS),
)
ERRORS = (
    CHAIN_UNAVAILABLE_DOC,
    ErrorDoc(404, events.VAULT_NOT_FOUND, "The address is not an auto-managed vault of the chain's book with a row in "
             "its published snapshot (not a vault, or not deployed yet)."),
    ErrorDoc(400, CURSOR_EXPIRED, "The cursor is older than 24 hours or was issued by an earlier release: restart the "
             "traversal without it."),
)
SHOWN = (" The vault's events before its chain's published snapshot, as far as the chain's vault events are indexed "
         "(`coverage.indexedUntil`; `behind` and meta.complete false when they end more than two hours before the "
         "snapshot), newest first in chain order, in pages: follow pageInfo.nextCursor, every page reads the first "
         "page's snapshot and boundary. Amounts are exact: raw integer strings and decimals truncated at 36 places, "
         "null where the index does not hold them. Vaults exist on the chains with the `vaults` feature; another "
         "chain answers 404 feature_unsupported.")

ROUTES = (
    Route("/auto-manage/vaults/{chainId}/{vault}/rebalances", "auto_vault_rebalances", events.events,
          "A vault's range resets", ref("V1VaultRangeResetPage"), params=PARAMS, cache_seconds=MARKET_SECONDS,
          snapshot=True, multichain=True, feature="vaults", paginated=True, tags=("auto-manage",),
          errors=(*ERRORS, ErrorDoc(400, events.NOT_CONCENTRATED, "The vault holds a pool's LP tokens (v2), not a "
                                    "range: it never resets one.")),
          description="One record per range reset (rebalance) of a concentrated-liquidity vault: the range before and "
                      "after (ticks, and token1-per-token0 prices at the bounds), the vault's total amounts (position "
                      "+ idle) just before and just after, the trading fees the burnt position collected (zero while "
                      "it was staked in an alive gauge), the surplus swap that re-balanced the tokens, the pool's "
                      "price, block and transaction." + SHOWN),
    Route("/auto-manage/vaults/{chainId}/{vault}/activity", "auto_vault_activity", events.events,
          "A vault's deposits, redemptions and claims", ref("V1VaultActivityPage"), params=PARAMS,
          cache_seconds=MARKET_SECONDS, snapshot=True, multichain=True, feature="vaults", paginated=True,
          tags=("auto-manage",), errors=ERRORS,
          description="Deposits and redemptions (an account's shares minted or burnt, the tokens paid in or out, their "
                      "USD value at the time) and claims (the vault's harvests of its gauge rewards: the gross claim, "
                      "the strategy's reward fee and the part compounded into the position)." + SHOWN),
)
