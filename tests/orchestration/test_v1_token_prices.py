"""/v1/tokens/{chainId}/{tokenAddress}, its /prices, /trailing and /price-changes, and /v1/prices over the
session's four backfilled chains, against the devnet's truth: each token's price and TVL at the
snapshot block; the price at a boundary is the truth price at the latest published snapshot at or
before it (a snapshot block) or at the closing hour boundary of its hour (the hour's last block),
whichever is later, when that is within the age limit; trailing volumes are sums of the devnet's
TokenHourData volumes. Every `to` is derived from the published snapshots (never later than the
devnet clock). Which hours are valued is the warehouse's record (price_valuation_runs, ADR 0011);
the session's history values every hour it wrote. Every response is checked against the served
/openapi.json."""
from __future__ import annotations

import dataclasses
import functools
import json
import math
from datetime import datetime
from decimal import Decimal

import httpx
import pytest

from discovery_truth import Curated
from orchestration_session import CHAINS, LAGGING
from session_curation import session_source
from support.api_server import ApiServer
from support.contract_check import CheckedClient
from ve_analytics.core.epochs import DAY, HOUR, iso

REL = 1e-9
STALE_AFTER_MINUTES = 24 * 60
CANONICAL, HISTORICAL = "canonical-observation", "historical-valuation"


def unix(text: str) -> int:
    return int(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp())


def close(served: str | None, truth: float, scale: float | None = None) -> bool:
    return served is not None and abs(float(served) - truth) <= REL * max(abs(truth), abs(scale or 0), 1e-12)


@pytest.fixture(scope="module")
def curated(stack, tmp_path_factory) -> Curated:
    from ve_analytics.orchestration.curation import materialize_curation

    source = session_source(tmp_path_factory.mktemp("curation"))
    # the routes rest on any publication; every one this session makes has the source's statuses
    # (test_v1_discovery's later version revises a tag's description only)
    if not stack.scalar("SELECT count() FROM curation_publications"):
        materialize_curation(stack.settings, source)
    return Curated(json.loads(source.read_text()))


@pytest.fixture(scope="module")
def api(stack, curated, tmp_path_factory):
    settings = dataclasses.replace(stack.settings, stale_after_minutes=STALE_AFTER_MINUTES, api_workers=1)
    log = tmp_path_factory.mktemp("v1-token-prices") / "api.log"
    with ApiServer(settings, families=("v1",), log_path=log) as server, httpx.Client(timeout=60) as http:
        yield CheckedClient(server.url, http)


class Truth:
    """What the devnet and the warehouse's records say about one chain's prices."""

    def __init__(self, stack, chain_id: int, pinned: int):
        self.stack, self.chain_id, self.pinned = stack, chain_id, pinned
        self.sim = stack.devnet.sim(chain_id)
        self.max_age = stack.settings.price_max_age_seconds
        self.first_activity = min(p["createdAtTimestamp"] for p in stack.deployment(chain_id)["pools"])
        self.first_hour = self.first_activity - self.first_activity % HOUR
        self.published = sorted(r[0] for r in stack.query(
            "SELECT DISTINCT toInt64(toUnixTimestamp(snapshot_at)) FROM snapshot_runs FINAL WHERE chain_id = {c:UInt32} "
            "AND status = 'success' AND snapshot_at <= toDateTime64({p:Int64}, 3, 'UTC')", c=chain_id, p=pinned))
        valued = stack.query("SELECT toInt64(toUnixTimestamp(max(valued_until))) FROM price_valuation_runs FINAL "
                             "WHERE chain_id = {c:UInt32} HAVING count() > 0", c=chain_id)
        self.valued_until = valued[0][0] if valued else None  # the session values its history without gaps

    @functools.lru_cache(maxsize=None)
    def state(self, block: int) -> dict:
        return self.stack.truth("state", self.chain_id, block=block)

    def price_at_block(self, token: str, block: int) -> float:
        return self.state(block)["tokens"][token]["priceUsd"]

    def observation(self, at: int) -> tuple[int, str] | None:
        """(sampledAt, source) of the latest observation at or before `at`, a canonical one winning a tie."""
        snapshot = max((s for s in self.published if s <= at), default=None)
        hour = None
        if self.valued_until is not None:  # the latest valued hour boundary at or before `at`
            hour = min(at - at % HOUR, self.valued_until - self.valued_until % HOUR)
            hour = hour if hour > self.first_hour else None
        if hour is not None and (snapshot is None or hour > snapshot):
            return hour, HISTORICAL
        return None if snapshot is None else (snapshot, CANONICAL)

    def price(self, token: str, at: int) -> tuple[float | None, int | None, str | None, str | None]:
        """(price, sampledAt, source, reason) of `token` at boundary `at` (ADR 0011)."""
        found = self.observation(at)
        if found is not None and at - found[0] <= self.max_age:
            sampled, source = found
            block = self.sim.block_at(sampled if source == CANONICAL else sampled - 1)  # a snapshot's, an hour's last
            return self.price_at_block(token, block), sampled, source, None
        if at <= self.first_activity:
            return None, None, None, "before_first_market_activity"
        return None, None, None, "price_observation_too_old" if found else "no_price_observation"

    def check(self, served: dict | None, token: str, at: int) -> str | None:
        """`served` is the price of `token` at `at`; returns the reason there is none."""
        price, sampled, source, reason = self.price(token, at)
        if price is None:
            assert served is None, (served, token, at, reason)
            return reason
        assert served is not None, (token, at, sampled, source)
        assert (served["source"], served["sampledAt"], served["ageSeconds"]) == (source, iso(sampled), at - sampled)
        assert close(served["priceUsd"], price), (served, price)
        return None

    def comparison(self, served: dict, token: str, to: int, seconds: int) -> None:
        now, then = self.price(token, to)[0], self.price(token, to - seconds)[0]
        reason = self.check(served["reference"], token, to - seconds)
        if then is not None and now is None:
            reason = "current_price_unavailable"
        assert served["referenceAt"] == iso(to - seconds) and served["reason"] == reason, (served, reason)
        if now is None or then is None:
            assert served["changeUsd"] is None and served["changePercent"] is None
            return
        assert close(served["changeUsd"], now - then, scale=max(abs(now), abs(then)))
        assert close(served["changePercent"], (now / then - 1) * 100, scale=100 * max(abs(now), abs(then)) / abs(then))


