"""Historical valuations are recorded facts with revisions (ADR 0011): the backfill values every hour
of chain 56 as revision 1 of generation 1 and writes each day's price_valuation_runs row; a rerun
of one day that changes nothing keeps every revision; an upstream that revises its prices (the
devnet's `revise_prices` fault) raises the revision of every changed row, and so does its return
to the true prices. A price-history traversal over that day (served by the API) outlives the
unchanged rerun and answers `price_history_source_changed` after the revising one. The reruns touch
one older day partition of chain 56 only."""
from __future__ import annotations

import struct
import time
from datetime import datetime, timezone

import httpx
import pytest

from orchestration_session import HISTORY_DAYS
from session_api import v1_server
from support.contract_check import CheckedClient
from ve_analytics.core.epochs import DAY, HOUR
from ve_analytics.core.prices import PRICE_GENERATION

CHAIN = 56
FACTOR = 1.01
REL = 1e-9
AT = "toDateTime64({t:Int64}, 3, 'UTC')"
RUN_FIELDS = ("valued_until", "generation", "revision", "tokens", "rows_written", "revised_rows", "read_block")


@pytest.fixture(scope="module")
def api(stack, tmp_path_factory):
    with v1_server(stack, tmp_path_factory.mktemp("api")) as server, httpx.Client(timeout=60) as http:
        yield CheckedClient(server.url, http)


def usdc(stack) -> str:
    return next(t["address"].lower() for t in stack.deployment(CHAIN)["tokens"] if t["symbol"] == "USDC")


