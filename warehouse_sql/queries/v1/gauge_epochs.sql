-- /v1/gauges/{chainId}/{gaugeAddress} (its epoch), /history and /rewards: the gauge at the chain's published
-- snapshot (listed: 1 when gauge_snap15m has it there), its creation (gauge_events), how far the
-- chain's governance events are read (chain_coverage 'events'), and per epoch in
-- [{epoch_from}, {epoch_to}) (Unix seconds):
--   epochs: its epoch aggregate as last read (gauge_epochs): votes, the weight that split the
--           epoch's emissions, emissions, reward rate, emitted, fees per pool token with the
--           tokens' symbols and decimals at the snapshot (token_snap15m) and in USD, bribes;
--   bribes: the notified deposits before the snapshot's time per token: raw sum, USD at deposit
--           time summed, deposits, and whether one had no USD value.
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}, {address:String} lower-case,
-- {epoch_from:Int64}, {epoch_to:Int64}.
WITH tokens AS
(
    SELECT token_address, symbol, decimals
    FROM token_snap15m FINAL
    WHERE chain_id = {chain_id:UInt32} AND snapshot_at = {snapshot_at:DateTime64(3, 'UTC')}
)
SELECT
    (SELECT count() > 0 FROM gauge_snap15m FINAL
     WHERE chain_id = {chain_id:UInt32} AND snapshot_at = {snapshot_at:DateTime64(3, 'UTC')}
       AND gauge_address = {address:String}) AS listed,
    (SELECT if(count() > 0, toInt64(toUnixTimestamp(min(block_timestamp))), NULL) FROM gauge_events FINAL
     WHERE chain_id = {chain_id:UInt32} AND gauge_address = {address:String} AND kind = 'created') AS created_at,
    (SELECT if(count() > 0, toInt64(toUnixTimestamp(min(first_at))), NULL)
     FROM chain_coverage WHERE chain_id = {chain_id:UInt32} AND dataset = 'events') AS events_from,
    (SELECT if(count() > 0, toInt64(toUnixTimestamp(max(last_at))), NULL)
     FROM chain_coverage WHERE chain_id = {chain_id:UInt32} AND dataset = 'events') AS events_through,
    (
        SELECT groupArray((epoch_ts, is_alive, is_partial, votes, votes_at_start, emissions, rate, emitted,
                           fees, fees_usd, bribes_usd, bribe_count, unpriced, read_at))
        FROM
        (
            SELECT toInt64(toUnixTimestamp(e.epoch)) AS epoch_ts, e.is_alive AS is_alive, e.is_partial AS is_partial,
                   toString(e.votes_raw) AS votes, toString(e.votes_at_start_raw) AS votes_at_start,
                   toString(e.emissions_raw) AS emissions, toString(e.reward_rate_raw) AS rate,
                   toString(e.emitted_raw) AS emitted,
                   if(e.token0_address = '', [],
                      [(e.token0_address, t0.symbol, t0.decimals, toString(e.fees0_raw)),
                       (e.token1_address, t1.symbol, t1.decimals, toString(e.fees1_raw))]) AS fees,
                   e.fees_usd AS fees_usd, e.bribes_usd AS bribes_usd, e.bribe_count AS bribe_count,
                   e.unpriced_bribe_count AS unpriced, toInt64(toUnixTimestamp(e.read_at)) AS read_at
            FROM
            (
                SELECT * FROM gauge_epochs FINAL
                WHERE chain_id = {chain_id:UInt32} AND gauge_address = {address:String}
                  AND epoch >= toDateTime64({epoch_from:Int64}, 3, 'UTC') AND epoch < toDateTime64({epoch_to:Int64}, 3, 'UTC')
            ) AS e
            LEFT JOIN tokens AS t0 ON t0.token_address = e.token0_address
            LEFT JOIN tokens AS t1 ON t1.token_address = e.token1_address
            ORDER BY epoch_ts DESC
        )
    ) AS epochs,
    (
        SELECT groupArray((epoch_ts, token_address, symbol, decimals, raw, usd, deposits, missing))
        FROM
        (
            SELECT toInt64(toUnixTimestamp(epoch)) AS epoch_ts, token_address, any(token_symbol) AS symbol,
                   any(token_decimals) AS decimals, toString(sum(amount_raw)) AS raw,
                   arraySum(arraySort(groupArray(ifNull(amount_usd, 0)))) AS usd, count() AS deposits,
                   countIf(amount_usd IS NULL) > 0 AS missing
            FROM bribe_events FINAL
            WHERE chain_id = {chain_id:UInt32} AND gauge_address = {address:String}
              AND epoch >= toDateTime64({epoch_from:Int64}, 3, 'UTC') AND epoch < toDateTime64({epoch_to:Int64}, 3, 'UTC')
              AND block_timestamp < {snapshot_at:DateTime64(3, 'UTC')}
            GROUP BY epoch_ts, token_address
            ORDER BY epoch_ts DESC, token_address
        )
    ) AS bribes
SETTINGS join_use_nulls = 1
