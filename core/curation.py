"""The curation source (`curation/curation.json`, changed by reviewed pull request): token tags,
pool categories with their canonical rules, entity status, display order, featured flags and
token-list versions per chain.

core.curation_source reads and validates the file (`load_source`, `parse_source`): it raises
`CurationInvalid` listing every problem, each naming its entry (`chains.56.pools[3]: unknown
category 'x'`), so one review round fixes them all. The result (`CurationSource`) is normalized (lower-case addresses, defaults filled in, entries in address
order), and `source_digest` is the sha256 of its canonical JSON: the same curation gives the same
digest whatever the key order or address case of the file. Tag and token-list limits are those
of the token-list schema wallets load (@uniswap/token-lists tokenlist.schema.json), so a list
built from a valid source loads in a wallet. Checking against what is indexed is
core.curation_publication's part.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

STATUSES = ("active", "hidden", "deprecated", "blocked")
POOL_TYPES = ("v2-volatile", "v2-stable", "cl")
TAG_MODES = ("any", "all")
SCOPES = ("curated", "all")

# token-list schema: \w is ECMAScript's, ASCII only
TAG_ID = re.compile(r"[A-Za-z0-9_]{1,10}\Z")
TAG_NAME = re.compile(r"[ A-Za-z0-9_]{1,20}\Z")
TAG_DESCRIPTION = re.compile(r"[ A-Za-z0-9_.,:]{1,200}\Z")
LIST_NAME = re.compile(r"[A-Za-z0-9_ ]{1,30}\Z")
MAX_TAGS_PER_TOKEN = 10
MAX_TAGS = 20  # a list's `tags` map holds at most 20 definitions
CATEGORY_ID = re.compile(r"[a-z0-9-]{1,32}\Z")
SEMVER = re.compile(r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\Z")  # token lists: integers only
MAX_DISPLAY_ORDER = 2**32 - 1  # UInt32 in the warehouse


class CurationInvalid(ValueError):
    """The source (or its publication) has problems; `problems` lists every one."""

    def __init__(self, problems: list[str], what: str = "the curation source"):
        self.problems = list(problems)
        super().__init__(f"{what} has {len(self.problems)} problem(s):\n" + "\n".join(f"  {p}" for p in self.problems))


@dataclass(frozen=True)
class Tag:
    id: str
    name: str
    description: str


@dataclass(frozen=True)
class Rule:
    pool_types: tuple[str, ...] | None  # None: any type; (): none (a category of explicit entries only)
    token_tags: tuple[str, ...] | None  # None: any tokens
    token_tag_mode: str


# `"rule": null` in the source: no pool type matches, so only the explicit entries carry it; the
# document keeps the rule's one shape (poolTypes [] rather than a missing rule)
EXPLICIT_ONLY = Rule((), None, "any")


@dataclass(frozen=True)
class Category:
    id: str
    name: str
    description: str
    rule: Rule
    default_scope: str


@dataclass(frozen=True)
class TokenEntry:
    address: str  # lower-case
    status: str
    tags: tuple[str, ...]
    display_order: int | None
    featured: bool
    symbol: str | None  # the reviewer's label, checked against the indexed symbol
    path: str  # where it is in the file, for messages


@dataclass(frozen=True)
class PoolEntry:
    address: str
    status: str
    categories: tuple[str, ...]
    display_order: int | None
    featured: bool
    pair: str | None  # "A/B", checked against the indexed tokens' symbols (either order)
    path: str


@dataclass(frozen=True)
class ChainCuration:
    chain_id: int
    token_list: tuple[str, str] | None  # (name, version)
    tokens: tuple[TokenEntry, ...]  # by address
    pools: tuple[PoolEntry, ...]


@dataclass(frozen=True)
class CurationSource:
    version: str
    review: dict[str, str]  # reviewedBy, reviewedAt (ISO UTC), reference
    tags: tuple[Tag, ...]
    categories: tuple[Category, ...]
    chains: dict[int, ChainCuration]

    def normalized(self) -> dict[str, Any]:
        """The source as canonical JSON-ready data (what `source_digest` hashes)."""
        def entry(e: TokenEntry | PoolEntry) -> dict[str, Any]:
            out = {"address": e.address, "status": e.status, "displayOrder": e.display_order, "featured": e.featured}
            if isinstance(e, TokenEntry):
                out.update(tags=list(e.tags), symbol=e.symbol)
            else:
                out.update(categories=list(e.categories), pair=e.pair)
            return out

        return {
            "version": self.version,
            "review": dict(self.review),
            "tags": [tag_document(t) for t in self.tags],
            "categories": [category_document(c) for c in self.categories],
            "chains": {str(cid): {
                "tokenList": {"name": c.token_list[0], "version": c.token_list[1]} if c.token_list else None,
                "tokens": [entry(t) for t in c.tokens],
                "pools": [entry(p) for p in c.pools],
            } for cid, c in sorted(self.chains.items())},
        }

    @property
    def source_digest(self) -> str:
        return sha256_json(self.normalized())


def tag_document(t: Tag) -> dict[str, str]:
    return {"id": t.id, "name": t.name, "description": t.description}


def category_document(c: Category) -> dict[str, Any]:
    rule = {
        "poolTypes": list(c.rule.pool_types) if c.rule.pool_types is not None else None,
        "tokenTags": list(c.rule.token_tags) if c.rule.token_tags is not None else None,
        "tokenTagMode": c.rule.token_tag_mode,
    }
    return {"id": c.id, "name": c.name, "description": c.description, "rule": rule, "defaultScope": c.default_scope}


def canonical_json(value: Any) -> bytes:
    """Sorted keys, no spaces: one byte string per value, whatever the order it was built in."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def sha256_json(value: Any) -> str:
    return hashlib.sha256(canonical_json(value)).hexdigest()


def semver(version: str) -> tuple[int, int, int]:
    major, minor, patch = SEMVER.match(version).groups()  # type: ignore[union-attr]
    return int(major), int(minor), int(patch)
