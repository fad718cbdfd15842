"""The price of a token at a boundary (ADR 0011): the one implementation behind the current
prices of /v1/tokens/{chainId}/{tokenAddress}/prices and /v1/prices, and the current and reference
prices of /trailing and /price-changes.

At a boundary T, the price is the latest stored observation with a price at or before T, of either
kind (a canonical observation wins a tie with a historical valuation; canonical observations are
read at or before the chain's pinned snapshot), accepted only if T - sampledAt is at most the age
limit (`Settings.price_max_age_seconds`). Otherwise it is null with one reason, the first that
holds: `before_first_market_activity` (T is at or before the chain's first market activity),
`no_price_observation` (no observation with a price at or before T), `price_observation_too_old`.
Every boundary of a request is answered by one query (`prices_at.sql`) over the recent
observations, whatever its tokens, chains and times, and a second over the whole history only for
the boundaries the first leaves without an observation of some kind (`RECENT_SECONDS`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...coverage import ChainCoverage
from ...routes import RequestContext
from ....core.prices import BEFORE_FIRST_MARKET_ACTIVITY, NO_PRICE_OBSERVATION, PRICE_OBSERVATION_TOO_OLD
from . import observations as price_observations

TOKEN_NOT_FOUND = "token_not_found"  # 404, or a batch item's reason: not in the pinned snapshot, or blocked
INVALID_TO = "invalid_to"  # 400: a `to` boundary later than the server time
REASONS = (BEFORE_FIRST_MARKET_ACTIVITY, NO_PRICE_OBSERVATION, PRICE_OBSERVATION_TOO_OLD)


def key(chain_id: int, address: str) -> str:
    """A token as the views name it: '<chainId>:<lower-case address>'."""
    return f"{chain_id}:{address}"


@dataclass(frozen=True, slots=True)
class Boundary:
    chain_id: int
    address: str  # lower-case
    at: int  # Unix seconds


@dataclass(frozen=True, slots=True)
class PriceAt:
    """What is stored about a token's price at a boundary."""

    at: int
    listed: bool  # in its chain's pinned snapshot and not blocked by the curation
    row: dict[str, Any]  # prices_at.sql's row: p_*, c_*, h_* observations, first_activity

    @property
    def latest_canonical(self) -> dict[str, Any] | None:
        return price_observations.observation(self.row, "c_")

    @property
    def latest_historical(self) -> dict[str, Any] | None:
        return price_observations.observation(self.row, "h_")

    def current(self, max_age: int) -> tuple[dict[str, Any] | None, str | None]:
        """(the accepted observation with its `ageSeconds`, None) or (None, why there is none)."""
        row = self.row
        if row["p_source"]:
            age = self.at - int(row["p_sampled_at"])
            if age <= max_age:
                return {**price_observations.observation(row, "p_"), "ageSeconds": age}, None
        first = row["first_activity"]
        if first is not None and self.at <= int(first):
            return None, BEFORE_FIRST_MARKET_ACTIVITY
        return None, NO_PRICE_OBSERVATION if not row["p_source"] else PRICE_OBSERVATION_TOO_OLD

    def price(self, max_age: int) -> float | None:
        """The accepted price as stored (a double), for arithmetic on it."""
        found, _ = self.current(max_age)
        return None if found is None else float(self.row["p_price"])


# The observations read first: those this long before the earliest boundary. Every boundary whose
# latest priced, canonical and historical observations are all inside is answered exactly (anything
# older is older than them); the others are read again from the first observation on.
RECENT_SECONDS = 2 * 86400


async def prices_at(ctx: RequestContext, chains: list[ChainCoverage], wanted: list[Boundary]) -> list[PriceAt]:
    """The price of every wanted boundary, in order; `chains` are the boundaries' chains, each with
    its pinned snapshot. Two reads at most (RECENT_SECONDS): the whole history only for the
    boundaries that lack an observation of some kind in the recent one (a token without a price, or
    one whose valuations stopped), which is where the reason for a missing price comes from."""
    if not wanted:
        return []
    found = await _read(ctx, chains, wanted, min(b.at for b in wanted) - RECENT_SECONDS)
    again = [i for i, row in enumerate(found) if not (row["p_source"] and row["c_source"] and row["h_source"])]
    if again:
        older = await _read(ctx, chains, [wanted[i] for i in again], 0)
        for i, row in zip(again, older):
            found[i] = row
    return [PriceAt(b.at, bool(row["listed"]), row) for b, row in zip(wanted, found)]


async def _read(ctx: RequestContext, chains: list[ChainCoverage], wanted: list[Boundary], from_ts: int) -> list[dict]:
    """prices_at.sql's row of every wanted boundary, in order, from the observations sampled at or after
    from_ts (Unix seconds) up to the latest boundary."""
    rows = await ctx.rows(
        "prices_at",
        chain_ids=[c.chain_id for c in chains], pinned=[c.snapshot.unix for c in chains],
        snapshot_ats=[c.snapshot.param for c in chains], tokens=sorted({key(b.chain_id, b.address) for b in wanted}),
        curation=ctx.coverage.curation.digest, from_ts=max(from_ts, 0), to_ts=max(b.at for b in wanted),
        b_tokens=[key(b.chain_id, b.address) for b in wanted], b_ats=[b.at for b in wanted],
    )
    by_index = {int(r["b"]): r for r in rows}
    return [by_index[i + 1] for i in range(len(wanted))]
