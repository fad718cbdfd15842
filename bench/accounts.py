"""The heavy account of `make bench` (issue 29, point 12): the devnet's wallets hold tens of veNFTs and
a few hundred records, so bench/run.py gives one made-up address POSITIONS veNFTs at chain 56's
latest published snapshot and RECORDS activity records over the 90 days before it, on its
throwaway warehouse before the APIs start (the cached API caches per snapshot). Its routes are
timed where a wallet's history is long: /voting-positions page 1, /activity page 1 and page DEPTH,
/rewards page 1.

- venft_snap15m: POSITIONS decaying locks of the address at the snapshot's block, and a newer
  ve_snap15m row for that snapshot counting them (the route says `not_read` when the counts differ);
- account_events: RECORDS records, half Voter votes and half lock increases, one per block, newest at
  the snapshot's block;
- vote_events: every veNFT's vote (1e18) at the end of each epoch ended in the 90 days before the
  snapshot, on the gauge with the most bribes, so each earns that gauge's bribes and fees (about
  POSITIONS x 12 epochs x its reward tokens claimable rewards, all unclaimed);
- venft_rebases: every veNFT's share of each rebase checkpointed in those 90 days (a power of a
  quarter of its lock), none claimed: about POSITIONS x 12 more claimable rewards;
- liquidity_position_snap15m: POSITIONS CL positions of the address at the snapshot, copies of the
  devnet providers' CL positions there (round robin) under NFT ids of their own: /liquidity-positions
  and /portfolio are timed for it.
"""
from __future__ import annotations

from typing import Callable

ACCOUNT = "0x" + "ac" * 20
POSITIONS, RECORDS = 1_000, 10_000
FIRST_VENFT = 900_000_000
PAGE, DEPTH = 100, 50
SPAN = 90 * 86400

LATEST = "(SELECT max(snapshot_at) FROM snapshot_runs FINAL WHERE chain_id = {c:UInt32} AND status = 'success')"
VENFTS = f"""
INSERT INTO venft_snap15m (chain_id, snapshot_at, block_number, block_timestamp, venft_id, owner, locked_raw, unlock_time,
                           permanent, voting_power_raw)
SELECT s.chain_id, s.snapshot_at, s.block_number, s.block_timestamp, {{first:UInt64}} + number, {{account:String}},
       toUInt256('1000000000000000000000'), toDateTime(toUnixTimestamp(s.block_timestamp) + 365 * 86400, 'UTC'), 0,
       toUInt256('1000000000000000000000') * toUInt256(365 * 86400) / toUInt256(4 * 365 * 86400)
FROM (SELECT chain_id, snapshot_at, any(block_number) AS block_number, any(block_timestamp) AS block_timestamp
      FROM venft_snap15m FINAL WHERE chain_id = {{c:UInt32}} AND snapshot_at = {LATEST}
      GROUP BY chain_id, snapshot_at) AS s
CROSS JOIN numbers({{n:UInt64}}) AS n
"""
VE_COUNT = f"""
INSERT INTO ve_snap15m
SELECT * REPLACE (lock_count + {{n:UInt32}} AS lock_count, decaying_lock_count + {{n:UInt32}} AS decaying_lock_count,
                  now64(3) AS ingested_at)
FROM ve_snap15m FINAL WHERE chain_id = {{c:UInt32}} AND snapshot_at = {LATEST}
"""
RECORDS_SQL = f"""
INSERT INTO account_events (account, chain_id, block_timestamp, block_number, log_index, kind, id, transaction_hash, detail)
SELECT {{account:String}}, {{c:UInt32}}, toDateTime64(toUnixTimestamp(s.at) - intDiv(number * {SPAN}, {{n:UInt64}}), 3, 'UTC'),
       s.block - number, 0, if(number % 2 = 0, 'vote', 'lockIncrease'),
       concat(concat('0x', lower(hex(SHA256(concat('bench-heavy-', toString(number)))))) AS tx, '-0'), tx,
       if(number % 2 = 0,
          formatRowNoNewline('JSONEachRow', toString({{first:UInt64}} + number % {POSITIONS}) AS tokenId,
                             [(g.target, g.gauge, g.pool, '1000000000000000000')] AS voted,
                             CAST([], 'Array(Tuple(String, String, String, String))') AS abstained),
          formatRowNoNewline('JSONEachRow', toString({{first:UInt64}} + number % {POSITIONS}) AS tokenId,
                             {{account:String}} AS `from`, {{account:String}} AS `to`, '1000000000000000000' AS amount,
                             toInt64(toUnixTimestamp(s.at) + 365 * 86400) AS unlockTime, false AS permanent,
                             CAST(NULL, 'Nullable(UInt64)') AS mergedInto))
FROM numbers({{n:UInt64}}) AS n
CROSS JOIN (SELECT {LATEST} AS at, (SELECT max(block_number) FROM venft_snap15m FINAL WHERE chain_id = {{c:UInt32}}
                                    AND snapshot_at = {LATEST}) AS block) AS s
CROSS JOIN (SELECT target, gauge_address AS gauge, pool_address AS pool FROM vote_actions FINAL
            WHERE chain_id = {{c:UInt32}} LIMIT 1) AS g
"""
VOTE_ROWS = f"""
INSERT INTO vote_events (chain_id, epoch, id, block_timestamp, block_number, venft_id, owner, is_foundation, gauge_address,
                         pool_address, weight_raw)
SELECT {{c:UInt32}}, e.epoch, concat(toString(toUnixTimestamp(e.epoch)), '-', toString(v.id), '-', g.pool), e.epoch, 0,
       v.id, {{account:String}}, false, g.gauge, g.pool, toUInt256('1000000000000000000')
FROM (SELECT DISTINCT epoch FROM vote_events FINAL
      WHERE chain_id = {{c:UInt32}} AND epoch + INTERVAL 7 DAY <= {LATEST} AND epoch >= {LATEST} - INTERVAL {SPAN} SECOND) AS e
CROSS JOIN (SELECT {{first:UInt64}} + number AS id FROM numbers({{n:UInt64}})) AS v
CROSS JOIN (SELECT gauge_address AS gauge, pool_address AS pool FROM bribe_events FINAL WHERE chain_id = {{c:UInt32}}
            GROUP BY gauge_address, pool_address ORDER BY count() DESC, gauge_address LIMIT 1) AS g
"""
REBASE_ROWS = f"""
INSERT INTO venft_rebases (chain_id, venft_id, epoch, power_raw, rebase_raw)
SELECT {{c:UInt32}}, v.id, e.epoch, toUInt256('250000000000000000000'),
       toUInt256('250000000000000000000') * e.amount_raw / e.ve_supply_raw
FROM (SELECT epoch, amount_raw, ve_supply_raw FROM rebase_epochs FINAL
      WHERE chain_id = {{c:UInt32}} AND ve_supply_raw > 0 AND epoch >= {LATEST} - INTERVAL {SPAN} SECOND) AS e
CROSS JOIN (SELECT {{first:UInt64}} + number AS id FROM numbers({{n:UInt64}})) AS v
"""
CL_LATEST = f"FROM liquidity_position_snap15m FINAL WHERE chain_id = {{c:UInt32}} AND kind = 'cl' AND snapshot_at = {LATEST}"
LIQUIDITY = f"""
INSERT INTO liquidity_position_snap15m (account, chain_id, snapshot_at, position_id, block_number, block_timestamp, kind,
                                        pool_address, token_id, liquidity_raw, staked_raw, amount0_raw, amount1_raw,
                                        staked0_raw, staked1_raw, fees0_raw, fees1_raw, emissions_raw, tick_lower,
                                        tick_upper)
SELECT {{account:String}}, p.chain_id, p.snapshot_at, concat('cl:', toString({{first:UInt64}} + n.number)), p.block_number,
       p.block_timestamp, 'cl', p.pool_address, toUInt256({{first:UInt64}} + n.number), p.liquidity_raw, p.staked_raw,
       p.amount0_raw, p.amount1_raw, p.staked0_raw, p.staked1_raw, p.fees0_raw, p.fees1_raw, p.emissions_raw,
       p.tick_lower, p.tick_upper
FROM (SELECT number, number % (SELECT count() {CL_LATEST}) AS k FROM numbers({{n:UInt64}})) AS n
INNER JOIN (SELECT toUInt64(row_number() OVER (ORDER BY account, position_id) - 1) AS k, * {CL_LATEST}) AS p USING (k)
"""


