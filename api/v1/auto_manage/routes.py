"""The /v1 auto-managed vault routes (spec v1-api.md: Routes named only, Auto vaults; ADR 0018):
/v1/auto-manage/vaults, /v1/auto-manage/vaults/{chainId}/{vault} and its /history, /rebalances and
/activity. `ROUTES` and `SCHEMAS` are the domain's, for ../routes.py."""
from __future__ import annotations

from ...cursors import CURSOR_EXPIRED, MAX_CURSOR_CHARS
from ...routes import ErrorDoc, Route
from ...schema import array_of, ref
from ...validation import Param
from ...vaults.sources import BOOK_TTL_SECONDS
from ..common.params import CHAIN_IDS, CHAIN_UNAVAILABLE_DOC, MARKET_SECONDS, PATH_CHAIN_ID
from ..common.ranges import INVALID_RANGE
from . import book, events, history
from .schemas import SCHEMAS as EVENT_SCHEMAS
from .vault_schemas import SCHEMAS as VAULT_SCHEMAS

__all__ = ["ROUTES", "SCHEMAS"]

SCHEMAS = {**EVENT_SCHEMAS, **VAULT_SCHEMAS}
VAULT = Param("vault", "address", "Vault contract address (either case)", location="path")
PARAMS = (
    PATH_CHAIN_ID,
    VAULT,
    Param("limit", "integer", "Events per page", default=100, minimum=1, maximum=500),
    Param("cursor", "string", "pageInfo.nextCursor of the previous page, the other parameters unchanged (limit may "
          "change); bound to them, the first page's snapshot and its coverage boundary; valid 24 hours",
          max_length=MAX_CURSOR_CHARS),
)
NOT_FOUND = ErrorDoc(404, events.VAULT_NOT_FOUND, "The address is not an auto-managed vault of the chain's book with "
                     "a row in its published snapshot (not a vault, or not deployed yet).")
ERRORS = (
    CHAIN_UNAVAILABLE_DOC,
    NOT_FOUND,
    ErrorDoc(400, CURSOR_EXPIRED, "The cursor is older than 24 hours or was issued by an earlier release: restart the "
             "traversal without it."),
)
LIVE = (" Each selected chain's vaults are read live, with the vault data API's read (/api/v1: one block per chain, "
        "kept 15 s, so the two agree at the same block), and valued with the token prices of the chain's published "
        "snapshot. A vault whose live read fails, or every vault of a chain whose RPC does not answer, is its last "
        "indexed 15-minute snapshot instead (`observation.source: indexed` with the reason, meta.complete false); a "
        "vault with neither has null figures, never zeros. The ETag is the answer's own: it changes with the live "
        "block. Vaults exist on the chains with the `vaults` feature; another chain answers 404 feature_unsupported.")
SHOWN = (" The vault's events before its chain's published snapshot, as far as the chain's vault events are indexed "
         "(`coverage.indexedUntil`; `behind` and meta.complete false when they end more than two hours before the "
         "snapshot), newest first in chain order, in pages: follow pageInfo.nextCursor, every page reads the first "
         "page's snapshot and boundary. Amounts are exact: raw integer strings and decimals truncated at 36 places, "
         "null where the index does not hold them. Vaults exist on the chains with the `vaults` feature; another "
         "chain answers 404 feature_unsupported.")

ROUTES = (
    Route("/auto-manage/vaults", "auto_vaults", book.vaults, "Auto-managed vaults", array_of("V1AutoVault"),
          params=(CHAIN_IDS, Param("kind", "enum", "cl (a concentrated-liquidity range) or v2 (a pool's LP tokens); "
                                   "default both", choices=("cl", "v2"))),
          cache_seconds=BOOK_TTL_SECONDS, snapshot=True, multichain=True, live=True, feature="vaults",
          tags=("auto-manage",), errors=(CHAIN_UNAVAILABLE_DOC,),
          description="Every auto-managed vault of the selected chains, by chain then book order: pool, tokens, range, "
                      "principal (shares, amounts, TVL), reward fee and estimated APR, each from one observation." + LIVE),
    Route("/auto-manage/vaults/{chainId}/{vault}", "auto_vault", book.vault, "One auto-managed vault",
          ref("V1AutoVault"), params=(PATH_CHAIN_ID, VAULT), cache_seconds=BOOK_TTL_SECONDS, snapshot=True,
          multichain=True, live=True, feature="vaults", tags=("auto-manage",), errors=(CHAIN_UNAVAILABLE_DOC, NOT_FOUND),
          description="The vault's row of /v1/auto-manage/vaults." + LIVE),
    Route("/auto-manage/vaults/{chainId}/{vault}/history", "auto_vault_history", history.history,
          "A vault's principal per hour or day", ref("V1AutoVaultHistory"),
          params=(PATH_CHAIN_ID, VAULT,
                  Param("interval", "enum", "1h: hours ending at the last whole hour before the chain's snapshot; 1d: "
                        "UTC days ending with the snapshot's (partial)", default="1d", choices=("1h", "1d")),
                  Param("days", "integer", f"Days of periods (1h: at most {history.MAX_HOURLY_DAYS})", default=30,
                        minimum=1, maximum=3660)),
          cache_seconds=MARKET_SECONDS, snapshot=True, multichain=True, feature="vaults", tags=("auto-manage",),
          errors=(CHAIN_UNAVAILABLE_DOC, NOT_FOUND, ErrorDoc(400, INVALID_RANGE, "interval=1h with more than "
                                                             f"{history.MAX_HOURLY_DAYS} days.")),
          description="The vault's shares, amounts, TVL, share price, gross harvested USD and deposit and withdrawal "
                      "counts at the end of every hour or UTC day of the range, oldest first, as its chain's vault "
                      "history indexes them; a period without a row says why (before_vault_deployment, not_indexed; "
                      "meta.complete false for the latter). Vaults exist on the chains with the `vaults` feature."),
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
