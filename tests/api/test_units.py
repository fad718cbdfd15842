"""Pure pieces of the API: parameter parsing, ETag comparison, the response cache, flow windows,
the SQL loader's parameter binding. No server needed."""
from __future__ import annotations

import sys

import pytest

from ve_analytics.api.cache import ENTRY_OVERHEAD, Cache, Store
from ve_analytics.api.prepared import Answer
from ve_analytics.api.envelope import cache_control, etag_matches
from ve_analytics.api.errors import ApiError
from ve_analytics.api.snapshots import Snapshot
from ve_analytics.api.sql import QueryBook
from ve_analytics.api.stats.flow_windows import flow_windows
from ve_analytics.api.validation import Param, ParamParser, snake

DAYS = Param("days", "integer", default=30, minimum=1, maximum=365)
PARSER = ParamParser(
    [
        DAYS,
        Param("sort", "enum", choices=("tvl", "volume24h"), default="tvl"),
        Param("incentivized", "boolean"),
        Param("token", "address"),
        Param("minTvl", "number", minimum=0),
        Param("poolId", "address", location="path"),
    ]
)


def code_of(query: str, path: dict | None = None) -> str:
    with pytest.raises(ApiError) as err:
        PARSER.parse(query, path)
    assert err.value.status == 400
    return err.value.code


def test_defaults_and_typed_values():
    assert PARSER.parse("") == {"days": 30, "sort": "tvl", "incentivized": None, "token": None, "minTvl": None}
    values = PARSER.parse("days=365&sort=volume24h&incentivized=1&token=0xABCDEF0123456789abcdef0123456789ABCDEF01&minTvl=2.5e3")
    assert values == {
        "days": 365,
        "sort": "volume24h",
        "incentivized": True,
        "token": "0xabcdef0123456789abcdef0123456789abcdef01",
        "minTvl": 2500.0,
    }
    for raw, value in (("true", True), ("1", True), ("false", False), ("0", False)):
        assert PARSER.parse(f"incentivized={raw}")["incentivized"] is value
    assert PARSER.parse("", {"poolId": "0x" + "A" * 40})["poolId"] == "0x" + "a" * 40


@pytest.mark.parametrize(
    "query",
    ["days=0", "days=366", "days=-1", "days=abc", "days=", "days", "days=1.5", "days=1e2", "days=%2B5", "days=" + "9" * 20],
)
def test_bad_days(query):
    assert code_of(query) == "invalid_days"


def test_each_kind_has_its_code():
    assert code_of("sort=TVL") == "invalid_sort"
    assert code_of("incentivized=yes") == "invalid_incentivized"
    assert code_of("token=0x123") == "invalid_token"
    assert code_of("minTvl=-1") == "invalid_min_tvl"
    assert code_of("minTvl=nan") == "invalid_min_tvl"
    assert code_of("minTvl=inf") == "invalid_min_tvl"
    assert code_of("", {"poolId": "0xnothex"}) == "invalid_pool_id"


def test_repeated_and_unknown_parameters():
    assert code_of("days=1&days=1") == "invalid_days"
    assert code_of("limit=5") == "unknown_parameter"
    assert code_of("days=5&DAYS=5") == "unknown_parameter"


def test_messages_say_what_is_accepted():
    with pytest.raises(ApiError) as err:
        PARSER.parse("days=0")
    assert err.value.message == "days must be an integer from 1 to 365 (default 30)"
    with pytest.raises(ApiError) as err:
        PARSER.parse("days=2&days=3")
    assert "at most once" in err.value.message


def test_the_published_schema_bounds_what_is_parsed():
    """Found by schemathesis: a schema-valid value must not be a 400, so an integer's implicit
    18-digit limit is published, and an epoch stops where the warehouse's time arithmetic does."""
    from ve_analytics.api.stats.governance_routes import EPOCH, EPOCH_START, VENFT_ID
    from ve_analytics.core.epochs import LAST_EPOCH_START, MAX_UNIX_TIME, WEEK

    venft = VENFT_ID.json_schema()
    assert (venft["minimum"], venft["maximum"]) == (0, 10**18 - 1)
    assert VENFT_ID.parse(str(10**18 - 1)) == 10**18 - 1
    with pytest.raises(ApiError):
        VENFT_ID.parse(str(10**18))
    assert Param("n", "integer").json_schema() == {"type": "integer", "minimum": -(10**18 - 1), "maximum": 10**18 - 1}
    assert "minimum" not in Param("x", "number").json_schema()  # a number's bound is its finiteness

    assert LAST_EPOCH_START % WEEK == 0 and LAST_EPOCH_START <= MAX_UNIX_TIME < LAST_EPOCH_START + WEEK
    for param in (EPOCH, EPOCH_START):
        assert param.json_schema()["maximum"] == LAST_EPOCH_START
        assert param.parse(str(LAST_EPOCH_START)) == LAST_EPOCH_START
        with pytest.raises(ApiError) as err:
            param.parse(str(LAST_EPOCH_START + WEEK))
        assert err.value.code == "invalid_epoch"
        assert f"from 0 to {LAST_EPOCH_START}" in err.value.message


def test_snake_case_codes():
    assert snake("poolId") == "pool_id" and snake("minTvl") == "min_tvl" and snake("days") == "days"


def test_a_bad_default_is_refused_at_declaration():
    with pytest.raises(ApiError):
        Param("days", "integer", default=0, minimum=1, maximum=365)


