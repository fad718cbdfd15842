"""A small reviewed curation publication for the /v1 test stack (v1_stack.py), built and written
by the product's own publication code over crafted indexed tokens and pools of chain 56, so the
curation and discovery routes answer (their figures are tested on the devnet in
tests/orchestration/test_v1_discovery.py and test_v1_curation.py)."""
from __future__ import annotations

from ve_analytics.assets.curation import write_publication
from ve_analytics.core.curation_publication import publication
from ve_analytics.core.curation_source import parse_source
from ve_analytics.warehouse.client import get_client

USDC, USDT, CORE, POOL = "0x" + "a1" * 20, "0x" + "a2" * 20, "0x" + "a3" * 20, "0x" + "b1" * 20
SOURCE = {
    "version": "1.0.0",
    "review": {"reviewedBy": "tests", "reviewedAt": "2026-01-01T00:00:00Z", "reference": "crafted"},
    "tags": [{"id": "stable", "name": "Stablecoin", "description": "Pegged to the US dollar"},
             {"id": "core", "name": "Core", "description": "The protocol token"}],
    "categories": [{"id": "stable", "name": "Stable pairs", "description": "Stable swaps of stablecoins",
                    "rule": {"poolTypes": ["v2-stable"], "tokenTags": ["stable"], "tokenTagMode": "all"},
                    "defaultScope": "all"}],
    "chains": {"56": {
        "tokenList": {"name": "Test tokens", "version": "1.0.0"},
        "tokens": [{"address": USDC, "status": "active", "tags": ["stable"], "displayOrder": 1},
                   {"address": USDT, "status": "active", "tags": ["stable"], "displayOrder": 2},
                   {"address": CORE, "status": "hidden", "tags": ["core"]}],
        "pools": [{"address": POOL, "status": "active", "displayOrder": 1, "featured": True}],
    }},
}


def seed_curation(settings, snapshot_at: int) -> str:
    """Publish SOURCE as validated against crafted indexed rows of chain 56; returns the digest."""
    tokens = {USDC: ("USDC", "USD Coin", 6), USDT: ("USDT", "Tether USD", 18), CORE: ("CORE", "Core", 18)}
    indexed = {56: {"snapshot_at": snapshot_at,
                    "tokens": {a: {"symbol": s, "name": n, "decimals": d} for a, (s, n, d) in tokens.items()},
                    "pools": {POOL: {"pool_type": "v2-stable", "token0": USDC, "token1": USDT}}}}
    pub = publication(parse_source(SOURCE), indexed)
    with get_client(settings) as client:
        write_publication(client, pub, snapshot_at)  # published at the crafted boundary: no wall clock
    return pub.digest
