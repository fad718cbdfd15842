"""Where every /v1 figure of a chain starts: its anchor (`protocol.sql`: the observation at its
published snapshot, the end of its latest completed hourly bucket, the hour of its first market
activity), and its buckets summed over spans ending at or before it (`protocol_flows.sql`;
flows.py says what a span summed). Shared by the protocol, discovery and token routes.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...coverage import ChainCoverage
from ...routes import RequestContext
from ....core.epochs import DAY
from .flows import ANCHOR, span, stamp

ROLLING_WINDOWS = (("24h", DAY), ("7d", 7 * DAY))  # /v1/protocol's windows, and a discovery or token row's


@dataclass(frozen=True)
class Anchor:
    chain: ChainCoverage
    row: dict[str, Any] | None  # protocol.sql's row; None: no protocol row at the snapshot

    @property
    def end(self) -> int | None:
        return None if self.row is None else self.row["flow_end"]

    @property
    def first_hour(self) -> int | None:
        return None if self.row is None else self.row["first_hour"]

    def head(self) -> dict[str, Any]:
        """The chain's identity and what its spans rest on."""
        c = self.chain
        return {
            "chainId": c.chain_id,
            "state": c.state,
            "snapshotAt": c.snapshot.at_iso if c.snapshot else None,
            "anchor": ANCHOR,
            "anchorAt": None if self.end is None else stamp(self.end),
            "firstMarketActivityHour": None if self.first_hour is None else stamp(self.first_hour),
        }


async def anchors(ctx: RequestContext, chains: tuple[ChainCoverage, ...] | None = None) -> list[Anchor]:
    """The anchor of every covered chain (default), or of `chains` (each with a snapshot)."""
    covered = ctx.coverage
    assert covered is not None
    usable = covered.require_usable() if chains is None else chains
    rows = await ctx.rows("protocol", chain_ids=[c.chain_id for c in usable], snapshot_ats=[c.snapshot.param for c in usable])
    by_chain = {int(r["chain_id"]): r for r in rows}
    return [Anchor(c, by_chain.get(c.chain_id)) for c in (covered.chains if chains is None else chains)]


async def spans(ctx: RequestContext, wanted: list[tuple[int, int, int]]) -> list[dict[str, Any] | None]:
    """The summed buckets of each (chain, start, end) span, None where none was found."""
    if not wanted:
        return []
    rows = await ctx.rows("protocol_flows", chain_ids=[w[0] for w in wanted], starts=[w[1] for w in wanted],
                          ends=[w[2] for w in wanted])
    found = {int(r["span"]): r for r in rows}
    return [found.get(i + 1) for i in range(len(wanted))]  # arrayEnumerate counts from 1


async def trailing_windows(ctx: RequestContext, at: list[Anchor], windows: tuple[tuple[str, int], ...]) -> dict[int, list[dict]]:
    """Per anchored chain: each window [anchor - length, anchor) with what it summed."""
    anchored = [a for a in at if a.end is not None]
    wanted = [(a.chain.chain_id, a.end - seconds, a.end) for a in anchored for _, seconds in windows]
    found = iter(await spans(ctx, wanted))
    return {a.chain.chain_id: [{"label": label, **span(a.end - seconds, a.end, a.end, a.first_hour, next(found))}
                               for label, seconds in windows] for a in anchored}


def period_tops(at: list[Anchor], period: int, utc: bool) -> dict[int, int]:
    """Each anchored chain's newest period end for /history and /daily: its anchor (rolling), or
    the end of the newest calendar period any of `at` has observed into (utc: the same periods
    for every chain, the running one clipped at each chain's anchor)."""
    ends = {a.chain.chain_id: a.end for a in at if a.end is not None}
    if not utc:
        return ends
    top = max((-(-end // period) * period for end in ends.values()), default=None)
    return {cid: top for cid in ends}
