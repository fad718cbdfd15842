"""Row building without Dagster, readers or a warehouse: subgraph entities and chain reads in, rows out."""
from __future__ import annotations

import subprocess
import sys
from datetime import datetime, timezone

import pytest

from ve_analytics.assets.rows.core_token import PoolSetSeries, core_token_row
from ve_analytics.assets.rows.gauges import epoch_state, gauge_rows
from ve_analytics.assets.rows.governance_events import bribe_rows
from ve_analytics.assets.rows.market import protocol_row
from ve_analytics.assets.rows.values import fsum_or_none, to_raw
from ve_analytics.assets.rows.vaults import TokenBook, pointer_calls, vault_row, with_pointer_answers
from ve_analytics.assets.upstream import SnapshotPoint
from ve_analytics.core.epochs import DAY, HOUR, WEEK
from ve_analytics.core.flows import HourlySeries
from ve_analytics.core.vaults import VaultConfig
from ve_analytics.readers.chain import BlockRef, ChainReadError, GovernanceState

T0 = int(datetime(2026, 3, 5, tzinfo=timezone.utc).timestamp())  # a Thursday: an epoch start
AT = T0 + 2 * DAY + 15 * 60
POINT = SnapshotPoint(AT, BlockRef(1234, AT - 2))
GOV = GovernanceState(1234, 3, 2, 10, 7 * 10**18, T0, 100, 90, 40)
HOURS = HourlySeries([T0 + i * HOUR for i in range(48)], [10.0] * 48, [1.0] * 48)


