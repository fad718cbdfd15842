"""/v1/tokens/{chainId}/{tokenAddress}, its /prices, /trailing and /price-changes, and /v1/prices, over
a crafted stack of their own (a database, a curation publication and an API server of this module):
published snapshots and hourly valuations of chain 56 placed around a fixed past boundary LATEST
(no wall clock: every `to` is explicit and in the past), a second chain (4663) for the batch, a
public chain without any snapshot (1) and one without pools (8453).

The expected prices are computed here, in plain Python, from the crafted inputs (`price_at`: the
latest observation with a price at or before a boundary, a canonical one winning a tie, within the
age limit, else the reason), and the edge cases are spelled out as numbers: an observation exactly
at a window's boundary counts and one a second after it does not, exactly the age limit is
accepted and a second more is not, a null price newer than a price, a zero reference, the chain's
first market activity. Every response is checked against the served /openapi.json."""
from __future__ import annotations

import dataclasses
from datetime import datetime
from decimal import ROUND_DOWN, Context, Decimal

import pytest

from api_settings import settings_for
from multichain_seed import COVERAGE_COLUMNS, cov, ts, write_book
from price_seed import SNAPSHOT_COLUMNS, Valuation, first_market_activity, mark_valued, publish_snapshot, write_valuations
from support import instant
from support.api_server import ApiServer
from support.contract_check import CheckedClient
from ve_analytics.assets.curation import write_publication
from ve_analytics.core.chains import FEATURES, load_book
from ve_analytics.core.curation_publication import publication
from ve_analytics.core.curation_source import parse_source
from ve_analytics.core.epochs import DAY, HOUR, iso
from ve_analytics.warehouse.client import get_client
from ve_analytics.warehouse.migrate import migrate

LATEST = 1768478400  # 2026-01-15T12:00:00Z: chain 56's published snapshot, on the hour
MAX_AGE = 3600
FIRST = LATEST - 10 * DAY + 420  # chain 56's first market activity
FIRST_HOUR = FIRST - FIRST % HOUR
G = LATEST - 2 * DAY  # A's last price before three valued hours without one
Q = LATEST - 3 * DAY  # A's zero valuation
CANONICAL, HISTORICAL = "canonical-observation", "historical-valuation"


def address(pair: str) -> str:
    return "0x" + pair * 20


A, B, X, U, Z, N, C = (address(p) for p in ("a1", "b2", "c3", "d4", "e5", "f6", "17"))  # C is chain 4663's
POOL = address("28")

# A's valuations by closing boundary: a slow ramp, and the cases under test
SPECIAL = {LATEST: 10.5, LATEST - HOUR: 9.0, LATEST - DAY: 8.0, LATEST - DAY - HOUR: 6.0, G: 5.0, G + HOUR: None,
           G + 2 * HOUR: None, G + 3 * HOUR: None, G + 4 * HOUR: 5.5, Q: 0.0}
A_HISTORICAL = {b: SPECIAL[b] if b in SPECIAL else 1 + (b - FIRST_HOUR) // HOUR / 100
                for b in range(FIRST_HOUR + HOUR, LATEST + 1, HOUR)}
