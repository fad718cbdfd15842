"""Reading and validating the curation source (the model and its rules: core.curation).

Every problem is collected, not just the first, each prefixed with the path of its entry in the
file (`tags[2]`, `categories[0].rule`, `chains.56.pools[3]`); indexes are those of the file as
written, before normalization sorts entries by address.
"""
from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from eth_utils import is_checksum_address

from .curation import (CATEGORY_ID, LIST_NAME, MAX_DISPLAY_ORDER, MAX_TAGS, MAX_TAGS_PER_TOKEN, POOL_TYPES, SCOPES,
                       SEMVER, STATUSES, TAG_DESCRIPTION, TAG_ID, TAG_MODES, TAG_NAME, Category, ChainCuration,
                       CurationInvalid, CurationSource, EXPLICIT_ONLY, PoolEntry, Rule, Tag, TokenEntry)

ADDRESS = re.compile(r"0x[0-9a-fA-F]{40}\Z")


def load_source(path: str | Path) -> CurationSource:
    """Read and validate the source file (an unreadable or non-JSON file is one problem)."""
    path = Path(path)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CurationInvalid([f"{path}: cannot be read ({exc.strerror or exc})"]) from None
    except ValueError as exc:
        raise CurationInvalid([f"{path}: not JSON ({exc})"]) from None
    return parse_source(raw)


class _Reader:
    """Collects problems while reading the raw JSON, so validation goes on past the first."""

    def __init__(self):
        self.problems: list[str] = []

    def add(self, path: str, message: str) -> None:
        self.problems.append(f"{path}: {message}")

    def obj(self, value: Any, path: str, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict | None:
        if not isinstance(value, dict):
            self.add(path, f"expected an object, got {_kind(value)}")
            return None
        for key in value:
            if key not in required and key not in optional:
                self.add(path, f"unknown field '{key}'")
        for key in required:
            if key not in value:
                self.add(path, f"missing '{key}'")
        return value

    def items(self, value: Any, path: str) -> list:
        if value is None:
            return []
        if not isinstance(value, list):
            self.add(path, f"expected a list, got {_kind(value)}")
            return []
        return value

    def text(self, obj: dict, key: str, path: str, pattern: re.Pattern | None = None, rule: str = "") -> str | None:
        value = obj.get(key)
        if key not in obj:
            return None  # reported as missing (or optional)
        if not isinstance(value, str) or not value.strip():
            self.add(path, f"{key} must be a non-empty string, got {_kind(value)}")
            return None
        if pattern is not None and not pattern.match(value):
            self.add(path, f"{key} {value!r} {rule}")
            return None
        return value

    def choice(self, obj: dict, key: str, path: str, allowed: tuple[str, ...], default: str) -> str:
        value = obj.get(key, default)
        if value not in allowed:
            self.add(path, f"{key} {value!r} is not one of {', '.join(allowed)}")
            return default
        return value

    def flag(self, obj: dict, key: str, path: str) -> bool:
        value = obj.get(key, False)
        if not isinstance(value, bool):
            self.add(path, f"{key} must be true or false, got {_kind(value)}")
            return False
        return value

    def order(self, obj: dict, path: str) -> int | None:
        value = obj.get("displayOrder")
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_DISPLAY_ORDER:
            self.add(path, f"displayOrder must be an integer from 0 to {MAX_DISPLAY_ORDER}, got {value!r}")
            return None
        return value

    def ids(self, value: Any, path: str, field: str, noun: str, known, limit: int | None = None) -> tuple[str, ...]:
        """A list of references to defined ids: each known, none twice."""
        out: list[str] = []
        for ref in self.items(value, f"{path}.{field}"):
            if not isinstance(ref, str) or ref not in known:
                self.add(path, f"unknown {noun} {ref!r}")
            elif ref in out:
                self.add(path, f"{field} lists {ref!r} twice")
            else:
                out.append(ref)
        if limit is not None and len(out) > limit:
            self.add(path, f"{len(out)} {field}, at most {limit}")
        return tuple(out)

    def address(self, obj: dict, path: str) -> str | None:
        value = obj.get("address")
        # lower-case, or mixed case with a valid EIP-55 checksum (catches a mistyped character)
        if not (isinstance(value, str) and ADDRESS.match(value) and (value == value.lower() or is_checksum_address(value))):
            why = "not a checksummed or lower-case 0x address" if isinstance(value, str) else _kind(value)
            self.add(path, f"address {value!r}: {why}")
            return None
        return value.lower()


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), type(value).__name__)


