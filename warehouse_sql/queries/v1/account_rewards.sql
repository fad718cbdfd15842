-- /v1/accounts/{address}/rewards: the rewards of {address:String} on the selected chains, each chain
-- read at its published snapshot and as far as its events are indexed (`indexed_until` for the
-- governance events, `lp_until` for the liquidity events: exclusive, at most the snapshot's time;
-- chain_coverage's 'events' and 'liquidity_events', as events_coverage.sql reads them):
--   bribe, fee: claimable, every reward the veNFTs it owns at the snapshot (venft_snap15m) earned in
--     an epoch ended by indexed_until that no indexed claim took. A veNFT earns what Velodrome's reward
--     contracts checkpoint: per gauge it voted for, its votes at the epoch's last second over the
--     gauge's votes then (both the epoch's Vote rows, vote_events), times what the gauge's reward
--     contracts took in the epoch (bribe_events per token; gauge_epochs' trading fees per pool
--     token), rounded down as the contracts round; claimed, every indexed claim before indexed_until
--     paid to the address (claim_events.owner: the veNFT's owner at the claim), whoever owns the
--     veNFT now;
--   rebase: claimable, the owned veNFTs' shares of each checkpointed epoch (venft_rebases, the
--     checkpoint indexed) that no indexed rebase claim took; claimed, each epoch an indexed claim
--     paid to the address took, with the claim's USD shared in proportion;
--   emission: claimable, the gauge emissions its open positions at the snapshot have not claimed
--     (liquidity_position_snap15m, in the core token {core_tokens:Array(String)}, in the snapshot's
--     epoch: a gauge streams them and keeps one amount per position); claimed, its indexed claims
--     (liquidity_events with emissions: a claim, or an unstake that claims), in the claim's epoch,
--     valued at the token's hourly close of the claim's hour (token_hourly).
-- A reward is keyed (chain, epoch, veNFT, gauge, kind, token, item) and is in at most one of the two
-- statuses; item is '' for a veNFT's reward, the position for an unclaimed emission, the event for a
-- claimed one (veNFT 0 for both).
-- `epochs` takes every ended epoch's Vote rows in one pass (the gauge's votes and the owned veNFTs'
-- among them); `claims` is inlined twice (ClickHouse does not materialize a CTE), so claim_events is
-- read twice, each time only the address's and its veNFTs' claims; one aggregation gives both the page and the sums:
-- one row per (chain, kind, status, token) over every page (amount, rewards, the claims' USD at
-- claim time and how many lack it, how many amounts rest on a gauge epoch read before its end:
-- fee_partial) with `page`, its first {limit} rewards in (chain_id, epoch newest first, venft_id,
-- gauge, kind, token, item) order after the keyset position when {after} is 1; the answer's page is
-- the first {limit} of their union in that order.
-- Filters: {status:String} ('' | 'claimable' | 'claimed'), {kinds:Array(String)} (of 'bribe', 'fee',
-- 'rebase', 'emission'; empty: every kind). The emission parts are read only when asked for.
-- Parameters: {address:String} (lower case), {chain_ids:Array(UInt32)},
-- {snapshot_ats:Array(DateTime64(3, 'UTC'))}, {core_tokens:Array(String)} (per chain, lower case),
-- the filters, {after:UInt8}, {c_chain:UInt32}, {c_epoch:Int64}, {c_token:UInt64}, {c_gauge:String},
-- {c_kind:String}, {c_reward:String}, {c_item:String}, {limit:UInt32} (a page and one more row).
WITH
    {chain_ids:Array(UInt32)} AS chain_ids,
    empty({kinds:Array(String)}) OR has({kinds:Array(String)}, 'emission') AS with_emissions,
    {snapshot_ats:Array(DateTime64(3, 'UTC'))} AS snapshot_ats,
    (  -- per chain, the exclusive end of its indexed governance events, at most its snapshot's time
        SELECT mapFromArrays(groupArray(chain_id), groupArray(until))
        FROM
        (
            SELECT chain_id, least(toInt64(toUnixTimestamp(max(last_at))) + 1,
                                   toInt64(toUnixTimestamp(snapshot_ats[indexOf(chain_ids, chain_id)]))) AS until
            FROM chain_coverage
            WHERE chain_id IN chain_ids AND dataset = 'events'
            GROUP BY chain_id
        )
    ) AS indexed_until,
    (  -- the same for the chain's liquidity events (the emissions claimed)
        SELECT mapFromArrays(groupArray(chain_id), groupArray(until))
        FROM
        (
            SELECT chain_id, least(toInt64(toUnixTimestamp(max(last_at))) + 1,
                                   toInt64(toUnixTimestamp(snapshot_ats[indexOf(chain_ids, chain_id)]))) AS until
            FROM chain_coverage
            WHERE chain_id IN chain_ids AND dataset = 'liquidity_events'
            GROUP BY chain_id
        )
    ) AS lp_until,
