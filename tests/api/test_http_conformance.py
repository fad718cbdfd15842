"""HTTP conformance of every GET route of every family and of the discovery documents: HEAD
mirrors GET (status and headers, no body), content coding as Accept-Encoding asks (q-values,
refusals, `*`, identity) above the size threshold, decoded bodies byte-identical to the identity
body, `Vary: Accept-Encoding` on 200s and 304s, the ETag rules of RFC 9110 for coded variants.

One API server serves both families (/api/stats and /api/v1) over the `fresh` scenario's
warehouse and devnet; every response with a body or a HEAD is also checked against the family's
served contract. Raw (still encoded) bodies are read with `iter_raw`, so nothing here relies on
the HTTP client's own decoding.
"""
from __future__ import annotations

import asyncio
import dataclasses
import gzip
import json
import re
import time
from email.utils import parsedate_to_datetime
from types import SimpleNamespace

import brotli
import httpx
import pytest

from support import instant
from support.api_server import ApiServer
from support.contract_check import ContractChecker
from ve_analytics.api.compression import CODINGS, MIN_SIZE, OFF_LOOP_BYTES, Encodings, parse_accept_encoding
from ve_analytics.api.cache import Cache, Store
from ve_analytics.api.prepared import Answer
from ve_analytics.api.stats.routes import FAMILY as STATS
from ve_analytics.api.vaults.routes import FAMILY as VAULTS

try:
    from compression import zstd
except ImportError:
    from backports import zstd

PATH_EXAMPLES = {"address": "0x" + "1" * 40, "pair": "usdt-wbnb", "poolId": "0x" + "a" * 40,
                 "gaugeAddress": "0x" + "1a" * 20, "epochStart": "0", "keyOrAddress": "cl-btcb-wbnb"}
DOCUMENTS = ["/api/stats/openapi.json", "/api/stats/docs", "/api/v1/openapi.json", "/api/v1/docs",
             "/.well-known/api-catalog", "/skill.json", "/skill.md"]
DECODE = {"gzip": gzip.decompress, "br": brotli.decompress, "zstd": zstd.decompress}
# what a client asks -> the coding it must get for a large body (None: identity)
ASKS = {"identity": None, "gzip": "gzip", "br": "br", "zstd": "zstd", "gzip, br": "br", "gzip, deflate, br, zstd": "br"}


def concrete(template: str) -> str:
    for name, value in PATH_EXAMPLES.items():
        template = template.replace("{" + name + "}", value)
    return template


ROUTE_PATHS = [concrete(family.full_path(route)) for family in (STATS, VAULTS) for route in family.routes]
SNAPSHOT_PATHS = [concrete(STATS.full_path(route)) for route in STATS.routes if route.snapshot]
ALL_PATHS = ROUTE_PATHS + DOCUMENTS
LARGE_CACHED = "/api/stats/protocol/history?days=365"


@pytest.fixture(scope="module")
def server(fresh_settings, fresh_data):
    settings = dataclasses.replace(fresh_settings, vault_api_rate_per_second=1000.0, vault_api_rate_burst=10_000)
    api = ApiServer(settings, log_path=fresh_settings.data_dir / "api-both.log", families=("stats", "vaults"), env=instant.frozen_env()).start()
    try:
        yield api
    finally:
        api.stop()


@pytest.fixture(scope="module")
def raw():
    """A client that sends no Accept-Encoding of its own: each test says what it asks for."""
    with httpx.Client(timeout=60) as client:
        del client.headers["accept-encoding"]
        yield client


@pytest.fixture(scope="module")
def contracts(server, raw) -> dict[str, ContractChecker]:
    return {family.prefix: ContractChecker(raw.get(server.url + family.prefix + "/openapi.json").json()) for family in (STATS, VAULTS)}


class Fetch:
    """One request; `.body` is the body as sent on the wire (encoded), `.response` its headers."""

    def __init__(self, client: httpx.Client, method: str, url: str, headers: dict[str, str]):
        with client.stream(method, url, headers=headers) as response:
            self.body = b"".join(response.iter_raw())
        self.response = response
        self.status = response.status_code
        self.headers = {k.lower(): v for k, v in response.headers.multi_items()}

    def decoded(self) -> bytes:
        coding = self.headers.get("content-encoding")
        return DECODE[coding](self.body) if coding else self.body


@pytest.fixture(scope="module")
def fetch(server, raw, contracts):
    def run(method: str, path: str, headers: dict[str, str] | None = None) -> Fetch:
        got = Fetch(raw, method, server.url + path, headers or {})
        prefix = next((p for p in contracts if path.startswith(p + "/") and path not in DOCUMENTS), None)
        if prefix is not None and (method == "HEAD" or "content-encoding" not in got.headers):
            response = got.response
            response._content = got.body  # identity or empty: what the contract validates
            contracts[prefix].check(response)
        return got

    return run


