"""How long a chain's Dagster runs may take, and wait on their upstream (a settings group of
core.config).

Upstream requests of a run (assets.resources.ChainsResource): each times out after
UPSTREAM_TIMEOUT_SECONDS, and of a request's attempts at most UPSTREAM_TIMEOUT_ATTEMPTS may time
out (other failures keep the readers' own retries: 5 for RPC, 4 for the subgraph). A timeout
that repeats is a hung endpoint, and a third 30 s wait would only delay the verdict; the readers'
circuit breakers (readers.breaker) then fail the run's other reads of that upstream at once. So
a run against a hung chain fails in about 2 x 2 x UPSTREAM_TIMEOUT_SECONDS (RPC, then subgraph).

A run that passes its limit is canceled and marked failed by the Dagster daemon's run monitoring
(orchestration/instance.py enables it; orchestration/jobs.py tags every run of the job with
`dagster/max_runtime`). It is the backstop behind the readers' circuit breakers
(readers.breaker), which end a run on a dead upstream in minutes: whatever else holds a run (a
warehouse that stops answering, a stuck step) releases the chain's run slot and its schedule.

Defaults: a snapshot run is a 15-minute boundary (seconds) or a backfill run of
SNAPSHOT_DAYS_PER_RUN days of boundaries, well under an hour; a history run is one process for a
chain's whole history on a fresh deployment (single-run backfill), hence hours. 0: no limit.
"""
from __future__ import annotations

from dataclasses import dataclass

from .env_values import env_number

SNAPSHOT_MAX_RUNTIME_DEFAULT = 3600
HISTORY_MAX_RUNTIME_DEFAULT = 6 * 3600
UPSTREAM_TIMEOUT_DEFAULT = 30.0  # an aggregate3 of 200 reads on a busy public RPC stays well below
UPSTREAM_TIMEOUT_ATTEMPTS_DEFAULT = 2


@dataclass(frozen=True)
class RunLimits:
    snapshot_max_runtime_seconds: int = SNAPSHOT_MAX_RUNTIME_DEFAULT  # 0: no limit
    history_max_runtime_seconds: int = HISTORY_MAX_RUNTIME_DEFAULT  # 0: no limit
    upstream_timeout_seconds: float = UPSTREAM_TIMEOUT_DEFAULT
    upstream_timeout_attempts: int = UPSTREAM_TIMEOUT_ATTEMPTS_DEFAULT

    @classmethod
    def from_env(cls) -> "RunLimits":
        return cls(
            snapshot_max_runtime_seconds=env_number("SNAPSHOT_MAX_RUNTIME_SECONDS", SNAPSHOT_MAX_RUNTIME_DEFAULT, int, 0),
            history_max_runtime_seconds=env_number("HISTORY_MAX_RUNTIME_SECONDS", HISTORY_MAX_RUNTIME_DEFAULT, int, 0),
            upstream_timeout_seconds=env_number("UPSTREAM_TIMEOUT_SECONDS", UPSTREAM_TIMEOUT_DEFAULT, float, 0.1),
            upstream_timeout_attempts=env_number("UPSTREAM_TIMEOUT_ATTEMPTS", UPSTREAM_TIMEOUT_ATTEMPTS_DEFAULT, int, 1),
        )

    def to_env(self) -> dict[str, str]:
        return {
            "SNAPSHOT_MAX_RUNTIME_SECONDS": str(self.snapshot_max_runtime_seconds),
            "HISTORY_MAX_RUNTIME_SECONDS": str(self.history_max_runtime_seconds),
            "UPSTREAM_TIMEOUT_SECONDS": repr(self.upstream_timeout_seconds),
            "UPSTREAM_TIMEOUT_ATTEMPTS": str(self.upstream_timeout_attempts),
        }
