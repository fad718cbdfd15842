"""The GraphQL schema, generated from one entity table.

Every entity gets a singular and a plural query field, a `<Entity>_filter` input (The Graph's
operators: `f`, `f_not`, `f_gt`, `f_lt`, `f_gte`, `f_lte`, `f_in`, `f_not_in`, plus `and`/`or`)
and a `<Entity>_orderBy` enum. Entity references are filtered by plain id strings.
"""
from __future__ import annotations

from decimal import Decimal

from graphql import (
    GraphQLError,
    GraphQLScalarType,
    build_schema,
)
from graphql.language import BooleanValueNode, FloatValueNode, IntValueNode, StringValueNode

_VAULT_FLOW = [
    ("id", "ID!"), ("vault", "Vault!"), ("user", "String!"), ("shares", "BigInt!"), ("amount0", "BigDecimal!"),
    ("amount1", "BigDecimal!"), ("amountUSD", "BigDecimal!"), ("timestamp", "BigInt!"), ("blockNumber", "BigInt!"),
    ("transactionHash", "String!"), ("logIndex", "BigInt!"),
]
_VAULT_PERIOD = [
    ("id", "ID!"), ("periodStartUnix", "Int!"), ("vault", "Vault!"), ("totalSupply", "BigInt!"),
    ("amount0", "BigDecimal!"), ("amount1", "BigDecimal!"), ("tvlUSD", "BigDecimal!"), ("sharePriceUSD", "BigDecimal!"),
    ("harvestedUSD", "BigDecimal!"), ("apr", "BigDecimal!"),
]

