"""What a multichain (/v1) answer rests on: for each chain it covers, the latest published
snapshot the worker's pointer holds and the chain's state at request time (ADR 0009).

The coverage is the multichain counterpart of one `Snapshot`: its `key` joins the response cache
key and its weak `etag` names the representation, so a new snapshot of any covered chain, or a
covered chain turning stale, makes a new answer; a cached answer never claims a freshness its
chains no longer have.
"""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from typing import Callable, Iterable

from .cache import Cache, Store, estimate
from .curation import Curation, unavailable as curation_unavailable
from .errors import ApiError
from .snapshots import Snapshot

FRESH, FAILED, STALE, UNAVAILABLE = "fresh", "failed", "stale", "unavailable"
STATES = (FRESH, FAILED, STALE, UNAVAILABLE)
WITHIN_LIMIT = (FRESH, FAILED)  # states whose snapshot is younger than the freshness limit
CHAIN_NOT_PUBLIC = "chain_not_public"
CHAIN_UNAVAILABLE = "chain_unavailable"  # 503: a route needs a chain's data and none is published
FEATURE_UNSUPPORTED = "feature_unsupported"  # 404: the chain book says the chain lacks the route's feature


@dataclass(frozen=True, slots=True)
class ChainCoverage:
    chain_id: int
    state: str  # one of STATES
    snapshot: Snapshot | None  # None: unavailable

    def meta(self) -> dict:
        """The chain's entry of `meta.chains`."""
        s = self.snapshot
        return {
            "chainId": self.chain_id,
            "state": self.state,
            "snapshotAt": s.at_iso if s else None,
            "indexedAt": s.indexed_at if s else None,
            "availableAt": s.available_at if s else None,
        }


@dataclass(frozen=True, slots=True)
class Coverage:
    chains: tuple[ChainCoverage, ...]  # by chain id
    key: tuple  # ((chain id, snapshotAt or None, state), ..., [curation digest]): the cache key's part
    etag: str
    curation: Curation | None = None  # the curation publication, on routes that need one

    def cache_bytes(self) -> int:
        """What keeping it costs (api/cache.py): its chains, key and ETag. The curation
        publication is the pointer's, shared by every coverage, so not counted here."""
        return estimate((self.chains, self.key, self.etag)) + 64

    @property
    def complete(self) -> bool:
        return all(c.state == FRESH for c in self.chains)

    @property
    def chain_ids(self) -> tuple[int, ...]:
        return tuple(c.chain_id for c in self.chains)

    def chain(self, chain_id: int) -> ChainCoverage:
        return next(c for c in self.chains if c.chain_id == chain_id)

    def usable(self) -> tuple[ChainCoverage, ...]:
        """The covered chains with a published snapshot (fresh, failed or stale)."""
        return tuple(c for c in self.chains if c.snapshot is not None)

    def require_usable(self) -> tuple[ChainCoverage, ...]:
        """`usable()`, or 503 `chain_unavailable` when no covered chain has a published snapshot."""
        usable = self.usable()
        if not usable:
            ids = ", ".join(str(c) for c in self.chain_ids)
            raise ApiError(503, CHAIN_UNAVAILABLE, f"no published snapshot yet for chain {ids}; retry after the next "
                           "15-minute snapshot, or select other chains (GET /v1/chains)")
        return usable


def not_public(chain_ids: Iterable[int], public: Iterable[int]) -> ApiError:
    missing = ", ".join(str(c) for c in chain_ids)
    known = ", ".join(str(c) for c in sorted(public))
    return ApiError(404, CHAIN_NOT_PUBLIC, f"chain {missing} is not a public chain of this API; public chains: {known}")


