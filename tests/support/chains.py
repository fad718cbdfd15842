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


def write_example_book(folder: Path) -> Path:
    """A one-chain book of unreachable endpoints, for code that needs a chain's configuration but
    never calls its upstream (loading definitions, rendering documents)."""
    path = Path(folder) / "chain-book.json"
    path.write_text(json.dumps({"chains": [{"chainId": 56, "name": "BNB Smart Chain", "network": "bsc",
                                            "subgraphUrl": "http://127.0.0.1:9/subgraph",
                                            "rpcUrl": "http://127.0.0.1:9/rpc"}]}))
    return path


def with_example_book(settings: Settings, folder: Path) -> Settings:
    path = write_example_book(folder)
    return dataclasses.replace(settings, chain_book=path, chains=load_book(path, {}))


def with_endpoints(settings: Settings, chain_id: int = 56, **urls: str) -> dict[int, ChainConfig]:
    """The settings' chains with one chain's `subgraph_url` / `rpc_url` replaced."""
    return {**settings.chains, chain_id: dataclasses.replace(settings.chain(chain_id), **urls)}
