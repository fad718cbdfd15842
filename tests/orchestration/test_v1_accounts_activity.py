"""/v1/accounts/{address}/activity over the session's backfilled chains, against the devnet's own
records: for a handful of addresses (each chain's foundation, which votes, is paid rewards and on
chain 56 holds xCORE; the owner of the most veNFTs; the busiest vault user; both sides of a chain's
first veNFT transfer and the owner of its first merge; xCORE wallets; the busiest liquidity
provider), every record of a chain up
to where its events of that domain are indexed is the devnet's (Voter transactions of veNFTs the
address owned then, its lock operations and veNFT transfers and merges, the rewards paid to it,
its vault deposits and redemptions, its xCORE moves, its liquidity events), with the same block, transaction, log index
and amounts, newest first; filters by kind and chain select what they name; traversals equal the
unpaged answer; an address with nothing is 200 with no rows. Every answer is checked against
/openapi.json."""
from __future__ import annotations

import calendar
import time

import httpx
import pytest

from devnet.sim.xcore import WALLETS
from session_api import v1_server
from support.contract_check import CheckedClient

NOBODY = "0x" + "5a" * 20
ZERO = "0x" + "00" * 20
XCORE_KINDS = {"deposit": "xcoreDeposit", "exit": "xcoreExit", "bridgeOut": "xcoreBridgeOut", "bridgeIn": "xcoreBridgeIn"}
LP_KINDS = {"v2Add": "lpAdd", "clMint": "lpAdd", "v2Remove": "lpRemove", "clBurn": "lpRemove", "v2Stake": "lpStake",
            "clStake": "lpStake", "v2Unstake": "lpUnstake", "clUnstake": "lpUnstake", "clCollect": "lpCollect",
            "claim": "lpClaim"}
LOCK_KINDS = {"create": "lockCreate", "increase": "lockIncrease", "depositFor": "lockDepositFor", "extend": "lockExtend",
              "permanent": "lockPermanent", "withdraw": "lockWithdraw", "merge": "veMerge", "split": "veSplit"}


def unix(text: str) -> int:
    return calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ"))


@pytest.fixture(scope="module")
def api(stack, tmp_path_factory):
    with v1_server(stack, tmp_path_factory.mktemp("v1-accounts-activity")) as server, httpx.Client(timeout=60) as http:
        yield CheckedClient(server.url, http)


def every_row(api, path: str, limit: int = 500) -> tuple[list[dict], dict]:
    """Every row of the traversal in pages of `limit`, and its first page's body."""
    return api.every_row(path + ("&" if "?" in path else "?") + f"limit={limit}")


def span(cover: dict | None) -> tuple[int, int]:
    """The indexed seconds [from, until) of one domain's coverage record (empty when none)."""
    if cover is None or cover["indexedUntil"] is None:
        return 0, 0
    return unix(cover["indexedFrom"]), unix(cover["indexedUntil"])