# entity -> (field, type); "!" = non-null; a capitalised non-scalar type is a reference.
ENTITIES: dict[str, list[tuple[str, str]]] = {
    "Factory": [
        ("id", "ID!"), ("type", "String!"), ("poolCount", "Int!"), ("txCount", "BigInt!"),
        ("totalVolumeUSD", "BigDecimal!"), ("totalFeesUSD", "BigDecimal!"),
        ("totalValueLockedUSD", "BigDecimal!"),
    ],
    "Bundle": [("id", "ID!"), ("ethPriceUSD", "BigDecimal!")],
    "Token": [
        ("id", "ID!"), ("symbol", "String!"), ("name", "String!"), ("decimals", "Int!"),
        ("derivedETH", "BigDecimal!"), ("priceUSD", "BigDecimal!"), ("totalValueLocked", "BigDecimal!"),
        ("totalValueLockedUSD", "BigDecimal!"), ("volumeUSD", "BigDecimal!"), ("txCount", "BigInt!"),
        ("poolCount", "Int!"), ("totalSupply", "BigInt!"),
    ],
    "Pool": [
        ("id", "ID!"), ("type", "String!"), ("name", "String!"), ("token0", "Token!"), ("token1", "Token!"),
        ("feeTier", "Int!"), ("defaultFeeTier", "Int!"), ("tickSpacing", "Int"), ("isDynamicFee", "Boolean!"),
        ("isCustomFee", "Boolean!"), ("liquidity", "BigInt!"), ("sqrtPrice", "BigInt!"), ("tick", "Int"),
        ("reserve0", "BigDecimal!"), ("reserve1", "BigDecimal!"), ("token0Price", "BigDecimal!"),
        ("token1Price", "BigDecimal!"), ("totalValueLockedUSD", "BigDecimal!"), ("volumeUSD", "BigDecimal!"),
        ("feesUSD", "BigDecimal!"), ("txCount", "BigInt!"), ("createdAtTimestamp", "BigInt!"),
        ("createdAtBlockNumber", "BigInt!"), ("gauge", "Gauge"),
    ],
    "PoolHourData": [
        ("id", "ID!"), ("periodStartUnix", "Int!"), ("pool", "Pool!"), ("volumeUSD", "BigDecimal!"),
        ("feesUSD", "BigDecimal!"), ("tvlUSD", "BigDecimal!"), ("txCount", "BigInt!"), ("close", "BigDecimal!"),
        ("liquidity", "BigInt!"), ("sqrtPrice", "BigInt!"), ("tick", "Int"), ("reserve0", "BigDecimal!"),
        ("reserve1", "BigDecimal!"),
    ],
    "PoolDayData": [
        ("id", "ID!"), ("date", "Int!"), ("pool", "Pool!"), ("volumeUSD", "BigDecimal!"),
        ("feesUSD", "BigDecimal!"), ("tvlUSD", "BigDecimal!"), ("txCount", "BigInt!"),
    ],
    "TokenHourData": [
        ("id", "ID!"), ("periodStartUnix", "Int!"), ("token", "Token!"), ("priceUSD", "BigDecimal!"),
        ("volumeUSD", "BigDecimal!"),
    ],
    "Swap": [
        ("id", "ID!"), ("timestamp", "BigInt!"), ("blockNumber", "BigInt!"), ("pool", "Pool!"),
        ("sender", "String!"), ("amount0", "BigDecimal!"), ("amount1", "BigDecimal!"),
        ("amountUSD", "BigDecimal!"), ("feesUSD", "BigDecimal!"), ("transactionHash", "String!"),
        ("logIndex", "BigInt!"), ("token0", "Token!"), ("token1", "Token!"), ("tick", "Int"),
        ("sqrtPriceX96", "BigInt"),
    ],
    "Gauge": [
        ("id", "ID!"), ("pool", "Pool"), ("isAlive", "Boolean!"), ("createdAtTimestamp", "BigInt!"),
        ("killedAtTimestamp", "BigInt"), ("rewardRate", "BigInt!"), ("emissionsEpoch", "BigDecimal!"),
        ("votes", "BigDecimal!"), ("feesVotingReward", "String!"), ("bribeVotingReward", "String!"),
        ("kind", "String!"), ("target", "String!"), ("createdAtBlockNumber", "BigInt!"),
        ("revivedAtTimestamp", "BigInt"), ("weight", "BigDecimal!"),
    ],
    "VeNFT": [
        ("id", "ID!"), ("tokenId", "BigInt!"), ("owner", "String!"), ("lockedAmount", "BigDecimal!"),
        ("unlockTime", "BigInt!"), ("isPermanent", "Boolean!"), ("votingPower", "BigDecimal!"),
        ("isFoundation", "Boolean!"), ("createdAtTimestamp", "BigInt!"), ("createdAtBlockNumber", "BigInt!"),
    ],
    "Vote": [
        ("id", "ID!"), ("epoch", "BigInt!"), ("veNFT", "VeNFT!"), ("pool", "Pool"), ("weight", "BigDecimal!"),
        ("timestamp", "BigInt!"), ("gauge", "Gauge!"), ("blockNumber", "BigInt!"), ("target", "String!"),
        ("kind", "String!"), ("transactionHash", "String"),
    ],
    "Bribe": [
        ("id", "ID!"), ("epoch", "BigInt!"), ("gauge", "Gauge!"), ("pool", "Pool"), ("token", "Token!"),
        ("amount", "BigDecimal!"), ("amountUSD", "BigDecimal"), ("from", "String!"),
        ("isFoundation", "Boolean!"), ("timestamp", "BigInt!"), ("blockNumber", "BigInt!"),
        ("transactionHash", "String!"), ("target", "String!"),
    ],
    "Claim": [
        ("id", "ID!"), ("epoch", "BigInt!"), ("veNFT", "VeNFT!"), ("owner", "String!"), ("gauge", "Gauge!"),
        ("pool", "Pool"), ("token", "Token!"), ("amount", "BigDecimal!"), ("amountUSD", "BigDecimal"), ("kind", "String!"),
        ("timestamp", "BigInt!"), ("blockNumber", "BigInt!"), ("transactionHash", "String!"), ("target", "String!"),
    ],
    # Voter logs (devnet/sim/votebook.py), gauge timelines and per-epoch gauge aggregates
    "VoteEvent": [
        ("id", "ID!"), ("kind", "String!"), ("eventName", "String!"), ("tokenId", "BigInt!"), ("veNFT", "VeNFT!"),
        ("owner", "String!"), ("pool", "Pool"), ("target", "String!"), ("gauge", "Gauge!"), ("weight", "BigDecimal!"),
        ("poolWeight", "BigDecimal!"), ("totalWeight", "BigDecimal!"), ("epoch", "BigInt!"), ("timestamp", "BigInt!"),
        ("blockNumber", "BigInt!"), ("transactionHash", "String!"), ("logIndex", "BigInt!"),
    ],
    "EscrowEvent": [
        ("id", "ID!"), ("kind", "String!"), ("tokenId", "BigInt!"), ("veNFT", "VeNFT!"), ("from", "String!"),
        ("to", "String!"), ("amount", "BigDecimal!"), ("unlockTime", "BigInt"), ("permanent", "Boolean!"),
        ("mergedInto", "BigInt"), ("splitFrom", "BigInt"), ("timestamp", "BigInt!"), ("blockNumber", "BigInt!"), ("transactionHash", "String!"),
        ("logIndex", "BigInt!"),
    ],
    "GaugeEvent": [
        ("id", "ID!"), ("gauge", "Gauge!"), ("kind", "String!"), ("gaugeKind", "String!"), ("target", "String!"),
        ("pool", "Pool"), ("epoch", "BigInt!"), ("timestamp", "BigInt!"), ("blockNumber", "BigInt!"),
        ("transactionHash", "String!"), ("logIndex", "BigInt!"),
    ],
    "GaugeEpoch": [
        ("id", "ID!"), ("epoch", "BigInt!"), ("gauge", "Gauge!"), ("kind", "String!"), ("target", "String!"),
        ("pool", "Pool"), ("isAlive", "Boolean!"), ("isPartial", "Boolean!"), ("votes", "BigDecimal!"),
        ("votesAtStart", "BigDecimal!"), ("emissions", "BigDecimal!"), ("rewardRate", "BigInt!"),
        ("emitted", "BigDecimal!"), ("token0", "Token"), ("token1", "Token"), ("fees0", "BigDecimal!"),
        ("fees1", "BigDecimal!"), ("feesUSD", "BigDecimal!"), ("bribesUSD", "BigDecimal"), ("bribeCount", "Int!"),
        ("unpricedBribeCount", "Int!"),
    ],
    # vaults (devnet/sim/vaults.py): one state entity, event entities and period rows
    "Vault": [
        ("id", "ID!"), ("kind", "String!"), ("name", "String!"), ("pool", "Pool!"), ("gauge", "Gauge"),
        ("strategy", "String!"), ("token0", "Token!"), ("token1", "Token!"), ("totalSupply", "BigInt!"),
        ("amount0", "BigDecimal!"), ("amount1", "BigDecimal!"), ("totalValueLockedUSD", "BigDecimal!"),
        ("sharePriceUSD", "BigDecimal!"), ("tickLower", "Int"), ("tickUpper", "Int"),
        ("createdAtTimestamp", "BigInt!"), ("createdAtBlockNumber", "BigInt!"),
    ],
    "VaultDeposit": _VAULT_FLOW,
    "VaultWithdrawal": _VAULT_FLOW,
    # token amounts are BigDecimal in token units (exact decimal strings: raw = value x 10^decimals),
    # like VaultDeposit's; the totals are position + idle just before / after the rebalance; fees
    # are the trading fees the burnt position collected (0 while staked in an alive gauge); the
    # surplus swap's amountIn is in token0 when swapZeroForOne, else token1 (amountOut the other)
    "VaultRebalance": [
        ("id", "ID!"), ("vault", "Vault!"), ("oldTickLower", "Int!"), ("oldTickUpper", "Int!"),
        ("newTickLower", "Int!"), ("newTickUpper", "Int!"), ("tick", "Int!"), ("sqrtPriceX96", "BigInt!"),
        ("amount0Before", "BigDecimal!"), ("amount1Before", "BigDecimal!"), ("amount0After", "BigDecimal!"),
        ("amount1After", "BigDecimal!"), ("fees0", "BigDecimal!"), ("fees1", "BigDecimal!"),
        ("swapAmountIn", "BigDecimal!"), ("swapAmountOut", "BigDecimal!"), ("swapZeroForOne", "Boolean!"),
        ("timestamp", "BigInt!"), ("blockNumber", "BigInt!"), ("transactionHash", "String!"), ("logIndex", "BigInt!"),
    ],
    # amount/amountUSD: the gross claim; feeAmount/feeAmountUSD: the strategy's cut (core token units)
    "VaultHarvest": [
        ("id", "ID!"), ("vault", "Vault!"), ("token", "Token!"), ("amount", "BigDecimal!"),
        ("amountUSD", "BigDecimal!"), ("feeAmount", "BigDecimal!"), ("feeAmountUSD", "BigDecimal!"),
        ("timestamp", "BigInt!"), ("blockNumber", "BigInt!"), ("transactionHash", "String!"), ("logIndex", "BigInt!"),
    ],
    "VaultHourData": _VAULT_PERIOD,
    "VaultDayData": _VAULT_PERIOD,
    # the core token's cross-chain packets (devnet/sim/bridge.py): this chain's side of each message
    "BridgeEvent": [
        ("id", "ID!"), ("kind", "String!"), ("guid", "String!"), ("nonce", "BigInt!"), ("srcEid", "BigInt!"),
        ("dstEid", "BigInt!"), ("srcChainId", "BigInt!"), ("dstChainId", "BigInt!"), ("sender", "String!"),
        ("receiver", "String!"), ("fromAddress", "String"), ("toAddress", "String"), ("token", "Token"),
        ("amountRaw", "BigInt"), ("reason", "String"), ("timestamp", "BigInt!"), ("blockNumber", "BigInt!"),
        ("transactionHash", "String!"), ("logIndex", "BigInt!"),
    ],
    # the escrow-share token (devnet/sim/xcore.py): raw integers (18 decimals; ratios CORE per xCORE
    # x 1e18, rounded down); supply/backing/adapterLocked after the event; ratio, backing and
    # adapterLocked null on a representation's chain, bridge fields null for the other kinds
    "XcoreEvent": [
        ("id", "ID!"), ("chainId", "Int!"), ("kind", "String!"), ("account", "String"), ("amount", "BigInt"),
        ("shares", "BigInt!"), ("penalty", "BigInt"), ("oldRatio", "BigInt"), ("newRatio", "BigInt"),
        ("supply", "BigInt!"), ("backing", "BigInt"), ("adapterLocked", "BigInt"), ("epoch", "BigInt!"),
        ("guid", "String"), ("srcChainId", "Int"), ("dstChainId", "Int"), ("timestamp", "BigInt!"),
        ("blockNumber", "BigInt!"), ("transactionHash", "String!"), ("logIndex", "BigInt!"),
    ],
    # liquidity providers (devnet/sim/liquidity.py): open positions as of the block (v2 one per owner
    # and pool: `liquidity` the wallet's LP, `staked` the gauge's; CL one per NFT: `liquidity` its
    # liquidity, `staked` 1 or 0), and their events; raw integers
    "LiquidityPosition": [
        ("id", "ID!"), ("kind", "String!"), ("owner", "String!"), ("pool", "Pool!"), ("tokenId", "BigInt"),
        ("tickLower", "Int"), ("tickUpper", "Int"), ("liquidity", "BigInt!"), ("staked", "BigInt!"),
        ("createdAtTimestamp", "BigInt!"),
    ],
    "LiquidityEvent": [
        ("id", "ID!"), ("kind", "String!"), ("owner", "String!"), ("pool", "Pool!"), ("position", "String!"),
        ("tokenId", "BigInt"), ("lp", "BigInt"), ("liquidity", "BigInt"), ("tickLower", "Int"), ("tickUpper", "Int"),
        ("amount0", "BigInt"), ("amount1", "BigInt"), ("fees0", "BigInt"), ("fees1", "BigInt"),
        ("emissions", "BigInt"), ("emissionsToken", "Token"), ("staked", "Boolean"), ("timestamp", "BigInt!"),
        ("blockNumber", "BigInt!"), ("transactionHash", "String!"), ("logIndex", "BigInt!"),
    ],
    # the RewardsDistributor (devnet/sim/rebases.py): each week's rebase checkpoint (id: the week) and
    # each Claimed log (fromEpoch inclusive, toEpoch exclusive; toLock: deposited into the lock, else
    # paid to the owner's wallet); amounts and veSupply in CORE units
    "RebaseCheckpoint": [
        ("id", "ID!"), ("epoch", "BigInt!"), ("amount", "BigDecimal!"), ("veSupply", "BigDecimal!"),
        ("timestamp", "BigInt!"), ("blockNumber", "BigInt!"), ("transactionHash", "String!"),
    ],
    "RebaseClaim": [
        ("id", "ID!"), ("tokenId", "BigInt!"), ("owner", "String!"), ("fromEpoch", "BigInt!"), ("toEpoch", "BigInt!"),
        ("amount", "BigDecimal!"), ("amountUSD", "BigDecimal"), ("toLock", "Boolean!"), ("timestamp", "BigInt!"),
        ("blockNumber", "BigInt!"), ("transactionHash", "String!"), ("logIndex", "BigInt!"),
    ],
}