owned AS (
    SELECT chain_id, venft_id
    FROM venft_snap15m FINAL
    WHERE chain_id IN chain_ids
      AND snapshot_at = snapshot_ats[indexOf(chain_ids, chain_id)]
      AND snapshot_at IN snapshot_ats  -- the key's range (the pair above is exact)
      AND owner = {address:String}
),
epochs AS (  -- per ended epoch and gauge the owned veNFTs voted for: their votes at its end and the gauge's
    SELECT chain_id, epoch, gauge_address, sum(weight_raw) AS total_raw,
           groupArrayIf((venft_id, pool_address, weight_raw), (chain_id, venft_id) IN owned) AS held
    FROM vote_events FINAL
    WHERE chain_id IN chain_ids
      AND toInt64(toUnixTimestamp(epoch)) + 7 * 86400 <= indexed_until[chain_id]
    GROUP BY chain_id, epoch, gauge_address
    HAVING notEmpty(held)
),
pots AS (  -- what the gauges' reward contracts took in each ended epoch, per kind and token
    SELECT chain_id, epoch, gauge_address, 'bribe' AS kind, token_address,
           any(token_symbol) AS symbol, toNullable(any(token_decimals)) AS decimals,
           sum(amount_raw) AS pot_raw, 0 AS partial
    FROM bribe_events FINAL
    WHERE chain_id IN chain_ids AND toInt64(toUnixTimestamp(epoch)) + 7 * 86400 <= indexed_until[chain_id]
    GROUP BY chain_id, epoch, gauge_address, token_address
    UNION ALL
    SELECT g.chain_id AS chain_id, g.epoch AS epoch, g.gauge_address AS gauge_address, 'fee' AS kind,
           fee.1 AS token_address, t.symbol AS symbol,
           if(t.token_address = '', NULL, toNullable(t.decimals)) AS decimals, fee.2 AS pot_raw,
           toUInt8(g.is_partial) AS partial
    FROM
    (
        SELECT chain_id, epoch, gauge_address, is_partial,
               [(token0_address, fees0_raw), (token1_address, fees1_raw)] AS fees
        FROM gauge_epochs FINAL
        WHERE chain_id IN chain_ids AND toInt64(toUnixTimestamp(epoch)) + 7 * 86400 <= indexed_until[chain_id]
          AND pool_address != ''
    ) AS g
    ARRAY JOIN fees AS fee
    LEFT JOIN
    (
        SELECT chain_id, token_address, symbol, decimals
        FROM token_snap15m FINAL
        WHERE chain_id IN chain_ids
          AND snapshot_at = snapshot_ats[indexOf(chain_ids, chain_id)]
          AND snapshot_at IN snapshot_ats
    ) AS t ON t.chain_id = g.chain_id AND t.token_address = fee.1
    WHERE fee.2 > 0
),
claims AS (
    SELECT chain_id, epoch, venft_id, gauge_address, pool_address, kind, token_address, token_symbol,
           token_decimals, amount_raw, amount_usd, owner, block_timestamp, block_number, transaction_hash
    FROM claim_events FINAL
    WHERE chain_id IN chain_ids
      AND toUnixTimestamp64Milli(block_timestamp) < indexed_until[chain_id] * 1000
      AND (owner = {address:String} OR (chain_id, venft_id) IN (SELECT chain_id, venft_id FROM owned))
),
rebase_taken AS (  -- each (veNFT, epoch) an indexed rebase claim took, with the claim
    SELECT chain_id, venft_id, toDateTime(arrayJoin(range(toUInt32(from_epoch), toUInt32(to_epoch), 7 * 86400)), 'UTC') AS epoch,
           owner, amount_raw AS claim_raw, amount_usd AS claim_usd, block_timestamp, block_number, transaction_hash
    FROM rebase_claims FINAL
    WHERE chain_id IN chain_ids
      AND toInt64(toUnixTimestamp(block_timestamp)) < indexed_until[chain_id]
      AND (owner = {address:String} OR (chain_id, venft_id) IN (SELECT chain_id, venft_id FROM owned))
),
rebases AS (  -- the rebases of the owned veNFTs and of those the address was paid for, per checkpointed epoch
    SELECT r.chain_id AS chain_id, r.epoch AS epoch, r.venft_id AS venft_id, r.rebase_raw AS rebase_raw,
           e.token_address AS token_address, e.token_symbol AS symbol, e.token_decimals AS decimals
    FROM venft_rebases AS r FINAL
    INNER JOIN
    (
        SELECT chain_id, epoch, token_address, token_symbol, token_decimals
        FROM rebase_epochs FINAL
        WHERE chain_id IN chain_ids AND toInt64(toUnixTimestamp(block_timestamp)) < indexed_until[chain_id]
    ) AS e ON e.chain_id = r.chain_id AND e.epoch = r.epoch
    WHERE r.chain_id IN chain_ids AND r.rebase_raw > 0
      AND (r.chain_id, r.venft_id) IN (SELECT chain_id, venft_id FROM owned
                                       UNION ALL SELECT chain_id, venft_id FROM rebase_taken WHERE owner = {address:String})
),
gauges AS (  -- each pool's gauge at the chain's snapshot (a position's emissions stream from it)
    SELECT chain_id, pool_address, ifNull(gauge_address, '') AS gauge_address
    FROM pool_snap15m FINAL
    WHERE chain_id IN chain_ids
      AND snapshot_at = snapshot_ats[indexOf(chain_ids, chain_id)]
      AND snapshot_at IN snapshot_ats
),
cores AS (  -- the chain's core token (gauge emissions are paid in it) as its snapshot lists it
    SELECT chain_id, token_address, symbol, toNullable(decimals) AS decimals
    FROM token_snap15m FINAL
    WHERE chain_id IN chain_ids
      AND snapshot_at = snapshot_ats[indexOf(chain_ids, chain_id)]
      AND snapshot_at IN snapshot_ats
      AND token_address = {core_tokens:Array(String)}[indexOf(chain_ids, chain_id)]
),
emissions_claimed AS (  -- the address's emission claims (a claim, or an unstake that claims), as far as indexed
    SELECT e.chain_id AS chain_id, e.id AS id, e.position_id AS position_id, e.pool_address AS pool_address,
           e.emissions_token AS token_address, e.emissions_symbol AS symbol, e.emissions_decimals AS decimals,
           e.emissions_raw AS amount_raw, e.block_timestamp AS block_timestamp, e.block_number AS block_number,
           e.transaction_hash AS transaction_hash
    FROM liquidity_events AS e FINAL
    WHERE with_emissions AND e.chain_id IN chain_ids AND e.owner = {address:String} AND ifNull(e.emissions_raw, 0) > 0
      AND toInt64(toUnixTimestamp(e.block_timestamp)) < lp_until[e.chain_id]
),
rewards AS (
    SELECT e.chain_id AS chain_id, e.epoch AS epoch, h.1 AS venft_id, e.gauge_address AS gauge_address,
           h.2 AS pool_address, p.kind AS kind, 'claimable' AS status, p.token_address AS token_address,
           p.symbol AS symbol, p.decimals AS decimals,
           intDiv(p.pot_raw * h.3, e.total_raw) AS amount_raw,
           CAST(NULL, 'Nullable(Float64)') AS amount_usd, p.partial AS partial,
           toInt64(0) AS claim_ms, toUInt64(0) AS claim_block, '' AS claim_tx, '' AS item, '' AS position_id
    FROM epochs AS e
    ARRAY JOIN e.held AS h
    INNER JOIN pots AS p ON p.chain_id = e.chain_id AND p.epoch = e.epoch AND p.gauge_address = e.gauge_address
    LEFT ANTI JOIN claims AS c
        ON c.chain_id = e.chain_id AND c.epoch = e.epoch AND c.venft_id = h.1
       AND c.gauge_address = e.gauge_address AND c.kind = p.kind AND c.token_address = p.token_address
    WHERE amount_raw > 0
    UNION ALL
    SELECT chain_id, epoch, venft_id, gauge_address, pool_address, kind, 'claimed', token_address,
           token_symbol, toNullable(token_decimals), amount_raw, amount_usd, 0,
           toInt64(toUnixTimestamp64Milli(block_timestamp)), block_number, transaction_hash, '', ''
    FROM claims
    WHERE owner = {address:String}
    UNION ALL
    SELECT r.chain_id, toDateTime64(r.epoch, 3, 'UTC'), r.venft_id, '', '', 'rebase', 'claimable', r.token_address,
           r.symbol, toNullable(r.decimals), r.rebase_raw, CAST(NULL, 'Nullable(Float64)'), 0, toInt64(0),
           toUInt64(0), '', '', ''
    FROM rebases AS r
    LEFT ANTI JOIN rebase_taken AS t ON t.chain_id = r.chain_id AND t.venft_id = r.venft_id AND t.epoch = r.epoch
    WHERE (r.chain_id, r.venft_id) IN (SELECT chain_id, venft_id FROM owned)
    UNION ALL
    SELECT r.chain_id, toDateTime64(r.epoch, 3, 'UTC'), r.venft_id, '', '', 'rebase', 'claimed', r.token_address,
           r.symbol, toNullable(r.decimals), r.rebase_raw, t.claim_usd * (toFloat64(r.rebase_raw) / toFloat64(t.claim_raw)), 0,
           toInt64(toUnixTimestamp(t.block_timestamp)) * 1000, t.block_number, t.transaction_hash, '', ''
    FROM rebases AS r
    INNER JOIN rebase_taken AS t ON t.chain_id = r.chain_id AND t.venft_id = r.venft_id AND t.epoch = r.epoch
    WHERE t.owner = {address:String}
    UNION ALL
    SELECT p.chain_id, toDateTime64(intDiv(toInt64(toUnixTimestamp(p.snapshot_at)), 7 * 86400) * 7 * 86400, 3, 'UTC'),
           toUInt64(0), g.gauge_address, p.pool_address, 'emission', 'claimable', k.token_address, k.symbol,
           k.decimals, p.emissions_raw, CAST(NULL, 'Nullable(Float64)'), 0, toInt64(0), toUInt64(0), '', p.position_id, p.position_id
    FROM liquidity_position_snap15m AS p FINAL
    INNER JOIN cores AS k ON k.chain_id = p.chain_id
    LEFT JOIN gauges AS g ON g.chain_id = p.chain_id AND g.pool_address = p.pool_address
    WHERE p.account = {address:String}
      AND p.chain_id IN chain_ids
      AND p.snapshot_at = snapshot_ats[indexOf(chain_ids, p.chain_id)]
      AND p.snapshot_at IN snapshot_ats
      AND p.emissions_raw > 0 AND with_emissions
    UNION ALL
    SELECT e.chain_id, toDateTime64(intDiv(toInt64(toUnixTimestamp(e.block_timestamp)), 7 * 86400) * 7 * 86400, 3, 'UTC'),
           toUInt64(0), g.gauge_address, e.pool_address, 'emission', 'claimed', e.token_address, e.symbol,
           e.decimals, toUInt256(e.amount_raw),
           toFloat64(e.amount_raw) / pow(10, assumeNotNull(e.decimals)) * h.price_usd_close, 0,
           toInt64(toUnixTimestamp(e.block_timestamp)) * 1000, e.block_number, e.transaction_hash, e.id, e.position_id
    FROM emissions_claimed AS e
    LEFT JOIN gauges AS g ON g.chain_id = e.chain_id AND g.pool_address = e.pool_address
    LEFT JOIN
    (
        SELECT chain_id, token_address, hour_start, price_usd_close
        FROM token_hourly FINAL
        WHERE chain_id IN chain_ids AND (chain_id, token_address) IN (SELECT DISTINCT chain_id, token_address FROM emissions_claimed)
    ) AS h ON h.chain_id = e.chain_id AND h.token_address = e.token_address
          AND h.hour_start = toDateTime64(toStartOfHour(e.block_timestamp), 3, 'UTC')
),
chosen AS (
    SELECT *, toInt64(toUnixTimestamp(epoch)) AS epoch_s
    FROM rewards
    WHERE ({status:String} = '' OR status = {status:String})
      AND (empty({kinds:Array(String)}) OR has({kinds:Array(String)}, kind))
)
SELECT chain_id, kind, status, token_address, any(symbol) AS symbol, any(decimals) AS decimals,
       toString(sum(amount_raw)) AS sum_raw, sum(amount_usd) AS sum_usd, count() AS rewards,
       countIf(status = 'claimed' AND amount_usd IS NULL) AS usd_missing, sum(partial) AS fee_partial,
       groupArraySortedIf({limit:UInt32})(
           (chain_id, -epoch_s, venft_id, gauge_address, kind, token_address, item, pool_address, toString(amount_raw),
            amount_usd, claim_ms, claim_block, claim_tx, position_id),
           NOT {after:UInt8}
           OR (chain_id, -epoch_s, venft_id, gauge_address, kind, token_address, item)
              > ({c_chain:UInt32}, -{c_epoch:Int64}, {c_token:UInt64}, {c_gauge:String}, {c_kind:String}, {c_reward:String},
                 {c_item:String})
       ) AS page
FROM chosen
GROUP BY chain_id, kind, status, token_address