# ------------------------------------------------------------------------------ HEAD


@pytest.mark.parametrize("path", ALL_PATHS)
@pytest.mark.parametrize("ask", ["identity", "gzip, br", "zstd"])
def test_head_answers_the_status_and_headers_of_get(fetch, path, ask):
    headers = {"Accept-Encoding": ask}
    before = fetch("GET", path, headers)
    head = fetch("HEAD", path, headers)
    after = fetch("GET", path, headers)
    assert head.body == b""
    assert head.status == before.status == after.status
    assert head.headers.keys() == before.headers.keys()
    stable = before.headers["content-length"] == after.headers["content-length"]  # live reads may change
    for name, value in head.headers.items():
        if name == "date":  # when each was sent
            continue
        if name != "content-length" or stable:
            assert value == before.headers[name], (name, value, before.headers[name])
    assert int(head.headers["content-length"]) > 0
    assert len(before.body) == int(before.headers["content-length"])


@pytest.mark.parametrize("path", SNAPSHOT_PATHS + DOCUMENTS)
def test_head_with_a_matching_if_none_match_is_a_304_like_get(fetch, path):
    for ask in ("identity", "br"):
        etag = fetch("GET", path, {"Accept-Encoding": ask}).headers["etag"]
        conditional = {"Accept-Encoding": ask, "If-None-Match": etag}
        get304, head304 = fetch("GET", path, conditional), fetch("HEAD", path, conditional)
        assert get304.status == head304.status == 304
        assert get304.body == head304.body == b""
        assert without_date(get304.headers) == without_date(head304.headers)
        assert head304.headers["etag"] == etag and head304.headers["vary"] == "Accept-Encoding"
        assert "content-encoding" not in head304.headers


def without_date(headers: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in headers.items() if k != "date"}


def test_every_kind_of_response_carries_the_date_it_was_sent(fetch):
    etag = fetch("GET", "/api/stats/protocol").headers["etag"]
    answers = [
        fetch("GET", "/api/stats/protocol"),  # a cached answer
        fetch("GET", "/api/stats/protocol", {"If-None-Match": etag}),  # 304
        fetch("HEAD", "/api/stats/protocol"),
        fetch("GET", "/api/stats/protocol?bogus=1"),  # 400
        fetch("GET", "/api/stats/nope"),  # 404
        fetch("DELETE", "/api/stats/protocol"),  # 405
        fetch("OPTIONS", "/api/stats/protocol", {"Origin": "https://x.example", "Access-Control-Request-Method": "GET"}),
        fetch("GET", "/api/stats/openapi.json"),  # a discovery document
        fetch("GET", "/api/v1/vaults"),  # the vault family
        fetch("GET", "/api/stats/health"),  # no-store
    ]
    assert [a.status for a in answers] == [200, 304, 200, 400, 404, 405, 204, 200, 200, 200]
    for answer in answers:
        sent = parsedate_to_datetime(answer.headers["date"])
        assert sent.tzinfo is not None and abs(sent.timestamp() - time.time()) < 60, answer.headers["date"]


def test_the_404_names_contracts_that_are_served(fetch):
    message = json.loads(fetch("GET", "/nope").decoded())["error"]["message"]
    named = re.findall(r"/[\w/.-]*openapi\.json", message)
    assert sorted(named) == ["/api/stats/openapi.json", "/api/v1/openapi.json"]
    for path in named:
        assert fetch("GET", path).status == 200


def test_head_of_an_unknown_path_is_the_404_without_body(fetch):
    get, head = fetch("GET", "/api/stats/nope"), fetch("HEAD", "/api/stats/nope")
    assert get.status == head.status == 404 and head.body == b""
    assert head.headers["content-length"] == get.headers["content-length"] == str(len(get.body))


def test_method_not_allowed_lists_head(fetch):
    for path in ("/api/stats/protocol", "/api/v1/vaults", "/skill.json"):
        r = fetch("DELETE", path)
        assert r.status == 405 and r.headers["allow"] == "GET, HEAD, OPTIONS"


def test_preflights_vary_on_the_requested_headers_and_are_not_encoded(fetch):
    for path in ("/api/stats/protocol/history", "/api/v1/vaults"):
        r = fetch("OPTIONS", path, {"Origin": "https://x.example", "Access-Control-Request-Method": "GET", "Accept-Encoding": "gzip",
                                    "Access-Control-Request-Headers": "if-none-match"})
        assert r.status == 204 and r.body == b""
        assert r.headers["access-control-allow-methods"] == "GET, HEAD, OPTIONS"
        assert r.headers["access-control-allow-headers"] == "if-none-match"
        assert r.headers["vary"] == "Access-Control-Request-Headers" and "content-encoding" not in r.headers


