"""/v1/tokens/{chainId}/{tokenAddress}/price-history over crafted prices of a database of its own
(price_seed.py writers), every time relative to a crafted `latest` quarter-hour boundary, against
a small reference of ADR 0011 written here in plain Python from the same inputs: the periods
anchored backward from `to`, the sample of each (latest priced canonical observation, else the
valuation at the closing hour boundary of a valued hour) and otherwise the first gap reason that
holds. Chain 56 holds every gap reason and their precedence, 15-minute periods before snapshot
collection, a failed snapshot run, a snapshot republished (revision 2), hidden, blocked and
unknown tokens; chain 4663 an all-time history of 1,100 days paged by cursor; chain 5042 a
traversal whose valuations are revised midway; chain 1 a chain without market activity. Every
response is checked against the served /openapi.json."""
from __future__ import annotations

import base64
import dataclasses
import json
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from decimal import Decimal

import pytest

from api_settings import settings_for
from multichain_seed import write_book
from price_seed import Valuation, first_market_activity, mark_valued, publish_snapshot, write_valuations
from support import instant
from support.api_server import ApiServer
from support.contract_check import CheckedClient
from ve_analytics.assets.curation import write_publication
from ve_analytics.core.chains import load_book
from ve_analytics.core.curation_publication import publication
from ve_analytics.core.curation_source import parse_source
from ve_analytics.warehouse.client import get_client
from ve_analytics.warehouse.migrate import migrate

Q, H, D = 900, 3600, 86400
SECRET = "price-history-test-cursor-secret"
T, HIDDEN, BLOCKED, UNKNOWN, OTHER = ("0x" + c * 20 for c in ("c1", "c2", "c3", "c4", "c5"))
LONG, REVISED, PLAIN, UNPUBLISHED = ("0x" + c * 20 for c in ("d1", "d2", "e1", "e2"))
FAILED_PRICE = 99999.0
CAPS = {"15m": 7 * D, "1h": 90 * D, "1d": 3660 * D}
STEPS = {"15m": Q, "1h": H, "1d": D}