def test_rows_modules_load_without_dagster():
    code = ("import sys, ve_analytics.assets.rows.market, ve_analytics.assets.rows.gauges, "
            "ve_analytics.assets.rows.vaults, ve_analytics.assets.rows.vault_history, ve_analytics.assets.rows.ve, "
            "ve_analytics.assets.rows.core_token, ve_analytics.assets.rows.hourly, "
            "ve_analytics.assets.rows.governance_events, ve_analytics.assets.rows.xcore; assert 'dagster' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_values_keep_unknown_apart_from_zero():
    assert fsum_or_none([1.0, None]) is None and fsum_or_none([]) == 0.0
    assert to_raw("1.5", 6) == 1_500_000
    with pytest.raises(ValueError):
        to_raw("0.0000001", 6)


def test_protocol_tvl_is_unknown_when_a_pool_is_and_a_pool_count_mismatch_warns():
    pools = [{"id": "0xa", "type": "v2-stable", "totalValueLockedUSD": "10"},
             {"id": "0xb", "type": "cl", "totalValueLockedUSD": None}]
    row, warnings = protocol_row(56, POINT, pools, [{"poolCount": "3"}], {"priceUSD": "2"}, GOV, HOURS)
    assert row["tvl_usd"] is None and row["tvl_v2_usd"] == 10.0 and row["tvl_cl_usd"] is None
    assert row["hours_24h"] == 24 and row["volume_24h_usd"] == 240.0 and row["core_price_usd"] == 2.0
    assert warnings == ["block 1234: factories count 3 pools, subgraph lists 2"]
    with pytest.raises(ValueError, match="unknown type"):
        protocol_row(56, POINT, [{"id": "0xc", "type": "v4"}], [], None, GOV, HOURS)


def test_gauge_aprs_and_their_total():
    state = epoch_state(
        gauges=[{"id": "0xg", "pool": {"id": "0xP"}, "isAlive": True, "emissionsEpoch": "7", "votes": "4"}],
        pools=[{"id": "0xp", "totalValueLockedUSD": "3650"}],
        core={"priceUSD": "2"},
        votes=[{"weight": "1", "pool": {"id": "0xp"}, "veNFT": {"id": "1", "isFoundation": True}}],
        bribes=[{"amountUSD": "7", "isFoundation": False, "pool": {"id": "0xp"}}],
    )
    (row,) = gauge_rows(56, AT, state, HOURS, {"0xp": HOURS})
    per_year = 365 * DAY / WEEK
    assert row["foundation_vote_share"] == 0.25 and row["fees_epoch_usd"] == 48.0
    assert row["emission_apr"] == pytest.approx(14 * per_year / 3650)
    assert row["fee_apr"] == pytest.approx(24 * 365 / 3650) and row["bribe_apr"] == pytest.approx(7 * per_year / 3650)
    assert row["total_apr"] == pytest.approx(row["emission_apr"] + row["fee_apr"] + row["bribe_apr"])


def test_core_token_flows_sum_the_pools_containing_it():
    pools = [{"id": "0xa", "totalValueLockedUSD": "5", "volumeUSD": "1", "feesUSD": "0.1"},
             {"id": "0xb", "totalValueLockedUSD": "7", "volumeUSD": None, "feesUSD": "0.2"}]
    flows = PoolSetSeries({"0xa": HOURS, "0xb": HOURS})
    row = core_token_row(56, POINT, "0xcore", {"symbol": "CORE", "decimals": "18", "priceUSD": "2"}, pools,
                         3 * 10**18, HOURS, flows)
    assert row["market_cap_usd"] == 6.0 and row["liquidity_usd"] == 12.0 and row["price_reference_pool"] == "0xb"
    assert row["volume_24h_usd"] == 480.0 and row["volume_lifetime_usd"] is None


def test_vault_pointer_answers_complete_the_views_and_a_failed_pause_read_fails_but_not_a_missing_fee():
    cl = VaultConfig("a", "0x" + "1" * 40, "cl")
    views = {"token0": "0xt0", "token1": "0xt1", "pool": "0xpool", "gauge": "0x" + "0" * 40, "strategy": "0xs",
             "factory": "0xf", "decimals": 18, "totalSupply": 2 * 10**18, "totals": (10**18, 2 * 10**6),
             "isCalm": True, "slippageBps": 50, "lastHarvest": 0, "tickLower": -60, "tickUpper": 60,
             "position": (777, -60, 60), "lastRebalance": T0}
    assert len(pointer_calls([(cl, views)])) == 6
    slot0 = (2**96, 12, 0, 0, 0, True)
    ((_, got),) = with_pointer_answers([(cl, views)], [False, None, False, 1000, "0xFEE", slot0], 1234)
    tokens = TokenBook()
    tokens.learn(["0xt0", "0xt1"], ["A", 18, "B", 6], 1234)
    row = vault_row(56, POINT, cl, got, tokens, {"0xt0": 3.0, "0xt1": 1.0})
    assert row["tick"] == 12 and row["gauge_address"] == "" and row["needs_rebalance"] is None
    assert row["tvl_usd"] == 5.0 and row["share_price_usd"] == 2.5 and row["last_harvest"] is None
    assert (row["reward_fee_bps"], row["fee_recipient"], row["sqrt_price_x96"]) == (1000, "0xfee", 2**96)
    # a strategy without a reward fee: unknown, not zero, and the snapshot still stands
    ((_, got),) = with_pointer_answers([(cl, views)], [False, None, False, None, None, slot0], 1234)
    row = vault_row(56, POINT, cl, got, tokens, {"0xt0": 3.0, "0xt1": 1.0})
    assert (row["reward_fee_bps"], row["fee_recipient"]) == (None, "")
    with pytest.raises(ChainReadError):
        with_pointer_answers([(cl, views)], [None, False, False, 1000, "0xfee", slot0], 1234)


def test_governance_events_land_in_their_epoch():
    cols = bribe_rows(56, [{"id": "0xB-1", "epoch": str(T0 + 100), "amount": "2", "amountUSD": "4",
                            "timestamp": str(T0 + 100), "blockNumber": "9", "token": {"id": "0xT", "decimals": "6"}}])
    assert cols["epoch"] == [datetime.fromtimestamp(T0, tz=timezone.utc)] and cols["amount_raw"] == [2_000_000]
    assert cols["id"] == ["0xb-1"] and cols["amount_usd"] == [4.0]


def test_voter_logs_gauge_events_and_gauge_epochs():
    from ve_analytics.assets.rows.voter_events import gauge_epoch_rows, gauge_event_rows, vote_action_rows

    t = T0 + WEEK + 5 * HOUR
    votes = vote_action_rows(56, [{
        "id": "0xTX-3", "kind": "poke", "eventName": "Voted", "tokenId": "12", "owner": "0xOWNER", "target": "0xP",
        "weight": "1.5", "poolWeight": "10", "totalWeight": "100.000000000000000001", "timestamp": str(t),
        "blockNumber": "77", "transactionHash": "0xTX", "logIndex": "3", "pool": {"id": "0xP"}, "gauge": {"id": "0xG"}}])
    assert votes["epoch"] == [datetime.fromtimestamp(T0 + WEEK, tz=timezone.utc)] and votes["log_index"] == [3]
    assert (votes["kind"], votes["event_name"], votes["venft_id"]) == (["poke"], ["Voted"], [12])
    assert votes["weight_raw"] == [15 * 10**17] and votes["total_weight_raw"] == [100 * 10**18 + 1]
    assert (votes["owner"], votes["pool_address"], votes["gauge_address"]) == (["0xowner"], ["0xp"], ["0xg"])
    system = gauge_event_rows(56, [{"id": "0xK-0", "kind": "created", "gaugeKind": "system", "target": "0xSYS",
                                    "timestamp": str(t), "blockNumber": "5", "transactionHash": "0xK",
                                    "logIndex": "0", "gauge": {"id": "0xG2"}, "pool": None}])
    assert system["pool_address"] == [""] and system["target"] == ["0xsys"] and system["gauge_kind"] == ["system"]
    epochs = gauge_epoch_rows(56, [{
        "id": "x", "epoch": str(T0), "kind": "pool", "target": "0xP", "isAlive": False, "isPartial": True,
        "votes": "2", "votesAtStart": "1", "emissions": "3", "rewardRate": "4", "emitted": "0.5", "fees0": "1.5",
        "fees1": "0", "feesUSD": "2.25", "bribesUSD": None, "bribeCount": 3, "unpricedBribeCount": 1,
        "gauge": {"id": "0xG"}, "pool": {"id": "0xP"}, "token0": {"id": "0xA", "decimals": "6"},
        "token1": {"id": "0xB", "decimals": "18"}}], 99, t)
    assert epochs["fees0_raw"] == [1_500_000] and epochs["emitted_raw"] == [5 * 10**17] and epochs["reward_rate_raw"] == [4]
    assert epochs["bribes_usd"] == [None] and epochs["read_block"] == [99] and epochs["is_partial"] == [True]