def history_page(api, stack, day: int, cursor: str | None = None) -> httpx.Response:
    """A page of 6 hourly periods of USDC's price history over the rerun day."""
    iso = [datetime.fromtimestamp(t, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ") for t in (day, day + DAY)]
    query = f"interval=1h&from={iso[0]}&to={iso[1]}&limit=6" + (f"&cursor={cursor}" if cursor else "")
    return api.get(f"/v1/tokens/{CHAIN}/{usdc(stack)}/price-history?{query}")


def close(a: float, b: float) -> bool:
    return abs(a - b) <= REL * max(abs(a), abs(b), 1e-12)


def bits(x: float | None) -> bytes | None:
    return None if x is None else struct.pack("<d", x)


def revised_price(price: float | None) -> float | None:
    """The price the `revise_prices` fault serves for a true one."""
    return None if price is None else price * FACTOR


def first_day(stack) -> int:
    now = stack.history_now
    return now - now % DAY - HISTORY_DAYS * DAY


def rerun_day(stack) -> int:
    """The day these tests rerun: the second of the history, complete, far from the recent hours."""
    return first_day(stack) + DAY


def first_hour(stack) -> int:
    created = min(p["createdAtTimestamp"] for p in stack.deployment(CHAIN)["pools"])
    return created - created % HOUR


def valuations(stack, day: int) -> dict[tuple[str, int], tuple[float | None, int, int, int]]:
    """(token, hour) -> (price, generation, revision, read_block) of the day's stored rows."""
    rows = stack.query(
        "SELECT token_address, toInt64(toUnixTimestamp(hour_start)), price_usd_close, generation, revision, read_block "
        "FROM token_hourly FINAL WHERE chain_id = {c:UInt32} "
        f"AND hour_start >= {AT} AND hour_start < toDateTime64({{e:Int64}}, 3, 'UTC')", c=CHAIN, t=day, e=day + DAY)
    return {(token, hour): (price, gen, rev, block) for token, hour, price, gen, rev, block in rows}


def run_rows(stack) -> dict[int, dict]:
    rows = stack.query(
        "SELECT toInt64(toUnixTimestamp(day_start)), toInt64(toUnixTimestamp(valued_until)), generation, revision, "
        "tokens, rows_written, revised_rows, read_block FROM price_valuation_runs FINAL WHERE chain_id = {c:UInt32}",
        c=CHAIN)
    return {r[0]: dict(zip(RUN_FIELDS, r[1:])) for r in rows}


def truth_prices(stack, hour: int) -> dict[str, float]:
    """Every token's true price at the hour's last block: its value at the hour's close."""
    block = stack.devnet.sim(CHAIN).block_at(hour + HOUR - 1)
    return {t: v["priceUsd"] for t, v in stack.truth("state", CHAIN, block=block)["tokens"].items()}


def token_hourly_metadata(stack, run_id: str) -> dict:
    from dagster import AssetKey, DagsterEventType

    from ve_analytics.orchestration.instance import dagster_instance

    with dagster_instance(stack.settings) as instance:
        (event,) = [e for e in instance.all_logs(run_id, of_type=DagsterEventType.ASSET_MATERIALIZATION)
                    if e.dagster_event.asset_key == AssetKey([f"chain_{CHAIN}", "token_hourly"])]
    return {k: v.value for k, v in event.dagster_event.event_specific_data.materialization.metadata.items()}


def rerun(stack, day: int) -> tuple[dict, dict, dict]:
    """Run the day's history partition again: (its valuations, its run row, token_hourly's metadata)."""
    from ve_analytics.assets.partitions import day_key
    from ve_analytics.orchestration.backfill import run_history

    run_id = run_history(stack.settings, day_key(day), chain_id=CHAIN)
    return valuations(stack, day), run_rows(stack)[day], token_hourly_metadata(stack, run_id)


def test_the_backfill_values_every_hour_as_revision_1_and_records_each_day(stack):
    sim = stack.devnet.sim(CHAIN)
    assert stack.query("SELECT DISTINCT generation, revision FROM token_hourly FINAL WHERE chain_id = {c:UInt32}",
                       c=CHAIN) == [(PRICE_GENERATION, 1)]
    runs = run_rows(stack)
    today = stack.history_now - stack.history_now % DAY
    start, begin = first_day(stack), first_hour(stack)
    # every day of the history, and today once an hour of it had ended when it was read (a later
    # rerun of the newest days may have valued more of them)
    assert [d for d in sorted(runs) if d < today] == list(range(start, today, DAY))
    assert today in runs or stack.history_now % DAY < HOUR
    assert all(d <= stack.devnet_now() - stack.devnet_now() % DAY for d in runs)
    for day, run in runs.items():
        assert (run["generation"], run["revision"], run["revised_rows"]) == (PRICE_GENERATION, 1, 0), day
        hours = [h for h in range(max(day, begin), day + DAY, HOUR) if h + HOUR <= run["valued_until"]]
        if day < today:
            assert run["valued_until"] == day + DAY  # every hour of a past day had ended
        else:  # today: the hours that had ended at the block read, and nothing after them
            assert run["valued_until"] % HOUR == 0 and sim.block_ts(run["read_block"]) >= run["valued_until"]
            assert stack.history_now - stack.history_now % HOUR <= run["valued_until"] <= stack.devnet_now()
        closing = truth_prices(stack, hours[-1])  # every token has an hourly row from the chain's first hour on
        assert run["tokens"] == len(closing) and run["rows_written"] == len(closing) * len(hours), day
        stored = valuations(stack, day)
        assert {h for _, h in stored} == set(hours), day  # valued hours only
    # each valuation of a whole day is the token's true price at the hour's close
    day = rerun_day(stack)
    stored = valuations(stack, day)
    for hour in range(day, day + DAY, HOUR):
        truth = truth_prices(stack, hour)
        assert {t for t, h in stored if h == hour} == set(truth)
        assert all(close(stored[(t, hour)][0], price) for t, price in truth.items()), hour


def test_reruns_keep_unchanged_values_and_revise_changed_ones(stack, api):
    day = rerun_day(stack)
    sim = stack.devnet.sim(CHAIN)
    before = valuations(stack, day)
    assert before and all(v[2] == 1 for v in before.values())
    changed = {k for k, (price, *_rest) in before.items() if bits(price) != bits(revised_price(price))}
    assert len(changed) > len(before) // 2  # a real revision: most prices move
    restored = False
    try:
        # an unchanged rerun: every revision kept, nothing revised, a running traversal undisturbed
        first = history_page(api, stack, day)
        first_page = first.json()
        assert all(p["observation"]["historical"] for p in first_page["data"]["periods"])  # valuations only
        again, run, meta = rerun(stack, day)
        second_page = history_page(api, stack, day, first_page["pageInfo"]["nextCursor"])
        assert second_page.status_code == 200, second_page.text
        # the traversal goes on over the unchanged valuations: 6 further hours, each the stored price
        first_from = {p["from"] for p in first_page["data"]["periods"]}
        second_periods = second_page.json()["data"]["periods"]
        assert len(second_periods) == 6 and not first_from & {p["from"] for p in second_periods}
        for period in second_periods:
            key = (usdc(stack), int(datetime.fromisoformat(period["from"].replace("Z", "+00:00")).timestamp()))
            assert close(float(period["observation"]["priceUsd"]), before[key][0]), key
        assert {k: (v[0], v[1], v[2]) for k, v in again.items()} == {k: (v[0], v[1], v[2]) for k, v in before.items()}
        assert (run["revision"], run["revised_rows"], run["rows_written"]) == (1, 0, len(before))
        assert (meta["price_valuation_runs"], meta["revised_rows"], meta["highest_revision"]) == (1, 0, 1)

        # the upstream revises its prices: every changed row is revision 2, with the revised price
        stack.fault("subgraph", "revise_prices", chain_id=CHAIN, factor=FACTOR)
        revised, run, meta = rerun(stack, day)
        assert set(revised) == set(before)
        for key, (price, generation, revision, block) in revised.items():
            old = before[key][0]
            assert bits(price) == bits(revised_price(old)), key
            assert (generation, revision) == (PRICE_GENERATION, 2 if key in changed else 1), key
            assert block == sim.block_at(day + DAY)  # read at the day's last block
        tokens = len({t for t, _ in before})
        assert run == {"valued_until": day + DAY, "generation": PRICE_GENERATION, "revision": 2, "tokens": tokens,
                       "rows_written": len(before), "revised_rows": len(changed), "read_block": sim.block_at(day + DAY)}
        assert (meta["revised_rows"], meta["highest_revision"]) == (len(changed), 2)
        # the traversal started before the revision is invalid as a whole
        third_page = history_page(api, stack, day, second_page.json()["pageInfo"]["nextCursor"])
        assert third_page.status_code == 400, third_page.text
        assert third_page.json()["error"]["code"] == "price_history_source_changed"
        # a new one serves the revised valuations with their revision, under a new ETag once the API's
        # pointer has seen the new valuation run (its refresh runs every second)
        deadline = time.monotonic() + 30
        while (fresh := history_page(api, stack, day)).headers["etag"] == first.headers["etag"]:
            assert time.monotonic() < deadline, "the revised valuations were not served within 30 s"
            time.sleep(0.5)
        for period in fresh.json()["data"]["periods"]:
            observation = period["observation"]
            key = (usdc(stack), int(datetime.fromisoformat(period["from"].replace("Z", "+00:00")).timestamp()))
            assert observation["revision"] == (2 if key in changed else 1), key
            assert close(float(observation["priceUsd"]), revised_price(before[key][0])), key

        # the upstream returns to the true prices: revised once more, the true prices again
        stack.fault("subgraph", "ok", chain_id=CHAIN)
        back, run, meta = rerun(stack, day)
        restored = True
        for key, (price, generation, revision, _block) in back.items():
            assert bits(price) == bits(before[key][0]), key
            assert revision == (3 if key in changed else 1), key
        assert (run["revision"], run["revised_rows"], run["rows_written"]) == (3, len(changed), len(before))
        hour = day + 7 * HOUR
        truth = truth_prices(stack, hour)
        assert all(close(back[(t, hour)][0], price) for t, price in truth.items())
    finally:
        stack.fault("subgraph", "ok", chain_id=CHAIN)
        if not restored:  # leave the true prices to the session's other tests
            rerun(stack, day)