# entity -> (singular query field, plural query field)
QUERY_FIELDS: dict[str, tuple[str, str]] = {
    "Factory": ("factory", "factories"),
    "Bundle": ("bundle", "bundles"),
    "Token": ("token", "tokens"),
    "Pool": ("pool", "pools"),
    "PoolHourData": ("poolHourData", "poolHourDatas"),
    "PoolDayData": ("poolDayData", "poolDayDatas"),
    "TokenHourData": ("tokenHourData", "tokenHourDatas"),
    "Swap": ("swap", "swaps"),
    "Gauge": ("gauge", "gauges"),
    "VeNFT": ("veNFT", "veNFTs"),
    "Vote": ("vote", "votes"),
    "Bribe": ("bribe", "bribes"),
    "Claim": ("claim", "claims"),
    "VoteEvent": ("voteEvent", "voteEvents"),
    "EscrowEvent": ("escrowEvent", "escrowEvents"),
    "GaugeEvent": ("gaugeEvent", "gaugeEvents"),
    "GaugeEpoch": ("gaugeEpoch", "gaugeEpochs"),
    "Vault": ("vault", "vaults"),
    "VaultDeposit": ("vaultDeposit", "vaultDeposits"),
    "VaultWithdrawal": ("vaultWithdrawal", "vaultWithdrawals"),
    "VaultRebalance": ("vaultRebalance", "vaultRebalances"),
    "VaultHarvest": ("vaultHarvest", "vaultHarvests"),
    "VaultHourData": ("vaultHourData", "vaultHourDatas"),
    "VaultDayData": ("vaultDayData", "vaultDayDatas"),
    "BridgeEvent": ("bridgeEvent", "bridgeEvents"),
    "XcoreEvent": ("xcoreEvent", "xcoreEvents"),
    "LiquidityPosition": ("liquidityPosition", "liquidityPositions"),
    "LiquidityEvent": ("liquidityEvent", "liquidityEvents"),
    "RebaseCheckpoint": ("rebaseCheckpoint", "rebaseCheckpoints"),
    "RebaseClaim": ("rebaseClaim", "rebaseClaims"),
}

