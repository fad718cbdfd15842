"""Vault book entries: which auto-managed liquidity vaults a chain serves.

Only `key`, `address` and `kind` are configuration (each chain's `vaults` in the chain book, see
core.chains). Everything else (strategy, pool, gauge, tokens, tick range...) is read from chain
through the vault's view methods, so a vault added to the book appears everywhere without code
changes.
"""
from __future__ import annotations

from dataclasses import dataclass

from eth_utils import is_address, to_checksum_address

KINDS = ("cl", "v2")


@dataclass(frozen=True)
class VaultConfig:
    key: str
    address: str  # EIP-55
    kind: str  # "cl" | "v2"


def parse_vaults(rows) -> list[VaultConfig]:
    """Validated `[{"key", "address", "kind"}]` entries (unique keys, EIP-55 addresses)."""
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


__all__ = ["VaultConfig", "parse_vaults", "KINDS"]
