"""The served chains: per chain its simulation parameters and its deployment (one module each)."""
from __future__ import annotations

from devnet.chains import base, bsc, ethereum, lumen, tessera
from devnet.specs import ChainParams, Deployment

_MODULES = (bsc, lumen, base, ethereum, tessera)  # 56, 4663, 8453, 1, 5042 (the default serving order)

CHAIN_PARAMS: dict[int, ChainParams] = {m.PARAMS.chain_id: m.PARAMS for m in _MODULES}
DEPLOYMENTS: dict[int, Deployment] = {m.DEPLOYMENT.chain_id: m.DEPLOYMENT for m in _MODULES}