def _review(r: _Reader, raw: Any) -> dict[str, str]:
    obj = r.obj(raw, "review", ("reviewedBy", "reviewedAt", "reference")) if raw is not None else None
    if raw is None:
        r.add("review", "missing: a publication needs its review (reviewedBy, reviewedAt, reference)")
    if obj is None:
        return {}
    by, ref = r.text(obj, "reviewedBy", "review"), r.text(obj, "reference", "review")
    at = r.text(obj, "reviewedAt", "review")
    if at is not None:
        try:
            when = datetime.fromisoformat(at)
            if when.tzinfo is None:
                raise ValueError
            when = when.astimezone(timezone.utc)
            at = when.isoformat(timespec="milliseconds" if when.microsecond else "seconds").replace("+00:00", "Z")
        except ValueError:
            r.add("review", f"reviewedAt {at!r} is not an ISO 8601 time with a time zone")
            at = None
    return {"reviewedBy": by or "", "reviewedAt": at or "", "reference": ref or ""}


def _tags(r: _Reader, raw: Any) -> tuple[Tag, ...]:
    out: dict[str, Tag] = {}
    items = r.items(raw, "tags")
    if len(items) > MAX_TAGS:
        r.add("tags", f"{len(items)} tags, at most {MAX_TAGS} (a token list's tag map)")
    for i, item in enumerate(items):
        path = f"tags[{i}]"
        obj = r.obj(item, path, ("id", "name", "description"))
        if obj is None:
            continue
        tag_id = r.text(obj, "id", path, TAG_ID, "must be 1 to 10 letters, digits or underscores")
        name = r.text(obj, "name", path, TAG_NAME, "must be 1 to 20 letters, digits, underscores or spaces")
        description = r.text(obj, "description", path, TAG_DESCRIPTION,
                              "must be 1 to 200 letters, digits, underscores, spaces or . , :")
        if tag_id is not None and tag_id in out:
            r.add(path, f"tag {tag_id!r} is defined twice")
        elif tag_id is not None and name and description:
            out[tag_id] = Tag(tag_id, name, description)
    return tuple(out.values())


def _rule(r: _Reader, raw: Any, path: str, tags: set[str]) -> Rule:
    """A category's rule; null (or absent) for a category of explicit entries only."""
    obj = r.obj(raw, path, (), ("poolTypes", "tokenTags", "tokenTagMode")) if raw is not None else None
    if obj is None:
        return EXPLICIT_ONLY
    pool_types = token_tags = None  # null or absent: any type, any tokens
    if obj.get("poolTypes") is not None:
        pool_types = r.ids(obj["poolTypes"], path, "poolTypes", "pool type", POOL_TYPES)
    if obj.get("tokenTags") is not None:
        token_tags = r.ids(obj["tokenTags"], path, "tokenTags", "tag", tags)
        if not token_tags:
            r.add(path, "tokenTags is empty: name at least one tag, or leave it out")
    if pool_types is None and token_tags is None:
        r.add(path, "matches every pool: give poolTypes or tokenTags (or rule null for explicit entries only)")
    return Rule(pool_types, token_tags or None, r.choice(obj, "tokenTagMode", path, TAG_MODES, "any"))


