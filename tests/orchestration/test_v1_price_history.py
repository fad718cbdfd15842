"""/v1/tokens/{chainId}/{tokenAddress}/price-history over the session's backfilled chains, against
the devnet's truth: a period holding published snapshots samples the latest of them at the token's
true price at that snapshot's block; one before snapshot collection samples the valuation at its
closing hour boundary, the true price at the last block before that boundary; a 15-minute period
before collection that does not close on the hour has no sample at this resolution. The young
chain's periods before its first pool are `before_first_market_activity`, the lagging chain's
hours its subgraph has not indexed are `historical_valuation_pending`, and a traversal in small
pages equals the unpaged answer. Every response is checked against the served /openapi.json.

The valuations are served once their hours are recorded as valued (price_valuation_runs, written
by the token_hourly runs, ADR 0011)."""
from __future__ import annotations

import json
from datetime import datetime, timezone

import httpx
import pytest

from orchestration_session import LAGGING, YOUNG
from session_api import v1_server
from support.contract_check import CheckedClient
from ve_analytics.core.epochs import DAY, HOUR, QUARTER_HOUR

REL = 1e-9
LAG = 36 * HOUR  # the lagging chain's subgraph
STEPS = {"15m": QUARTER_HOUR, "1h": HOUR, "1d": DAY}


