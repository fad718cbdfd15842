"""Vault book: which auto-managed liquidity vaults exist on a chain, and the shared vault-protocol
contracts (factory, zapper, position manager).

Only `key`, `address` and `kind` are configuration. Everything else (strategy, pool, gauge,
tokens, tick range...) is read from chain through the vault's view methods, so a vault added to
the configuration appears everywhere without code changes.

The defaults describe the devnet, which places its vaults at exactly these addresses (they are
`keccak("devnet:<chain>:vault:<key>")`, the devnet's label derivation, written out here so that
the API does not import the devnet). Production overrides the book with `VAULTS_<chain>` = path
to a JSON file `[{"key": ..., "address": ..., "kind": "cl"|"v2"}, ...]`.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from eth_utils import is_address, to_checksum_address

KINDS = ("cl", "v2")


@dataclass(frozen=True)
class VaultConfig:
    key: str
    address: str  # EIP-55
    kind: str  # "cl" | "v2"


DEFAULT_VAULTS: dict[int, tuple[VaultConfig, ...]] = {
    56: (
        VaultConfig("cl-wbnb-usdt", "0x9bCabfFEeAf1365d3e1Ddc4c7f3CA283033f49E9", "cl"),
        VaultConfig("cl-btcb-wbnb", "0xeC63088aDf1b089601817501fbDcB0695Ca36E6d", "cl"),
        VaultConfig("cl-core-wbnb", "0xF08f8D7FEde9dB2fa085F8Ce64b91c8b233FdDAf", "cl"),
        VaultConfig("v2-core-wbnb", "0xFf438480e8724957F5476660FDAA599392B82BBf", "v2"),
    ),
}

# Shared vault-protocol contracts (same derivation: keccak("devnet:56:<name>")).
VAULT_CONTRACTS: dict[int, dict[str, str]] = {
    56: {
        "vaultFactory": "0x913e245B9a3086b462f2181170FC7a70bCe66966",
        "zapper": "0x16c9892BFA06f621E9Af97dC52280d052a6d99b6",
        "positionManager": "0x517170CAc819af3BfA98253c7Ba9c468175B3f79",
    },
}


def _parse(rows) -> list[VaultConfig]:
    if not isinstance(rows, list):
        raise ValueError("the vault book must be a JSON list of {key, address, kind}")
    out, seen = [], set()
    for row in rows:
        if not isinstance(row, dict):
            raise ValueError(f"vault entry must be an object: {row!r}")
        key, addr, kind = row.get("key"), row.get("address"), row.get("kind")
        if not isinstance(key, str) or not key:
            raise ValueError(f"vault entry without a key: {row!r}")
        if not isinstance(addr, str) or not is_address(addr):
            raise ValueError(f"vault {key}: invalid address {addr!r}")
        if kind not in KINDS:
            raise ValueError(f"vault {key}: kind must be one of {KINDS}")
        if key in seen:
            raise ValueError(f"duplicate vault key {key}")
        seen.add(key)
        out.append(VaultConfig(key, to_checksum_address(addr), kind))
    return out


def vaults_for(chain_id: int, env: Mapping[str, str] | None = None) -> list[VaultConfig]:
    """The chain's vaults: `VAULTS_<chain>` (a JSON file path) when set, else the default book."""
    env = os.environ if env is None else env
    path = env.get(f"VAULTS_{chain_id}")
    if path:
        return _parse(json.loads(Path(path).read_text()))
    return list(DEFAULT_VAULTS.get(chain_id, ()))


def vault_contracts(chain_id: int) -> dict[str, str]:
    """vaultFactory, zapper and positionManager addresses of a chain (empty when unknown)."""
    return dict(VAULT_CONTRACTS.get(chain_id, {}))


__all__ = ["VaultConfig", "vaults_for", "vault_contracts", "DEFAULT_VAULTS", "VAULT_CONTRACTS", "KINDS"]
