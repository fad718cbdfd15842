"""The `bridge_events` asset (assets.event_history): every BridgeEvent of the range's days as
rows of assets.rows.bridge_events, only on chains whose chain book entry has a bridge. Its
`bridge` coverage is the boundary up to which the chain's side of every message is known
(api/v1/bridge)."""

from dagster import AssetsDefinition

from .chain_scope import ChainScope
from .event_history import EventHistory, event_history_asset
from .rows.bridge_events import FIELDS, bridge_rows

BRIDGE_EVENTS = EventHistory(
    "bridge_events", "bridgeEvents", FIELDS, bridge_rows, coverage="bridge",
    description="the cross-chain packet events of the days (sent here, or verified, delivered, alerted or burnt "
                "here), one row per event (bridge_events).")


def build_bridge_assets(scope: ChainScope) -> list[AssetsDefinition]:
    """The chain's bridge events asset; none on a chain without a bridge."""
    return [event_history_asset(BRIDGE_EVENTS, scope)] if scope.chain.has_bridge else []
