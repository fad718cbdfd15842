"""The /v1 discovery routes (spec v1-api.md: Discovery; ADR 0010): /v1/tokens and /v1/pools."""
from __future__ import annotations

from ...cursors import CURSOR_EXPIRED, MAX_CURSOR_CHARS
from ...routes import ErrorDoc, Route
from ...schema import ref
from ...validation import Param
from . import handlers as discovery
from .schemas import SCHEMAS
from ..common.params import CHAIN_IDS, CHAIN_UNAVAILABLE_DOC, CURATION_TEXT, MARKET_SECONDS, qualified_param

__all__ = ["ROUTES", "SCHEMAS"]  # the domain's, for ../routes.py

NAME = "[A-Za-z0-9_-]{1,32}"
NAMES = f"{NAME}(?:,{NAME}){{0,31}}"
POOL_TYPE = "(?:v2-volatile|v2-stable|cl)"
DEFAULT_PAGE, MAX_PAGE = 50, 500

CURSOR_EXPIRED_DOC = ErrorDoc(400, CURSOR_EXPIRED, "The cursor is older than 24 hours, or the curation publication or "
                              "the hourly evidence its traversal read changed: restart the traversal without it.")


def mode(name: str, what: str) -> Param:
    return Param(name, "enum", f"any: {what} matches any of them; all: every one", default="any", choices=("any", "all"))


def flag(name: str, what: str) -> Param:
    return Param(name, "flag", f"Only {what} (true) or only the others (false); absent: any")


STATUS = Param("status", "enum", "Curation status; blocked pools and tokens are always excluded", default="active",
               choices=("active", "hidden", "deprecated"))
Q = Param("q", "string", "Literal, case-insensitive search in symbols, names and addresses (wildcard characters "
          "match themselves)", max_length=100)
LIMIT = Param("limit", "integer", "Page size", default=DEFAULT_PAGE, minimum=1, maximum=MAX_PAGE)
CURSOR = Param("cursor", "string", "pageInfo.nextCursor of the previous page, the other parameters unchanged; bound to "
               "them, the curation publication, each chain's snapshot and the flow evidence; valid 24 hours",
               max_length=MAX_CURSOR_CHARS)
FACETS = Param("includeFacets", "flag", "Add complete counts of every matching row (before paging)", default=False)
DIRECTION = ("asc", "desc")

TOKEN_PARAMS = (
    CHAIN_IDS, STATUS, Q, LIMIT, CURSOR, FACETS,
    Param("curated", "enum", "true: curated tokens; false: uncurated ones; all: both", default="true",
          choices=("true", "false", "all")),
    Param("tags", "string", "Comma-separated canonical token tags (GET /v1/curation)", pattern=NAMES, max_length=1100),
    mode("tagMode", "a token's tags"),
    Param("sort", "enum", "Order; then TVL descending, then chain ID and address ascending; nulls last",
          default="displayOrder", choices=("displayOrder", "symbol", "price", "volume24h", "tvl", "poolCount")),
    Param("direction", "enum", "Direction of the sort field", default="asc", choices=DIRECTION),
)

POOL_PARAMS = (
    CHAIN_IDS, STATUS, Q, LIMIT, CURSOR, FACETS,
    Param("scope", "enum", "curated: the curated pools; all: every indexed factory pool too. Default curated, or all "
          "when every requested category has the default scope all (GET /v1/categories)", choices=("curated", "all")),
    Param("curated", "enum", "Within the scope: curated pools (true), uncurated ones (false) or both", default="all",
          choices=("true", "false", "all")),
    flag("featured", "featured pools (a presentation filter: it never changes the order)"),
    Param("categories", "string", "Comma-separated pool categories (GET /v1/categories)", pattern=NAMES, max_length=1100),
    mode("categoryMode", "a pool's categories"),
    Param("tokenTags", "string", "Comma-separated token tags carried by either pool token", pattern=NAMES, max_length=1100),
    mode("tokenTagMode", "the union of both tokens' tags"),
    Param("poolTypes", "string", "Comma-separated pool types: v2-volatile, v2-stable, cl",
          pattern=f"{POOL_TYPE}(?:,{POOL_TYPE}){{0,2}}", rule="one to three of v2-volatile, v2-stable, cl, comma-separated"),
    Param("minTvlUsd", "decimal", "Pools whose TVL is at least this (exact decimal comparison; unknown TVL excluded)"),
    Param("maxTvlUsd", "decimal", "Pools whose TVL is at most this (exact decimal comparison; unknown TVL excluded)"),
    Param("minFeeApr", "decimal", "Pools whose fee APR (a fraction: 0.25 = 25 %) is at least this"),
    Param("minEmissionsApr", "decimal", "Pools whose emissions APR (of the aprProfile) is at least this"),
    flag("incentivized", "pools whose live gauge receives emissions this epoch"),
    flag("liveGauge", "pools with a live (not killed) gauge"),
    flag("dynamicFee", "pools with a dynamic fee"),
    flag("customFee", "pools with a custom fee"),
    qualified_param("token", "Pools holding this token"),
    Param("aprProfile", "enum", "Concentrated-liquidity emissions preset: minimum (one tick-spacing interval), "
          "five-spacing (five intervals) or standard (the aligned half-spread); V2 pools are unaffected",
          default="standard", choices=("minimum", "five-spacing", "standard")),
    Param("sort", "enum", "Order; then TVL descending, then chain ID and address ascending; nulls last in both directions",
          default="tvl", choices=("tvl", "volume24h", "volume7d", "fees24h", "fees7d", "feeApr", "emissionsApr",
                                  "displayOrder")),
    Param("direction", "enum", "Direction of the sort field", default="desc", choices=DIRECTION),
)

DISCOVERY_TEXT = (
    " Rows are read at each covered chain's published snapshot; window amounts sum the chain's hourly buckets over "
    "rolling windows ending at its latest completed hour (`flowWindows`), and a window whose buckets are not all "
    "indexed is null (suppressed before filtering, sorting and paging). Financial values are decimal strings "
    "truncated toward zero at 36 places; a missing value is null. Follow `pageInfo.nextCursor` until `hasNextPage` "
    "is false with the other parameters unchanged: every page reads the snapshots the first one did."
)


def discovery_route(path: str, name: str, summary: str, schema: str, params: tuple, description: str) -> Route:
    return Route(path, name, discovery.page, summary, ref(schema), params=params, cache_seconds=MARKET_SECONDS,
                 snapshot=True, multichain=True, feature="pools", curation=True, paginated=True,
                 description=description + DISCOVERY_TEXT + CURATION_TEXT, tags=("discovery",),
                 errors=(CHAIN_UNAVAILABLE_DOC, CURSOR_EXPIRED_DOC))


ROUTES = (
    discovery_route("/tokens", "tokens", "Discover tokens", "V1TokenPage", TOKEN_PARAMS,
                    "Tokens of the covered chains with price, TVL, their pools' rolling 24-hour volume, pool count, tags "
                    "and curation status; curated active tokens by display order unless asked otherwise."),
    discovery_route("/pools", "pools", "Discover pools", "V1PoolPage", POOL_PARAMS,
                    "Pools of the covered chains with TVL (its own observation time), rolling 24h and 7d volume and "
                    "fees, separate fee APR and emissions APR (aprProfile), fee pips and flags, gauge, categories, token "
                    "tags and curation status; curated active pools by TVL unless asked otherwise."),
)