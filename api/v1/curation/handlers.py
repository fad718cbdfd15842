"""Handlers of the /v1 curation routes: /v1/curation, /v1/categories, /v1/token-lists and
/v1/token-lists/{chainId}, all read from the document of the reviewed publication the worker
follows (api/curation.py): no warehouse query.

A token list is the format wallets load (the Uniswap token-list schema): name, timestamp (the
publication time), a semantic version object and the tokens with chainId, address, symbol,
name, decimals and tags, with the tag definitions they use.
"""
from __future__ import annotations

from typing import Any

from ...errors import ApiError
from ...routes import RequestContext

TOKEN_LIST_NOT_FOUND = "token_list_not_found"
COMBINED_LIST_NAME = "Curated tokens"  # /v1/token-lists over several chains


def _document(ctx: RequestContext) -> dict[str, Any]:
    return ctx.coverage.curation.document


def semver(text: str) -> dict[str, int]:
    major, minor, patch = (int(part) for part in text.split("."))
    return {"major": major, "minor": minor, "patch": patch}


async def curation(ctx: RequestContext) -> dict[str, Any]:
    """CurationMetadata: the publication, the tag definitions, statuses and token-list versions."""
    doc = _document(ctx)
    c = ctx.coverage.curation
    return {
        "version": c.version,
        "digest": c.digest,
        "publishedAt": c.published_at,
        "review": doc["review"],
        "tags": doc["tags"],
        "statuses": doc["statuses"],
        "chains": [{"chainId": int(cid), **facts} for cid, facts in sorted(doc["chains"].items(), key=lambda kv: int(kv[0]))],
        "tokenLists": [{"chainId": int(cid), "name": tl["name"], "version": tl["version"], "tokenCount": len(tl["tokens"])}
                       for cid, tl in sorted(doc["tokenLists"].items(), key=lambda kv: int(kv[0]))],
    }


async def categories(ctx: RequestContext) -> dict[str, Any]:
    """CategoryMetadata: every pool category with its canonical rule and default scope."""
    c = ctx.coverage.curation
    return {"version": c.version, "digest": c.digest, "categories": _document(ctx)["categories"]}


def _lists(ctx: RequestContext, explicit: bool) -> list[tuple[int, dict[str, Any]]]:
    """The token lists of the covered chains; 404 for an explicitly selected chain without one."""
    lists = _document(ctx)["tokenLists"]
    missing = [cid for cid in ctx.coverage.chain_ids if str(cid) not in lists]
    if missing and explicit:
        having = ", ".join(sorted(lists, key=int)) or "none"
        raise ApiError(404, TOKEN_LIST_NOT_FOUND, f"no token list for chain {', '.join(map(str, missing))}; "
                       f"chains with a token list: {having}")
    return [(cid, lists[str(cid)]) for cid in ctx.coverage.chain_ids if str(cid) in lists]


def token_list(ctx: RequestContext, name: str, version: str, tokens: list[dict[str, Any]]) -> dict[str, Any]:
    used = {tag for token in tokens for tag in token.get("tags", ())}
    tags = {t["id"]: {"name": t["name"], "description": t["description"]} for t in _document(ctx)["tags"] if t["id"] in used}
    body: dict[str, Any] = {"name": name, "timestamp": ctx.coverage.curation.published_at, "version": semver(version),
                            "tokens": tokens}
    if tags:
        body["tags"] = tags
    return body


async def token_lists(ctx: RequestContext) -> dict[str, Any]:
    """One wallet-compatible list of the selected chains' tokens (versioned by the publication)."""
    found = _lists(ctx, explicit=bool(ctx.params["chainIds"]))
    if len(found) == 1:
        cid, tl = found[0]
        return token_list(ctx, tl["name"], tl["version"], tl["tokens"])
    tokens = [token for _, tl in found for token in tl["tokens"]]
    return token_list(ctx, COMBINED_LIST_NAME, ctx.coverage.curation.version, tokens)


async def chain_token_list(ctx: RequestContext) -> dict[str, Any]:
    """/v1/token-lists/{chainId}: the chain's list as wallets load it (no envelope)."""
    (cid, tl), = _lists(ctx, explicit=True)
    return token_list(ctx, tl["name"], tl["version"], tl["tokens"])
