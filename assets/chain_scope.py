"""`ChainScope`: what every asset factory needs to build one chain's copy of its assets.

The asset keys (`chain_<id>/<name>`), UI groups and partitions of one chain; a factory closes over
the chain id, so one set of asset functions serves every chain of the chain book.
"""
from __future__ import annotations

from dataclasses import dataclass

from dagster import AssetKey, PartitionsDefinition

from ..core.chains import ChainConfig
from ..core.pipeline_names import asset_prefix, history_group, snapshot_group


@dataclass(frozen=True)
class ChainScope:
    chain: ChainConfig
    snapshot_partitions: PartitionsDefinition
    history_partitions: PartitionsDefinition

    @property
    def chain_id(self) -> int:
        return self.chain.chain_id

    @property
    def snapshot_group(self) -> str:
        return snapshot_group(self.chain_id)

    @property
    def history_group(self) -> str:
        return history_group(self.chain_id)

    def key(self, name: str) -> AssetKey:
        return AssetKey([asset_prefix(self.chain_id), name])

    def step(self, name: str) -> str:
        """The step (op) name Dagster gives the asset `name` of this chain."""
        return self.key(name).to_python_identifier()