# ------------------------------------------------------------------------------ coding


@pytest.mark.parametrize("header, coding, identity_refused", [
    ("gzip", "gzip", False),
    ("GZIP", "gzip", False),
    ("x-gzip", "gzip", False),
    ("br, gzip", "br", False),
    ("gzip, zstd", "zstd", False),
    ("gzip, br;q=0.5", "gzip", False),
    ("br;q=0, gzip;q=0.1", "gzip", False),
    ("gzip;q=0.001", "gzip", False),
    ("*", "br", False),
    ("*;q=0.5, gzip", "gzip", False),
    ("br;q=0, *", "zstd", False),
    ("br;q=0, zstd;q=0, *;q=0.3", "gzip", False),
    ("identity", None, False),
    ("gzip;q=0.5, identity", None, False),
    ("gzip, identity;q=0.5", "gzip", False),
    ("identity;q=0, gzip;q=0.2", "gzip", True),
    ("*;q=0", None, True),
    ("identity;q=0", None, True),
    ("deflate, compress", None, False),
    ("", None, False),
    ("gzip;q=2", None, False),  # malformed weight: the member is ignored
    ("gzip;q=abc, br", "br", False),
    (" gzip ; q=0.8 , br ; q=0.9 ", "br", False),
])
def test_accept_encoding_negotiation(header, coding, identity_refused):
    assert parse_accept_encoding(header) == (coding, identity_refused)


@pytest.mark.parametrize("ask, coding", ASKS.items())
def test_large_answers_are_encoded_as_asked_and_decode_to_the_identity_bytes(fetch, ask, coding):
    for path in (LARGE_CACHED, "/api/stats/openapi.json", "/api/v1/vaults"):
        identity = fetch("GET", path, {"Accept-Encoding": "identity"})
        assert identity.status == 200 and len(identity.body) >= MIN_SIZE and "content-encoding" not in identity.headers
        got = fetch("GET", path, {"Accept-Encoding": ask})
        assert got.status == 200
        assert got.headers.get("content-encoding") == coding
        assert got.headers["vary"] == "Accept-Encoding"
        assert int(got.headers["content-length"]) == len(got.body)
        if coding is not None:
            assert len(got.body) < len(identity.body)
        assert got.decoded() == identity.body


def test_every_route_encodes_exactly_its_bodies_above_the_threshold(fetch):
    small = large = 0
    for path in ALL_PATHS:
        identity = fetch("GET", path, {"Accept-Encoding": "identity"})
        got = fetch("GET", path, {"Accept-Encoding": "gzip"})
        assert got.headers["vary"] == "Accept-Encoding", path
        if len(identity.body) < MIN_SIZE:
            small += 1
            assert "content-encoding" not in got.headers, path
        else:
            large += 1
            assert got.headers["content-encoding"] == "gzip", path
    assert small and large  # both sides of the threshold are exercised


def test_small_bodies_are_sent_as_they_are_unless_identity_is_refused(fetch):
    r = fetch("GET", "/api/stats/protocol?bogus=1", {"Accept-Encoding": "gzip, br"})
    assert r.status == 400 and len(r.body) < MIN_SIZE
    assert "content-encoding" not in r.headers and r.headers["vary"] == "Accept-Encoding"
    refused = fetch("GET", "/api/stats/protocol?bogus=1", {"Accept-Encoding": "gzip, identity;q=0"})
    assert refused.headers["content-encoding"] == "gzip" and refused.decoded() == r.body


def test_unacceptable_codings_fall_back_to_identity(fetch):
    identity = fetch("GET", LARGE_CACHED, {"Accept-Encoding": "identity"})
    for ask in ("deflate", "br;q=0, zstd;q=0, gzip;q=0", "*;q=0"):
        r = fetch("GET", LARGE_CACHED, {"Accept-Encoding": ask})
        assert r.status == 200 and "content-encoding" not in r.headers and r.body == identity.body


def test_no_accept_encoding_is_identity_with_vary(fetch):
    r = fetch("GET", LARGE_CACHED)
    assert "content-encoding" not in r.headers and r.headers["vary"] == "Accept-Encoding"
    assert len(r.body) == int(r.headers["content-length"]) >= MIN_SIZE


# ------------------------------------------------------------------------------ ETags


