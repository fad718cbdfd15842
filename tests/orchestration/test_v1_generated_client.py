"""The /v1 contract read by the common Python generator (openapi-python-client), over the
session's backfilled chains with the repository's curation published: it generates without a
warning; a representative set of routes called through the generated client gives typed models
that hold the very answer the API sent; and a /v1/pools traversal in pages of 2, by
`pageInfo.nextCursor` through the client, visits the pools of one unpaged answer in its order.
"""
from __future__ import annotations

import importlib

import httpx
import pytest

from devnet.sim.xcore import WALLETS
from session_api import v1_server
from support.generated_client import as_sent, body, generate, operation


@pytest.fixture(scope="module")
def served(stack, tmp_path_factory):
    with v1_server(stack, tmp_path_factory.mktemp("v1-generated-client")) as server:
        package = generate(server.url + "/openapi.json", "v1_client", tmp_path_factory.mktemp("v1-client"))
        with httpx.Client(base_url=server.url, timeout=60) as http:
            client = package.Client(base_url=server.url, raise_on_unexpected_status=True).set_httpx_client(http)
            yield package, client, server.url


@pytest.mark.parametrize("tag, name, path, kwargs", [
    ("reference", "chains", "/v1/chains", {}),
    ("protocol", "protocol", "/v1/protocol", {}),
    ("protocol", "protocol_history", "/v1/protocol/history?days=2", {"days": 2}),
    ("discovery", "tokens", "/v1/tokens?limit=5", {"limit": 5}),
    ("curation", "categories", "/v1/categories", {}),
    ("governance", "bribes", "/v1/bribes?limit=5", {"limit": 5}),
    ("gauges", "gauges", "/v1/gauges?limit=5", {"limit": 5}),
    ("governance", "epochs", "/v1/epochs?limit=5", {"limit": 5}),
    ("governance", "markets_bribes", "/v1/markets/bribes?limit=5", {"limit": 5}),
    ("governance", "votes", "/v1/votes?limit=5", {"limit": 5}),
    ("auto_manage", "auto_vaults", "/v1/auto-manage/vaults", {}),
    ("xcore", "xcore", "/v1/xcore", {}),
    ("xcore", "xcore_epochs", "/v1/xcore/epochs?limit=3", {"limit": 3}),
])
def test_v1_routes_through_the_generated_client(served, tag, name, path, kwargs):
    package, client, url = served
    model = operation(package, tag, name).sync(client=client, **kwargs)
    assert type(model).__module__.startswith("v1_client.models.")  # a typed model, not None or a dict
    assert as_sent(model.to_dict()) == body(url + path)


def test_a_pools_traversal_follows_next_cursor_through_the_generated_client(served):
    package, client, url = served
    pools = operation(package, "discovery", "pools")
    whole = body(url + "/v1/pools?limit=500")
    assert whole["pageInfo"]["hasNextPage"] is False and len(whole["data"]["rows"]) > 4  # one page holds them all
    seen, cursor, pages = [], None, 0
    while True:
        page = pools.sync(client=client, limit=2, **({"cursor": cursor} if cursor else {}))
        seen += [(row.chain_id, row.address) for row in page.data.rows]
        pages += 1
        if not page.page_info.has_next_page:
            assert page.page_info.next_cursor is None
            break
        cursor = page.page_info.next_cursor
        assert isinstance(cursor, str) and cursor
    assert seen == [(row["chainId"], row["address"]) for row in whole["data"]["rows"]]
    assert pages == (len(seen) + 1) // 2


def test_a_pool_detail_through_the_generated_client(served):
    package, client, url = served
    row = body(url + "/v1/pools?limit=1")["data"]["rows"][0]
    model = operation(package, "pools", "pool").sync(row["chainId"], row["address"], client=client)
    assert type(model).__module__.startswith("v1_client.models.")
    assert as_sent(model.to_dict()) == body(url + f"/v1/pools/{row['chainId']}/{row['address']}")


