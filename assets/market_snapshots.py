"""Write functions of the market snapshot assets (tokens, pools, protocol, core token): read each
snapshot's block, build its rows (assets.rows.market, assets.rows.core_token), insert them."""
from __future__ import annotations

from .flow_loads import load_flow_series, load_pool_series
from .rows.core_token import CORE_COLUMNS, PoolSetSeries, core_token_row
from .rows.market import (
    POOL_COLUMNS,
    PROTOCOL_COLUMNS,
    TOKEN_COLUMNS,
    pool_rows,
    protocol_row,
    token_rows,
)
from .rows.values import columns, ref_id
from .snapshot_step import SnapshotStep
from .upstream import POOL_FIELDS, POOL_TVL_FIELDS, TOKEN_FIELDS, SnapshotPoint
from ..readers.chain import ChainReader, ChainReadError
from ..readers.graphql import MAX_PAGE_SIZE, SubgraphClient, graphql_literal

CORE_POOL_FIELDS = "id totalValueLockedUSD volumeUSD feesUSD"


def read_protocol_state(subgraph: SubgraphClient, block: int, core_token: str) -> tuple[list[dict], list[dict], dict | None]:
    """Pools (type, TVL), factories and the core token at `block`: one request for the usual case."""
    blk = graphql_literal({"number": int(block)})
    q = (
        f"{{ pools(first: {MAX_PAGE_SIZE}, orderBy: id, orderDirection: asc, block: {blk}) "
        f"{{ id {POOL_TVL_FIELDS} }} "
        f"factories(first: 100, block: {blk}) {{ id poolCount }} "
        f"core: token(id: {graphql_literal(core_token)}, block: {blk}) {{ id priceUSD }} }}"
    )
    data = subgraph.query(q)
    pools = list(data.get("pools") or [])
    if len(pools) == MAX_PAGE_SIZE:  # more than one page: continue with keyset paging
        pools = subgraph.paginate("pools", POOL_TVL_FIELDS, where={}, block=block)
    return pools, list(data.get("factories") or []), data.get("core")


def read_core_token(subgraph: SubgraphClient, chain: ChainReader, block: int, core: str) -> tuple[dict, list[dict], int]:
    """(token, pools containing it sorted by id, ERC20 totalSupply) at `block`."""
    blk = graphql_literal({"number": int(block)})
    ident = graphql_literal(core)
    q = (
        f"{{ core: token(id: {ident}, block: {blk}) {{ id symbol decimals priceUSD derivedETH }} "
        f"a: pools(first: {MAX_PAGE_SIZE}, orderBy: id, where: {{token0: {ident}}}, block: {blk}) {{ {CORE_POOL_FIELDS} }} "
        f"b: pools(first: {MAX_PAGE_SIZE}, orderBy: id, where: {{token1: {ident}}}, block: {blk}) {{ {CORE_POOL_FIELDS} }} }}"
    )
    data = subgraph.query(q)
    by_id = {ref_id(p): p for p in [*(data.get("a") or []), *(data.get("b") or [])]}
    token = data.get("core")
    if token is None:
        raise ValueError(f"core token {core} is not in the subgraph at block {block}")
    supply = chain.erc20(core, block).get("totalSupply")
    if supply is None:
        raise ChainReadError(f"{core}.totalSupply() failed at block {block}")
    return token, [by_id[k] for k in sorted(by_id)], supply


def write_tokens(s: SnapshotStep) -> dict[str, int]:
    def read(point: SnapshotPoint) -> list[dict]:
        return token_rows(s.chain_id, point.snapshot_at,
                          s.subgraph.paginate("tokens", TOKEN_FIELDS, block=point.block.number))

    return {"token_snap15m": s.insert("token_snap15m", columns(TOKEN_COLUMNS, s.rows_each(read, "tokens")))}


def write_pools(s: SnapshotStep) -> dict[str, int]:
    protocol, per_pool = load_flow_series(s.client, s.chain_id, s.times)

    def read(point: SnapshotPoint) -> list[dict]:
        pools = s.subgraph.paginate("pools", POOL_FIELDS, block=point.block.number)
        return pool_rows(s.chain_id, point.snapshot_at, pools, protocol, per_pool)

    return {"pool_snap15m": s.insert("pool_snap15m", columns(POOL_COLUMNS, s.rows_each(read, "pools")))}


def write_protocol(s: SnapshotStep) -> dict[str, int]:
    protocol, _ = load_flow_series(s.client, s.chain_id, s.times)
    core = s.chain.contracts()["coreToken"].lower()

    def read(point: SnapshotPoint) -> tuple[dict, list[str]]:
        pools, factories, core_state = read_protocol_state(s.subgraph, point.block.number, core)
        gov = s.chain.reader.governance(point.block.number)
        return protocol_row(s.chain_id, point, pools, factories, core_state, gov, protocol)

    built = s.each(read, "protocol")
    for _, warnings in built:
        s.warnings.extend(warnings)
    return {"protocol_snap15m": s.insert("protocol_snap15m", columns(PROTOCOL_COLUMNS, [row for row, _ in built]))}


def write_core_token(s: SnapshotStep) -> dict[str, int]:
    protocol, _ = load_flow_series(s.client, s.chain_id, s.times)
    flows_of = PoolSetSeries(load_pool_series(s.client, s.chain_id, s.times))
    core = s.chain.contracts()["coreToken"].lower()

    def read(point: SnapshotPoint) -> dict:
        token, pools, supply = read_core_token(s.subgraph, s.chain.reader, point.block.number, core)
        return core_token_row(s.chain_id, point, core, token, pools, supply, protocol, flows_of)

    rows = s.each(read, "core token")
    return {"core_token_snap15m": s.insert("core_token_snap15m", columns(CORE_COLUMNS, rows))}
