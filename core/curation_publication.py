"""A curation publication: the source (core.curation) checked against what each chain has indexed
at its latest published snapshot, and what the warehouse and the API get from it.

    pub = publication(source, indexed, book)   # CurationInvalid lists every problem
    decide(latest, pub)                        # "publish" or "unchanged"; refuses a changed
                                               # curation under an already published version

`indexed` maps a chain id to {"snapshot_at": Unix seconds, "tokens": {address: {symbol, name,
decimals}}, "pools": {address: {pool_type, token0, token1}}}. Every chain of `indexed` is covered
(its pools get their categories from the rules even when the source names no entry of it); every
chain the source names must be in the book and have a snapshot.

- `document`: what the API serves (camelCase), `digest` = sha256 of its canonical JSON. It names
  the snapshot each chain was validated against, so a publication pins the indexed state too.
- `entities`: one row per curated token, and one per indexed pool (uncurated ones as `active`,
  not featured, without display order) with the categories of the rules plus the explicit ones.
  A pool row carries no tags: they are its tokens' (the API unions them).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from eth_utils import to_checksum_address

from .curation import (STATUSES, CurationInvalid, CurationSource, Rule, category_document, semver, sha256_json,
                       tag_document)
from .epochs import iso

MAX_SYMBOL, MAX_NAME = 20, 60  # token-list schema limits of a listed token's symbol and name


@dataclass(frozen=True)
class Publication:
    version: str
    digest: str
    source_digest: str
    review: dict[str, str]
    document: dict[str, Any]
    entities: list[dict[str, Any]]  # curation_entities rows, without the digest

    def counts(self) -> dict[str, int]:
        kinds = [(e["kind"], e["curated"]) for e in self.entities]
        return {"tokens": kinds.count(("token", True)), "pools_curated": kinds.count(("pool", True)),
                "pools_indexed": sum(1 for k, _ in kinds if k == "pool"), "rows": len(kinds)}


def rule_matches(rule: Rule, pool_type: str, tags: set[str]) -> bool:
    """Type in poolTypes (if given; an empty list matches none: explicit entries only) and the
    union of the pool's tokens' tags matches tokenTags (if given) with tokenTagMode."""
    if rule.pool_types is not None and pool_type not in rule.pool_types:
        return False
    if rule.token_tags is None:
        return True
    wanted = set(rule.token_tags)
    return wanted <= tags if rule.token_tag_mode == "all" else bool(wanted & tags)


def _token_list_problems(path: str, token: Mapping[str, Any]) -> list[str]:
    """What would make a wallet reject the list because of this token's indexed metadata."""
    symbol, name, decimals = str(token.get("symbol") or ""), str(token.get("name") or ""), token.get("decimals")
    out = []
    if not 0 < len(symbol) <= MAX_SYMBOL or any(c.isspace() for c in symbol):
        out.append(f"{path}: indexed symbol {symbol!r} cannot be listed (1 to {MAX_SYMBOL} characters, no spaces)")
    if not 0 < len(name) <= MAX_NAME:
        out.append(f"{path}: indexed name {name!r} cannot be listed (1 to {MAX_NAME} characters)")
    if not isinstance(decimals, int) or not 0 <= decimals <= 255:
        out.append(f"{path}: indexed decimals {decimals!r} cannot be listed")
    return out


