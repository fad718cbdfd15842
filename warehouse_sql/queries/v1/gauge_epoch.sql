-- /v1/gauges/{chainId}/{gaugeAddress}: the gauge's epoch {epoch:Int64} (Unix seconds of its start)
-- up to the chain's published snapshot:
--   bribes: the notified deposits before the snapshot's time per token (bribe_events): raw sum,
--           USD at deposit time summed, and whether a deposit had no USD value;
--   fees:   the trading fees accrued to the gauge's fee reward per pool token (gauge_epochs, as
--           the governance events last read them: fees_read_at), with the tokens' symbols and
--           decimals at the snapshot (token_snap15m); fees_read is 0 when the epoch was not read yet;
--   events_through: the last second of the chain's governance events read (chain_coverage).
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}, {address:String} lower-case.
WITH tokens AS
(
    SELECT token_address, symbol, decimals
    FROM token_snap15m FINAL
    WHERE chain_id = {chain_id:UInt32} AND snapshot_at = {snapshot_at:DateTime64(3, 'UTC')}
)
SELECT
    (
        SELECT groupArray((token_address, symbol, decimals, raw, usd, missing))
        FROM
        (
            SELECT token_address, any(token_symbol) AS symbol, any(token_decimals) AS decimals,
                   toString(sum(amount_raw)) AS raw, arraySum(arraySort(groupArray(ifNull(amount_usd, 0)))) AS usd,
                   countIf(amount_usd IS NULL) > 0 AS missing
            FROM bribe_events FINAL
            WHERE chain_id = {chain_id:UInt32} AND gauge_address = {address:String}
              AND epoch = toDateTime64({epoch:Int64}, 3, 'UTC')
              AND block_timestamp < {snapshot_at:DateTime64(3, 'UTC')}
            GROUP BY token_address
            ORDER BY token_address
        )
    ) AS bribes,
    (
        SELECT count() > 0 FROM gauge_epochs FINAL
        WHERE chain_id = {chain_id:UInt32} AND gauge_address = {address:String} AND epoch = toDateTime64({epoch:Int64}, 3, 'UTC')
    ) AS fees_read,
    (
        SELECT [(e.token0_address, t0.symbol, t0.decimals, toString(e.fees0_raw)),
                (e.token1_address, t1.symbol, t1.decimals, toString(e.fees1_raw))]
        FROM (SELECT * FROM gauge_epochs FINAL
              WHERE chain_id = {chain_id:UInt32} AND gauge_address = {address:String}
                AND epoch = toDateTime64({epoch:Int64}, 3, 'UTC')) AS e
        LEFT JOIN tokens AS t0 ON t0.token_address = e.token0_address
        LEFT JOIN tokens AS t1 ON t1.token_address = e.token1_address
    ) AS fees,
    (
        SELECT any(fees_usd) FROM gauge_epochs FINAL
        WHERE chain_id = {chain_id:UInt32} AND gauge_address = {address:String} AND epoch = toDateTime64({epoch:Int64}, 3, 'UTC')
    ) AS fees_usd,
    (
        SELECT if(count() > 0, formatDateTime(any(read_at), '%Y-%m-%dT%H:%i:%SZ', 'UTC'), NULL) FROM gauge_epochs FINAL
        WHERE chain_id = {chain_id:UInt32} AND gauge_address = {address:String} AND epoch = toDateTime64({epoch:Int64}, 3, 'UTC')
    ) AS fees_read_at,
    (
        SELECT if(count() > 0, toInt64(toUnixTimestamp(max(last_at))), NULL)
        FROM chain_coverage WHERE chain_id = {chain_id:UInt32} AND dataset = 'events'
    ) AS events_through
SETTINGS join_use_nulls = 1
