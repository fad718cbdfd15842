"""Deterministic identifiers: contract addresses from labels, block and transaction hashes."""
from __future__ import annotations

import hashlib

from eth_utils import keccak, to_checksum_address

ZERO_ADDRESS = "0x0000000000000000000000000000000000000000"


def label_address(chain_id: int, label: str) -> str:
    """EIP-55 address: the last 20 bytes of keccak("devnet:<chain>:<label>")."""
    return to_checksum_address(keccak(text=f"devnet:{chain_id}:{label}")[-20:])


def block_hash(chain_id: int, seed: int, number: int) -> str:
    """32-byte hash whose last 8 bytes are the block number (so a hash maps back to a block)."""
    head = hashlib.blake2b(f"block:{chain_id}:{seed}:{number}".encode(), digest_size=24).hexdigest()
    return "0x" + head + number.to_bytes(8, "big").hex()


def block_number_from_hash(chain_id: int, seed: int, value: str) -> int | None:
    value = value.lower()
    if not value.startswith("0x") or len(value) != 66:
        return None
    try:
        number = int(value[-16:], 16)
    except ValueError:
        return None
    return number if block_hash(chain_id, seed, number) == value else None


def tx_hash(chain_id: int, seed: int, block: int, index: int, domain: str = "tx") -> str:
    return "0x" + hashlib.blake2b(f"{domain}:{chain_id}:{seed}:{block}:{index}".encode(),
                                  digest_size=32).hexdigest()


def user_address(chain_id: int, kind: str, index: int) -> str:
    """Lower-case address of a simulated EOA (trader, voter...)."""
    return "0x" + hashlib.blake2b(f"user:{chain_id}:{kind}:{index}".encode(), digest_size=20).hexdigest()


def system_gauge_target(chain_id: int) -> str:
    """EIP-55 address the system gauge is attached to: a system contract, not a pool."""
    return label_address(chain_id, "system:gauge-target")


def shared_label_address(label: str) -> str:
    """EIP-55 address of keccak("devnet:<label>"): one address on every chain (a wallet that
    bridges is the same key everywhere), unlike `label_address`, which is per chain."""
    return to_checksum_address(keccak(text=f"devnet:{label}")[-20:])