def _chain(source: CurationSource, cid: int, chain: Mapping[str, Any], problems: list[str]):
    """(entity rows, document entry, token list or None) of one covered chain."""
    curation = source.chains.get(cid)
    tokens, pools = chain["tokens"], chain["pools"]
    at = iso(chain["snapshot_at"])
    entries = curation.tokens if curation else ()
    listed_pools = {p.address: p for p in curation.pools} if curation else {}
    rows: list[dict[str, Any]] = []
    token_tags: dict[str, set[str]] = {}
    listed: list[tuple] = []
    for t in entries:
        info = tokens.get(t.address)
        if info is None:
            problems.append(f"{t.path}: token {t.address} is not indexed on chain {cid} (snapshot {at})")
            continue
        if t.symbol is not None and t.symbol != info.get("symbol"):
            problems.append(f"{t.path}: symbol {t.symbol!r} but the indexed token {t.address} is {info.get('symbol')!r}")
        token_tags[t.address] = set(t.tags)
        rows.append({"chain_id": cid, "kind": "token", "address": t.address, "curated": True, "status": t.status,
                     "tags": list(t.tags), "categories": [], "display_order": t.display_order, "featured": t.featured})
        if t.status == "active" and curation.token_list is not None:
            problems += _token_list_problems(t.path, info)
            listed.append((t.display_order is None, t.display_order or 0, t.address, t, info))
    for p in listed_pools.values():
        if p.address not in pools:
            problems.append(f"{p.path}: pool {p.address} is not indexed on chain {cid} (snapshot {at})")
        elif p.pair is not None:
            info = pools[p.address]
            symbols = [(tokens.get(info[k]) or {}).get("symbol") for k in ("token0", "token1")]
            if sorted(p.pair.split("/")) != sorted(str(s) for s in symbols):
                problems.append(f"{p.path}: pair {p.pair!r} but the indexed pool {p.address} is {symbols[0]}/{symbols[1]}")
    for address in sorted(pools):
        info, entry = pools[address], listed_pools.get(address)
        tags = token_tags.get(info["token0"], set()) | token_tags.get(info["token1"], set())
        explicit = set(entry.categories) if entry else set()
        categories = [c.id for c in source.categories if c.id in explicit or rule_matches(c.rule, info["pool_type"], tags)]
        rows.append({"chain_id": cid, "kind": "pool", "address": address, "curated": entry is not None,
                     "status": entry.status if entry else "active", "tags": [], "categories": categories,
                     "display_order": entry.display_order if entry else None,
                     "featured": entry.featured if entry else False})
    token_list = None
    if curation is not None and curation.token_list is not None:
        if not listed:
            problems.append(f"chains.{cid}.tokenList: no active token to list (a token list holds at least one)")
        name, version = curation.token_list
        token_list = {"name": name, "version": version, "tokens": [
            {"chainId": cid, "address": to_checksum_address(t.address), "symbol": info["symbol"], "name": info["name"],
             "decimals": info["decimals"], "tags": list(t.tags)} for *_, t, info in sorted(listed, key=lambda x: x[:3])]}
    summary = {"snapshotAt": at, "tokens": len(entries), "pools": len(listed_pools)}
    return rows, summary, token_list


def publication(source: CurationSource, indexed: Mapping[int, Mapping[str, Any]],
                book: Iterable[int] | None = None) -> Publication:
    """The publication of `source` over the chains of `indexed` (those of `book`, when given)."""
    book_ids = set(book) if book is not None else None
    problems: list[str] = []
    for cid in sorted(source.chains):
        if book_ids is not None and cid not in book_ids:
            problems.append(f"chains.{cid}: chain {cid} is not in the chain book")
        elif cid not in indexed:
            problems.append(f"chains.{cid}: chain {cid} has no published snapshot to check its tokens and pools against")
    rows: list[dict[str, Any]] = []
    chains: dict[str, Any] = {}
    token_lists: dict[str, Any] = {}
    for cid in sorted(indexed):
        if book_ids is not None and cid not in book_ids:
            continue
        chain_rows, chains[str(cid)], token_list = _chain(source, cid, indexed[cid], problems)
        rows += chain_rows
        if token_list is not None:
            token_lists[str(cid)] = token_list
    if problems:
        raise CurationInvalid(problems, "the curation checked against the indexed tokens and pools")
    source_digest = source.source_digest
    document = {
        "version": source.version,
        "sourceDigest": source_digest,
        "review": dict(source.review),
        "tags": [tag_document(t) for t in source.tags],
        "categories": [category_document(c) for c in source.categories],
        "statuses": list(STATUSES),
        "chains": chains,
        "tokenLists": token_lists,
    }
    return Publication(source.version, sha256_json(document), source_digest, dict(source.review), document, rows)


def decide(latest: Mapping[str, Any] | None, pub: Publication) -> str:
    """"publish", or "unchanged" when `pub` is the latest publication already. Refuses (with
    CurationInvalid) a changed curation under the published version, an older version, and a
    token list whose tokens changed under its published version (wallets detect changes by it)."""
    if latest is None:
        return "publish"
    if latest["digest"] == pub.digest:
        return "unchanged"
    published = latest["version"]
    problems = []
    if published == pub.version and latest["source_digest"] != pub.source_digest:
        problems.append(f"curation changed but version {published} is already published: bump version")
    elif semver(pub.version) < semver(published):
        problems.append(f"version {pub.version} is older than the published {published}: bump version")
    before = (latest.get("document") or {}).get("tokenLists") or {}
    for cid, token_list in pub.document["tokenLists"].items():
        prev = before.get(cid)
        if prev is None:
            continue
        if semver(token_list["version"]) < semver(prev["version"]):
            problems.append(f"chains.{cid}.tokenList: version {token_list['version']} is older than the published "
                            f"{prev['version']}")
        elif prev["version"] == token_list["version"] and (prev["tokens"], prev["name"]) != (token_list["tokens"],
                                                                                              token_list["name"]):
            problems.append(f"chains.{cid}.tokenList: the list changed but version {prev['version']} is already "
                            "published: bump it")
    if problems:
        raise CurationInvalid(problems, "the curation publication")
    return "publish"