def truth(stack, cid: int, address: str, cover: dict) -> list[tuple]:
    """The devnet's records of `address` on the chain within each domain's indexed span, as
    (kind, id, block, transaction, log index, what) tuples."""
    sim, out = stack.devnet.sim(cid), []
    lo, hi = span(cover["governance"])
    txs: dict[tuple, list[dict]] = {}
    for e in sim.gov.book.events:
        if e["owner"].lower() == address and lo <= e["timestamp"] < hi:
            txs.setdefault((e["transactionHash"], e["tokenId"]), []).append(e)
    for (tx, tid), logs in txs.items():
        first = min(logs, key=lambda e: e["logIndex"])
        weights = {name: sorted((e["target"], str(e["weight"])) for e in logs if e["eventName"] == name)
                   for name in ("Voted", "Abstained")}
        out.append((first["kind"], f"{tx}-{first['logIndex']}", first["blockNumber"], tx, first["logIndex"],
                    (str(tid), weights["Voted"], weights["Abstained"])))
    for e in sim.gov.escrow_events:
        if address in (e["from"], e["to"]) and lo <= e["timestamp"] < hi:
            kind = ("veTransferIn" if e["to"] == address else "veTransferOut") if e["kind"] == "transfer" \
                else LOCK_KINDS[e["kind"]]
            out.append((kind, e["id"], e["blockNumber"], e["transactionHash"], e["logIndex"],
                        (str(e["tokenId"]), e["from"], e["to"], str(e["amount"]), e["unlockTime"], e["permanent"],
                         None if e.get("splitFrom") is None else str(e["splitFrom"]))))
    for c in sim.gov.claims:
        if lo <= c["timestamp"] < hi and sim.gov.lock_state(int(c["veNFT"]), c["timestamp"])[3] == address:
            out.append(("claim", c["id"], c["blockNumber"], c["transactionHash"], int(c["id"].rsplit("-", 1)[1]),
                        (c["veNFT"], c["kind"], c["token"], str(c["amount"]))))
    for c in sim.gov.rebases.claims:  # the rewards distributor's Claimed logs, paid to the veNFT's owner then
        if c["owner"] == address and lo <= c["timestamp"] < hi:
            out.append(("rebaseClaim", c["id"], c["blockNumber"], c["transactionHash"], c["logIndex"],
                        (str(c["tokenId"]), c["fromEpoch"], c["toEpoch"], c["toLock"], str(c["amount"]))))
    lo, hi = span(cover["vaults"])
    for v in sim.vaults.by_user.get(address, []):
        if lo <= v["timestamp"] < hi:
            out.append(("vaultDeposit" if v["kind"] == "deposit" else "vaultRedemption", v["id"], v["blockNumber"],
                        v["transactionHash"], v["logIndex"], (v["vault"], str(v["shares"]), str(v["amount0"]),
                                                              str(v["amount1"]))))
    lo, hi = span(cover["xcore"])
    ledger = stack.devnet.state.xcore.ledgers.get(cid) if stack.devnet.state.xcore else None
    for x in ledger.events if ledger else ():
        if x.get("account") == address and x["kind"] in XCORE_KINDS and lo <= x["timestamp"] < hi:
            out.append((XCORE_KINDS[x["kind"]], x["id"], x["blockNumber"], x["transactionHash"], x["logIndex"],
                        (str(x["shares"]), None if x["amount"] is None else str(x["amount"]), x["guid"])))
    lo, hi = span(cover["liquidity"])
    for e in sim.liquidity.events:
        if e["owner"] == address and lo <= e["timestamp"] < hi:
            raw = {k: None if e.get(k) is None else str(e[k]) for k in ("amount0", "amount1", "fees0", "fees1", "emissions")}
            out.append((LP_KINDS[e["kind"]], e["id"], e["blockNumber"], e["transactionHash"], e["logIndex"],
                        (e["kind"], e["position"].replace(f"v2:{address}:", "v2:"), *raw.values())))
    return sorted(out)


def served(rows: list[dict], cid: int) -> list[tuple]:
    out = []
    for r in (r for r in rows if r["chainId"] == cid):
        if r["vote"]:
            v = r["vote"]
            what = (v["tokenId"], sorted((a["target"], a["weight"]["raw"]) for a in v["voted"]),
                    sorted((a["target"], a["weight"]["raw"]) for a in v["abstained"]))
        elif r["lock"]:
            k = r["lock"]
            what = (k["tokenId"], k["from"], k["to"], k["amount"]["raw"],
                    None if k["unlockAt"] is None else unix(k["unlockAt"]), k["permanent"], k["splitFrom"])
        elif r["claim"]:
            c = r["claim"]
            what = (c["tokenId"], c["rewardKind"], c["token"]["address"], c["amount"]["raw"])
        elif r["rebase"]:
            b = r["rebase"]
            what = (b["tokenId"], unix(b["fromEpoch"]), unix(b["toEpochExclusive"]), b["toLock"], b["amount"]["raw"])
        elif r["vault"]:
            v = r["vault"]
            what = (v["vault"], v["shares"]["raw"], v["amount0"]["raw"], v["amount1"]["raw"])
        elif r["xcore"]:
            x = r["xcore"]
            what = (x["shares"]["raw"], x["amount"]["raw"], x["guid"])
        else:
            q = r["liquidity"]
            what = (q["event"], q["positionId"], *(q[k]["raw"] for k in ("amount0", "amount1", "fees0", "fees1", "emissions")))
        out.append((r["kind"], r["id"], r["blockNumber"], r["transactionHash"], r["logIndex"], what))
    return sorted(out)


