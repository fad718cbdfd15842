-- Core-token factsheet rows of published snapshots in [from_ts, to_ts]: exactly one per snapshot;
-- market cap = price x totalSupply / 10^decimals (1e-9 relative) when both are known, and null
-- (never zero) when either is unknown.
-- Parameters: {chain_id:UInt32}, {from_ts:Int64}, {to_ts:Int64} (Unix seconds, inclusive), {rel_tol:Float64}
SELECT
    count()                                                                   AS published,
    countIf(rows != 1)                                                        AS bad_row_counts,
    countIf(rows = 1 AND NOT market_cap_ok)                                   AS bad_market_caps,
    arraySort(groupArrayIf(10)(snapshot_ts, rows != 1 OR NOT market_cap_ok))  AS examples
FROM
(
    SELECT
        toInt64(toUnixTimestamp(r.snapshot_at)) AS snapshot_ts,
        ifNull(c.rows, 0)                       AS rows,
        if(c.price IS NULL OR c.supply IS NULL,
           c.market_cap IS NULL,
           c.market_cap IS NOT NULL AND abs(c.market_cap - c.price * toFloat64(c.supply) / pow(10, c.decimals))
               <= {rel_tol:Float64} * greatest(abs(c.market_cap), 1e-12)) AS market_cap_ok
    FROM
    (
        SELECT DISTINCT snapshot_at
        FROM snapshot_runs FINAL
        WHERE chain_id = {chain_id:UInt32}
          AND status = 'success'
          AND snapshot_at >= toDateTime64({from_ts:Int64}, 3, 'UTC')
          AND snapshot_at <= toDateTime64({to_ts:Int64}, 3, 'UTC')
    ) AS r
    LEFT JOIN
    (
        SELECT snapshot_at, count() AS rows, any(price_usd) AS price, any(total_supply_raw) AS supply,
               any(decimals) AS decimals, any(market_cap_usd) AS market_cap
        FROM core_token_snap15m FINAL
        WHERE chain_id = {chain_id:UInt32}
          AND snapshot_at >= toDateTime64({from_ts:Int64}, 3, 'UTC')
          AND snapshot_at <= toDateTime64({to_ts:Int64}, 3, 'UTC')
        GROUP BY snapshot_at
    ) AS c ON c.snapshot_at = r.snapshot_at
)
