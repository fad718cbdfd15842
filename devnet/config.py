"""The devnet's own settings, from DEVNET_* variables (it reads nothing of the product's)."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from devnet.params import CHAIN_PARAMS


def _env(name: str, default: str) -> str:
    value = os.environ.get(name)
    return default if value is None or value == "" else value


def _opt(kind, name: str):
    value = os.environ.get(name)
    return None if value is None or value == "" else kind(value)


CLOCK_OFFSET_ENV = "DEVNET_CLOCK_OFFSET"


def clock_offset_from_env() -> float:
    """Seconds the running clock is shifted from the wall clock (DEVNET_CLOCK_OFFSET, default 0)."""
    raw = _env(CLOCK_OFFSET_ENV, "0")
    try:
        return float(raw)
    except ValueError:
        raise ValueError(f"{CLOCK_OFFSET_ENV}={raw!r} is not a number of seconds") from None


@dataclass(frozen=True)
class DevnetConfig:
    host: str
    port: int
    seed: int
    history_days: float | None  # None: each chain's own length (params); else an override for every chain
    chains: tuple[int, ...]
    data_dir: Path  # the genesis of each chain is kept here, so a restart continues the same history
    pools: int | None = None  # grow every chain's pool table to this many (devnet/synth.py)
    tokens: int | None = None  # grow every chain's token table to this many
    # processes answering on the port (forked once the history is built, sharing it copy-on-write);
    # the control routes (faults, clock) act on the process that answers them, so tests use one
    workers: int = 1

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @classmethod
    def from_env(cls) -> "DevnetConfig":
        chains = tuple(int(c) for c in _env("DEVNET_CHAINS", ",".join(map(str, CHAIN_PARAMS))).split(",") if c)
        return cls(
            host=_env("DEVNET_HOST", "127.0.0.1"),
            port=int(_env("DEVNET_PORT", "8545")),
            seed=int(_env("DEVNET_SEED", "56")),
            history_days=_opt(float, "DEVNET_HISTORY_DAYS"),
            chains=chains,
            data_dir=Path(_env("DEVNET_DATA_DIR", ".data")).resolve(),
            pools=_opt(int, "DEVNET_POOLS"),
            tokens=_opt(int, "DEVNET_TOKENS"),
            workers=int(_env("DEVNET_WORKERS", "1")),
        )
