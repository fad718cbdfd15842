-- /api/stats/gauges/{gaugeAddress}/rewards: per epoch (newest {limit} epochs with rewards up to
-- the snapshot), token by token, the bribes deposited to the gauge (USD at deposit time) and the
-- fee rewards its voters claimed for the epoch (USD at claim time, the earliest the fee reward is
-- priced). One row per (epoch, kind, token); the handler groups them by epoch.
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}, {gauge_address:String}, {limit:UInt32}
WITH rewards AS
(
    SELECT epoch, 'bribe' AS reward_kind, token_address, any(token_symbol) AS symbol, any(token_decimals) AS decimals,
           sum(amount_raw) AS raw, arraySum(arraySort(groupArray(amount_usd))) AS usd, countIf(amount_usd IS NULL) AS unknown
    FROM bribe_events FINAL
    WHERE chain_id = {chain_id:UInt32} AND gauge_address = {gauge_address:String}
      AND block_timestamp <= {snapshot_at:DateTime64(3, 'UTC')}
    GROUP BY epoch, token_address
    UNION ALL
    SELECT epoch, 'fee' AS reward_kind, token_address, any(token_symbol) AS symbol, any(token_decimals) AS decimals,
           sum(amount_raw) AS raw, arraySum(arraySort(groupArray(amount_usd))) AS usd, countIf(amount_usd IS NULL) AS unknown
    FROM claim_events FINAL
    WHERE chain_id = {chain_id:UInt32} AND gauge_address = {gauge_address:String} AND kind = 'fee'
      AND block_timestamp <= {snapshot_at:DateTime64(3, 'UTC')}
    GROUP BY epoch, token_address
)
SELECT
    toInt64(toUnixTimestamp(epoch))       AS epochStart,
    reward_kind                           AS kind,
    token_address                         AS tokenAddress,
    symbol                                AS tokenSymbol,
    decimals                              AS tokenDecimals,
    toString(raw)                         AS amountRaw,
    toFloat64(raw) / pow(10, decimals)    AS amount,
    if(unknown > 0, NULL, usd)            AS amountUsd
FROM rewards
WHERE epoch IN (SELECT DISTINCT epoch FROM rewards ORDER BY epoch DESC LIMIT {limit:UInt32})
ORDER BY epochStart DESC, reward_kind ASC, tokenAddress ASC