def pinned(api, chain_id: int) -> int:
    _, meta = api.data(f"/v1/chains?chainIds={chain_id}")
    return unix(meta["chains"][0]["snapshotAt"])


def settled(stack, chain_id: int) -> int:
    """The chain's latest snapshot published by the session's backfill: a `to` there is in the API
    server's past, however far later tests move the devnet's clock (a later `to` is 400 invalid_to)."""
    return stack.scalar("SELECT toInt64(toUnixTimestamp(max(snapshot_at))) FROM snapshot_runs FINAL "
                        "WHERE chain_id = {c:UInt32} AND status = 'success' AND snapshot_at <= "
                        "toDateTime64({t:Int64}, 3, 'UTC')", c=chain_id, t=stack.history_now)


def listed(api, curated, stack, chain_id: int, at: int) -> list[str]:
    """The chain's tokens at its published snapshot that the curation does not block."""
    block = stack.devnet.sim(chain_id).block_at(at)
    return sorted(t for t in stack.truth("state", chain_id, block=block)["tokens"] if not curated.blocked_token(chain_id, t))


@pytest.mark.parametrize("chain_id", CHAINS)
def test_token_detail_has_the_truth_price_and_tvl_at_the_snapshot_block(api, stack, curated, chain_id):
    at = pinned(api, chain_id)
    sim = stack.devnet.sim(chain_id)
    block = sim.block_at(at)
    state = stack.truth("state", chain_id, block=block)
    deployment = stack.deployment(chain_id)
    decimals = {t["address"].lower(): t["decimals"] for t in deployment["tokens"]}
    sides = {p["address"].lower(): (p["token0"].lower(), p["token1"].lower()) for p in deployment["pools"]}
    for token in listed(api, curated, stack, chain_id, at):
        data, meta = api.data(f"/v1/tokens/{chain_id}/{token}")
        assert meta["chains"][0]["snapshotAt"] == iso(at)
        price = state["tokens"][token]["priceUsd"]
        locked = sum(int(pool[f"reserve{k}"]) for address, pool in state["pools"].items()
                     for k, side in enumerate(sides[address]) if side == token)
        assert close(data["priceUsd"], price) and close(data["tvlUsd"], locked / 10 ** decimals[token] * price), token
        assert data["symbol"] == state["tokens"][token]["symbol"]
        assert data["price"]["source"] == CANONICAL and data["price"]["sampledAt"] == iso(at)
        assert data["price"]["canonical"]["blockNumber"] == block and close(data["price"]["priceUsd"], price)
        assert data["status"] == curated.token(chain_id, token).get("status", "active")


@pytest.mark.parametrize("chain_id", CHAINS)
def test_current_prices_are_the_truth_at_the_snapshot_block(api, stack, curated, chain_id):
    at = pinned(api, chain_id)
    truth = Truth(stack, chain_id, at)
    for token in listed(api, curated, stack, chain_id, at):
        data, _ = api.data(f"/v1/tokens/{chain_id}/{token}/prices")
        assert data["at"] == iso(at) and data["maxAgeSeconds"] == truth.max_age
        assert data["reason"] == truth.check(data["current"], token, at) is None
        assert data["current"]["source"] == CANONICAL and data["current"]["ageSeconds"] == 0
        assert data["latestCanonical"] == {k: v for k, v in data["current"].items() if k != "ageSeconds"}
        historical = data["latestHistorical"]
        b = min(at - at % HOUR, truth.valued_until or 0)
        if b <= truth.first_hour:
            assert historical is None
            continue
        assert historical["sampledAt"] == iso(b) and historical["historical"]["hourStart"] == iso(b - HOUR)
        assert close(historical["priceUsd"], truth.price_at_block(token, truth.sim.block_at(b - 1)))


