"""Hand a test devnet's chain book to the product, as the local stack does (`GET /book`)."""
from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

from ve_analytics.cli.stack import write_devnet_book
from ve_analytics.core.chains import ChainConfig, load_book
from ve_analytics.core.config import Settings


def with_devnet_book(settings: Settings, devnet_url: str, folder: Path) -> Settings:
    """`settings` whose chain book is the devnet's, written to `<folder>/chain-book.json`."""
    path = write_devnet_book(devnet_url, Path(folder) / "chain-book.json")
    return dataclasses.replace(settings, chain_book=path, chains=load_book(path, os.environ))


EXAMPLE_VAULT = {"key": "cl-a", "address": "0x9bCabfFEeAf1365d3e1Ddc4c7f3CA283033f49E9", "kind": "cl"}
# the escrow-share token's canonical chain names the token and its adapter
EXAMPLE_XCORE = {"xcore": "0x5b38da6a701c568545dcfcb03fcb875f56beddc4", "xcoreAdapter": "0xab8483f64d9c6d1ecf9b849ae677dd3315835cb2"}
# a chain without CL pools nor vaults, deployed on a fixed day (its history partitions start there)
EXAMPLE_V2_CHAIN = {"chainId": 1, "name": "Ethereum", "network": "ethereum", "deployedAt": "2026-06-01T00:00:00Z",
                    "features": {"pools": True, "v2Pools": True, "stablePools": True, "clPools": False,
                                 "clTicks": False, "gauges": True, "gaugePools": True, "votingEscrow": True,
                                 "bribes": True, "vaults": False}}


def write_example_book(folder: Path, *extra: dict) -> Path:
    """A book of unreachable endpoints, for code that needs chains' configuration but never calls
    their upstream (loading definitions, rendering documents): chain 56 with one vault, plus the
    `extra` entries (given endpoints of their own)."""
    chains = [{"chainId": 56, "name": "BNB Smart Chain", "network": "bsc", "vaults": [EXAMPLE_VAULT],
               "contracts": EXAMPLE_XCORE}, *extra]
    for entry in chains:
        entry.setdefault("subgraphUrl", f"http://127.0.0.1:9/{entry['chainId']}/subgraph")
        entry.setdefault("rpcUrl", f"http://127.0.0.1:9/{entry['chainId']}/rpc")
    path = Path(folder) / "chain-book.json"
    path.write_text(json.dumps({"chains": chains}))
    return path


def with_example_book(settings: Settings, folder: Path, *extra: dict) -> Settings:
    path = write_example_book(folder, *extra)
    return dataclasses.replace(settings, chain_book=path, chains=load_book(path, {}))


def with_endpoints(settings: Settings, chain_id: int = 56, **urls: str) -> dict[int, ChainConfig]:
    """The settings' chains with one chain's `subgraph_url` / `rpc_url` replaced."""
    return {**settings.chains, chain_id: dataclasses.replace(settings.chain(chain_id), **urls)}