@pytest.mark.parametrize("name, query, kwargs", [
    ("pool_history", "?days=2", {"days": 2}),
    ("pool_daily", "?days=3", {"days": 3}),
    ("pool_trailing", "", {}),
    ("pool_bribes", "?limit=3", {"limit": 3}),
])
def test_a_pools_sub_routes_through_the_generated_client(served, name, query, kwargs):
    """A pool's periods with their historical states, its trailing windows and its epochs of bribes."""
    package, client, url = served
    row = body(url + "/v1/pools?limit=1")["data"]["rows"][0]
    model = operation(package, "pools", name).sync(row["chainId"], row["address"], client=client, **kwargs)
    assert type(model).__module__.startswith("v1_client.models.")
    path = f"/v1/pools/{row['chainId']}/{row['address']}/{name.removeprefix('pool_')}{query}"
    assert as_sent(model.to_dict()) == body(url + path)


def test_a_ticks_traversal_through_the_generated_client(served):
    """A CL pool's ticks in pages of 1 by nextCursor through the client equal its unpaged ticks."""
    package, client, url = served
    row = body(url + "/v1/pools?limit=500&poolTypes=cl")["data"]["rows"][0]
    ticks = operation(package, "pools", "pool_ticks")
    whole = ticks.sync(row["chainId"], row["address"], client=client, limit=500)
    assert as_sent(whole.to_dict()) == body(url + f"/v1/pools/{row['chainId']}/{row['address']}/ticks?limit=500")
    seen, cursor = [], None
    while True:
        page = ticks.sync(row["chainId"], row["address"], client=client, limit=1, **({"cursor": cursor} if cursor else {}))
        seen += [t.to_dict() for t in page.data.ticks]
        cursor = page.page_info.next_cursor
        if not page.page_info.has_next_page:
            break
    assert seen == [t.to_dict() for t in whole.data.ticks] and len(seen) == whole.data.invariants.tick_count


@pytest.mark.parametrize("name, suffix, query, kwargs", [
    ("gauge", "", "", {}),
    ("gauge_history", "/history", "?limit=3", {"limit": 3}),
    ("gauge_rewards", "/rewards", "?limit=3", {"limit": 3}),
    ("gauge_bribes", "/bribes", "?limit=3", {"limit": 3}),
])
def test_a_gauge_and_its_sub_routes_through_the_generated_client(served, name, suffix, query, kwargs):
    """The most-voted gauge (a system gauge included when it leads), its epochs, rewards and bribes."""
    package, client, url = served
    row = body(url + "/v1/gauges?limit=1")["data"]["rows"][0]
    model = operation(package, "gauges", name).sync(row["chainId"], row["address"], client=client, **kwargs)
    assert type(model).__module__.startswith("v1_client.models.")
    assert as_sent(model.to_dict()) == body(url + f"/v1/gauges/{row['chainId']}/{row['address']}{suffix}{query}")


def test_an_epoch_through_the_generated_client(served):
    package, client, url = served
    row = next(r for r in body(url + "/v1/epochs?limit=20")["data"]["rows"] if not r["gap"])
    model = operation(package, "governance", "epoch").sync(row["chainId"], row["epochStart"], client=client)
    assert type(model).__module__.startswith("v1_client.models.")
    assert as_sent(model.to_dict()) == body(url + f"/v1/epochs/{row['chainId']}/{row['epochStart']}")


def test_both_views_of_the_votes_through_the_generated_client(served):
    """The page's model follows the view the request chose (a oneOf on `view`)."""
    package, client, url = served
    votes = operation(package, "governance", "votes")
    view_enum = next(v for k, v in vars(importlib.import_module(f"{package.__name__}.models")).items()
                     if k.endswith("View") and {m.value for m in v} == {"events", "current"})
    pages = {}
    for name in ("events", "current"):
        model = votes.sync(client=client, view=view_enum(name), limit=5)
        assert as_sent(model.to_dict()) == body(url + f"/v1/votes?view={name}&limit=5")
        pages[name] = type(model.data).__name__
    assert pages == {"events": "V1VoteEventPage", "current": "V1VoteAllocationPage"}