def iso(unix: int) -> str:
    return datetime.fromtimestamp(unix, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def text(price: float) -> str:
    return str(Decimal(price))  # the crafted prices are exact binary fractions


# ------------------------------------------------------------------------------ crafted inputs


@dataclass
class Chain:
    """What was written for one chain, as the reference reads it."""

    first_activity: int | None = None
    snapshots: dict[int, dict] = field(default_factory=dict)  # published time -> {"runs", "prices"}
    valuations: dict[tuple[str, int], tuple] = field(default_factory=dict)  # (token, hour) -> (price, gen, rev, block)
    valued: dict[int, tuple[int, int]] = field(default_factory=dict)  # day -> (valued_until, revision)

    def publish(self, client, chain_id: int, at: int, prices: dict, run_id: str | None = None) -> None:
        publish_snapshot(client, chain_id, at, prices, run_id)
        entry = self.snapshots.setdefault(at, {"runs": 0, "prices": {}})
        entry["runs"] += 1
        entry["prices"].update(prices)

    def value(self, client, chain_id: int, rows: list[Valuation], read_block: int) -> None:
        write_valuations(client, chain_id, rows, read_block)
        for v in rows:
            self.valuations[(v.token, v.hour_start)] = (v.price, v.generation, v.revision, read_block)

    def mark(self, client, chain_id: int, first_hour: int, until: int, revision: int = 1, written_at: int | None = None):
        mark_valued(client, chain_id, first_hour, until, revision=revision, written_at=written_at)
        day = first_hour - first_hour % D
        while day < until:
            self.valued[day] = (min(day + D, until), revision)
            day += D


def hourly(token: str, first: int, last: int, price, skip=()) -> list[Valuation]:
    return [Valuation(token, h, price(h)) for h in range(first, last, H) if h not in skip]


@dataclass
class Stack:
    api: CheckedClient
    latest: int
    chains: dict[int, Chain]
    times: dict[str, int]
    settings: object


def seed(settings, latest: int) -> tuple[dict[int, Chain], dict[str, int]]:
    hour0, day0 = latest - latest % H, latest - latest % D
    t = {"fma56": day0 - 3 * D + 5 * H + 600, "valued56": hour0 - 3 * H, "collect": latest - 4 * H,
         "null_hour": hour0 - 2 * H, "mixed_hour": hour0 - 3 * H, "hole": day0 - 2 * D + 3 * H,
         "fma4663": day0 - 1100 * D + 7 * H + 1234, "valued4663": day0 - 2 * D,
         "fma5042": day0 - 40 * D + 3 * H + 99, "valued5042": day0 - 2 * D + 7 * H}
    chains = {cid: Chain() for cid in (56, 4663, 5042, 1)}
    with get_client(settings) as client:
        c = chains[56]
        c.first_activity = t["fma56"]
        first_market_activity(client, 56, t["fma56"], hour0)
        c.mark(client, 56, day0 - 3 * D, t["valued56"])
        # hourly valuations up to the last hour, pending ones included (never served): one hour
        # valued without a row, one with a NULL price
        first_hour = t["fma56"] - t["fma56"] % H
        c.value(client, 56, hourly(T, first_hour, hour0, lambda h: 1 + (h // H % 97) * 0.25, skip=(t["hole"], t["hole"] + H)), 7)
        c.value(client, 56, [Valuation(T, t["hole"] + H, None)], 7)
        c.value(client, 56, hourly(HIDDEN, first_hour, hour0, lambda h: 0.5 + (h // H % 13) * 0.125), 8)
        for at in range(t["collect"], latest + Q, Q):
            prices = {T: 100 + (at // Q % 50) * 0.5, HIDDEN: 3.0, OTHER: 1.0}
            if t["null_hour"] <= at < t["null_hour"] + H:
                prices[T] = None  # listed without a price: a whole pending hour
            if at == t["mixed_hour"] + Q:
                del prices[T]  # a published snapshot without the token
            if at == t["mixed_hour"] + 2 * Q:  # a failed run: its rows are never an observation
                publish_snapshot(client, 56, at, {T: FAILED_PRICE}, status="failed")
                continue
            c.publish(client, 56, at, prices)
            if at == t["mixed_hour"] + 3 * Q:  # republished with another price: revision 2
                time.sleep(0.01)
                c.publish(client, 56, at, {T: 777.5}, run_id=f"rerun-{at}")

        c = chains[4663]
        c.first_activity = t["fma4663"]
        first_market_activity(client, 4663, t["fma4663"], hour0)
        first_hour = t["fma4663"] - t["fma4663"] % H
        c.value(client, 4663, hourly(LONG, first_hour, t["valued4663"], lambda h: 1 + (h // H % 1000) * 0.125), 9)
        c.mark(client, 4663, first_hour, t["valued4663"])
        c.publish(client, 4663, latest, {LONG: 5.0})

        c = chains[5042]
        c.first_activity = t["fma5042"]
        first_market_activity(client, 5042, t["fma5042"], hour0)
        first_hour = t["fma5042"] - t["fma5042"] % H
        c.value(client, 5042, hourly(REVISED, first_hour, t["valued5042"], lambda h: 2 + (h // H % 31) * 0.5), 10)
        c.mark(client, 5042, first_hour, t["valued5042"])
        c.publish(client, 5042, latest, {REVISED: 4.0})

        chains[1].publish(client, 1, latest - Q, {PLAIN: 3.0})  # a chain without market activity
        write_valuations(client, 8453, hourly(UNPUBLISHED, hour0 - 5 * H, hour0, lambda h: 1.0))  # no snapshot
    return chains, t


CURATION = {
    "version": "1.0.0",
    "review": {"reviewedBy": "tests", "reviewedAt": "2026-01-01T00:00:00Z", "reference": "crafted"},
    "tags": [{"id": "core", "name": "Core", "description": "Core"}],
    "categories": [],
    "chains": {"56": {"tokenList": {"name": "Price tokens", "version": "1.0.0"},
                      "tokens": [{"address": T, "status": "active", "tags": ["core"], "displayOrder": 1},
                                 {"address": HIDDEN, "status": "hidden", "tags": []},
                                 {"address": BLOCKED, "status": "blocked", "tags": []}],
                      "pools": []}},
}


def publish_curation(settings, at: int, version: str = "1.0.0") -> None:
    indexed = {56: {"snapshot_at": at, "pools": {},
                    "tokens": {a: {"symbol": s, "name": f"Token {s}", "decimals": 18}
                               for a, s in ((T, "TKN"), (HIDDEN, "HID"), (BLOCKED, "BLK"))}}}
    pub = publication(parse_source({**CURATION, "version": version}), indexed)
    with get_client(settings) as client:
        write_publication(client, pub, at)


@pytest.fixture(scope="module")
def stack(warehouse, http, tmp_path_factory):
    folder = tmp_path_factory.mktemp("v1-price-history")
    settings = dataclasses.replace(settings_for(warehouse.url, "api_v1_price_history", folder,
                                                load_book(write_book(folder), {})), cursor_secrets=(SECRET,))
    migrate(settings)
    latest = instant.AT // Q * Q  # the API's clock is frozen at the instant: the chains are fresh; every `to` is in the past
    chains, times = seed(settings, latest)
    publish_curation(settings, latest)
    with ApiServer(settings, log_path=folder / "api.log", families=("v1",), env=instant.frozen_env()) as server:
        yield Stack(CheckedClient(server.url, http), latest, chains, times, settings)


# ------------------------------------------------------------------------------ the reference (ADR 0011)


def ref_periods(start: int, end: int, step: int) -> list[tuple[int, int, int | None]]:
    out, hi = [], end
    while hi > start:
        lo = max(start, hi - step)
        b = hi // H * H
        out.append((lo, hi, b if b > lo else None))
        hi -= step
    return out[::-1]


def ref_valued(chain: Chain, b: int) -> bool:
    hour = b - H
    return chain.valued.get(hour - hour % D, (-1,))[0] >= b


def ref_period(chain: Chain, token: str, pinned: int, lo: int, hi: int, b: int | None, step: int) -> dict:
    published = [s for s in chain.snapshots if lo <= s < hi and s <= pinned]
    priced = [s for s in published if chain.snapshots[s]["prices"].get(token) is not None]
    obs, reason = None, None
    if priced:
        s = max(priced)
        obs = {"priceUsd": text(chain.snapshots[s]["prices"][token]), "source": "canonical-observation",
               "sampledAt": iso(s), "generation": 1, "revision": chain.snapshots[s]["runs"],
               "canonical": {"snapshotAt": iso(s), "blockNumber": s // 3}, "historical": None}
    elif b is not None and ref_valued(chain, b) and (chain.valuations.get((token, b - H)) or (None,))[0] is not None:
        price, generation, revision, block = chain.valuations[(token, b - H)]
        obs = {"priceUsd": text(price), "source": "historical-valuation", "sampledAt": iso(b), "generation": generation,
               "revision": revision, "canonical": None,
               "historical": {"hourStart": iso(b - H), "boundary": iso(b), "readBlock": block}}
    elif chain.first_activity is not None and (b if b is not None else hi) <= chain.first_activity:
        reason = "before_first_market_activity"
    elif b is not None and not ref_valued(chain, b):
        reason = "historical_valuation_pending"
    elif published or b is not None:
        reason = "no_safe_price_source"
    else:
        reason = "history_resolution_unavailable"
    return {"from": iso(lo), "toExclusive": iso(hi), "durationSeconds": hi - lo, "partial": hi - lo < step,
            "observation": obs, "gapReason": reason}


def reference(stack: Stack, chain_id: int, token: str, start: int, end: int, interval: str) -> dict:
    chain, step = stack.chains[chain_id], STEPS[interval]
    pinned = max(chain.snapshots)
    periods = [ref_period(chain, token, pinned, lo, hi, b, step) for lo, hi, b in ref_periods(start, end, step)]
    return {"chainId": chain_id, "address": token, "interval": interval, "from": iso(start), "toExclusive": iso(end),
            "periodCount": len(periods), "periods": periods}


def ref_coverage(chain: Chain, start: int, end: int) -> dict:
    days = sorted(chain.valued)
    revision = max((chain.valued[d][1] for d in days if d + D > start and d < end), default=None)
    through = None
    for i, d in enumerate(days):
        if d != days[0] + i * D:
            break
        through = chain.valued[d][0]
        if through < d + D:
            break
    return {"generation": 1, "revision": revision, "valuedFrom": iso(days[0] + H) if days else None,
            "valuedThrough": iso(through) if through is not None else None,
            "firstMarketActivity": iso(chain.first_activity) if chain.first_activity is not None else None}


def path(chain_id: int, token: str, **query) -> str:
    q = "&".join(f"{k}={v}" for k, v in query.items())
    return f"/v1/tokens/{chain_id}/{token}/price-history" + (f"?{q}" if q else "")


def traverse(api, url: str) -> tuple[list[dict], list[dict]]:
    """Every page of a traversal: (the pages' bodies, their periods concatenated)."""
    bodies, periods, cursor = [], [], None
    while True:
        r = api.get(url + (f"&cursor={cursor}" if cursor else ""))
        assert r.status_code == 200, r.text
        body = r.json()
        bodies.append(body)
        periods += body["data"]["periods"]
        if not body["pageInfo"]["hasNextPage"]:
            assert body["pageInfo"]["nextCursor"] is None
            return bodies, periods
        cursor = body["pageInfo"]["nextCursor"]


# ------------------------------------------------------------------------------ samples and gaps


def cases(stack: Stack) -> dict[str, tuple]:
    L, t = stack.latest, stack.times
    return {
        # before the valued days, valued hours before the first activity, a hole, a NULL price,
        # the pending hours (rows written for them are never served), snapshots
        "1h all": (56, T, "1h", t["fma56"] - 28 * H - 600, L),
        # 15-minute periods before snapshot collection, the mixed hour, `to` off the boundaries
        "15m": (56, T, "15m", L - 30 * H, L - 7 * 60),
        # a clipped first day, `to` off the boundaries
        "1d": (56, T, "1d", t["fma56"] - 2 * D + 1234, L - 7 * 60),
        "1h off the hour": (56, T, "1h", L - 7 * 60 - D, L - 7 * 60),
        "hidden": (56, HIDDEN, "1h", L - 2 * D, L),
        "no market activity": (1, PLAIN, "15m", L - 2 * H, L),
    }


@pytest.mark.parametrize("name", ["1h all", "15m", "1d", "1h off the hour", "hidden", "no market activity"])
def test_every_period_holds_the_sample_or_the_gap_reason_the_adr_selects(stack, name):
    chain_id, token, interval, start, end = cases(stack)[name]
    body = stack.api.get(path(chain_id, token, interval=interval, limit=500, **{"from": iso(start), "to": iso(end)})).json()
    expected = reference(stack, chain_id, token, start, end, interval)
    differ = [(a, b) for a, b in zip(body["data"]["periods"], expected["periods"]) if a != b]
    assert not differ, json.dumps(differ[:3], indent=1)
    assert body["data"] == expected
    assert body["meta"]["historicalCoverage"] == ref_coverage(stack.chains[chain_id], start, end)
    assert body["meta"]["complete"] is all(p["observation"] for p in expected["periods"])
    assert body["pageInfo"] == {"nextCursor": None, "hasNextPage": False}


def test_the_crafted_cases_hold_each_gap_reason_and_their_precedence(stack):
    t, L = stack.times, stack.latest
    by_case = {name: reference(stack, *args[:2], *args[3:], args[2])["periods"] for name, args in cases(stack).items()}
    reasons = {p["gapReason"] for periods in by_case.values() for p in periods}
    assert reasons == {None, "before_first_market_activity", "historical_valuation_pending", "no_safe_price_source",
                       "history_resolution_unavailable"}
    api, hour0 = stack.api, L - L % H
    hourly = {p["from"]: p for p in api.data(path(56, T, interval="1h", limit=500, **{"from": iso(t["fma56"] - 28 * H),
                                                                                       "to": iso(hour0)}))[0]["periods"]}
    # a pending hour whose snapshots list the token without a price: pending comes first
    assert hourly[iso(t["null_hour"])]["gapReason"] == "historical_valuation_pending"
    # a valued hour before the first activity (the token has no row there): before_first wins
    day = t["fma56"] - t["fma56"] % D
    assert hourly[iso(day + H)]["gapReason"] == "before_first_market_activity"
    # an hour before any valued day, before the activity: before_first, not pending
    assert hourly[iso(day - 2 * H)]["gapReason"] == "before_first_market_activity"
    assert hourly[iso(t["hole"])]["gapReason"] == "no_safe_price_source"  # valued, no row
    assert hourly[iso(t["hole"] + H)]["gapReason"] == "no_safe_price_source"  # valued, NULL price
    # the mixed hour: its rerun snapshot (revision 2) samples it
    mixed = hourly[iso(t["mixed_hour"])]["observation"]
    assert (mixed["priceUsd"], mixed["revision"], mixed["sampledAt"]) == ("777.5", 2, iso(t["mixed_hour"] + 3 * Q))
    quarter = {p["from"]: p for p in api.data(path(56, T, interval="15m", limit=500, **{"from": iso(L - 30 * H),
                                                                                          "to": iso(L)}))[0]["periods"]}
    assert quarter[iso(t["mixed_hour"] + Q)]["gapReason"] == "no_safe_price_source"  # published without the token
    assert quarter[iso(t["mixed_hour"] + 2 * Q)]["gapReason"] == "history_resolution_unavailable"  # failed run only
    assert all(p["observation"] is None or p["observation"]["priceUsd"] != text(FAILED_PRICE) for p in quarter.values())
    # before collection, only the quarters closing on the hour have a (historical) sample
    before = [p for p in quarter.values() if p["toExclusive"] <= iso(t["collect"]) and p["toExclusive"] <= iso(t["valued56"])]
    assert before and all((p["observation"] is not None) == p["toExclusive"].endswith(":00:00Z") for p in before)
    assert all(p["gapReason"] == "history_resolution_unavailable" for p in before if p["observation"] is None)


def test_defaults_end_at_the_server_time_and_start_24_hours_before(stack):
    before = instant.AT  # the API's clock is frozen there
    data, meta = stack.api.data(path(56, T))
    end = int(datetime.fromisoformat(data["toExclusive"].replace("Z", "+00:00")).timestamp())
    assert end == before and data["interval"] == "1h"
    assert data["from"] == iso(end - D) and data["periodCount"] == 24 and len(data["periods"]) == 24
    assert data["periods"] == reference(stack, 56, T, end - D, end, "1h")["periods"]


def test_a_blocked_or_unknown_token_is_404_and_an_upper_case_address_is_served_lower_case(stack):
    L = stack.latest
    for url in (path(56, BLOCKED), path(56, UNKNOWN), path(8453, UNKNOWN),
                path(56, UNKNOWN, **{"from": iso(L), "to": iso(L)})):  # unknown before the refused range
        r = stack.api.get(url)
        assert r.status_code == 404 and r.json()["error"]["code"] == "token_not_found", r.text
    r = stack.api.get(path(8453, UNPUBLISHED))  # valued, but the chain has no published snapshot
    assert r.status_code == 503 and r.json()["error"]["code"] == "chain_unavailable", r.text
    data, _ = stack.api.data(path(56, T.upper().replace("0X", "0x"), **{"to": iso(stack.latest)}))
    assert data["address"] == T


@pytest.mark.parametrize("query, code", [
    ({"from": "F", "to": "F"}, "invalid_range"),
    ({"from": "F+1", "to": "F"}, "invalid_range"),
    ({"from": "CAP15m", "interval": "15m"}, "invalid_range"),
    ({"from": "CAP1h", "interval": "1h"}, "invalid_range"),
    ({"from": "CAP1d", "interval": "1d"}, "invalid_range"),
    ({"limit": "0"}, "invalid_limit"),
    ({"limit": "501"}, "invalid_limit"),
    ({"from": "yesterday"}, "invalid_from"),
    ({"from": "2026-02-30T00:00:00Z"}, "invalid_from"),
    ({"to": "2026-01-01T00:00:00"}, "invalid_to"),
    ({"to": "FUTURE"}, "invalid_to"),
    ({"interval": "5m"}, "invalid_interval"),
    ({"cursor": "x" * 8193}, "invalid_cursor"),
    ({"cursor": "not-a-cursor"}, "invalid_cursor"),
    ({"limit": "5", "page": "2"}, "unknown_parameter"),
])
def test_a_bad_parameter_is_its_own_400(stack, query, code):
    L = stack.latest
    values = {"F": iso(L - D), "F+1": iso(L - D + 1), "FUTURE": iso(instant.AT + 3600),
              **{f"CAP{i}": iso(L - cap - 1) for i, cap in CAPS.items()}}
    query = {"to": iso(L), **{k: values.get(v, v) for k, v in query.items()}}
    r = stack.api.get(path(56, T, **query))
    assert r.status_code == 400 and r.json()["error"]["code"] == code, r.text
    if code == "invalid_range" and "interval" in query:
        coarser = {"15m": "1h", "1h": "1d"}.get(query["interval"])
        assert str(CAPS[query["interval"]] // D) in r.json()["error"]["message"]
        assert coarser is None or f"interval={coarser}" in r.json()["error"]["message"]


@pytest.mark.parametrize("interval", ["15m", "1h", "1d"])
def test_a_range_of_exactly_the_cap_is_served(stack, interval):
    L = stack.latest
    data, _ = stack.api.data(path(56, T, interval=interval, limit=2, **{"from": iso(L - CAPS[interval]), "to": iso(L)}))
    assert data["periodCount"] == CAPS[interval] // STEPS[interval] and len(data["periods"]) == 2


@pytest.mark.parametrize("path_, code, status", [
    ("/v1/tokens/0/{T}/price-history", "invalid_chain_id", 400),
    ("/v1/tokens/56/0x12/price-history", "invalid_token_address", 400),
    ("/v1/tokens/10/{T}/price-history", "chain_not_public", 404),
])
def test_bad_path_segments(stack, path_, code, status):
    r = stack.api.get(path_.format(T=T))
    assert r.status_code == status and r.json()["error"]["code"] == code, r.text


def test_earliest_on_a_chain_without_market_activity_is_400_invalid_range(stack):
    r = stack.api.get(path(1, PLAIN, **{"from": "earliest", "to": iso(stack.latest)}))
    assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_range", r.text
    assert "market activity" in r.json()["error"]["message"]


# ------------------------------------------------------------------------------ traversals


def test_an_all_time_traversal_by_day_equals_the_reference_and_single_page_answers(stack):
    t, api = stack.times, stack.api
    end = stack.latest - stack.latest % D - D
    url = path(4663, LONG, interval="1d", limit=500, **{"from": "earliest", "to": iso(end)})
    bodies, periods = traverse(api, url)
    expected = reference(stack, 4663, LONG, t["fma4663"], end, "1d")
    assert len(bodies) == 3 and expected["periodCount"] > 1000
    assert periods == expected["periods"]
    for body in bodies:
        assert {k: v for k, v in body["data"].items() if k != "periods"} == {k: v for k, v in expected.items() if k != "periods"}
        assert body["meta"]["historicalCoverage"] == ref_coverage(stack.chains[4663], t["fma4663"], end)
        page = body["data"]["periods"]
        single = api.data(path(4663, LONG, interval="1d", limit=500, **{"from": page[0]["from"], "to": page[-1]["toExclusive"]}))
        assert single[0]["periods"] == page
    assert periods[0]["partial"] and periods[0]["from"] == iso(t["fma4663"])
    assert periods[-1]["gapReason"] == "historical_valuation_pending"  # its boundary's hour is after the valued ones


def test_a_defaulted_to_pages_over_the_range_of_the_first_page(stack):
    bodies, periods = traverse(stack.api, path(56, T, interval="15m", limit=40))
    assert len(bodies) == 3 and len(periods) == 96
    assert len({(b["data"]["from"], b["data"]["toExclusive"]) for b in bodies}) == 1


def resign(cursor: str, age: int, **changes) -> str:
    from ve_analytics.api.cursors import CursorCodec

    body = cursor.split(".")[1]
    payload = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    issued = payload.pop("iat")
    return CursorCodec((SECRET.encode(),), clock=lambda: issued - age).encode({**payload, **changes})


def test_cursors_older_than_a_day_of_another_release_tampered_or_foreign_are_refused(stack):
    api, L = stack.api, stack.latest
    url = path(56, T, interval="15m", limit=10, **{"from": iso(L - 10 * H), "to": iso(L)})
    cursor = api.get(url).json()["pageInfo"]["nextCursor"]
    for signed, code in ((resign(cursor, D), "cursor_expired"), (resign(cursor, 0, v=0), "cursor_expired"),
                         (cursor[:-3] + ("A" if cursor[-3] != "A" else "B") + cursor[-2:], "invalid_cursor")):
        r = api.get(f"{url}&cursor={signed}")
        assert r.status_code == 400 and r.json()["error"]["code"] == code, r.text
    for other in (path(56, T, interval="1h", limit=10, **{"from": iso(L - 10 * H), "to": iso(L)}),
                  path(56, HIDDEN, interval="15m", limit=10, **{"from": iso(L - 10 * H), "to": iso(L)}),
                  path(56, T, interval="15m", limit=10, **{"to": iso(L)})):
        r = api.get(f"{other}&cursor={cursor}")
        assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_cursor", r.text
    r = api.get(f"{url}&cursor={resign(cursor, D - 60)}")
    assert r.status_code == 200 and len(r.json()["data"]["periods"]) == 10
    assert api.get(f"{path(56, T, interval='15m', limit=3, **{'from': iso(L - 10 * H), 'to': iso(L)})}&cursor={cursor}").status_code == 200


def test_the_etag_answers_304(stack):
    url = path(56, T, **{"to": iso(stack.latest)})
    r = stack.api.get(url)
    again = stack.api.get(url, headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304 and again.content == b""


def test_a_revision_in_the_range_ends_the_traversal_and_a_valuation_outside_it_does_not(stack):
    L = stack.latest
    day0 = L - L % D
    end = day0 - 2 * D + 5 * H  # valued to +7h on its day: the clipped evidence holds `end`
    url = path(5042, REVISED, interval="1h", limit=300, **{"from": "earliest", "to": iso(end)})
    first = stack.api.get(url).json()
    assert first["pageInfo"]["hasNextPage"] and first["data"]["periodCount"] > 900
    with get_client(stack.settings) as client:
        # outside the range: the day after it, and the range's last day valued further than its end
        mark_valued(client, 5042, day0 - D, day0 - D + 4 * H, written_at=L)
        mark_valued(client, 5042, day0 - 2 * D, day0 - 2 * D + 9 * H, written_at=L)
    second = stack.api.get(f"{url}&cursor={first['pageInfo']['nextCursor']}")
    assert second.status_code == 200, second.text
    revised_hour = day0 - 10 * D + 12 * H
    with get_client(stack.settings) as client:
        write_valuations(client, 5042, [Valuation(REVISED, revised_hour, 123.25, revision=2)], 11)
        mark_valued(client, 5042, day0 - 10 * D, day0 - 9 * D, revision=2, written_at=L)
    third = stack.api.get(f"{url}&cursor={second.json()['pageInfo']['nextCursor']}")
    assert third.status_code == 400 and third.json()["error"]["code"] == "price_history_source_changed", third.text
    again = stack.api.data(url.replace("limit=300", "limit=500"))
    assert again[1]["historicalCoverage"]["revision"] == 2


def test_a_snapshot_of_the_range_republished_mid_traversal_ends_it(stack):
    api, L = stack.api, stack.latest
    url = path(56, T, interval="15m", limit=10, **{"from": iso(L - 10 * H), "to": iso(L)})
    before = api.get(url)
    first = before.json()
    with get_client(stack.settings) as client:  # a rerun of a snapshot the first page did not read
        stack.chains[56].publish(client, 56, L - 2 * Q, {T: 555.25}, run_id="rerun-late")
    r = api.get(f"{url}&cursor={first['pageInfo']['nextCursor']}")
    assert r.status_code == 400 and r.json()["error"]["code"] == "price_history_source_changed", r.text
    # restarted as the error says, the traversal goes on: once the worker's pointer has seen the rerun
    # (the event: the first page's ETag changes, within the pointer's bound), the first page is not
    # the one cached before it, whose cursor binds the old evidence
    deadline = time.monotonic() + 10
    restarted = api.get(url)
    while restarted.headers["etag"] == before.headers["etag"] and time.monotonic() < deadline:
        restarted = api.get(url)
    assert restarted.headers["etag"] != before.headers["etag"]
    r = api.get(f"{url}&cursor={restarted.json()['pageInfo']['nextCursor']}")
    assert r.status_code == 200, r.text
    last = api.data(path(56, T, interval="15m", **{"from": iso(L - 2 * Q), "to": iso(L - Q)}))[0]["periods"][0]
    assert (last["observation"]["priceUsd"], last["observation"]["revision"]) == ("555.25", 2)


def test_a_new_curation_publication_expires_running_traversals(stack):
    """Runs last: it publishes a new curation version."""
    api, L = stack.api, stack.latest
    url = path(56, T, interval="15m", limit=9, **{"from": iso(L - 10 * H), "to": iso(L)})  # a page no test cached
    cursor = api.get(url).json()["pageInfo"]["nextCursor"]
    publish_curation(stack.settings, L + 1, "1.0.1")
    deadline = time.monotonic() + 10
    while api.get(url).headers.get("x-curation-version") != "1.0.1" and time.monotonic() < deadline:
        time.sleep(0.25)
    r = api.get(f"{url}&cursor={cursor}")
    assert r.status_code == 400 and r.json()["error"]["code"] == "cursor_expired", r.text
