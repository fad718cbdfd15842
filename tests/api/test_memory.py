"""A worker's memory bound and its admission gate, over real HTTP on the real warehouse (the
`fresh` scenario's rows).

The server here reaches the warehouse through a proxy (support.hold_proxy) that can hold one
marked query in flight: with one computation slot and no queue, a held query fills the gate, so
a request that needs the warehouse answers 503 `overloaded` at once, while a kept answer still
answers 200 and an ETag still 304. That also shows, from outside, which answers the cache kept.
"""
from __future__ import annotations

import asyncio
import dataclasses
import threading
from typing import Any

import httpx
import pytest

from support.api_server import ApiServer
from support.hold_proxy import HoldProxy
from ve_analytics.api.admission import Gate
from ve_analytics.api.cache import ENTRY_FRACTION, ENTRY_OVERHEAD
from ve_analytics.api.errors import ApiError
from ve_analytics.api.prepared import ANSWER_OVERHEAD
from ve_analytics.core.api_limits import ApiLimits

HISTORY = "/api/stats/protocol/history?days={}"  # days >= 2: every snapshot of the scenario, distinct keys
LARGE = "/api/stats/protocol/daily?days=365"  # larger than the entry limit chosen below
WARMED = range(2, 42)  # 40 distinct history answers, oldest first


def without_generated_at(body: dict) -> dict:
    return {**body, "meta": {k: v for k, v in body["meta"].items() if k != "generatedAt"}}


@pytest.fixture(scope="module")
def sizes(fresh) -> dict[str, int]:
    """Identity body sizes on the unbounded server: one history answer, the large answer."""
    history, large = fresh.get(HISTORY.format(2)), fresh.get(LARGE)
    assert history.status_code == large.status_code == 200
    return {"history": len(history.content), "large": len(large.content)}


@pytest.fixture(scope="module")
def bounded(fresh, fresh_settings, warehouse, contract, http, sizes, tmp_path_factory):
    """The API with a cache bound whose entry limit (1/16) lies between a history answer and the
    large one, one warehouse computation at once and none waiting."""
    assert sizes["large"] > 1.5 * sizes["history"] + 4096, sizes  # the scenario leaves room between the two
    bound = ENTRY_FRACTION * (sizes["large"] - 1)
    limits = ApiLimits(cache_max_bytes=bound, warehouse_concurrency=1, warehouse_queue=0, retry_after_seconds=2)
    with HoldProxy(warehouse.port) as proxy:
        settings = dataclasses.replace(fresh_settings, clickhouse_url=proxy.url, api_limits=limits)
        server = ApiServer(settings, log_path=tmp_path_factory.mktemp("bounded") / "api.log").start()
        try:
            # conftest's Api, taken from a fixture: imported by name, `conftest` is ambiguous beside other suites'
            yield type(fresh)(server, contract, http), proxy, bound
        finally:
            server.stop()


class Held:
    """A request whose warehouse query the proxy holds: inside, the gate's only slot is taken."""

    def __init__(self, api: Any, proxy: HoldProxy, days: int):
        self.api, self.proxy, self.days = api, proxy, days
        self.response: httpx.Response | None = None

    def __enter__(self) -> "Held":
        self.proxy.hold(f"param_days={self.days}".encode())
        self.thread = threading.Thread(target=self._send, daemon=True)
        self.thread.start()
        assert self.proxy.seen.wait(30), "the held request's query never reached the warehouse"
        return self

    def _send(self) -> None:
        self.response = httpx.get(self.api.url + f"/api/stats/protocol/daily?days={self.days}", timeout=60)

    def __exit__(self, *exc: object) -> None:
        self.proxy.release()
        self.thread.join(60)
        assert self.response is not None and self.response.status_code == 200
        assert len(self.response.json()["data"]) == self.days  # one row per UTC day


def assert_overloaded(r: httpx.Response) -> None:
    assert r.status_code == 503, r.text
    assert r.headers["retry-after"] == "2"
    body = r.json()
    assert body["ok"] is False and body["error"]["code"] == "overloaded" and "retry after 2 s" in body["error"]["message"]


def test_uncached_work_past_the_gate_is_503_while_hits_and_304s_answer(bounded):
    api, proxy, _ = bounded
    cached = api.get("/api/stats/protocol")
    assert cached.status_code == 200
    etag = cached.headers["etag"]
    with Held(api, proxy, 300):
        assert_overloaded(api.get(HISTORY.format(200)))
        assert_overloaded(api.get("/api/stats/pools"))
        hit = api.get("/api/stats/protocol")
        assert hit.status_code == 200 and hit.content == cached.content  # the kept answer, byte for byte
        not_modified = api.get("/api/stats/protocol", headers={"If-None-Match": etag})
        assert not_modified.status_code == 304 and not_modified.content == b"" and not_modified.headers["etag"] == etag
    after = api.get(HISTORY.format(200))  # the gate is free again: computed now
    assert after.status_code == 200 and after.json()["data"] == api.get(HISTORY.format(201)).json()["data"]


