"""api/coverage.py: the chains an answer covers, their states at a given time, and the cache key
and ETag that change with any covered chain's snapshot or state."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ve_analytics.api.coverage import CHAIN_NOT_PUBLIC, Coverages, resolve
from ve_analytics.api.errors import ApiError
from ve_analytics.api.snapshots import Snapshot

PUBLIC = (1, 56, 4663, 5042, 8453)
STALE_SECONDS = 45 * 60
T0 = 1_780_000_200  # a 15-minute boundary


def snapshot(unix: int, failed_at: int | None = None) -> Snapshot:
    at = datetime.fromtimestamp(unix, tz=timezone.utc)
    failed = None if failed_at is None else datetime.fromtimestamp(failed_at, tz=timezone.utc)
    return Snapshot.from_row(at, f"run-{unix}", unix // 3, ["subgraph"], at, datetime.fromtimestamp(unix + 40, tz=timezone.utc), failed)


LATEST = {56: snapshot(T0), 4663: snapshot(T0 - 900), 8453: snapshot(T0 - 3 * 3600)}


def test_states_at_a_time_and_every_public_chain_by_default():
    cov = resolve((), PUBLIC, LATEST, T0 + 60, STALE_SECONDS)
    assert cov.chain_ids == PUBLIC
    assert {c.chain_id: c.state for c in cov.chains} == {1: "unavailable", 56: "fresh", 4663: "fresh", 5042: "unavailable", 8453: "stale"}
    assert not cov.complete and [c.chain_id for c in cov.usable()] == [56, 4663, 8453]
    assert cov.chain(56).meta() == {"chainId": 56, "state": "fresh", "snapshotAt": "2026-05-28T20:30:00Z",
                                    "indexedAt": "2026-05-28T20:30:00Z", "availableAt": "2026-05-28T20:30:40Z"}


def test_selection_is_normalized_and_complete_when_every_chain_is_fresh():
    a = resolve((4663, 56, 56), PUBLIC, LATEST, T0 + 60, STALE_SECONDS)
    b = resolve((56, 4663), PUBLIC, LATEST, T0 + 60, STALE_SECONDS)
    assert a.chain_ids == (56, 4663) and a.complete and a.key == b.key and a.etag == b.etag


def test_the_freshness_limit_is_exclusive_of_the_fresh_side():
    just_fresh = resolve((4663,), PUBLIC, LATEST, T0 - 900 + STALE_SECONDS - 1, STALE_SECONDS)
    just_stale = resolve((4663,), PUBLIC, LATEST, T0 - 900 + STALE_SECONDS, STALE_SECONDS)
    assert just_fresh.chains[0].state == "fresh" and just_stale.chains[0].state == "stale"


def test_a_chain_turning_stale_or_publishing_changes_the_key_and_etag():
    before = resolve((56, 4663), PUBLIC, LATEST, T0 + 60, STALE_SECONDS)
    later = resolve((56, 4663), PUBLIC, LATEST, T0 + 60 + STALE_SECONDS, STALE_SECONDS)  # same snapshots, now stale
    published = resolve((56, 4663), PUBLIC, {**LATEST, 4663: snapshot(T0)}, T0 + 60, STALE_SECONDS)
    assert len({before.key, later.key, published.key}) == 3
    assert len({before.etag, later.etag, published.etag}) == 3
    assert all(e.startswith('W/"cov-') and len(e) == len('W/"cov-') + 24 + 1 for e in (before.etag, later.etag))


def test_a_failed_latest_attempt_marks_the_chain_failed_until_its_snapshot_is_stale():
    latest = {**LATEST, 56: snapshot(T0, failed_at=T0 + 900)}
    failed = resolve((56, 4663), PUBLIC, latest, T0 + 960, STALE_SECONDS)
    assert failed.chain(56).state == "failed" and failed.chain(56).meta()["snapshotAt"] == "2026-05-28T20:30:00Z"
    assert not failed.complete and [c.chain_id for c in failed.usable()] == [56, 4663]
    assert failed.etag != resolve((56, 4663), PUBLIC, LATEST, T0 + 960, STALE_SECONDS).etag
    assert resolve((56,), PUBLIC, latest, T0 + STALE_SECONDS, STALE_SECONDS).chain(56).state == "stale"  # stale wins
    # the memo keeps a failed chain's coverage only until its snapshot turns stale
    memo = Coverages(PUBLIC, STALE_SECONDS)
    assert memo.get((56,), latest, 1, T0 + 960).chain(56).state == "failed"
    assert memo.get((56,), latest, 1, T0 + STALE_SECONDS).chain(56).state == "stale"


def test_a_feature_route_covers_the_chains_with_the_feature_and_refuses_the_others():
    memo = Coverages(PUBLIC, STALE_SECONDS, lambda chain_id, feature: chain_id != 8453)
    assert memo.get((), LATEST, 1, T0, "pools").chain_ids == (1, 56, 4663, 5042)
    assert memo.get((), LATEST, 1, T0).chain_ids == PUBLIC  # a route without a feature: every public chain
    with pytest.raises(ApiError) as caught:
        memo.get((56, 8453), LATEST, 1, T0, "pools")
    assert caught.value.status == 404 and caught.value.code == "feature_unsupported"
    assert caught.value.details == {"feature": "pools"} and caught.value.message.startswith("chain 8453 does not support pools")
    with pytest.raises(ApiError) as caught:  # not public comes first
        memo.get((999, 8453), LATEST, 1, T0, "pools")
    assert caught.value.code == CHAIN_NOT_PUBLIC


def test_no_usable_chain_is_503_chain_unavailable():
    cov = resolve((1, 5042), PUBLIC, LATEST, T0, STALE_SECONDS)
    with pytest.raises(ApiError) as caught:
        cov.require_usable()
    assert caught.value.status == 503 and caught.value.code == "chain_unavailable" and "1, 5042" in caught.value.message


@pytest.mark.parametrize("selected", [(999,), (56, 10), (2147483647,)])
def test_a_chain_that_is_not_public_is_404(selected):
    with pytest.raises(ApiError) as caught:
        resolve(selected, PUBLIC, LATEST, T0, STALE_SECONDS)
    assert caught.value.status == 404 and caught.value.code == CHAIN_NOT_PUBLIC
    assert "1, 56, 4663, 5042, 8453" in caught.value.message


def test_a_resolved_coverage_is_reused_until_the_pointer_moves_or_a_chain_turns_stale():
    book = Coverages(PUBLIC, STALE_SECONDS)
    first = book.get((56, 4663), LATEST, 1, T0 + 60)
    assert book.get((56, 4663), LATEST, 1, T0 + 600) is first  # same pointer version, still fresh
    # 4663's snapshot (T0 - 900) turns stale at T0 - 900 + STALE_SECONDS: resolved anew from then
    turned = book.get((56, 4663), LATEST, 1, T0 - 900 + STALE_SECONDS)
    assert turned is not first and turned.chain(4663).state == "stale" and turned.etag != first.etag
    moved = book.get((56, 4663), {**LATEST, 4663: snapshot(T0)}, 2, T0 + 600)  # a new publication
    assert moved.chain(4663).snapshot.unix == T0 and moved.complete