SCALARS = {"ID", "String", "Int", "BigInt", "BigDecimal", "Boolean"}
_ORDERED = {"ID", "String", "Int", "BigInt", "BigDecimal"}


def field_kind(type_str: str) -> str:
    return type_str.rstrip("!")


def is_ref(type_str: str) -> bool:
    return field_kind(type_str) not in SCALARS


def filter_fields(entity: str) -> list[tuple[str, str]]:
    """(argument name, GraphQL input type) of the entity's filter input."""
    out: list[tuple[str, str]] = []
    for name, type_str in ENTITIES[entity]:
        kind = field_kind(type_str)
        if kind not in SCALARS:
            kind = "String"
        out.append((name, kind))
        out.append((f"{name}_not", kind))
        if kind in _ORDERED or is_ref(type_str):
            for op in ("gt", "lt", "gte", "lte"):
                out.append((f"{name}_{op}", kind))
        out.append((f"{name}_in", f"[{kind}!]"))
        out.append((f"{name}_not_in", f"[{kind}!]"))
        if kind == "String" and not is_ref(type_str):
            out.append((f"{name}_contains", "String"))
            out.append((f"{name}_starts_with", "String"))
    out.append(("and", f"[{entity}_filter]"))
    out.append(("or", f"[{entity}_filter]"))
    return out