@pytest.mark.parametrize(
    "header, match",
    [
        ('W/"snap-2026-01-01T00:15:00Z"', True),
        ('"snap-2026-01-01T00:15:00Z"', True),  # weak comparison ignores W/
        ('"other", W/"snap-2026-01-01T00:15:00Z"', True),
        ("*", True),
        ('W/"snap-2026-01-01T00:00:00Z"', False),
        ("", False),
        (None, False),
    ],
)
def test_etag_weak_comparison(header, match):
    assert etag_matches(header, 'W/"snap-2026-01-01T00:15:00Z"') is match


def test_cache_control_values():
    assert cache_control(60) == "public, max-age=0, s-maxage=60, stale-while-revalidate=30"
    assert cache_control(300) == "public, max-age=0, s-maxage=300, stale-while-revalidate=30"
    assert cache_control(0) == "no-store"


def test_cache_is_bounded_lru_by_bytes_and_first_write_wins():
    def answer(i: int) -> Answer:
        return Answer(b"%04d" % i * 250, {})  # 1,000-byte bodies

    probe = Cache("responses", Store())
    probe.put(("r", 0, "s1"), answer(0))
    entry = probe.store.bytes  # what one such entry costs: keys ("r", i, "s1") of small ints are all alike
    assert entry == answer(0).cache_bytes() + ENTRY_OVERHEAD + sum(map(sys.getsizeof, (("r", 0, "s1"), "r", 0, "s1")))
    cache = Cache("responses", Store(max_bytes=16 * entry))  # 16 entries; one entry may hold 1/16 of the bound
    kept = [cache.put(("r", i, "s1"), answer(i)) for i in range(16)]
    assert cache.put(("r", 0, "s1"), answer(99)) is kept[0]  # concurrent misses send the same bytes
    assert cache.peek(("r", 0, "s1")) is kept[0]  # now the most recently used
    cache.put(("r", 16, "s1"), answer(16))  # past the bound: evicts 1, the least recently used
    assert cache.peek(("r", 1, "s1")) is None and cache.peek(("r", 0, "s1")) is kept[0]
    assert cache.store.bytes == 16 * entry and len(cache.store) == 16 and cache.store.evicted == 1
    disabled = Cache("responses", Store(max_bytes=0))
    assert disabled.put(("r", 0, "s1"), kept[0]) is kept[0] and disabled.peek(("r", 0, "s1")) is None


def test_flow_windows_from_the_window_end():
    windows = flow_windows("2026-03-10T14:00:00Z", {"hours24h": 24, "hours7d": 160, "hours30d": 0})
    assert windows["24h"] == {
        "from": "2026-03-09T14:00:00Z",
        "toExclusive": "2026-03-10T14:00:00Z",
        "durationSeconds": 86400,
        "anchor": "latest_completed_hour",
        "hoursCovered": 24,
        "hoursExpected": 24,
        "complete": True,
    }
    assert windows["7d"]["complete"] is False and windows["7d"]["hoursExpected"] == 168
    assert windows["30d"]["from"] == "2026-02-08T14:00:00Z"
    assert flow_windows(None, {}) == {"24h": None, "7d": None, "30d": None}


def test_snapshot_keeps_milliseconds_for_the_query_and_seconds_for_print():
    from datetime import datetime

    snap = Snapshot.from_row(datetime(2026, 3, 10, 14, 15, 0, 250000), "run", 7, ["subgraph"])
    assert snap.at_iso == "2026-03-10T14:15:00Z" and snap.param == "2026-03-10 14:15:00.250"
    assert snap.etag == 'W/"snap-2026-03-10T14:15:00Z"' and snap.unix == 1773152100


def test_query_files_declare_typed_parameters_and_say_so():
    book = QueryBook("stats")
    assert {"latest_snapshot", "health", "protocol", "protocol_history", "protocol_daily", "config_pairs"} <= set(book.queries)
    for query in book.queries.values():
        header = query.text.split("\nSELECT")[0]
        assert query.parameters or "-- No parameters." in header, f"{query.name}.sql neither takes nor disclaims parameters"
        for name in query.parameters:
            assert "{" + name + ":" in header, f"{query.name}.sql: the top comment does not name {name}"
        assert "SETTINGS" not in query.text.upper(), "the analyst user is readonly=1: no per-query settings"
    with pytest.raises(KeyError):
        book["protocol"].bind({"chain_id": 56})
    assert book["protocol_history"].bind({"chain_id": 56, "snapshot_at": "x", "days": 3, "extra": 1}) == {
        "chain_id": 56,
        "snapshot_at": "x",
        "days": 3,
    }


def test_a_family_refuses_a_path_or_a_schema_component_declared_twice():
    import dataclasses

    from ve_analytics.api.schema import components
    from ve_analytics.api.v1.routes import FAMILY

    first = FAMILY.routes[0]
    with pytest.raises(ValueError, match="paths declared twice"):
        dataclasses.replace(FAMILY, routes=(*FAMILY.routes, dataclasses.replace(first, name="another_name")))
    with pytest.raises(ValueError, match="route names declared twice"):
        dataclasses.replace(FAMILY, routes=(*FAMILY.routes, dataclasses.replace(first, path="/another-path")))
    with pytest.raises(ValueError, match=r"schema components defined twice: \['A'\]"):
        components({"A": {}, "B": {}}, {"C": {}}, {"A": {"type": "string"}})
    assert components({"A": {}}, {"B": {}}) == {"A": {}, "B": {}}
