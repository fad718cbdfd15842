"""SubgraphClient against a local httpx MockTransport: paging, retries, error classification."""
from __future__ import annotations

import json
import re

import httpx
import pytest

from ve_analytics.readers.graphql import SubgraphClient, SubgraphError, graphql_literal

URL = "http://subgraph.test/graphql"


def make_client(handler, **kw) -> SubgraphClient:
    kw.setdefault("retries", 3)
    kw.setdefault("backoff", 0.001)
    return SubgraphClient(URL, transport=httpx.MockTransport(handler), **kw)


def query_of(request: httpx.Request) -> str:
    return json.loads(request.content)["query"]


def test_paginate_uses_id_gt_keyset_paging_not_skip():
    rows = [{"id": f"0x{i:040x}", "v": str(i)} for i in range(2345)]
    seen = []

    def handler(request):
        q = query_of(request)
        seen.append(q)
        last = re.search(r'id_gt: "([^"]*)"', q).group(1)
        first = int(re.search(r"first: (\d+)", q).group(1))
        assert "skip" not in q
        assert "periodStartUnix_gte: 5" in q and "block: {number: 77}" in q
        page = [r for r in rows if r["id"] > last][:first]
        return httpx.Response(200, json={"data": {"page": page}})

    client = make_client(handler)
    got = client.paginate("poolHourDatas", "v", where={"periodStartUnix_gte": 5}, block=77)
    assert got == rows
    assert len(seen) == 3  # 1000 + 1000 + 345


def test_paginate_stops_on_an_exactly_full_last_page():
    rows = [{"id": f"{i:04d}"} for i in range(20)]

    def handler(request):
        q = query_of(request)
        last = re.search(r'id_gt: "([^"]*)"', q).group(1)
        return httpx.Response(200, json={"data": {"page": [r for r in rows if r["id"] > last][:10]}})

    assert len(make_client(handler).paginate("pools", "id", page_size=10)) == 20


@pytest.mark.parametrize(
    "failure",
    [
        lambda: httpx.Response(503, text="upstream busy"),
        lambda: httpx.Response(429, text="slow down"),
        lambda: httpx.Response(200, json={"errors": [{"message": "indexing error: store busy"}]}),
        lambda: httpx.Response(200, json={"errors": [{"message": "subgraph has only indexed up to block number 9"}]}),
    ],
    ids=["http-503", "http-429", "graphql-indexing", "graphql-lagging"],
)
def test_transient_failures_are_retried_then_succeed(failure):
    calls = []

    def handler(request):
        calls.append(1)
        if len(calls) < 3:
            return failure()
        return httpx.Response(200, json={"data": {"ok": True}})

    assert make_client(handler).query("{ ok }") == {"ok": True}
    assert len(calls) == 3


def test_transport_errors_are_retried():
    calls = []

    def handler(request):
        calls.append(1)
        if len(calls) == 1:
            raise httpx.ConnectError("refused", request=request)
        if len(calls) == 2:
            raise httpx.ReadTimeout("slow", request=request)
        return httpx.Response(200, json={"data": {"ok": 1}})

    assert make_client(handler).query("{ ok }") == {"ok": 1}
    assert len(calls) == 3


def test_validation_error_fails_at_once_with_endpoint_and_message():
    calls = []

    def handler(request):
        calls.append(1)
        return httpx.Response(200, json={"errors": [{"message": 'Cannot query field "nope" on type "Pool".'}]})

    with pytest.raises(SubgraphError) as info:
        make_client(handler).query("{ pools { nope } }")
    assert len(calls) == 1
    assert info.value.endpoint == URL and not info.value.retryable
    assert URL in str(info.value) and "Cannot query field" in str(info.value)


def test_persistent_failure_gives_up_after_the_retries():
    calls = []

    def handler(request):
        calls.append(1)
        return httpx.Response(502, text="bad gateway")

    with pytest.raises(SubgraphError) as info:
        make_client(handler, retries=2).query("{ ok }")
    assert len(calls) == 3 and info.value.retryable
    assert "HTTP 502" in str(info.value) and "gave up after 3 attempts" in str(info.value)


def test_meta_reads_head_and_indexing_errors():
    def handler(request):
        assert "_meta" in query_of(request)
        return httpx.Response(200, json={"data": {"_meta": {
            "block": {"number": 123, "timestamp": 1_700_000_000, "hash": "0xab"},
            "deployment": "Qm", "hasIndexingErrors": False}}})

    meta = make_client(handler).meta()
    assert (meta.block_number, meta.block_timestamp, meta.has_indexing_errors) == (123, 1_700_000_000, False)


def test_query_passes_block_as_variable():
    def handler(request):
        body = json.loads(request.content)
        assert body["variables"] == {"block": {"number": 42}}
        return httpx.Response(200, json={"data": {"x": 1}})

    assert make_client(handler).query("query($block: Block_height) { x }", block=42) == {"x": 1}


def test_graphql_literals_escape_strings_and_reject_bad_names():
    assert graphql_literal({"id_gt": 'a"b', "n": 3, "ok": True, "in": ["x"]}) == '{id_gt: "a\\"b", n: 3, ok: true, in: ["x"]}'
    with pytest.raises(ValueError):
        graphql_literal({"bad name": 1})
