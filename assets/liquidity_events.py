"""The `liquidity_events` asset (assets.event_history): every LiquidityEvent of the range's days as
rows of assets.rows.liquidity_events, on chains whose positions are indexed (the
`liquidityPositions` feature); the owners' activity records are derived from them (account_events)."""

from dagster import AssetsDefinition

from .account_events import LIQUIDITY
from .chain_scope import ChainScope
from .event_history import EventHistory, event_history_asset
from .rows.liquidity_events import FIELDS, liquidity_event_rows

LIQUIDITY_EVENTS = EventHistory(
    "liquidity_events", "liquidityEvents", FIELDS, liquidity_event_rows, coverage="liquidity_events",
    account_domain=LIQUIDITY,
    description="the liquidity providers' events of the days (v2 adds and removals, CL mints and burns, gauge stakes "
                "and unstakes, fee collects, emission claims) with what each moved or paid (liquidity_events).")


def build_liquidity_assets(scope: ChainScope) -> list[AssetsDefinition]:
    """The chain's liquidity events asset; none on a chain whose positions are not indexed."""
    return [event_history_asset(LIQUIDITY_EVENTS, scope)] if scope.chain.has_liquidity_positions else []
