"""The /v1 test stack: the /v1 family alone over crafted rows of five chains (multichain_seed.py),
chain 56's RPC the test devnet's, the others unreachable; every response checked against the
served /openapi.json. The `v1` fixture (conftest.py) starts it once per session."""
from __future__ import annotations

from pathlib import Path

import httpx

from api_settings import settings_for
from curation_seed import seed_curation
from multichain_seed import seed, write_book
from support import instant
from support.api_server import ApiServer
from support.contract_check import CheckedClient
from ve_analytics.core.chains import FEATURES, load_book
from ve_analytics.core.epochs import QUARTER_HOUR
from ve_analytics.warehouse.migrate import migrate

VOTER, CL_FACTORY, MULTICALL = "0x" + "1" * 40, "0x" + "2" * 40, "0x" + "3" * 40
VAULT_FACTORY = "0x" + "4" * 40
# chain 56 without the vaults feature (its vault factory is deployed, not indexed); chain 1 without CL pools;
# chain 8453 without any pool feature (governance only)
POOL_FEATURES = ("pools", "v2Pools", "stablePools", "clPools", "clTicks")
OVERRIDES = {
    56: {"contracts": {"voter": VOTER, "clFactory": CL_FACTORY, "multicall3": MULTICALL},
         "vaultContracts": {"vaultFactory": VAULT_FACTORY},
         "features": {f: f != "vaults" for f in FEATURES}},
    1: {"contracts": {"clFactory": CL_FACTORY}, "features": {f: f not in ("clPools", "clTicks", "vaults") for f in FEATURES}},
    8453: {"features": {f: f not in POOL_FEATURES for f in FEATURES}},
}
STATES = {1: "unavailable", 56: "fresh", 4663: "fresh", 5042: "stale", 8453: "stale"}


def start_v1(warehouse_url: str, devnet_url: str, folder: Path, http: httpx.Client) -> tuple[ApiServer, CheckedClient, int, dict]:
    """The server, its client, the `latest` boundary the rows are placed at, and the seed's times."""
    overrides = {**OVERRIDES, 56: {**OVERRIDES[56], "rpcUrl": f"{devnet_url}/chains/56/rpc"}}
    chains = load_book(write_book(folder, overrides), {})
    settings = settings_for(warehouse_url, "api_v1_reference", folder, chains)
    migrate(settings)
    # the ages measured are real: the rows are placed relative to the last boundary before now
    latest = instant.AT // QUARTER_HOUR * QUARTER_HOUR
    times = seed(settings, latest)
    seed_curation(settings, latest)
    server = ApiServer(settings, log_path=folder / "api.log", families=("v1",), env=instant.frozen_env()).start()
    return server, CheckedClient(server.url, http), latest, times
