"""Rebases end to end against the devnet's rewards distributor: its checkpoints and claims indexed by
the history job, each veNFT's share read at the epoch's start, and /v1/accounts/{address}/rewards
(kind rebase), /activity (rebaseClaim, lockDepositFor) and /portfolio over them.

The module has a stack of its own: the session's chains are six days old, and a rebase needs two
flips (the first checkpoints the genesis week, when no veNFT had power). Chain 56 here has 16 days
of history, so at any instant at least one week with power was checkpointed two or more days
before the snapshot, and some of its veNFTs claimed it while others did not. The expected amounts
are recomputed from the simulation's locks (power at the epoch's start) and its checkpoints, not
read from the subgraph's rows; every answer is checked against /openapi.json.
"""
from __future__ import annotations

import calendar
import dataclasses
import json
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

import httpx
import pytest

from session_api import STALE_AFTER_MINUTES
from session_curation import REPO_SOURCE
from support import instant
from support.api_server import ApiServer
from support.chains import with_devnet_book
from support.contract_check import CheckedClient
from support.warehouse import start_warehouse

CHAIN, SEED, HISTORY_DAYS = 56, 2031, 16
WEEK, DAY, QUARTER_HOUR = 7 * 86400, 86400, 900
OWNERS = 8  # the claimants with the most claims, and the holders with the most unclaimed weeks


def unix(text: str) -> int:
    return calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ"))


@dataclasses.dataclass
class RebaseStack:
    settings: object
    devnet: object
    warehouse: object
    snapshot_at: int

    def truth(self, path: str, **params) -> dict:
        r = httpx.get(f"{self.devnet.url}/chains/{CHAIN}/truth/{path}", params=params, timeout=30)
        return r.raise_for_status().json()

    @property
    def sim(self):
        return self.devnet.sim(CHAIN)


@pytest.fixture(scope="module")
def rebase_stack(tmp_path_factory) -> RebaseStack:
    from devnet.server import DevnetServer
    from ve_analytics.orchestration.backfill import run_history, run_snapshot
    from ve_analytics.warehouse.migrate import migrate

    data_dir: Path = tmp_path_factory.mktemp("rebases")
    warehouse, base, warehouse_url = start_warehouse(data_dir)
    now = instant.now() - 3600  # behind the wall clock, as Dagster's partitions follow it
    if now % QUARTER_HOUR < 5:
        now += 5  # a snapshot time's block is final only once the head has passed it
    devnet = DevnetServer(seed=SEED, history_days=HISTORY_DAYS, chains=(CHAIN,), now=now, manual_clock=True).start()
    try:
        settings = with_devnet_book(dataclasses.replace(
            base, data_dir=data_dir, clickhouse_url=warehouse_url, clickhouse_database="vea_rebases_test",
            dagster_home=data_dir / "dagster"), devnet.url, data_dir)
        migrate(settings)
        genesis = devnet.sim(CHAIN).genesis_ts
        for day in range(genesis - genesis % DAY, now, DAY):  # every day from deployment, today's up to the head
            run_history(settings, time.strftime("%Y-%m-%d", time.gmtime(day)), chain_id=CHAIN)
        snapshot_at = now - now % QUARTER_HOUR
        run_snapshot(settings, snapshot_at, chain_id=CHAIN)
        yield RebaseStack(settings, devnet, warehouse, snapshot_at)
    finally:
        devnet.stop()
        warehouse.stop()


@pytest.fixture(scope="module")
def api(rebase_stack, tmp_path_factory):
    from ve_analytics.orchestration.curation import materialize_curation

    folder = tmp_path_factory.mktemp("rebases-api")
    source = json.loads(REPO_SOURCE.read_text())
    source["chains"] = {cid: chain for cid, chain in source["chains"].items() if int(cid) == CHAIN}
    (folder / "curation.json").write_text(json.dumps(source))
    materialize_curation(rebase_stack.settings, folder / "curation.json")
    # the snapshot is an hour behind the wall clock (Dagster's partitions follow it): not stale here
    settings = dataclasses.replace(rebase_stack.settings, stale_after_minutes=STALE_AFTER_MINUTES, api_workers=1)
    with ApiServer(settings, log_path=folder / "api.log", families=("v1",)) as server, \
            httpx.Client(timeout=60) as http:
        yield CheckedClient(server.url, http)


