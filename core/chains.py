"""The chain book: which chains run, their upstream endpoints, contracts and vaults.

All of it is configuration: a JSON file named by `CHAIN_BOOK` (default `<VEA_DATA_DIR>/chain-book.json`,
which the local stack writes from the devnet's `/book`), so adding or repointing a chain in
production touches no code: every chain of the book gets its own assets, jobs, schedules and
checks (orchestration.definitions). Besides endpoints and contracts an entry says what the chain
supports (`features`, see FEATURES; a feature left out is unsupported), when the protocol was
deployed there (`deployedAt`: its history partitions start that day) and, optionally, how many
days of 15-minute snapshots to keep (`snapshotDays`; default 30 on chain 56, whose `/api/stats`
history defaults to 30 days, and 7 elsewhere, the longest 15-minute price-history range). Per-entry environment overrides stay available for deployments that
template one value: `SUBGRAPH_URL_<id>`, `RPC_URL_<id>`, `CHAIN_<id>_<CONTRACT>` (e.g.
`CHAIN_56_VOTER`) and `VAULTS_<id>` (a JSON file of `{key, address, kind}`).

    {"chains": [{"chainId": 56, "name": "BNB Smart Chain", "network": "bsc", "blockTimeSeconds": 3,
                 "nativeSymbol": "BNB", "subgraphUrl": "...", "rpcUrl": "...",
                 "contracts": {"voter": "0x...", "coreToken": "0x...", ...},
                 "foundationWallet": "0x...", "vaultContracts": {"vaultFactory": "0x...", ...},
                 "vaults": [{"key": "cl-wbnb-usdt", "address": "0x...", "kind": "cl"}],
                 "features": {"pools": true, "clPools": true, "gauges": true, "vaults": true, ...},
                 "bridge": {"eid": 30102, "confirmations": 20, "oapp": "0x..."},
                 "deployedAt": "2025-09-29T00:00:00Z", "snapshotDays": 30}]}
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Mapping

from .vaults import VaultConfig, parse_vaults

MULTICALL3 = "0xcA11bde05977b3631167028862bE2a173976CA11"  # the same address on every EVM chain
STATS_CHAIN_ID = 56  # the chain of the /api/stats and /api/v1 families
# What a chain can support. `pools` (indexed pools and their hour data), `v2Pools`/`stablePools`/
# `clPools` (pool kinds), `clTicks` (tick tables of CL pools), `gauges`, `gaugePools` (the Voter maps
# each gauge to its pool, or a system gauge to its target: poolForGauge), `votingEscrow`, `bribes`,
# `vaults` (auto vaults: their assets exist only on chains with this feature and configured vaults),
# `bridge` (the core token's cross-chain messages: the entry's `bridge` names its endpoint id),
# `xcore` (the escrow-share token: `contracts.xcore` names it on every chain that has it,
# `contracts.xcoreAdapter` only on its canonical chain, the one holding the backing),
# `liquidityPositions` (providers' positions read through an LpSugar: `contracts.lpSugar` names it),
# `rebases` (the veNFTs' weekly rebases paid by `contracts.rewardsDistributor`).
FEATURES = ("pools", "v2Pools", "stablePools", "clPools", "clTicks", "gauges", "gaugePools", "votingEscrow", "bribes",
            "vaults", "bridge", "xcore", "liquidityPositions", "rebases")
STATS_SNAPSHOT_DAYS = 30  # chain 56: /api/stats history defaults to 30 days of snapshots
SNAPSHOT_DAYS = 7  # every other chain: the longest 15-minute price-history range


@dataclass(frozen=True)
class BridgeConfig:
    """The chain's side of the cross-chain messaging (LayerZero-style): its endpoint id, the source
    confirmations a message sent from it waits for before it can be verified, and the core token's
    bridge application (OApp) there."""
    eid: int
    confirmations: int
    oapp: str


class ChainBookError(ValueError):
    """The chain book is missing or malformed (the message names the file and the entry)."""


@dataclass(frozen=True)
class ChainConfig:
    chain_id: int
    name: str
    network: str
    subgraph_url: str
    rpc_url: str
    block_time_seconds: int = 0
    native_symbol: str = ""
    contracts: dict[str, str] = field(default_factory=dict)  # keys: voter, coreToken, multicall3, ...
    foundation_wallet: str = ""
    vault_contracts: dict[str, str] = field(default_factory=dict)  # vaultFactory, zapper, positionManager
    vaults: tuple[VaultConfig, ...] = ()
    features: frozenset[str] = frozenset(FEATURES)
    deployed_at: int | None = None  # Unix seconds; None: unknown (history starts at the default)
    snapshot_days: int = SNAPSHOT_DAYS
    bridge: BridgeConfig | None = None

    def supports(self, feature: str) -> bool:
        if feature not in FEATURES:
            raise ValueError(f"unknown feature {feature!r}; known: {', '.join(FEATURES)}")
        return feature in self.features

    @property
    def has_vaults(self) -> bool:
        return self.supports("vaults") and bool(self.vaults)

    @property
    def has_bridge(self) -> bool:
        return self.supports("bridge") and self.bridge is not None

    @property
    def has_xcore(self) -> bool:
        return self.supports("xcore") and "xcore" in self.contracts

    @property
    def has_liquidity_positions(self) -> bool:
        return self.supports("liquidityPositions") and "lpSugar" in self.contracts

    @property
    def core_token(self) -> str:
        """The core token's address in lower case ('' when the book does not name it)."""
        return self.contracts.get("coreToken", "").lower()

    @property
    def has_rebases(self) -> bool:
        return self.supports("rebases") and {"rewardsDistributor", "votingEscrow", "coreToken"} <= set(self.contracts)

    @property
    def xcore_canonical(self) -> bool:
        """The chain holds xCORE's backing (its adapter locks the shares bridged away)."""
        return self.has_xcore and "xcoreAdapter" in self.contracts

    @property
    def finality_seconds(self) -> int:
        """How long a message sent from this chain waits for its confirmations (0 unknown)."""
        return 0 if self.bridge is None else self.bridge.confirmations * self.block_time_seconds


