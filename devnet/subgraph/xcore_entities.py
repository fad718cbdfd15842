"""The `XcoreEvent` entity: the chain's xCORE events (devnet/sim/xcore.py). On 56 every kind
(deposit, exit, compound, distribution, and the adapter's bridgeOut/bridgeIn); on a chain with a
bridged representation only its mints (bridgeIn) and burns (bridgeOut). Visible at a block when
their timestamp is <= its timestamp, like every event entity."""
from __future__ import annotations

from devnet.subgraph.store import EventStore

_NONE: list = []


def xcore_event_store(sim) -> EventStore:
    def source() -> list:
        view = sim.xcore  # attached after the chains are built (server.build_state); none: no xCORE
        return _NONE if view is None else view.events

    return EventStore("XcoreEvent", source, lambda r: r["timestamp"], lambda r: r["id"],
                      {"kind": lambda r: r["kind"], "account": lambda r: r["account"], "guid": lambda r: r["guid"]},
                      lambda r, ctx: r, ("timestamp", "blockNumber"))


__all__ = ["xcore_event_store"]