def test_the_session_values_every_hour_of_its_history(stack):
    """The finished behaviour the price tests rest on: the hourly history records what it valued."""
    for cid in CHAINS:
        last = stack.scalar("SELECT toInt64(toUnixTimestamp(max(hour_start))) FROM token_hourly FINAL "
                            "WHERE chain_id = {c:UInt32}", c=cid)
        assert Truth(stack, cid, 0).valued_until == last + HOUR, cid


@pytest.mark.parametrize("shift", [0, 7 * 60])
def test_price_changes_compare_the_truth_at_both_boundaries(api, stack, curated, shift):
    at = pinned(api, 56)
    truth = Truth(stack, 56, at)
    to = settled(stack, 56) - shift
    for token in listed(api, curated, stack, 56, at):
        data, _ = api.data(f"/v1/tokens/56/{token}/price-changes?windows=1h,24h,5d&to={iso(to)}")
        assert data["to"] == iso(to) and data["currentReason"] == truth.check(data["current"], token, to) is None
        assert [c["window"] for c in data["comparisons"]] == ["1h", "24h", "5d"]
        for c in data["comparisons"]:
            truth.comparison(c, token, to, c["seconds"])
        hour, day, five = data["comparisons"]
        assert hour["reference"]["source"] == CANONICAL  # a snapshot is later than the hour's close
        assert day["reference"]["source"] == five["reference"]["source"] == HISTORICAL
        assert five["changePercent"] is not None


def test_trailing_volumes_sum_the_devnets_token_hours(api, stack, curated):
    at = pinned(api, 56)
    truth = Truth(stack, 56, at)
    protocol, _ = api.data("/v1/protocol?chainIds=56")
    anchor = unix(protocol["chains"][0]["anchorAt"])
    rows = stack.devnet.sim(56).token_hour_rows
    for token in listed(api, curated, stack, 56, at):
        data, _ = api.data(f"/v1/tokens/56/{token}/trailing?windows=1h,24h,5d,7d")
        assert data["anchorAt"] == iso(anchor)
        assert data["currentReason"] == truth.check(data["current"], token, anchor)
        for w in data["windows"]:
            start = anchor - w["seconds"]
            hours = [r for r in rows if r["token"] == token and start <= r["periodStartUnix"] < anchor]
            expected = (anchor - max(start, truth.first_hour)) // HOUR
            assert w["evidence"] == {"from": iso(start), "toExclusive": iso(anchor), "hoursExpected": expected,
                                     "hoursCovered": expected, "complete": True}
            assert len(hours) == expected and close(w["volumeUsd"], math.fsum(r["volumeUSD"] for r in hours))
            truth.comparison(w["priceChange"], token, anchor, w["seconds"])


def test_the_lagging_chains_prices_are_too_old_at_the_other_chains_time(api, stack, curated):
    at, now = pinned(api, LAGGING), settled(stack, 56)
    truth = Truth(stack, LAGGING, at)
    assert now - at > 30 * HOUR
    for token in listed(api, curated, stack, LAGGING, at):
        data, _ = api.data(f"/v1/tokens/{LAGGING}/{token}/price-changes?windows=1h,24h,5d&to={iso(now)}")
        assert data["currentReason"] == truth.check(data["current"], token, now) == "price_observation_too_old"
        for c in data["comparisons"]:
            truth.comparison(c, token, now, c["seconds"])
        hour, day, five = data["comparisons"]
        assert hour["reason"] == day["reason"] == "price_observation_too_old"
        assert five["reference"] is not None and five["reason"] == "current_price_unavailable"
        at_own, _ = api.data(f"/v1/tokens/{LAGGING}/{token}/price-changes?windows=24h&to={iso(at)}")
        assert at_own["current"]["sampledAt"] == iso(at) and truth.check(at_own["current"], token, at) is None
        truth.comparison(at_own["comparisons"][0], token, at, DAY)


def test_a_batch_across_chains_equals_the_single_answers(api, stack, curated):
    named = []
    for cid in CHAINS:
        named += [(cid, t) for t in listed(api, curated, stack, cid, pinned(api, cid))[:3]]
    query = ",".join(f"{cid}:{t}" for cid, t in [*named, named[0]])
    data, meta = api.data(f"/v1/prices?tokens={query}")
    assert meta["chainIds"] == sorted(CHAINS)
    assert [(i["chainId"], i["address"]) for i in data["items"]] == named
    for item in data["items"]:
        single, _ = api.data(f"/v1/tokens/{item['chainId']}/{item['address']}/prices")
        assert item == {"chainId": item["chainId"], "address": item["address"], "current": single["current"],
                        "reason": single["reason"]}
        assert item["current"] is not None and Decimal(item["current"]["priceUsd"]) > 0