def _features(value: Any) -> frozenset[str]:
    """The `features` object ({name: bool}); absent means every feature (a book written before
    features existed described full deployments)."""
    if value is None:
        return frozenset(FEATURES)
    if not isinstance(value, dict):
        raise TypeError("features must be an object of booleans")
    unknown = sorted(set(value) - set(FEATURES))
    if unknown:
        raise ValueError(f"unknown feature(s) {', '.join(unknown)}; known: {', '.join(FEATURES)}")
    if not all(isinstance(v, bool) for v in value.values()):
        raise TypeError("features must be an object of booleans")
    return frozenset(name for name, on in value.items() if on)


def _bridge(value: Any) -> BridgeConfig | None:
    """The `bridge` object ({eid, confirmations, oapp}); absent: the chain has no bridge."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise TypeError("bridge must be an object")
    return BridgeConfig(eid=int(value["eid"]), confirmations=int(value["confirmations"]), oapp=str(value["oapp"]).lower())


def _time(value: Any) -> int | None:
    if value in (None, ""):
        return None
    return int(datetime.fromisoformat(str(value).replace("Z", "+00:00")).timestamp())


def _chain(entry: Any, where: str) -> ChainConfig:
    if not isinstance(entry, dict):
        raise ChainBookError(f"{where}: a chain entry must be an object")
    try:
        chain_id = int(entry["chainId"])
        contracts = {str(k): str(v) for k, v in (entry.get("contracts") or {}).items()}
        contracts.setdefault("multicall3", MULTICALL3)
        return ChainConfig(
            chain_id=chain_id,
            name=str(entry.get("name") or f"chain {chain_id}"),
            network=str(entry.get("network") or str(chain_id)),
            subgraph_url=str(entry["subgraphUrl"]),
            rpc_url=str(entry["rpcUrl"]),
            block_time_seconds=int(entry.get("blockTimeSeconds") or 0),
            native_symbol=str(entry.get("nativeSymbol") or ""),
            contracts=contracts,
            foundation_wallet=str(entry.get("foundationWallet") or ""),
            vault_contracts={str(k): str(v) for k, v in (entry.get("vaultContracts") or {}).items()},
            vaults=tuple(parse_vaults(entry.get("vaults") or [])),
            features=_features(entry.get("features")),
            deployed_at=_time(entry.get("deployedAt")),
            snapshot_days=int(entry.get("snapshotDays")
                              or (STATS_SNAPSHOT_DAYS if chain_id == STATS_CHAIN_ID else SNAPSHOT_DAYS)),
            bridge=_bridge(entry.get("bridge")),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ChainBookError(f"{where}: {exc.__class__.__name__}: {exc}") from None


def parse_book(document: Any, where: str = "chain book") -> dict[int, ChainConfig]:
    if not isinstance(document, dict) or not isinstance(document.get("chains"), list):
        raise ChainBookError(f'{where}: expected {{"chains": [...]}}')
    chains = [_chain(e, f"{where} entry {i}") for i, e in enumerate(document["chains"])]
    return {c.chain_id: c for c in chains}


def _override(chain: ChainConfig, env: Mapping[str, str]) -> ChainConfig:
    cid = chain.chain_id
    contracts = dict(chain.contracts)
    for name in contracts:
        value = env.get(f"CHAIN_{cid}_{name.upper()}")
        if value:
            contracts[name] = value
    vaults = chain.vaults
    if env.get(f"VAULTS_{cid}"):
        vaults = tuple(parse_vaults(json.loads(Path(env[f"VAULTS_{cid}"]).read_text())))
    return ChainConfig(
        **{**chain.__dict__,
           "subgraph_url": env.get(f"SUBGRAPH_URL_{cid}") or chain.subgraph_url,
           "rpc_url": env.get(f"RPC_URL_{cid}") or chain.rpc_url,
           "contracts": contracts,
           "vaults": vaults},
    )


def load_book(path: Path, env: Mapping[str, str]) -> dict[int, ChainConfig]:
    """The chains of the book at `path` with the environment's per-entry overrides; {} when the
    file does not exist (a component that needs a chain then says so, see Settings.chain)."""
    if not path.is_file():
        return {}
    try:
        document = json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise ChainBookError(f"{path}: not JSON ({exc})") from None
    return {cid: _override(chain, env) for cid, chain in parse_book(document, str(path)).items()}


__all__ = ["ChainConfig", "ChainBookError", "FEATURES", "load_book", "parse_book", "MULTICALL3", "STATS_CHAIN_ID"]
