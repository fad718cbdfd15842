"""The `xcore_events` asset (assets.event_history): every XcoreEvent of the range's days as rows of
assets.rows.xcore, only on chains whose chain book entry names the escrow-share token. Its `xcore`
coverage (api/v1/xcore) is also extended by the snapshot asset (assets.xcore_snapshots), so the
reconciliation at a snapshot has the transfers up to its block."""

from dagster import AssetsDefinition

from .account_events import XCORE
from .chain_scope import ChainScope
from .event_history import EventHistory, event_history_asset
from .rows.xcore import FIELDS, xcore_event_rows

XCORE_EVENTS = EventHistory(
    "xcore_events", "xcoreEvents", FIELDS, xcore_event_rows, coverage="xcore", account_domain=XCORE,
    description="the escrow-share token's events of the days (deposits, exits, compounds, distributions, bridge "
                "transfers) with the ratio, supply and backing after each (xcore_events).")
COVERAGE = XCORE_EVENTS.coverage


def build_xcore_assets(scope: ChainScope) -> list[AssetsDefinition]:
    """The chain's xCORE events asset; none on a chain without the token."""
    return [event_history_asset(XCORE_EVENTS, scope)] if scope.chain.has_xcore else []