@pytest.fixture(scope="module")
def served(rebase_stack, api) -> dict[str, tuple[list[dict], dict, dict]]:
    """Per owner picked: its rebase rows, its chain record and the devnet's truth at the snapshot block."""
    sim = rebase_stack.sim
    claims = Counter(c["owner"] for c in sim.gov.rebases.claims if c["timestamp"] < rebase_stack.snapshot_at)
    block = sim.block_at(rebase_stack.snapshot_at)
    unclaimed = Counter()
    for owner in sim.gov.owner_tokens:
        unclaimed[owner] = len(rebase_stack.truth("account-rebases", owner=owner, block=block)["claimable"])
    picked = [o for o, _ in claims.most_common(OWNERS // 2)] + [o for o, _ in unclaimed.most_common(OWNERS // 2)]
    out = {}
    for owner in dict.fromkeys(picked):
        path = f"/v1/accounts/{owner}/rewards?kind=rebase&limit=50"
        r = api.get(path)
        assert r.status_code == 200, (path, r.text)
        rows, first = api.every_row(path)
        record = first["data"]["chains"][0]
        assert record["blockNumber"] == block and record["complete"], record
        out[owner] = (rows, record, rebase_stack.truth("account-rebases", owner=owner, block=block))
    return out


def expected_rebase(sim, token_id: int, epoch: int) -> int:
    """The distributor's share of a veNFT for a week: its power at the week's start over the total then."""
    r = sim.gov.rebases
    return sim.gov.balance_of_nft(token_id, epoch) * r.tokens_per_week[epoch] // r.ve_supply[epoch]


def test_checkpoints_and_shares_are_the_distributors(rebase_stack):
    from ve_analytics.warehouse.client import get_client

    truth = rebase_stack.truth("rebases", block=rebase_stack.sim.block_at(rebase_stack.snapshot_at))
    paid = [e for e in truth["epochs"] if int(e["amount"]) > 0]
    assert paid, truth["epochs"]  # a week with power was checkpointed
    with get_client(rebase_stack.settings) as client:
        stored = {int(r[0]): (str(r[1]), str(r[2]), int(r[3])) for r in client.query(
            "SELECT toUnixTimestamp(epoch), amount_raw, ve_supply_raw, venfts FROM rebase_epochs FINAL").result_rows}
        shares = client.query("SELECT venft_id, toUnixTimestamp(epoch), rebase_raw FROM venft_rebases FINAL").result_rows
    assert {e["epoch"]: (e["amount"], e["veSupply"]) for e in truth["epochs"]} == {k: v[:2] for k, v in stored.items()}
    per_epoch = Counter(int(e) for _, e, _ in shares)
    for epoch, (amount, _, venfts) in stored.items():
        assert venfts == per_epoch[epoch]
        total = sum(int(r) for _, e, r in shares if int(e) == epoch)
        assert int(amount) - venfts <= total <= int(amount)  # each share rounded down
    for tid, epoch, raw in shares:
        assert int(raw) == expected_rebase(rebase_stack.sim, int(tid), int(epoch))


def test_each_owners_rebases_are_the_distributors(rebase_stack, served):
    sim, claimable, claimed = rebase_stack.sim, 0, 0
    for owner, (rows, record, truth) in served.items():
        assert all(r["kind"] == "rebase" and r["gauge"] is None and r["pool"] is None for r in rows)
        assert all(r["token"]["address"] == sim.core.id for r in rows)
        open_rows = {(int(r["tokenId"]), unix(r["epochStart"])): r["amount"]["raw"] for r in rows
                     if r["status"] == "claimable"}
        assert open_rows == {(t["tokenId"], t["epoch"]): t["amount"] for t in truth["claimable"]}, owner
        paid: dict[tuple, list[dict]] = {}
        for r in rows:
            if r["status"] == "claimed":
                paid.setdefault((int(r["tokenId"]), r["claim"]["transactionHash"]), []).append(r)
        want = {(c["tokenId"], c["transactionHash"]): c for c in truth["claimed"]}
        assert paid.keys() == want.keys(), owner
        for k, parts in paid.items():
            c = want[k]
            epochs = sorted(unix(r["epochStart"]) for r in parts)
            assert epochs == list(range(c["fromEpoch"], c["toEpoch"], WEEK))  # one row per week the claim took
            assert sum(int(r["amount"]["raw"]) for r in parts) == int(c["amount"])
            for r in parts:
                assert int(r["amount"]["raw"]) == expected_rebase(sim, k[0], unix(r["epochStart"]))
                assert r["claim"]["blockNumber"] == c["blockNumber"] and r["value"]["basis"] == "at_claim"
            usd = sum(Fraction(r["value"]["usd"]) for r in parts)
            claim = next(x for x in sim.gov.rebases.claims if x["id"] == c["id"])
            assert abs(float(usd) - claim["amountUSD"]) <= 1e-9 * max(1.0, claim["amountUSD"])
        claimable += len(open_rows)
        claimed += len(paid)
        totals = {(t["status"]): int(t["amount"]["raw"]) for t in record["totals"] if t["kind"] == "rebase"}
        assert totals == {s: sum(int(r["amount"]["raw"]) for r in rows if r["status"] == s)
                          for s in {r["status"] for r in rows}}
    assert claimable > 5 and claimed > 5


def test_claims_and_deposits_are_in_the_activity_feed(rebase_stack, api, served):
    sim = rebase_stack.sim
    for owner in served:
        rows, _ = api.every_row(f"/v1/accounts/{owner}/activity?kinds=rebaseClaim,lockDepositFor&limit=100")
        got = {(r["kind"], r["transactionHash"]): r for r in rows}
        want = {}
        for c in sim.gov.rebases.claims:
            if c["owner"] == owner and c["timestamp"] < rebase_stack.snapshot_at:
                want[("rebaseClaim", c["transactionHash"])] = c
        for e in sim.gov.escrow_events:
            if e["kind"] == "depositFor" and e["to"] == owner and e["timestamp"] < rebase_stack.snapshot_at:
                want[("lockDepositFor", e["transactionHash"])] = e
        assert got.keys() == want.keys(), owner
        for (kind, _), r in got.items():
            w = want[(kind, r["transactionHash"])]
            if kind == "rebaseClaim":
                b = r["rebase"]
                assert (int(b["tokenId"]), unix(b["fromEpoch"]), unix(b["toEpochExclusive"]), b["toLock"],
                        b["amount"]["raw"]) == (w["tokenId"], w["fromEpoch"], w["toEpoch"], w["toLock"], str(w["amount"]))
            else:
                assert (int(r["lock"]["tokenId"]), r["lock"]["amount"]["raw"]) == (w["tokenId"], str(w["amount"]))


def test_the_portfolio_counts_claimable_rebases_in_its_rewards(api, served):
    owner, (rows, _, _) = max(served.items(), key=lambda item: sum(r["status"] == "claimable" for r in item[1][0]))
    body = api.get(f"/v1/accounts/{owner}/rewards?status=claimable&limit=500").json()["data"]
    usd = sum((Fraction(t["usd"]) for c in body["chains"] for t in c["totals"]
               if t["usd"] is not None and t["kind"] != "emission"), Fraction(0))  # emissions: a kind of their own
    portfolio = api.get(f"/v1/accounts/{owner}/portfolio").json()["data"]
    rewards = [p for c in portfolio["chains"] for p in c["kinds"] if p["kind"] == "rewards"]
    assert rewards and any(r["kind"] == "rebase" and r["status"] == "claimable" for r in rows)
    assert abs(sum(Fraction(p["usd"]) for p in rewards if p["usd"] is not None) - usd) < Fraction(1, 10 ** 30)
