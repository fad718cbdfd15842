"""The API worker's memory and admission limits (a settings group of core.config's `Settings`).

- `cache_max_bytes` (API_CACHE_MAX_BYTES, default 256 MiB): every cache and memo of one API
  worker together (api/cache.py), answers, their encoded variants and header blocks, validated
  query strings, 304 header blocks, negotiations, coverages. 0 keeps nothing (single-flight
  fills still join). Production sizing: resident memory <= workers x (baseline + this bound);
  a worker's baseline is about 150 MB, and as much for its compute child (below), so 2 workers
  on a 2-core machine stay under 1.2 GB.
  An answer larger than 1/16 of the bound is served but not kept (api/cache.py).
- `warehouse_concurrency` (API_WAREHOUSE_CONCURRENCY, default 4): warehouse computations (route
  handlers run on a cache miss) one worker runs at once. On 2 cores a few overlap the
  warehouse's latency with the worker's own encoding; more only add rows held in memory.
- `warehouse_queue` (API_WAREHOUSE_QUEUE, default 32): computations waiting for one of those
  slots; past it a request is answered 503 `overloaded` with Retry-After at once rather than
  after a wait of several seconds (32 large answers at 50-200 ms each, 4 at a time).
- `retry_after_seconds` (API_RETRY_AFTER_SECONDS, default 1): the Retry-After of that 503.
- `compute_process` (API_COMPUTE_PROCESS, default 1): each worker computes uncached answers in a
  child process (api/compute_process.py), so their Python does not pause its cached answers; 0
  computes them in the worker. Sizing: a child adds about 150 MB to its worker's baseline.
- `compute_nice` (API_COMPUTE_NICE, default 10, 0..19): the child's CPU niceness; higher gives
  cached answers more of a busy core, and uncached ones less.
"""
from __future__ import annotations

from dataclasses import dataclass

from .env_values import env_number

DEFAULT_CACHE_MAX_BYTES = 256 * 2**20


@dataclass(frozen=True)
class ApiLimits:
    cache_max_bytes: int = DEFAULT_CACHE_MAX_BYTES
    warehouse_concurrency: int = 4
    warehouse_queue: int = 32
    retry_after_seconds: int = 1
    compute_process: bool = True
    compute_nice: int = 10

    @classmethod
    def from_env(cls) -> "ApiLimits":
        return cls(
            cache_max_bytes=env_number("API_CACHE_MAX_BYTES", DEFAULT_CACHE_MAX_BYTES, int, 0, 1 << 40),
            warehouse_concurrency=env_number("API_WAREHOUSE_CONCURRENCY", 4, int, 1, 1024),
            warehouse_queue=env_number("API_WAREHOUSE_QUEUE", 32, int, 0, 100_000),
            retry_after_seconds=env_number("API_RETRY_AFTER_SECONDS", 1, int, 1, 3600),
            compute_process=bool(env_number("API_COMPUTE_PROCESS", 1, int, 0, 1)),
            compute_nice=env_number("API_COMPUTE_NICE", 10, int, 0, 19),
        )

    def to_env(self) -> dict[str, str]:
        return {
            "API_CACHE_MAX_BYTES": str(self.cache_max_bytes),
            "API_WAREHOUSE_CONCURRENCY": str(self.warehouse_concurrency),
            "API_WAREHOUSE_QUEUE": str(self.warehouse_queue),
            "API_RETRY_AFTER_SECONDS": str(self.retry_after_seconds),
            "API_COMPUTE_PROCESS": str(int(self.compute_process)),
            "API_COMPUTE_NICE": str(self.compute_nice),
        }