def test_the_byte_bound_evicts_the_least_recently_used_answers(bounded, sizes):
    api, proxy, bound = bounded
    warmed = {}
    for days in WARMED:
        r = api.get(HISTORY.format(days), headers={"Accept-Encoding": "identity"})
        assert r.status_code == 200 and len(r.content) == sizes["history"]
        warmed[days] = r.content
    gzipped = api.get(HISTORY.format(WARMED[-1]), headers={"Accept-Encoding": "gzip"})  # a variant kept with it
    assert gzipped.headers["content-encoding"] == "gzip"
    with Held(api, proxy, 301):
        statuses = {}
        for days in reversed(WARMED):  # newest first: a hit makes an answer the newest again
            r = api.get(HISTORY.format(days), headers={"Accept-Encoding": "identity"})
            statuses[days] = r.status_code
            if r.status_code == 200:
                assert r.content == warmed[days]
            else:
                assert_overloaded(r)
        again = api.get(HISTORY.format(WARMED[-1]), headers={"Accept-Encoding": "gzip"})
        assert again.status_code == 200 and again.headers["content-encoding"] == "gzip"
        assert again.content == warmed[WARMED[-1]]  # httpx decodes the coding
    kept = [days for days in WARMED if statuses[days] == 200]
    assert kept == list(WARMED[-len(kept):])  # the newest ones, without a hole
    # the bound holds: what is kept fits; and no more was dropped than needed: an answer costs at
    # most 4 KB besides its body (headers, header block, key, overheads), and the memos of query
    # strings, the gzip variant and the other answers kept take less than 4 answers' room
    assert len(kept) * (sizes["history"] + ANSWER_OVERHEAD + ENTRY_OVERHEAD) <= bound
    assert len(kept) >= bound // (sizes["history"] + 4096) - 4, (len(kept), bound)


def test_an_answer_over_the_entry_limit_is_served_identically_but_not_kept(bounded, fresh, sizes):
    api, proxy, bound = bounded
    assert sizes["large"] > bound // ENTRY_FRACTION
    reference = fresh.get(LARGE).json()  # the same warehouse through a server that keeps it
    first, second = api.get(LARGE), api.get(LARGE)
    assert first.status_code == second.status_code == 200
    assert len(first.content) == sizes["large"]
    assert without_generated_at(first.json()) == without_generated_at(second.json()) == without_generated_at(reference)
    brotli_coded = api.get(LARGE, headers={"Accept-Encoding": "br"})
    assert brotli_coded.status_code == 200 and brotli_coded.headers["content-encoding"] == "br"
    assert without_generated_at(brotli_coded.json()) == without_generated_at(reference)  # httpx decodes br
    small = api.get(HISTORY.format(2))
    assert small.status_code == 200
    with Held(api, proxy, 302):
        assert_overloaded(api.get(LARGE))  # not kept: it would need the warehouse again
        assert api.get(HISTORY.format(2)).content == small.content  # under the limit: kept


def test_the_gate_admits_its_slots_then_its_queue_in_order_then_refuses():
    async def scenario() -> list[str]:
        gate = Gate(concurrency=1, queue=1, retry_after_seconds=3)
        order: list[str] = []
        holding, release = asyncio.Event(), asyncio.Event()

        async def first() -> None:
            async with gate.admit():
                order.append("first runs")
                holding.set()
                await release.wait()
            order.append("first done")

        async def second() -> None:
            async with gate.admit():
                order.append("second runs")

        tasks = [asyncio.ensure_future(first())]
        await holding.wait()
        tasks.append(asyncio.ensure_future(second()))
        while gate.waiting == 0:  # let the second reach the queue
            await asyncio.sleep(0)
        try:
            async with gate.admit():
                order.append("third runs")
        except ApiError as err:
            order.append(f"third {err.status} {err.code} retry-after {err.headers['retry-after']}")
        release.set()
        await asyncio.gather(*tasks)
        assert gate.running == gate.waiting == 0 and gate.rejected == 1
        return order

    assert asyncio.run(scenario()) == [
        "first runs", "third 503 overloaded retry-after 3", "first done", "second runs"]