def unsupported(chain_ids: Iterable[int], feature: str, serving: Iterable[int]) -> ApiError:
    lacking = ", ".join(str(c) for c in chain_ids)
    having = ", ".join(str(c) for c in sorted(serving)) or "none"
    return ApiError(404, FEATURE_UNSUPPORTED, f"chain {lacking} does not support {feature} (GET /v1/chains lists each "
                    f"chain's features); chains with {feature}: {having}", details={"feature": feature})


def resolve(selected: Iterable[int], public: tuple[int, ...], latest: dict[int, Snapshot], now: float,
            stale_seconds: float, feature: str | None = None, serving: tuple[int, ...] = (),
            curation: Curation | None = None, needs_curation: bool = False,
            valued: dict[int, str] | None = None) -> Coverage:
    """The coverage of `selected` chain ids (empty: every public chain), from the pointer's
    `latest` snapshots at time `now`; 404 `chain_not_public` for an id outside `public`. A route
    of a `feature` covers the `serving` chains (those that support it) by default, and answers
    404 `feature_unsupported` for a selected chain outside them. A route that `needs_curation`
    rests on the `curation` publication too (503 `curation_unavailable` without one); one given
    `valued` (chain -> when its price evidence last changed) on those too."""
    chosen = tuple(sorted(set(selected))) or tuple(sorted(serving if feature else public))
    unknown = [c for c in chosen if c not in public]
    if unknown:
        raise not_public(unknown, public)
    lacking = [c for c in chosen if feature and c not in serving]
    if lacking:
        raise unsupported(lacking, feature, serving)
    chains = []
    for chain_id in chosen:
        snapshot = latest.get(chain_id)
        if snapshot is None:
            state = UNAVAILABLE
        elif now - snapshot.unix >= stale_seconds:
            state = STALE
        else:  # a failed latest attempt: the answer rests on the snapshot before it, and says so
            state = FAILED if snapshot.failed_at else FRESH
        chains.append(ChainCoverage(chain_id, state, snapshot))
    key = tuple((c.chain_id, c.snapshot.at_iso if c.snapshot else None, c.state) for c in chains)
    if needs_curation:
        if curation is None:
            raise curation_unavailable()
        key += (curation.digest,)
    if valued is not None:
        key += (tuple((c.chain_id, valued.get(c.chain_id)) for c in chains),)
    digest = hashlib.blake2s(repr(key).encode(), digest_size=12).hexdigest()
    return Coverage(tuple(chains), key, f'W/"cov-{digest}"', curation if needs_curation else None)


class Coverages:
    """Per worker: the coverages resolved so far, each reused until the pointer's snapshots change
    (its `version`) or the first of its fresh chains turns stale, so a cache hit on a multichain
    route costs a lookup, as a single-chain one does. Kept in the worker's byte-bounded store
    (api/cache.py)."""

    def __init__(self, public: Iterable[int], stale_seconds: float,
                 supports: Callable[[int, str], bool] = lambda chain_id, feature: True, store: Store | None = None):
        self.public = tuple(sorted(public))
        self.stale_seconds = stale_seconds
        self.supports = supports  # the chain book's features
        self._memo = Cache("coverages", store)  # (selected, feature, curation?, version) -> (coverage, valid until)

    def get(self, selected: tuple[int, ...], latest: dict[int, Snapshot], version: int, now: float,
            feature: str | None = None, curation: Curation | None = None, needs_curation: bool = False,
            valued: dict[int, str] | None = None) -> Coverage:
        key = (selected, feature, needs_curation, valued is not None, version)
        hit = self._memo.peek(key)
        if hit is not None and now < hit[1]:
            return hit[0]
        serving = tuple(c for c in self.public if self.supports(c, feature)) if feature else ()
        found = resolve(selected, self.public, latest, now, self.stale_seconds, feature, serving, curation, needs_curation,
                        valued)
        until = min((c.snapshot.unix + self.stale_seconds for c in found.chains if c.state in WITHIN_LIMIT and c.snapshot),
                    default=math.inf)
        self._memo.set(key, (found, until))  # in place of an outdated one
        return found
