"""/api/stats/live/dynamic-fees: every concentrated-liquidity pool's fee and the dynamic fee
module's configuration, read from chain RPC on demand (readers.chain, Multicall3, one block),
not from a snapshot. The worker keeps a read for settings.live_cache_seconds (api/cache.py) and
concurrent misses share one read.
"""
from __future__ import annotations

import asyncio
from typing import Any

from ..errors import ApiError
from ..routes import RequestContext
from ...core.epochs import iso
from ...core import clock

LIVE_CACHE_SECONDS = 15  # s-maxage of the live route; the server-side cache is settings.live_cache_seconds
LIVE_FAILED = "live_dynamic_fees_failed"


def read_live_dynamic_fees(reader: Any, cl_factory: str, module: str) -> dict[str, Any]:
    """Blocking chain reads, all at one block: the CL factory's pools, then per pool fee() and
    the module's getFee / feeConfig / customFee through Multicall3."""
    head = reader.head()
    block = head.number
    (length,) = reader.multicall([(cl_factory, "allPoolsLength()", (), ("uint256",))], block)
    if length is None:
        raise RuntimeError("CLFactory.allPoolsLength() failed")
    addresses = reader.multicall([(cl_factory, "allPools(uint256)", (i,), ("address",)) for i in range(int(length))], block)
    if any(a is None for a in addresses):
        raise RuntimeError("CLFactory.allPools(i) failed")
    calls = []
    for pool in addresses:
        calls += [
            (pool, "fee()", (), ("uint24",)),
            (module, "getFee(address)", (pool,), ("uint24",)),
            (module, "feeConfig(address)", (pool,), ("uint24", "uint24", "uint64")),
            (module, "customFee(address)", (pool,), ("uint24",)),
        ]
    answers = reader.multicall(calls, block) if calls else []
    pools = []
    for i, pool in enumerate(addresses):
        fee, module_fee, config, custom = answers[4 * i : 4 * i + 4]
        dynamic = config is not None and any(int(v) for v in config)
        pools.append(
            {
                "address": pool.lower(),
                "feePips": fee,
                "moduleFeePips": module_fee,
                "isDynamicFee": dynamic,
                "isCustomFee": bool(custom),
                "dynamicFeeConfig": (
                    {"baseFeePips": int(config[0]), "feeCapPips": int(config[1]), "scalingFactor": int(config[2])} if dynamic else None
                ),
                "customFeePips": int(custom) if custom else None,
            }
        )
    pools.sort(key=lambda p: p["address"])
    return {
        "blockNumber": block,
        "blockTimestamp": iso(head.timestamp),
        "readAt": iso(clock.now()),
        "dynamicFeeModule": module.lower(),
        "pools": pools,
    }


async def live_dynamic_fees(ctx: RequestContext) -> dict[str, Any]:
    async def read() -> dict[str, Any]:
        contracts = ctx.settings.contracts(ctx.chain_id)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            None, read_live_dynamic_fees, ctx.chain_reader(), contracts["clFactory"], contracts["dynamicFeeModule"]
        )

    ttl = float(getattr(ctx.settings, "live_cache_seconds", LIVE_CACHE_SECONDS))
    try:
        return await ctx.app.ctx.memo.get(("stats", ctx.route.name), ttl, read)
    except Exception as exc:  # noqa: BLE001 - any chain failure is this route's documented 500
        raise ApiError(
            500, LIVE_FAILED,
            "the chain RPC read failed; /api/stats/dynamic-fees serves the latest snapshot's fees",
        ) from exc