def build_sdl() -> str:
    parts = [
        "scalar BigInt",
        "scalar BigDecimal",
        "type _Block_ { number: Int!  timestamp: Int!  hash: String  parentHash: String }",
        "type _Meta_ { block: _Block_!  deployment: String!  hasIndexingErrors: Boolean! }",
        "input Block_height { number: Int  number_gte: Int  hash: String }",
        "enum OrderDirection { asc desc }",
    ]
    for entity, fields in ENTITIES.items():
        body = "\n".join(f"  {name}: {type_str}" for name, type_str in fields)
        parts.append(f"type {entity} {{\n{body}\n}}")
        filt = "\n".join(f"  {name}: {t}" for name, t in filter_fields(entity))
        parts.append(f"input {entity}_filter {{\n{filt}\n}}")
        parts.append(f"enum {entity}_orderBy {{ {' '.join(n for n, _ in fields)} }}")
    q = ["  _meta(block: Block_height): _Meta_"]
    for entity, (one, many) in QUERY_FIELDS.items():
        q.append(f"  {one}(id: ID!, block: Block_height): {entity}")
        q.append(
            f"  {many}(skip: Int = 0, first: Int = 100, orderBy: {entity}_orderBy, "
            f"orderDirection: OrderDirection, where: {entity}_filter, block: Block_height): [{entity}!]!"
        )
    parts.append("type Query {\n" + "\n".join(q) + "\n}")
    return "\n\n".join(parts) + "\n"