def _categories(r: _Reader, raw: Any, tags: set[str]) -> tuple[Category, ...]:
    out: dict[str, Category] = {}
    for i, item in enumerate(r.items(raw, "categories")):
        path = f"categories[{i}]"
        obj = r.obj(item, path, ("id", "name", "description"), ("rule", "defaultScope"))
        if obj is None:
            continue
        cat_id = r.text(obj, "id", path, CATEGORY_ID, "must be 1 to 32 lower-case letters, digits or '-'")
        name, description = r.text(obj, "name", path), r.text(obj, "description", path)
        rule = _rule(r, obj.get("rule"), f"{path}.rule", tags)
        scope = r.choice(obj, "defaultScope", path, SCOPES, "curated")
        if cat_id is not None and cat_id in out:
            r.add(path, f"category {cat_id!r} is defined twice")
        elif cat_id is not None and name and description:
            out[cat_id] = Category(cat_id, name, description, rule, scope)
    return tuple(out.values())


def _entries(r: _Reader, raw: Any, path: str, kind: str, known: set[str]) -> tuple:
    """A chain's tokens or pools, by address; a duplicate address names both entries."""
    seen: dict[str, str] = {}
    out = []
    for i, item in enumerate(r.items(raw, path)):
        where = f"{path}[{i}]"
        label = "symbol" if kind == "tokens" else "pair"
        refs = "tags" if kind == "tokens" else "categories"
        obj = r.obj(item, where, ("address",), ("status", refs, "displayOrder", "featured", label))
        if obj is None:
            continue
        address = r.address(obj, where)
        status = r.choice(obj, "status", where, STATUSES, "active")
        if kind == "tokens":
            listed = r.ids(obj.get("tags"), where, "tags", "tag", known, MAX_TAGS_PER_TOKEN)
        else:
            listed = r.ids(obj.get("categories"), where, "categories", "category", known)
        order, featured, name = r.order(obj, where), r.flag(obj, "featured", where), r.text(obj, label, where)
        if address is None:
            continue
        if address in seen:
            r.add(where, f"address {address} is also {seen[address]}")
            continue
        seen[address] = where
        if kind == "tokens":
            out.append(TokenEntry(address, status, tuple(sorted(listed)), order, featured, name, where))
        else:
            out.append(PoolEntry(address, status, listed, order, featured, name, where))
    return tuple(sorted(out, key=lambda e: e.address))


def _chains(r: _Reader, raw: Any, tags: set[str], categories: set[str]) -> dict[int, ChainCuration]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        r.add("chains", f"expected an object keyed by chain id, got {_kind(raw)}")
        return {}
    out: dict[int, ChainCuration] = {}
    for key, item in raw.items():
        path = f"chains.{key}"
        if not (isinstance(key, str) and key.isdigit() and not key.startswith("0")):
            r.add(path, "chain ids are positive decimal integers")
            continue
        obj = r.obj(item, path, (), ("tokenList", "tokens", "pools"))
        if obj is None:
            continue
        token_list = None
        if obj.get("tokenList") is not None:
            tl = r.obj(obj["tokenList"], f"{path}.tokenList", ("name", "version"))
            if tl is not None:
                name = r.text(tl, "name", f"{path}.tokenList", LIST_NAME,
                              "must be 1 to 30 letters, digits, underscores or spaces")
                version = r.text(tl, "version", f"{path}.tokenList", SEMVER, "is not MAJOR.MINOR.PATCH")
                token_list = (name, version) if name and version else None
        out[int(key)] = ChainCuration(int(key), token_list, _entries(r, obj.get("tokens"), f"{path}.tokens", "tokens", tags),
                                      _entries(r, obj.get("pools"), f"{path}.pools", "pools", categories))
    return out


def parse_source(raw: Any) -> CurationSource:
    """The validated, normalized source; CurationInvalid lists every problem."""
    r = _Reader()
    obj = r.obj(raw, "(top level)", ("version",), ("review", "tags", "categories", "chains"))
    if obj is None:
        raise CurationInvalid(r.problems)
    version = r.text(obj, "version", "version", SEMVER, "is not a semantic version MAJOR.MINOR.PATCH")
    review = _review(r, obj.get("review"))
    tags = _tags(r, obj.get("tags"))
    categories = _categories(r, obj.get("categories"), {t.id for t in tags})
    chains = _chains(r, obj.get("chains"), {t.id for t in tags}, {c.id for c in categories})
    if r.problems:
        raise CurationInvalid(r.problems)
    return CurationSource(version or "", review, tags, categories, chains)