@pytest.fixture(scope="module")
def addresses(stack, api) -> list[str]:
    _, body = every_row(api, f"/v1/accounts/{NOBODY}/activity")
    out = list(WALLETS[:3])
    for chain in body["data"]["coverage"]:
        sim = stack.devnet.sim(chain["chainId"])
        out.append(sim.gov.chain.foundation_wallet.lower())
        owners: dict[str, int] = {}
        for e in sim.gov.book.events:
            owners[e["owner"].lower()] = owners.get(e["owner"].lower(), 0) + 1
        out.append(max(owners, key=lambda o: (owners[o], o)))
        if sim.vaults.by_user:
            out.append(max(sim.vaults.by_user, key=lambda u: (len(sim.vaults.by_user[u]), u)))
        moved = [e for e in sim.gov.escrow_events if e["kind"] in ("transfer", "merge")]
        out += [a for e in moved[:1] + [e for e in moved if e["kind"] == "merge"][:1] for a in (e["from"], e["to"])
                if a != ZERO]
        out += [e["from"] for e in sim.gov.escrow_events if e["kind"] == "split"][:1]  # a split's owner
        providers: dict[str, int] = {}
        for e in sim.liquidity.events:
            providers[e["owner"]] = providers.get(e["owner"], 0) + 1
        out.append(max(providers, key=lambda o: (providers[o], o)))  # the busiest liquidity provider
    return list(dict.fromkeys(out))


def test_every_record_is_the_devnets(api, stack, addresses):
    kinds, truths = set(), set()
    for address in addresses:
        rows, body = every_row(api, f"/v1/accounts/{address}/activity")
        assert body["data"]["address"] == address and body["data"]["filters"]["kinds"]
        keys = [(-unix(r["at"]), r["chainId"], -r["blockNumber"], -r["logIndex"], r["kind"], r["id"]) for r in rows]
        assert keys == sorted(keys) and len(set(keys)) == len(keys)
        for cover in body["data"]["coverage"]:
            cid = cover["chainId"]
            expected = truth(stack, cid, address, cover)
            assert served(rows, cid) == expected, (address, cid)
            truths |= {t[0] for t in expected}
            assert all(unix(r["at"]) < unix(cover["snapshotAt"]) for r in rows if r["chainId"] == cid)
        kinds |= {r["kind"] for r in rows}
    # the addresses exercise every kind the devnet's accounts have in the indexed spans (which depend
    # on the instant: a session starting minutes into an epoch has no claim of the one before yet)
    assert kinds == truths and {"vote", "lockCreate", "veTransferIn", "veTransferOut", "veSplit", "vaultDeposit",
                                "xcoreDeposit", "lpAdd", "lpRemove", "lpStake", "lpUnstake", "lpClaim"} <= kinds, kinds


def test_filters_and_traversals(api, addresses):
    busiest = max(addresses, key=lambda a: len(every_row(api, f"/v1/accounts/{a}/activity")[0]))
    rows, _ = every_row(api, f"/v1/accounts/{busiest}/activity")
    assert len(rows) > 4
    assert every_row(api, f"/v1/accounts/{busiest}/activity", limit=3)[0] == rows
    kind, cid = rows[len(rows) // 2]["kind"], rows[len(rows) // 2]["chainId"]
    for query, wanted in {f"kinds={kind}": lambda r: r["kind"] == kind,
                          f"kinds={kind},claim&chainIds={cid}": lambda r: r["kind"] in (kind, "claim") and r["chainId"] == cid,
                          f"chainIds={cid}": lambda r: r["chainId"] == cid}.items():
        got, body = every_row(api, f"/v1/accounts/{busiest}/activity?{query}", limit=4)
        assert got == [r for r in rows if wanted(r)] and got, query
    # one address active in two domains on one chain: chain 56's foundation votes and holds xCORE
    assert any({"vote", "xcoreDeposit"} <= {r["kind"] for r in every_row(
        api, f"/v1/accounts/{a}/activity?chainIds=56")[0]} for a in addresses)


def test_an_address_with_nothing_has_no_rows(api):
    data, meta = api.data(f"/v1/accounts/{NOBODY}/activity")
    assert data["rows"] == [] and api.get(f"/v1/accounts/{NOBODY}/activity").json()["pageInfo"]["hasNextPage"] is False
    assert {c["chainId"] for c in data["coverage"]} == {c["chainId"] for c in meta["chains"]}
    for c in data["coverage"]:
        assert c["governance"] is not None  # every session chain has gauges


def test_errors_answer_their_codes(api):
    cases = {
        "/v1/accounts/0x1234/activity": (400, "invalid_address"),
        f"/v1/accounts/{NOBODY}/activity?kinds=vote,swap": (400, "invalid_kinds"),
        f"/v1/accounts/{NOBODY}/activity?kinds=": (400, "invalid_kinds"),
        f"/v1/accounts/{NOBODY}/activity?chainIds=999": (404, "chain_not_public"),
        f"/v1/accounts/{NOBODY}/activity?limit=501": (400, "invalid_limit"),
        f"/v1/accounts/{NOBODY}/activity?cursor=x": (400, "invalid_cursor"),
    }
    for path, (status, code) in cases.items():
        r = api.get(path)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), path