# -- scalars -------------------------------------------------------------------------------------
class Units:
    """An exact token amount: raw integer and decimals, printed as an exact decimal string."""

    __slots__ = ("raw", "decimals")

    def __init__(self, raw: int, decimals: int):
        self.raw = raw
        self.decimals = decimals

    def __float__(self) -> float:
        return self.raw / 10**self.decimals

    def __str__(self) -> str:
        return format_units(self.raw, self.decimals)

    def __repr__(self) -> str:
        return f"Units({self})"


def format_units(raw: int, decimals: int) -> str:
    sign = "-" if raw < 0 else ""
    digits = str(abs(raw))
    if decimals == 0:
        return sign + digits
    digits = digits.rjust(decimals + 1, "0")
    whole, frac = digits[:-decimals], digits[-decimals:].rstrip("0")
    return f"{sign}{whole}.{frac}" if frac else f"{sign}{whole}"


def format_decimal(value) -> str:
    """BigDecimal text: exact for Units/Decimal, shortest round-trip repr for floats, no exponent."""
    if isinstance(value, float):
        text = float.__repr__(value)
        if "e" in text or "E" in text:
            text = format(Decimal(text), "f")
        if text.endswith(".0"):
            text = text[:-2]
        return text
    if isinstance(value, Decimal):
        return format(value, "f")
    return str(value)


def _parse_bigint(value):
    if isinstance(value, bool):
        raise GraphQLError("BigInt cannot represent a boolean")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        try:
            return int(value, 0) if value.lower().startswith("0x") else int(value)
        except ValueError:
            raise GraphQLError(f"Invalid BigInt: {value!r}") from None
    if isinstance(value, float) and value.is_integer():
        return int(value)
    raise GraphQLError(f"Invalid BigInt: {value!r}")


def _parse_bigint_literal(node, _variables=None):
    if isinstance(node, (IntValueNode, StringValueNode)):
        return _parse_bigint(node.value)
    raise GraphQLError("BigInt literal must be an integer or a string")


def _parse_bigdecimal(value):
    if isinstance(value, bool):
        raise GraphQLError("BigDecimal cannot represent a boolean")
    try:
        return float(value)
    except (TypeError, ValueError):
        raise GraphQLError(f"Invalid BigDecimal: {value!r}") from None


def _parse_bigdecimal_literal(node, _variables=None):
    if isinstance(node, (IntValueNode, FloatValueNode, StringValueNode)):
        return _parse_bigdecimal(node.value)
    if isinstance(node, BooleanValueNode):
        raise GraphQLError("BigDecimal cannot represent a boolean")
    raise GraphQLError("BigDecimal literal must be a number or a string")


def build() :
    schema = build_schema(build_sdl())
    big_int: GraphQLScalarType = schema.type_map["BigInt"]  # type: ignore[assignment]
    big_int.serialize = lambda v: str(v)  # type: ignore[method-assign]
    big_int.parse_value = _parse_bigint  # type: ignore[method-assign]
    big_int.parse_literal = _parse_bigint_literal  # type: ignore[method-assign]
    big_dec: GraphQLScalarType = schema.type_map["BigDecimal"]  # type: ignore[assignment]
    big_dec.serialize = format_decimal  # type: ignore[method-assign]
    big_dec.parse_value = _parse_bigdecimal  # type: ignore[method-assign]
    big_dec.parse_literal = _parse_bigdecimal_literal  # type: ignore[method-assign]
    return schema


SCHEMA = build()