def heavy_account(client, chain_id: int) -> str:
    """Inserts the heavy account's veNFTs and records; returns a line saying what was inserted."""
    params = {"c": chain_id, "account": ACCOUNT, "first": FIRST_VENFT}
    client.command(VENFTS, parameters={**params, "n": POSITIONS})
    client.command(VE_COUNT, parameters={"c": chain_id, "n": POSITIONS})
    client.command(RECORDS_SQL, parameters={**params, "n": RECORDS})
    client.command(VOTE_ROWS, parameters={**params, "n": POSITIONS})
    client.command(REBASE_ROWS, parameters={**params, "n": POSITIONS})
    client.command(LIQUIDITY, parameters={**params, "n": POSITIONS})
    lp = client.command("SELECT count() FROM liquidity_position_snap15m FINAL WHERE account = {a:String}",
                        parameters={"a": ACCOUNT})
    held = client.command("SELECT count() FROM account_events FINAL WHERE account = {a:String}", parameters={"a": ACCOUNT})
    votes = client.command("SELECT count() FROM vote_events FINAL WHERE owner = {a:String}", parameters={"a": ACCOUNT})
    rebases = client.command("SELECT count() FROM venft_rebases FINAL WHERE venft_id >= {f:UInt64}",
                             parameters={"f": FIRST_VENFT})
    return (f"heavy account {ACCOUNT} on chain {chain_id}: {POSITIONS:,} veNFTs and {lp:,} liquidity positions at the "
            f"latest snapshot, {held:,} activity records, {votes:,} epoch-end votes and {rebases:,} rebase shares over "
            f"the {SPAN // 86400} days before it")


def page_path(get_json: Callable[[str], dict], base: str, path: str, depth: int = DEPTH) -> str:
    """The path of page `depth` of the traversal of `path` (with its limit), following
    pageInfo.nextCursor on the API at `base`."""
    current = path
    for _ in range(depth - 1):
        cursor = get_json(base + current)["pageInfo"]["nextCursor"]
        if not cursor:
            raise SystemExit(f"{path}: the traversal ended before page {depth}")
        current = f"{path}&cursor={cursor}"
    return current