def iso(unix: int) -> str:
    return datetime.fromtimestamp(unix, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def unix(text: str) -> int:
    return int(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp())


@pytest.fixture(scope="module")
def api(stack, tmp_path_factory):
    with v1_server(stack, tmp_path_factory.mktemp("v1-price-history")) as server, httpx.Client(timeout=60) as http:
        yield CheckedClient(server.url, http)


def token(stack, chain_id: int, symbol: str) -> str:
    return next(t["address"].lower() for t in stack.deployment(chain_id)["tokens"] if t["symbol"] == symbol)


def first_activity(stack, chain_id: int) -> int:
    return min(p["createdAtTimestamp"] for p in stack.deployment(chain_id)["pools"])


def published(stack, chain_id: int) -> dict[int, int]:
    """Each published snapshot time of the chain and its block."""
    return dict(stack.query("SELECT toInt64(toUnixTimestamp(snapshot_at)), argMax(block_number, finished_at) "
                            "FROM snapshot_runs FINAL WHERE chain_id = {c:UInt32} AND status = 'success' "
                            "GROUP BY snapshot_at", c=chain_id))


def settled(stack, chain_id: int) -> int:
    """The chain's latest snapshot published by the session's backfill: a `to` there is in the API
    server's past, however far later tests move the devnet's clock (a later `to` is 400 invalid_to)."""
    return max(at for at in published(stack, chain_id) if at <= stack.history_now)


def close(served: str | None, truth: float) -> bool:
    return served is not None and abs(float(served) - truth) <= REL * max(abs(truth), 1e-12)


class Truth:
    """The devnet's prices of one token, read once per block."""

    def __init__(self, stack, chain_id: int, address: str):
        self.stack, self.chain_id, self.address, self.prices = stack, chain_id, address, {}

    def at_block(self, block: int) -> float:
        if block not in self.prices:
            self.prices[block] = self.stack.truth("state", self.chain_id, block=block)["tokens"][self.address]["priceUsd"]
        return self.prices[block]

    def at_boundary(self, b: int) -> float:
        """A valuation's price: the token's price at the last block before the hour boundary."""
        return self.at_block(self.stack.devnet.sim(self.chain_id).block_at(b - 1))


def closing(lo: int, hi: int) -> int | None:
    b = hi - hi % HOUR
    return b if b > lo else None


def check_periods(stack, chain_id: int, address: str, data: dict, valued_until: int, pending_after: int | None = None,
                  first: int | None = None) -> list[str | None]:
    """Each period's sample (or gap) against the truth: boundaries up to `valued_until` are surely
    valued, those after `pending_after` surely not. Returns the gap reasons, period by period."""
    truth, snapshots = Truth(stack, chain_id, address), published(stack, chain_id)
    pinned = max(snapshots)
    step = STEPS[data["interval"]]
    reasons = []
    for p in data["periods"]:
        lo, hi = unix(p["from"]), unix(p["toExclusive"])
        assert p["durationSeconds"] == hi - lo and p["partial"] == (hi - lo < step)
        inside = [s for s in snapshots if lo <= s < hi and s <= pinned]
        b, obs = closing(lo, hi), p["observation"]
        reasons.append(p["gapReason"])
        if inside:
            s = max(inside)
            assert obs["source"] == "canonical-observation" and obs["sampledAt"] == iso(s), p
            assert obs["canonical"]["blockNumber"] == snapshots[s] and close(obs["priceUsd"], truth.at_block(snapshots[s])), p
        elif first is not None and (b if b is not None else hi) <= first:
            assert obs is None and p["gapReason"] == "before_first_market_activity", p
        elif b is None:
            assert obs is None and p["gapReason"] == "history_resolution_unavailable", p
        elif b <= valued_until:
            assert obs is not None and obs["source"] == "historical-valuation", p
            assert obs["sampledAt"] == iso(b) and obs["historical"]["hourStart"] == iso(b - HOUR), p
            assert close(obs["priceUsd"], truth.at_boundary(b)), (p, truth.at_boundary(b))
        elif pending_after is not None and b > pending_after:
            assert obs is None and p["gapReason"] == "historical_valuation_pending", p
        assert (obs is None) == (p["gapReason"] is not None), p
    return reasons


def history(api, chain_id: int, address: str, interval: str, start: int | str, end: int, limit: int = 500) -> dict:
    since = start if isinstance(start, str) else iso(start)
    r = api.get(f"/v1/tokens/{chain_id}/{address}/price-history?interval={interval}&from={since}&to={iso(end)}&limit={limit}")
    assert r.status_code == 200, r.text
    return r.json()


@pytest.mark.parametrize("interval, span", [("15m", 6 * HOUR), ("1h", 2 * DAY), ("1d", 5 * DAY)])
def test_samples_of_chain_56_are_its_true_prices_at_the_snapshot_blocks_and_hour_closes(api, stack, interval, span):
    address = token(stack, 56, "WBNB")
    end = settled(stack, 56)
    start = max(end - span, first_activity(stack, 56) + HOUR)
    body = history(api, 56, address, interval, start, end)
    data = body["data"]
    assert (data["chainId"], data["address"], data["from"], data["toExclusive"]) == (56, address, iso(start), iso(end))
    reasons = check_periods(stack, 56, address, data, valued_until=stack.history_now - 2 * HOUR)
    if interval == "15m":  # before collection only the quarters closing on the hour have a sample
        assert "history_resolution_unavailable" in reasons
        assert body["meta"]["complete"] is False
    else:
        assert reasons == [None] * len(reasons) and body["meta"]["complete"] is True
    coverage = body["meta"]["historicalCoverage"]
    assert coverage["generation"] == 1 and coverage["firstMarketActivity"] == iso(first_activity(stack, 56))


def test_a_to_off_the_boundaries_anchors_the_periods_there(api, stack):
    address = token(stack, 56, "USDC")
    end = settled(stack, 56) - 7 * 60
    data = history(api, 56, address, "1h", end - 30 * HOUR - 1234, end)["data"]
    assert [unix(p["toExclusive"]) for p in data["periods"]] == [end - k * HOUR for k in range(30, -1, -1)]
    assert data["periods"][0]["partial"] and data["periods"][0]["durationSeconds"] == 1234
    check_periods(stack, 56, address, data, valued_until=stack.history_now - 2 * HOUR)


def test_the_young_chains_periods_before_its_first_pool_are_before_first_market_activity(api, stack):
    address = token(stack, YOUNG, "WLUM")
    first = first_activity(stack, YOUNG)
    body = history(api, YOUNG, address, "1h", first - 12 * HOUR, first + 12 * HOUR)
    reasons = check_periods(stack, YOUNG, address, body["data"], valued_until=stack.history_now - 2 * HOUR, first=first)
    assert reasons.count("before_first_market_activity") == 12 and reasons[12:] == [None] * 12
    assert body["meta"]["historicalCoverage"]["firstMarketActivity"] == iso(first)
    earliest = history(api, YOUNG, address, "1d", "earliest", settled(stack, YOUNG))["data"]
    assert earliest["from"] == earliest["periods"][0]["from"] == iso(first)
    # the first period is clipped at the first pool: valued at its closing hour boundary when it has
    # one (the hour of the first pool is valued), else too short for any sample (it depends on the hour)
    start, end = unix(earliest["periods"][0]["from"]), unix(earliest["periods"][0]["toExclusive"])
    expected = None if end - end % HOUR > start else "history_resolution_unavailable"
    assert earliest["periods"][0]["gapReason"] == expected


def test_the_lagging_chains_hours_its_subgraph_has_not_indexed_are_pending(api, stack):
    address = token(stack, LAGGING, "WTSR")
    indexed = stack.devnet_now() - LAG  # no run can have valued an hour ending after this
    # the backfill's clock (always in the API server's past), far beyond what the lagging subgraph indexed
    end = stack.history_now - stack.history_now % QUARTER_HOUR
    body = history(api, LAGGING, address, "1h", end - 3 * DAY, end)
    reasons = check_periods(stack, LAGGING, address, body["data"], valued_until=stack.history_now - LAG - 2 * HOUR,
                            pending_after=indexed)
    assert reasons[-1] == "historical_valuation_pending" and reasons.count("historical_valuation_pending") >= 24
    assert reasons[0] is None  # 3 days back is within what the lagging subgraph had indexed
    through = body["meta"]["historicalCoverage"]["valuedThrough"]
    assert through is not None and unix(through) <= indexed
    assert body["meta"]["complete"] is False


@pytest.mark.parametrize("interval, span, limit", [("15m", DAY, 7), ("1h", 3 * DAY, 5)])
def test_a_traversal_in_small_pages_equals_the_unpaged_answer(api, stack, interval, span, limit):
    address = token(stack, 56, "CORE")
    end = settled(stack, 56)
    whole = history(api, 56, address, interval, end - span, end)
    url = f"/v1/tokens/56/{address}/price-history?interval={interval}&from={iso(end - span)}&to={iso(end)}&limit={limit}"
    periods, cursor, pages = [], None, 0
    while True:
        body = api.get(url + (f"&cursor={cursor}" if cursor else "")).json()
        assert {k: v for k, v in body["data"].items() if k != "periods"} == \
            {k: v for k, v in whole["data"].items() if k != "periods"}
        assert body["meta"]["historicalCoverage"] == whole["meta"]["historicalCoverage"]
        periods += body["data"]["periods"]
        pages += 1
        cursor = body["pageInfo"]["nextCursor"]
        if not body["pageInfo"]["hasNextPage"]:
            break
        assert len(body["data"]["periods"]) == limit and len(cursor) <= 8192
    assert periods == whole["data"]["periods"] and pages == -(-len(periods) // limit) > 1
    assert json.dumps(periods)  # served as plain JSON