@pytest.mark.parametrize("path", SNAPSHOT_PATHS)
def test_weak_snapshot_etags_are_shared_by_every_coding(fetch, path):
    tags = {fetch("GET", path, {"Accept-Encoding": ask}).headers["etag"] for ask in ("identity", *CODINGS)}
    assert len(tags) == 1 and next(iter(tags)).startswith('W/"snap-')
    tag = tags.pop()
    for ask in ("identity", *CODINGS):
        r = fetch("GET", path, {"Accept-Encoding": ask, "If-None-Match": tag})
        assert r.status == 304 and r.headers["etag"] == tag and r.headers["vary"] == "Accept-Encoding"


@pytest.mark.parametrize("path", DOCUMENTS)
def test_strong_document_etags_differ_per_coding_and_match_any(fetch, path):
    plain = fetch("GET", path, {"Accept-Encoding": "identity"})
    etag = plain.headers["etag"]
    assert etag.startswith('"')
    large = len(plain.body) >= MIN_SIZE
    tags = {None: etag}
    for coding in CODINGS:
        r = fetch("GET", path, {"Accept-Encoding": coding})
        assert r.headers.get("content-encoding") == (coding if large else None) and r.decoded() == plain.body
        tags[coding] = r.headers["etag"]
        assert tags[coding] == (f'{etag[:-1]}-{coding}"' if large else etag)
    assert len(set(tags.values())) == (len(tags) if large else 1)
    for sent in tags.values():  # the tag of any coding validates the request in any coding
        for ask, coding in (("identity", None), ("gzip", "gzip"), ("br", "br")):
            r = fetch("GET", path, {"Accept-Encoding": ask, "If-None-Match": sent})
            assert r.status == 304 and r.body == b""
            assert r.headers["etag"] == tags[coding] and r.headers["vary"] == "Accept-Encoding"
    other = fetch("GET", path, {"Accept-Encoding": "gzip", "If-None-Match": '"0000-gzip"'})
    assert other.status == 200 and other.decoded() == plain.body and other.headers["etag"] == tags["gzip"]


# ------------------------------------------------------------------------------ the memo


def test_a_stored_body_is_encoded_once_per_coding():
    store = Store()
    encodings = Encodings(store)
    body = b'{"ok":true,"data":[' + b",".join(b"%d" % i for i in range(2000)) + b"]}"
    first = encodings.encode(body, "gzip", keep=True)
    assert encodings.encode(body, "gzip", keep=True) is first  # served from the memo
    assert gzip.decompress(first) == body
    assert encodings.encode(body, "br", keep=True) is not first and len(store) == 2
    twin = bytes(bytearray(body))  # equal bytes, another object (the same answer computed by another request)
    assert twin is not body and encodings.encode(twin, "gzip", keep=True) is first and len(store) == 2
    once = b"x" * 5000
    encodings.encode(once, "gzip", keep=False)  # a no-store answer: not remembered
    assert len(store) == 2


def test_the_memo_is_bounded_by_bytes_body_and_encoding_counted():
    bodies = [bytes([65 + i]) * 4000 for i in range(40)]
    store = Store(max_bytes=16 * 4800)  # an entry (body, its encoding, key, overhead) is under 4,800 bytes
    encodings = Encodings(store)
    for body in bodies:
        encodings.encode(body, "zstd", keep=True)
    assert store.bytes <= store.max_bytes and store.evicted > 0 and len(store) >= 14
    newest = encodings.encode(bodies[-1], "zstd", keep=True)
    assert encodings.encode(bodies[-1], "zstd", keep=True) is newest
    assert store.bytes >= len(store) * (4000 + len(newest))  # each entry counts its body along with its encoding


def test_a_large_cached_answer_is_encoded_off_the_loop_once_and_kept_with_it():
    store = Store()
    cache, encodings = Cache("responses", store), Encodings(store)
    body = b'{"ok":true,"data":[' + b",".join(b'{"v":%d}' % i for i in range(20000)) + b"]}"
    assert len(body) >= OFF_LOOP_BYTES
    answer = cache.put("k", Answer(body, {"content-type": "application/json"}))
    before = store.bytes
    request = SimpleNamespace(headers={"accept-encoding": "br"})
    assert encodings.respond(request, answer, cache, "k") is None  # not encoded yet: the caller awaits the thread
    sent = asyncio.run(encodings.respond_off_loop(request, answer, cache, "k"))
    assert brotli.decompress(sent.body) == body and dict(sent.block)[b"content-encoding"] == b"br"
    again = encodings.respond(request, answer, cache, "k")  # kept with the answer, counted with it
    assert again is not None and again.body is sent.body
    assert store.bytes >= before + len(sent.body)
