"""Both readers against the devnet: time travel, paging, retries, block_at and Multicall3."""
from __future__ import annotations

import threading

import pytest

from ve_analytics.core.epochs import HOUR
from ve_analytics.readers.chain import BlockNotFinal, ChainReadError
from ve_analytics.readers.graphql import SubgraphError


def test_meta_and_time_travel_reads(devnet, subgraph, truth):
    head = subgraph.meta()
    assert not head.has_indexing_errors
    assert head.block_number == devnet.sim().head()
    earlier = head.block_number - 1200  # one hour earlier
    assert subgraph.meta(block=earlier).block_number == earlier
    state = truth("state", block=earlier)
    pools = subgraph.paginate("pools", "type totalValueLockedUSD", block=earlier)
    assert {p["id"] for p in pools} == set(state["pools"])
    for p in pools:
        assert float(p["totalValueLockedUSD"]) == pytest.approx(state["pools"][p["id"]]["tvlUsd"], rel=1e-12)


def test_keyset_paging_returns_every_hour_row_once(subgraph, truth, genesis):
    where = {"periodStartUnix_gte": genesis, "periodStartUnix_lt": genesis + 24 * HOUR}
    small = subgraph.paginate("poolHourDatas", "periodStartUnix volumeUSD", where=where, page_size=37)
    big = subgraph.paginate("poolHourDatas", "periodStartUnix volumeUSD", where=where)
    assert len(small) == len(big) > 37 and len({r["id"] for r in small}) == len(small)
    assert small == big
    volume = sum(float(r["volumeUSD"]) for r in big)
    expected = truth("flows", **{"from": genesis, "to": genesis + 24 * HOUR})["volumeUsd"]
    assert volume == pytest.approx(expected, rel=1e-9)


def test_retries_ride_out_an_erroring_subgraph(devnet, fault):
    from ve_analytics.readers.graphql import SubgraphClient

    fault("subgraph", "error")
    calls = []
    cleared = threading.Event()

    with SubgraphClient(devnet.subgraph_url(), timeout=5, retries=30, backoff=0.02, max_backoff=0.05) as client:
        original = client._post_once

        def post_once(payload):
            calls.append(1)
            if len(calls) == 3 and not cleared.is_set():  # the upstream recovers after 3 failures
                fault("subgraph", "ok")
                cleared.set()
            return original(payload)

        client._post_once = post_once
        assert client.meta().block_number > 0
    assert cleared.is_set() and len(calls) >= 3


def test_persistent_subgraph_error_raises_subgraph_error(devnet, fault):
    from ve_analytics.readers.graphql import SubgraphClient

    fault("subgraph", "error")
    with SubgraphClient(devnet.subgraph_url(), timeout=5, retries=1, backoff=0.01) as client:
        with pytest.raises(SubgraphError) as info:
            client.meta()
    assert devnet.subgraph_url() in str(info.value) and info.value.retryable


def test_validation_errors_are_not_retried(subgraph):
    with pytest.raises(SubgraphError) as info:
        subgraph.query("{ pools { noSuchField } }")
    assert not info.value.retryable


def test_block_at_is_the_last_block_at_or_before(chain, devnet, genesis):
    sim = devnet.sim()
    head = chain.head()
    assert head.number == sim.head()
    for ts in (genesis, genesis + 1, genesis + 2, genesis + 3, genesis + 3600 + 1, head.timestamp - 1):
        b = chain.block_at(ts)
        assert b.timestamp <= ts < chain.block(b.number + 1).timestamp
        assert b.number == sim.block_at(ts)
    with pytest.raises(BlockNotFinal):
        chain.block_at(head.timestamp)  # the next block could still carry this timestamp


def test_block_at_needs_few_calls(chain, monkeypatch):
    head = chain.head()
    calls = []
    original = chain.block

    def counting(n):
        if n not in chain._timestamps:
            calls.append(n)
        return original(n)

    monkeypatch.setattr(chain, "block", counting)
    chain.block_at(head.timestamp - 7 * 3600 - 1)
    assert len(calls) <= 4


def test_multicall_decodes_and_reports_failed_subcalls_as_none(chain, truth):
    book = chain.contracts  # the devnet deployment's (readers/conftest.py)
    block = chain.head().number - 100
    state = truth("state", block=block)
    length, weekly, missing, supply = chain.multicall(
        [
            (book["voter"], "length()", (), ("uint256",)),
            (book["minter"], "weekly()", (), ("uint256",)),
            (book["voter"], "noSuchMethod(uint256)", (1,), ("uint256",)),  # reverts
            (book["votingEscrow"], "supply()", (), ("uint256",)),
        ],
        block,
    )
    assert missing is None
    assert length == state["gaugeCount"]
    assert str(weekly) == state["weeklyEmissions"] and str(supply) == state["veSupply"]
    pools = chain.multicall([(book["voter"], "pools(uint256)(address)", (i,), None) for i in range(length)], block)
    assert all(p and p.startswith("0x") and len(p) == 42 for p in pools)


def test_governance_matches_ground_truth(chain, truth):
    block = chain.head().number - 10
    state = truth("state", block=block)
    gov = chain.governance(block)
    assert gov.active_gauge_count == state["activeGaugeCount"]
    assert gov.voter_pool_count == state["gaugeCount"]
    assert str(gov.emissions_epoch_raw) == state["weeklyEmissions"]
    assert str(gov.ve_locked_raw) == state["veSupply"]
    assert str(gov.ve_voting_power_raw) == state["veVotingPower"]
    assert str(gov.ve_permanent_raw) == state["vePermanentLocked"]
    assert gov.voter_pool_count == len(chain._voter_pools)  # registry cached for the next block
    again = chain.governance(block - 1)
    assert again.voter_pool_count <= gov.voter_pool_count


def test_rpc_errors_surface_as_chain_read_errors(chain, fault):
    fault("rpc", "error")
    with pytest.raises(ChainReadError):
        chain.head()
