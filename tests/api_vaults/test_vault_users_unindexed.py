"""P&L of a wallet whose latest interactions the warehouse has not indexed yet: the chain moves
on without a history run (this module advances its own stack's devnet clock, so it has a stack of
its own and does not depend on test order)."""
from __future__ import annotations

from ve_analytics.core.epochs import HOUR
from users_stack import users_stack  # noqa: F401 - the module's fixture


def ok(api, path, **params):
    r = api.get(path, params=params)
    assert r.status_code == 200, r.text
    return r.json()


def test_unindexed_interactions_make_pnl_unknown(users_stack):
    """After the chain moves on without a history run, a wallet that interacted since has a live
    balance its indexed events do not reach: P&L unknown, totals' pnl null, degraded."""
    before = ok(users_stack.api, "/vaults")["meta"]["indexedBlock"]
    users_stack.advance(3 * HOUR)
    api = users_stack.fresh_api()
    block = ok(api, "/vaults")["meta"]["indexedBlock"]
    moved = []
    for u in users_stack.truth("vault-users", block=block)["users"]:
        for t in users_stack.truth("vault-positions", user=u["user"], block=block)["positions"]:
            late = [i for i in t["interactions"] if i["blockNumber"] > before]
            if late and int(t["shares"]) > 0:
                moved.append((u["user"], t))
    assert moved, "no wallet interacted in the 3 hours after the backfill"
    user, t = moved[0]
    body = ok(api, f"/users/{user}/positions")
    p = next(p for p in body["data"]["positions"] if p["vault"]["key"] == t["key"])
    assert p["sharesRaw"] == t["shares"] and p["valueUsd"] is not None
    assert p["indexedNetSharesRaw"] != p["sharesRaw"]
    assert (p["pnlComplete"], p["pnlUsd"], p["depositedUsd"], p["withdrawnUsd"]) == (False, None, None, None)
    assert body["data"]["pnlComplete"] is False and body["data"]["totalPnlUsd"] is None
    assert body["data"]["totals"]["usdComplete"] is True and body["meta"]["degraded"] is True
