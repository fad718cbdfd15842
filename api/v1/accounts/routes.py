"""The /v1 account routes (spec v1-api.md: Routes named only, Accounts; ADR 0020): one address's
holdings across the chains it selects with `chainIds`, each at that chain's published snapshot.
`ROUTES` and `SCHEMAS` are the domain's, for ../routes.py."""
from __future__ import annotations

from ...routes import ErrorDoc, Route
from ...schema import ref
from ...validation import Param
from ..common.params import CHAIN_IDS, CHAIN_UNAVAILABLE_DOC, MARKET_SECONDS
from ..xcore.state import TOKEN_NOT_DEPLOYED
from . import xcore
from .schemas import SCHEMAS

__all__ = ["ROUTES", "SCHEMAS"]

ADDRESS = Param("address", "address", "The wallet (or contract) address, either case", location="path")
COMMON = dict(cache_seconds=MARKET_SECONDS, snapshot=True, multichain=True, tags=("accounts",))
READS_ONLY = (" Reads only: a published answer is not authority to sign a transaction, and an indexed inventory may "
              "lag a confirmed receipt by up to a snapshot (15 minutes) plus the chain's `coverage` lag.")

ROUTES = (
    Route("/accounts/{address}/xcore", "account_xcore", xcore.account_xcore,
          "One address's escrow-share token per chain and its worth at the current rate", ref("V1AccountXcore"),
          params=(ADDRESS, CHAIN_IDS), feature="xcore", rests_on=xcore.canonical_rests_on, **COMMON,
          errors=(CHAIN_UNAVAILABLE_DOC, ErrorDoc(404, TOKEN_NOT_DEPLOYED, "No chain of the chain book holds the token.")),
          description="Per selected chain with xCORE (default: all of them), the address's shares at the chain's "
          "published snapshot: the sum of its indexed moves up to the snapshot (deposits and bridged-in shares add, "
          "exits and bridged-out shares take), with the count and the last move; null where the chain's events are "
          "not indexed from its deployment on. `worth` converts shares to core token at the canonical chain's rate "
          "at its snapshot (before any exit penalty); the answer always rests on the canonical chain, which "
          "meta.chains lists even when chainIds leaves it out. An address that never held xCORE is 200 with zero "
          "balances." + READS_ONLY),
)