def test_bridge_messages_through_the_generated_client(served):
    package, client, url = served
    page = operation(package, "bridge", "bridge").sync(client=client, limit=5)
    assert as_sent(page.to_dict()) == body(url + "/v1/bridge?limit=5")
    guid = page.data.rows[0].guid
    detail = operation(package, "bridge", "bridge_message").sync(guid, client=client)
    assert type(detail).__module__.startswith("v1_client.models.")
    assert as_sent(detail.to_dict()) == body(url + f"/v1/bridge/{guid}")


@pytest.mark.parametrize("name, suffix, kwargs", [
    ("auto_vault", "", {}),
    ("auto_vault_history", "/history?days=2", {"days": 2}),
    ("auto_vault_rebalances", "/rebalances?limit=5", {"limit": 5}),
    ("auto_vault_activity", "/activity?limit=5", {"limit": 5}),
])
def test_a_vault_and_its_sub_routes_through_the_generated_client(served, stack, name, suffix, kwargs):
    package, client, url = served
    vault = next(v.address.lower() for v in stack.settings.vaults(56) if v.kind == "cl")
    model = operation(package, "auto_manage", name).sync(56, vault, client=client, **kwargs)
    assert type(model).__module__.startswith("v1_client.models.")
    assert as_sent(model.to_dict()) == body(url + f"/v1/auto-manage/vaults/56/{vault}{suffix}")


def test_an_accounts_xcore_through_the_generated_client(served):
    package, client, url = served
    holder = WALLETS[0]
    model = operation(package, "accounts", "account_xcore").sync(holder, client=client)
    assert type(model).__module__.startswith("v1_client.models.")
    assert as_sent(model.to_dict()) == body(url + f"/v1/accounts/{holder}/xcore")


def test_an_accounts_voting_positions_and_votes_through_the_generated_client(served):
    package, client, url = served
    owner = body(url + "/v1/votes?view=current&limit=1")["data"]["rows"][0]["owner"]
    positions = operation(package, "accounts", "account_voting_positions").sync(owner, client=client, limit=5)
    assert type(positions).__module__.startswith("v1_client.models.") and positions.data.rows
    assert as_sent(positions.to_dict()) == body(url + f"/v1/accounts/{owner}/voting-positions?limit=5")
    votes = operation(package, "accounts", "account_votes").sync(owner, client=client, limit=5)
    assert as_sent(votes.to_dict()) == body(url + f"/v1/accounts/{owner}/votes?limit=5")


def test_an_accounts_activity_through_the_generated_client(served):
    package, client, url = served
    model = operation(package, "accounts", "account_activity").sync(WALLETS[0], client=client, limit=5)
    assert type(model).__module__.startswith("v1_client.models.") and model.data.rows
    assert as_sent(model.to_dict()) == body(url + f"/v1/accounts/{WALLETS[0]}/activity?limit=5")


def test_an_accounts_rewards_through_the_generated_client(served):
    package, client, url = served
    owner = body(url + "/v1/votes?view=current&limit=1")["data"]["rows"][0]["owner"]
    model = operation(package, "accounts", "account_rewards").sync(owner, client=client, limit=5)
    assert type(model).__module__.startswith("v1_client.models.") and model.data.chains
    assert as_sent(model.to_dict()) == body(url + f"/v1/accounts/{owner}/rewards?limit=5")


def test_an_accounts_liquidity_positions_through_the_generated_client(served, stack):
    package, client, url = served
    sim = stack.devnet.sim(56)
    provider = max(sim.liquidity.providers, key=lambda o: len(sim.liquidity.positions_of(o, sim.now())))
    model = operation(package, "accounts", "account_liquidity_positions").sync(provider, client=client, limit=5)
    assert type(model).__module__.startswith("v1_client.models.") and model.data.rows
    assert as_sent(model.to_dict()) == body(url + f"/v1/accounts/{provider}/liquidity-positions?limit=5")


def test_an_accounts_portfolio_through_the_generated_client(served):
    package, client, url = served
    owner = body(url + "/v1/votes?view=current&limit=1")["data"]["rows"][0]["owner"]
    model = operation(package, "accounts", "account_portfolio").sync(owner, client=client)
    assert type(model).__module__.startswith("v1_client.models.") and model.data.chains
    assert as_sent(model.to_dict()) == body(url + f"/v1/accounts/{owner}/portfolio")
