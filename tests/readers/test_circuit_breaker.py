"""The per-run circuit breaker on real HTTP to the devnet's fault switches: a hung or erroring
upstream trips it once, after which every read of it fails at once with one line naming the
upstream, the first cause and when; a slow upstream within the timeout and a bad query do not."""
from __future__ import annotations

import re
import threading

import httpx
import pytest

from ve_analytics.core.chains import MULTICALL3
from ve_analytics.readers.breaker import CircuitBreaker, UpstreamDown
from ve_analytics.readers.chain import ChainReader, ChainReadError
from ve_analytics.readers.jsonrpc import RpcDown
from ve_analytics.readers.graphql import SubgraphClient, SubgraphDown, SubgraphError

TIMEOUT = 0.5
LINE = re.compile(r"^chain 56 (rpc|subgraph) (\S+) (.+) at (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ); "
                  r"circuit open, not read again in this run$")


def reader(devnet, breaker: CircuitBreaker | None, **kw) -> ChainReader:
    kw = {"timeout": TIMEOUT, "retries": 5, "backoff": 0.01, "timeout_attempts": 2, **kw}
    return ChainReader(devnet.rpc_url(), 56, MULTICALL3, breaker=breaker, **kw)


def subgraph_client(devnet, breaker: CircuitBreaker | None) -> SubgraphClient:
    return SubgraphClient(devnet.subgraph_url(), timeout=TIMEOUT, retries=4, backoff=0.01,
                          timeout_attempts=2, breaker=breaker)


def held(devnet, target: str) -> int:
    faults = httpx.get(f"{devnet.url}/control/faults", timeout=5).json()["faults"]
    return sum(f.get("held", 0) for f in faults if f["target"] == target)


def test_a_hung_rpc_trips_the_breaker_after_two_timeouts_then_every_read_is_refused(devnet, fault):
    breaker = CircuitBreaker(f"chain 56 rpc {devnet.rpc_url()}")
    chain = reader(devnet, breaker)
    fault("rpc", "hung")
    with pytest.raises(RpcDown) as first:
        chain.head()
    line = str(first.value)
    m = LINE.match(line)
    assert m and m.group(1) == "rpc" and m.group(2) == devnet.rpc_url()
    assert m.group(3) == f"timed out after 2 attempts of {TIMEOUT:g} s"  # 2 of the 5 attempts: timeouts
    assert breaker.is_open and isinstance(first.value, UpstreamDown) and isinstance(first.value, ChainReadError)
    # the upstream answers again, yet this run's reader does not ask it: the same line at once
    fault("rpc", "ok")
    with pytest.raises(RpcDown) as again:
        chain.block(1)
    assert str(again.value) == line
    with pytest.raises(RpcDown):
        chain.w3.eth.get_block("latest")  # web3 on the same endpoint shares the breaker
    # a reader of a new run (a new breaker) reads it
    assert reader(devnet, CircuitBreaker("chain 56 rpc")).block(1).number == 1


def test_concurrent_reads_of_a_hung_rpc_share_one_breaker_and_one_cause(devnet, fault):
    breaker = CircuitBreaker(f"chain 56 rpc {devnet.rpc_url()}")
    chain = reader(devnet, breaker)
    fault("rpc", "hung")
    errors: list[BaseException] = []
    lock = threading.Lock()

    def read(n: int) -> None:
        try:
            chain.block(n)
        except BaseException as exc:  # noqa: BLE001 - collected and checked below
            with lock:
                errors.append(exc)

    threads = [threading.Thread(target=read, args=(n,)) for n in range(1, 9)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(errors) == 8 and all(type(e) is RpcDown for e in errors)
    assert len({str(e) for e in errors}) == 1  # the first cause only, whichever thread tripped it
    assert held(devnet, "rpc") == 0  # every held request was dropped by its client


def test_an_erroring_rpc_keeps_its_retries_then_trips(devnet, fault):
    breaker = CircuitBreaker(f"chain 56 rpc {devnet.rpc_url()}")
    chain = reader(devnet, breaker)
    fault("rpc", "error", status=503)
    with pytest.raises(RpcDown) as err:
        chain.head()
    cause = LINE.match(str(err.value)).group(3)
    assert cause.startswith("failed after 5 attempts: HTTPError('503 Server Error")  # all 5, not 2


def test_without_a_breaker_a_reader_keeps_asking(devnet, fault):
    chain = reader(devnet, None)  # the API's long-lived readers
    fault("rpc", "hung")
    with pytest.raises(ChainReadError) as err:
        chain.head()
    assert not isinstance(err.value, UpstreamDown) and "ReadTimeout" in str(err.value)
    fault("rpc", "ok")
    assert chain.block(2).number == 2


def test_a_slow_rpc_within_the_timeout_is_read(devnet, fault, truth):
    breaker = CircuitBreaker("chain 56 rpc")
    chain = reader(devnet, breaker, timeout=5.0)
    fault("rpc", "slow", delayMs=300)
    block = chain.block(3)
    assert block.timestamp == truth("state", block=3)["timestamp"] and not breaker.is_open


def test_a_hung_subgraph_trips_its_breaker_and_a_bad_query_does_not(devnet, fault):
    breaker = CircuitBreaker(f"chain 56 subgraph {devnet.subgraph_url()}")
    client = subgraph_client(devnet, breaker)
    with pytest.raises(SubgraphError) as bad:
        client.query("{ noSuchField { id } }")
    assert not isinstance(bad.value, UpstreamDown) and not breaker.is_open
    fault("subgraph", "hung")
    with pytest.raises(SubgraphDown) as first:
        client.meta()
    m = LINE.match(str(first.value))
    assert m and m.group(1) == "subgraph" and m.group(2) == devnet.subgraph_url()
    assert m.group(3) == f"timed out after 2 attempts of {TIMEOUT:g} s"
    fault("subgraph", "ok")
    with pytest.raises(SubgraphDown) as again:
        client.paginate("pools", "id")
    assert str(again.value) == str(first.value)
    assert subgraph_client(devnet, CircuitBreaker("chain 56 subgraph")).meta().block_number > 0


def test_an_erroring_subgraph_keeps_its_retries_then_trips(devnet, fault):
    client = subgraph_client(devnet, CircuitBreaker(f"chain 56 subgraph {devnet.subgraph_url()}"))
    fault("subgraph", "error", status=502)
    with pytest.raises(SubgraphDown) as err:
        client.meta()
    assert "HTTP 502" in str(err.value) and "(gave up after 5 attempts)" in str(err.value)
