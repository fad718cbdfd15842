"""The `BridgeEvent` entity: the chain's side of the core token's cross-chain messages (PacketSent
here as the source; PacketVerified, PacketDelivered, LzReceiveAlert, PacketBurnt here as the
destination), rows from the chain's bridge view (devnet/sim/bridge.py), visible at a block when
their timestamp is <= its timestamp."""
from __future__ import annotations

from devnet.subgraph.store import EventStore

_NONE: list = []


def bridge_event_store(sim) -> EventStore:
    def source() -> list:
        view = sim.bridge  # attached after the chain is built (server.build_state); none: no bridge
        return _NONE if view is None else view.events

    return EventStore("BridgeEvent", source, lambda r: r["timestamp"], lambda r: r["id"],
                      {"guid": lambda r: r["guid"], "kind": lambda r: r["kind"]},
                      lambda r, ctx: r, ("timestamp", "blockNumber"))


__all__ = ["bridge_event_store"]
