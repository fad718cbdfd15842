"""The /v1 curation routes (spec v1-api.md: Curation; ADR 0010): the reviewed publication, its
categories and its wallet token lists."""
from __future__ import annotations

from ...param_kinds import MAX_CHAIN_ID
from ...routes import ErrorDoc, Route
from ...schema import ref
from ...validation import Param
from . import handlers as curation
from .schemas import SCHEMAS
from ..common.params import CHAIN_IDS, CURATION_TEXT, REFERENCE_SECONDS

__all__ = ["ROUTES", "SCHEMAS"]  # the domain's, for ../routes.py

TOKEN_LIST_DOC = ErrorDoc(404, curation.TOKEN_LIST_NOT_FOUND, "A requested chain has no token list (GET /v1/curation "
                          "lists the chains that have one).")


def curation_route(path: str, name: str, handler, summary: str, schema: str, description: str, **kw) -> Route:
    return Route(path, name, handler, summary, ref(schema), cache_seconds=REFERENCE_SECONDS, snapshot=True,
                 multichain=True, curation=True, description=description + CURATION_TEXT, tags=("curation",), **kw)


ROUTES = (
    curation_route("/curation", "curation", curation.curation, "The curation publication", "V1Curation",
                   "The reviewed curation publication: version, digest, review, token tag definitions, statuses, "
                   "what it covers per chain and the token-list versions.", params=()),
    curation_route("/categories", "categories", curation.categories, "Pool categories", "V1Categories",
                   "Every pool category with its canonical rule (pool types; token tags of either token, any or all) and "
                   "its default scope.", params=()),
    curation_route("/token-lists", "token_lists", curation.token_lists, "Token list of the selected chains",
                   "V1TokenList", "A wallet-compatible token list (the token-list schema) of the selected chains' active "
                   "curated tokens: one chain's own list, or for several chains one list of them all versioned by the "
                   "publication.", params=(CHAIN_IDS,), errors=(TOKEN_LIST_DOC,)),
    curation_route("/token-lists/{chainId}", "token_list", curation.chain_token_list, "Wallet token list of one chain",
                   "V1TokenList", "The chain's wallet-compatible token list as wallets load it: the body is the list, "
                   "without an envelope.", raw=True, errors=(TOKEN_LIST_DOC,),
                   params=(Param("chainId", "integer", "Chain ID", location="path", minimum=1, maximum=MAX_CHAIN_ID),)),
)