A_VOLUME = {b: float(1 + (b // HOUR) % 7) for b in A_HISTORICAL}  # by closing boundary
A_CANONICAL = {LATEST: 10.0, LATEST - 900: 9.5}
U_HISTORICAL = {b: 0.5 for b in range(LATEST - 23 * HOUR, LATEST + 1, HOUR)}  # the last 24 hours only
PINNED = {A: 10.0, B: 4.0, X: 7.0, U: 0.5, Z: None}  # chain 56's published snapshot
TVL = {A: 1000.5, B: 20.0, X: 70.0, U: 5.25, Z: None}
POOL_VOLUME = {h: 100.0 + k for k, h in enumerate(range(LATEST - DAY, LATEST, HOUR))}  # POOL (A/U), by hour start
HISTORY = {A: (A_CANONICAL, A_HISTORICAL), Z: ({LATEST: None, LATEST - 900: 2.0}, {}), B: ({LATEST: 4.0}, {}),
           U: ({LATEST: 0.5}, U_HISTORICAL)}

SOURCE = {
    "version": "1.0.0",
    "review": {"reviewedBy": "tests", "reviewedAt": "2026-01-01T00:00:00Z", "reference": "crafted"},
    "tags": [{"id": "stable", "name": "Stablecoin", "description": "Pegged to the US dollar"}],
    "categories": [],
    "chains": {"56": {
        "tokenList": {"name": "Price test tokens", "version": "1.0.0"},
        "tokens": [{"address": A, "status": "active", "tags": ["stable"], "displayOrder": 1},
                   {"address": B, "status": "hidden"}, {"address": X, "status": "blocked"},
                   {"address": Z, "status": "deprecated"}],
        "pools": [],
    }},
}
NO_POOLS = {f: f not in ("pools", "v2Pools", "stablePools", "clPools", "clTicks") for f in FEATURES}


def seed(settings) -> None:
    client = get_client(settings)
    rows = [[56, ts(LATEST), t, f"T{t[2:6]}", f"Token {t[2:6]}", 18, p, None, TVL[t], 1] for t, p in PINNED.items()]
    client.insert("token_snap15m", rows, column_names=SNAPSHOT_COLUMNS)
    publish_snapshot(client, 56, LATEST, {})  # its run
    publish_snapshot(client, 56, LATEST - 900, {A: 9.5, Z: 2.0, N: 3.0})
    publish_snapshot(client, 56, LATEST - 900, {}, run_id="rerun")  # published twice: revision 2
    publish_snapshot(client, 56, LATEST - 1800, {A: 99.0}, status="failed")  # never published: not an observation
    write_valuations(client, 56, [Valuation(A, b - HOUR, p, revision=2 if b == LATEST - DAY else 1, volume=A_VOLUME[b])
                                  for b, p in A_HISTORICAL.items()], read_block=7)
    write_valuations(client, 56, [Valuation(U, b - HOUR, p, volume=2.0) for b, p in U_HISTORICAL.items()])
    write_valuations(client, 56, [Valuation(B, LATEST + HOUR, 1.0)])  # an hour not valued yet: not an observation
    mark_valued(client, 56, FIRST_HOUR, LATEST)
    first_market_activity(client, 56, FIRST, LATEST)
    # the anchor (its protocol row), 10 days of protocol buckets, and a pool of A and U with 24 hours of volume
    client.insert("protocol_snap15m", [[56, ts(LATEST), LATEST // 3, ts(LATEST), 1.0, 1, ts(LATEST), ts(LATEST - DAY)]],
                  column_names=["chain_id", "snapshot_at", "block_number", "block_timestamp", "tvl_usd", "pool_count",
                                "flow_window_end", "epoch_start"])
    client.insert("protocol_hourly", [[56, ts(h), 1.0, 0.1, 1] for h in range(FIRST_HOUR, LATEST, HOUR)],
                  column_names=["chain_id", "hour_start", "volume_usd", "fees_usd", "pool_count"])
    client.insert("pool_snap15m", [[56, ts(LATEST), POOL, "v2-volatile", A, U, "Ta1a1", "Td4d4", 3000, False, 1.0, 1.0,
                                    10.0, None, None, 0, None, None]],
                  column_names=["chain_id", "snapshot_at", "pool_address", "pool_type", "token0_address",
                                "token1_address", "token0_symbol", "token1_symbol", "fee_pips", "is_dynamic_fee",
                                "reserve0", "reserve1", "tvl_usd", "volume_24h_usd", "fees_24h_usd", "hours_24h",
                                "gauge_address", "gauge_alive"])
    client.insert("pool_hourly", [[56, POOL, ts(h), v, v / 100, None, 1] for h, v in POOL_VOLUME.items()],
                  column_names=["chain_id", "pool_address", "hour_start", "volume_usd", "fees_usd", "tvl_usd_close",
                                "tx_count"])
    publish_snapshot(client, 4663, LATEST - 900, {C: 3.0})
    client.insert("chain_coverage", [cov(4663, "snapshots", LATEST - 900, LATEST - 900)], column_names=COVERAGE_COLUMNS)
    indexed = {56: {"snapshot_at": LATEST, "tokens": {t: {"symbol": f"T{t[2:6]}", "name": f"Token {t[2:6]}", "decimals": 18}
                                                      for t in PINNED}, "pools": {}}}
    write_publication(client, publication(parse_source(SOURCE), indexed), LATEST)
    client.close()


@pytest.fixture(scope="module")
def api(warehouse, http, tmp_path_factory):
    folder = tmp_path_factory.mktemp("v1-token-prices")
    chains = load_book(write_book(folder, {8453: {"features": NO_POOLS}}), {})
    settings = dataclasses.replace(settings_for(warehouse.url, "api_v1_token_prices", folder, chains),
                                   price_max_age_seconds=MAX_AGE)
    migrate(settings)
    seed(settings)
    with ApiServer(settings, log_path=folder / "api.log", families=("v1",), env=instant.frozen_env()) as server:
        yield CheckedClient(server.url, http)


# ------------------------------------------------------------------------------ the expectations


def price_at(token: str, at: int) -> tuple[float | None, str | None, int | None, str | None]:
    """(price, source, sampledAt, reason) of `token` at boundary `at`, per ADR 0011."""
    canonical, historical = HISTORY[token]
    priced = [(t, 1, p, CANONICAL) for t, p in canonical.items() if p is not None and t <= at and t <= LATEST]
    priced += [(t, 0, p, HISTORICAL) for t, p in historical.items() if p is not None and t <= at]
    if priced:
        t, _, p, source = max(priced)
        if at - t <= MAX_AGE:
            return p, source, t, None
    if at <= FIRST:
        return None, None, None, "before_first_market_activity"
    return None, None, None, "price_observation_too_old" if priced else "no_price_observation"


def unix(text: str) -> int:
    return int(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp())


def exact(x: float) -> Decimal:
    """A double's value truncated toward zero at 36 places (what a decimal string must equal)."""
    return Decimal(x).quantize(Decimal(1).scaleb(-36), rounding=ROUND_DOWN, context=Context(prec=400))


def assert_price(served: dict | None, token: str, at: int) -> str | None:
    """`served` is the price of `token` at `at` with its age; returns the reason there is none."""
    price, source, sampled, reason = price_at(token, at)
    if price is None:
        assert served is None
        return reason
    assert served is not None and Decimal(served["priceUsd"]) == exact(price), (served, price)
    assert (served["source"], served["sampledAt"], served["ageSeconds"]) == (source, iso(sampled), at - sampled)
    return None


def assert_comparison(served: dict, token: str, to: int, seconds: int) -> None:
    now, then = price_at(token, to)[0], price_at(token, to - seconds)[0]
    assert served["seconds"] == seconds and served["referenceAt"] == iso(to - seconds)
    reason = assert_price(served["reference"], token, to - seconds)
    if then is not None and now is None:
        reason = "current_price_unavailable"
    elif then == 0 and now is not None:
        reason = "reference_price_zero"
    assert served["reason"] == reason, served
    if now is None or then is None:
        assert served["changeUsd"] is None and served["changePercent"] is None
        return
    assert Decimal(served["changeUsd"]) == exact(now - then)
    assert (served["changePercent"] is None if then == 0 else Decimal(served["changePercent"]) == exact((now / then - 1) * 100))


def changes(api, token: str, to: int, windows: str) -> dict:
    data, _ = api.data(f"/v1/tokens/56/{token}/price-changes?windows={windows}&to={iso(to)}")
    assert data["to"] == iso(to) and data["maxAgeSeconds"] == MAX_AGE
    assert data["currentReason"] == assert_price(data["current"], token, to)
    return data


# ------------------------------------------------------------------------------ price changes


def test_an_observation_exactly_at_the_reference_boundary_counts_and_one_a_second_after_does_not(api):
    data = changes(api, A, LATEST, "24h")  # the reference is A's valuation at LATEST - 24h exactly
    [c] = data["comparisons"]
    assert_comparison(c, A, LATEST, DAY)
    assert c["reference"]["sampledAt"] == iso(LATEST - DAY) and c["reference"]["ageSeconds"] == 0
    assert (c["reference"]["priceUsd"], c["changeUsd"], c["changePercent"], c["reason"]) == ("8", "2", "25", None)
    assert c["reference"]["revision"] == 2 and c["reference"]["historical"] == {
        "hourStart": iso(LATEST - DAY - HOUR), "boundary": iso(LATEST - DAY), "readBlock": 7}
    # the current price: the canonical observation wins the tie with the valuation at LATEST
    assert data["current"]["source"] == CANONICAL and data["current"]["priceUsd"] == "10"
    # one second earlier, that valuation is a second after the boundary: the one before it answers
    data = changes(api, A, LATEST - 1, "24h")
    [c] = data["comparisons"]
    assert_comparison(c, A, LATEST - 1, DAY)
    assert (c["reference"]["priceUsd"], c["reference"]["sampledAt"], c["reference"]["ageSeconds"]) == (
        "6", iso(LATEST - DAY - HOUR), 3599)
    assert data["current"]["sampledAt"] == iso(LATEST - 900) and data["current"]["revision"] == 2


def test_exactly_the_age_limit_is_accepted_and_a_second_more_is_not(api):
    # G's price is followed by valued hours without one: at G + 1h it is exactly MAX_AGE old
    [c] = changes(api, A, G + HOUR + DAY, "24h")["comparisons"]
    assert_comparison(c, A, G + HOUR + DAY, DAY)
    assert (c["reference"]["sampledAt"], c["reference"]["ageSeconds"], c["reference"]["priceUsd"]) == (iso(G), MAX_AGE, "5")
    [c] = changes(api, A, G + HOUR + 1 + DAY, "24h")["comparisons"]
    assert_comparison(c, A, G + HOUR + 1 + DAY, DAY)
    assert c["reference"] is None and c["reason"] == "price_observation_too_old" and c["changeUsd"] is None


def test_a_current_price_too_old_leaves_every_comparison_unavailable(api):
    data = changes(api, A, G + HOUR + 1, "1h,2h")
    assert data["current"] is None and data["currentReason"] == "price_observation_too_old"
    one, two = data["comparisons"]
    assert_comparison(one, A, G + HOUR + 1, HOUR)
    assert_comparison(two, A, G + HOUR + 1, 2 * HOUR)
    assert one["reference"]["ageSeconds"] == 1 and one["reason"] == "current_price_unavailable"


def test_a_zero_reference_keeps_the_usd_change_and_nulls_the_percentage(api):
    [c] = changes(api, A, Q + DAY, "24h")["comparisons"]
    assert_comparison(c, A, Q + DAY, DAY)
    assert (c["reference"]["priceUsd"], c["changeUsd"], c["changePercent"], c["reason"]) == (
        "0", "5", None, "reference_price_zero")


def test_a_boundary_at_or_before_the_first_market_activity_has_its_reason(api):
    first, after = changes(api, A, FIRST + HOUR, "1h,24h")["comparisons"]
    assert first["reason"] == after["reason"] == "before_first_market_activity"
    assert_comparison(first, A, FIRST + HOUR, HOUR)
    [c] = changes(api, A, FIRST + HOUR + 1, "1h")["comparisons"]
    assert c["reason"] == "no_price_observation"  # a second after it, nothing is stored yet
    assert_comparison(c, A, FIRST + HOUR + 1, HOUR)


def test_every_requested_window_is_compared_once_in_order(api):
    to = LATEST - 7 * HOUR - 5
    data = changes(api, A, to, "7d,1h,24h,7d,10d")
    assert [c["window"] for c in data["comparisons"]] == ["7d", "1h", "24h", "10d"]
    for c in data["comparisons"]:
        assert_comparison(c, A, to, c["seconds"])


def test_a_null_price_newer_than_a_price_does_not_hide_it(api):
    data = changes(api, Z, LATEST, "1h")
    assert data["current"]["priceUsd"] == "2" and data["current"]["ageSeconds"] == 900


def test_only_published_snapshots_and_valued_hours_are_observations(api):
    data = changes(api, A, LATEST - 1800, "1h")  # the snapshot at that time failed: the valuation before it answers
    assert data["current"]["source"] == HISTORICAL and data["current"]["priceUsd"] == "9"
    data = changes(api, B, LATEST + HOUR, "1h")  # B's valuation at LATEST + 1h is of an hour not valued yet
    assert data["current"]["source"] == CANONICAL and data["current"]["ageSeconds"] == MAX_AGE


def test_the_default_to_is_the_server_time(api):
    before = after = instant.AT  # the API's clock is frozen there
    data, _ = api.data(f"/v1/tokens/56/{A}/price-changes")
    assert before <= unix(data["to"]) <= after
    assert [c["window"] for c in data["comparisons"]] == ["24h", "7d"]
    assert data["current"] is None and data["currentReason"] == "price_observation_too_old"  # LATEST is long past


@pytest.mark.parametrize("query, code", [
    ("to=2100-01-01T00:00:00Z", "invalid_to"),  # later than the server time
    ("to=1969-12-31T23:59:59Z", "invalid_to"),
    ("to=2026-01-15", "invalid_to"),
    ("windows=0h", "invalid_windows"),
    ("windows=367d", "invalid_windows"),
    ("windows=1h,2h,3h,4h,5h,6h,7h", "invalid_windows"),
    ("windows=1w", "invalid_windows"),
    ("windows=", "invalid_windows"),
    ("window=24h", "unknown_parameter"),
])
def test_a_malformed_price_changes_query_is_its_own_400(api, query, code):
    r = api.get(f"/v1/tokens/56/{A}/price-changes?{query}")
    assert r.status_code == 400 and r.json()["error"]["code"] == code, r.text


# ------------------------------------------------------------------------------ current prices


def test_prices_give_the_current_price_at_the_snapshot_and_the_latest_of_each_kind(api):
    data, meta = api.data(f"/v1/tokens/56/{A.upper().replace('0X', '0x')}/prices")
    assert (data["chainId"], data["address"], data["at"], data["maxAgeSeconds"]) == (56, A, iso(LATEST), MAX_AGE)
    assert meta["chainIds"] == [56]
    assert data["reason"] == assert_price(data["current"], A, LATEST) is None
    assert data["current"] == {"priceUsd": "10", "source": CANONICAL, "sampledAt": iso(LATEST), "generation": 1,
                               "revision": 1, "canonical": {"snapshotAt": iso(LATEST), "blockNumber": LATEST // 3},
                               "historical": None, "ageSeconds": 0}
    assert data["latestCanonical"] == {k: v for k, v in data["current"].items() if k != "ageSeconds"}
    assert data["latestHistorical"] == {"priceUsd": "10.5", "source": HISTORICAL, "sampledAt": iso(LATEST),
                                        "generation": 1, "revision": 1, "canonical": None,
                                        "historical": {"hourStart": iso(LATEST - HOUR), "boundary": iso(LATEST),
                                                       "readBlock": 7}}


def test_prices_of_a_token_listed_without_a_price(api):
    data, _ = api.data(f"/v1/tokens/56/{Z}/prices")
    assert data["current"]["priceUsd"] == "2" and data["current"]["sampledAt"] == iso(LATEST - 900)
    assert data["latestCanonical"]["priceUsd"] is None and data["latestCanonical"]["sampledAt"] == iso(LATEST)
    assert data["latestHistorical"] is None


def batch_item(api, chain_id: int, token: str) -> dict:
    data, _ = api.data(f"/v1/tokens/{chain_id}/{token}/prices")
    return {"chainId": chain_id, "address": token, "current": data["current"], "reason": data["reason"]}


def test_a_batch_answers_each_token_once_in_order_as_its_own_prices_route_does(api):
    one = address("99")
    named = [f"56:{A}", f"56:{Z.upper().replace('0X', '0x')}", f"4663:{C}", f"56:{A}", f"56:{X}", f"56:{N}",
             f"1:{one}", f"56:{B}"]
    data, meta = api.data("/v1/prices?tokens=" + ",".join(named))
    assert meta["chainIds"] == [1, 56, 4663] and data["maxAgeSeconds"] == MAX_AGE
    assert [(i["chainId"], i["address"]) for i in data["items"]] == [(56, A), (56, Z), (4663, C), (56, X), (56, N),
                                                                     (1, one), (56, B)]
    items = {(i["chainId"], i["address"]): i for i in data["items"]}
    for cid, token in ((56, A), (56, Z), (4663, C), (56, B)):
        assert items[(cid, token)] == batch_item(api, cid, token)
    assert items[(4663, C)]["current"]["priceUsd"] == "3" and items[(4663, C)]["current"]["ageSeconds"] == 0
    for token in (X, N):  # blocked by the curation; not in the published snapshot
        assert items[(56, token)] == {"chainId": 56, "address": token, "current": None, "reason": "token_not_found"}
    assert items[(1, one)] == {"chainId": 1, "address": one, "current": None, "reason": "chain_unavailable"}
    data, meta = api.data(f"/v1/prices?tokens=1:{one}")  # only a chain without a snapshot: still an answer
    assert data["items"] == [items[(1, one)]] and meta["chains"][0]["state"] == "unavailable"


def test_a_batch_without_tokens_is_a_400(api):
    r = api.get("/v1/prices")
    assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_tokens", r.text


@pytest.mark.parametrize("tokens, status, code", [
    (",".join(f"56:0x{i:040x}" for i in range(101)), 400, "invalid_tokens"),
    (f"56:0x{'ab' * 19}", 400, "invalid_tokens"),
    (f"56-{A}", 400, "invalid_tokens"),
    (f"0:{A}", 400, "invalid_tokens"),
    (f"56:{A},", 400, "invalid_tokens"),
    (f"999:{A}", 404, "chain_not_public"),
    (f"56:{A},999:{A}", 404, "chain_not_public"),
    (f"8453:{A}", 404, "feature_unsupported"),
])
def test_a_malformed_or_unservable_batch_is_refused_whole(api, tokens, status, code):
    r = api.get(f"/v1/prices?tokens={tokens}")
    assert r.status_code == status and r.json()["error"]["code"] == code, r.text


def test_a_batch_of_one_hundred_tokens_is_answered(api):
    data, _ = api.data("/v1/prices?tokens=" + ",".join(f"56:0x{i:040x}" for i in range(99)) + f",56:{A}")
    assert len(data["items"]) == 100 and data["items"][-1] == batch_item(api, 56, A)
    assert {i["reason"] for i in data["items"][:-1]} == {"token_not_found"}


# ------------------------------------------------------------------------------ trailing


def test_trailing_sums_the_tokens_hours_ending_at_the_anchor_with_the_price_change(api):
    data, meta = api.data(f"/v1/tokens/56/{A}/trailing")
    assert (data["anchor"], data["anchorAt"], data["maxAgeSeconds"]) == ("latest_completed_hour", iso(LATEST), MAX_AGE)
    assert data["currentReason"] == assert_price(data["current"], A, LATEST) is None
    assert [w["window"] for w in data["windows"]] == ["24h", "7d", "30d"]
    for w in data["windows"]:
        start = LATEST - w["seconds"]
        hours = [b for b in A_VOLUME if start < b <= LATEST]  # hours [b - 1h, b) inside [start, LATEST)
        expected = min(w["seconds"], LATEST - FIRST_HOUR) // HOUR
        assert w["evidence"] == {"from": iso(start), "toExclusive": iso(LATEST), "hoursExpected": expected,
                                 "hoursCovered": len(hours), "complete": True}
        assert len(hours) == expected and Decimal(w["volumeUsd"]) == exact(sum(A_VOLUME[b] for b in hours))
        assert_comparison(w["priceChange"], A, LATEST, w["seconds"])
    assert data["windows"][2]["priceChange"]["reason"] == "before_first_market_activity"
    assert data["windows"][0]["priceChange"]["reference"]["priceUsd"] == "8"


def test_a_window_with_missing_hours_has_no_volume(api):
    data, meta = api.data(f"/v1/tokens/56/{U}/trailing?windows=1h,24h,7d")
    one, day, week = data["windows"]
    assert Decimal(one["volumeUsd"]) == 2 and Decimal(day["volumeUsd"]) == 48 and day["evidence"]["complete"]
    assert week["volumeUsd"] is None and week["evidence"]["hoursCovered"] == 24 and week["evidence"]["hoursExpected"] == 168
    assert week["evidence"]["complete"] is False and meta["complete"] is False
    assert_comparison(day["priceChange"], U, LATEST, DAY)


# ------------------------------------------------------------------------------ token detail


def test_token_detail_is_its_token_row_and_its_snapshot_observation(api):
    data, meta = api.data(f"/v1/tokens/56/{A}")
    assert meta["chainIds"] == [56] and meta["curation"]["version"] == "1.0.0"
    assert (data["symbol"], data["name"], data["decimals"], data["priceUsd"], data["tvlUsd"]) == (
        "Ta1a1", "Token a1a1", 18, "10", "1000.5")
    assert (data["status"], data["curated"], data["tags"], data["displayOrder"], data["poolCount"]) == (
        "active", True, ["stable"], 1, 1)
    assert Decimal(data["volume24hUsd"]) == exact(sum(POOL_VOLUME.values()))
    assert data["flowWindows"][0]["hoursCovered"] == 24 and data["flowWindows"][0]["evidence"] == "available"
    assert data["price"] == {"priceUsd": "10", "source": CANONICAL, "sampledAt": iso(LATEST), "generation": 1,
                             "revision": 1, "canonical": {"snapshotAt": iso(LATEST), "blockNumber": LATEST // 3},
                             "historical": None}
    assert not {"supply", "marketCap", "holders", "totalSupply"} & set(data)


@pytest.mark.parametrize("token, status, curated, query", [
    (A, "active", True, "status=active"), (B, "hidden", True, "status=hidden"), (Z, "deprecated", True, "status=deprecated"),
    (U, "active", False, "status=active"),
])
def test_token_detail_equals_its_discovery_row_whatever_its_status(api, token, status, curated, query):
    data, _ = api.data(f"/v1/tokens/56/{token}")
    assert (data["status"], data["curated"]) == (status, curated)
    rows, _ = api.data(f"/v1/tokens?chainIds=56&curated=all&{query}&limit=500")
    [row] = [r for r in rows["rows"] if r["address"] == token]
    assert {k: v for k, v in data.items() if k != "price"} == row
    price = PINNED[token]
    assert data["price"]["sampledAt"] == iso(LATEST) and (
        data["price"]["priceUsd"] is None if price is None else Decimal(data["price"]["priceUsd"]) == exact(price))


@pytest.mark.parametrize("suffix", ["", "/prices", "/trailing", "/price-changes?to=2026-01-15T12:00:00Z"])
def test_a_blocked_or_unlisted_token_is_404_on_every_token_route(api, suffix):
    for token in (X, N, address("99")):
        r = api.get(f"/v1/tokens/56/{token}{suffix}")
        assert r.status_code == 404 and r.json()["error"]["code"] == "token_not_found", r.text


@pytest.mark.parametrize("path, status, code", [
    (f"/v1/tokens/56/0x{'ab' * 19}", 400, "invalid_token_address"),
    (f"/v1/tokens/0/{A}/prices", 400, "invalid_chain_id"),
    (f"/v1/tokens/2147483648/{A}/trailing", 400, "invalid_chain_id"),
    (f"/v1/tokens/56/{A}/trailing?windows=24", 400, "invalid_windows"),
    (f"/v1/tokens/999/{A}", 404, "chain_not_public"),
    (f"/v1/tokens/8453/{A}/prices", 404, "feature_unsupported"),
    (f"/v1/tokens/1/{A}/prices", 503, "chain_unavailable"),
])
def test_token_route_errors(api, path, status, code):
    r = api.get(path)
    assert r.status_code == status and r.json()["error"]["code"] == code, r.text


@pytest.mark.parametrize("path", [f"/v1/tokens/56/{A}", f"/v1/tokens/56/{A}/prices", f"/v1/tokens/56/{A}/trailing",
                                  f"/v1/tokens/56/{A}/price-changes?to=2026-01-15T12:00:00Z", f"/v1/prices?tokens=56:{A}"])
def test_an_unchanged_answer_is_304_by_its_etag(api, path):
    r = api.get(path)
    assert r.status_code == 200 and r.headers["etag"].startswith('W/"cov-')
    again = api.get(path, headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
