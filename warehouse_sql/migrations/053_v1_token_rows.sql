-- v1_token_rows: the tokens /v1/tokens lists (and counts in its facets), as a parameterized view:
-- every indexed token of each chain at that chain's pinned snapshot, with its price, TVL, its
-- pools' rolling 24-hour volume and their count, and its curation, filtered; the route adds the
-- keyset, the order and the page size (queries/v1/tokens.sql).
-- Parameters: chain_ids, snapshot_ats, ends, ok24, curation, status, q, sort, descending and
-- underflow as in v1_pool_rows (052); curated Int8 (-1 any, 1 true, 0 false); tags Array(String)
-- ([] = any) with tag_all UInt8 (1: every one).
-- A token's volume24h is the sum of the 24-hour volume of the indexed pools it is in (each swap
-- counted once per pool, valued as the pool values it); its pool count counts those pools,
-- blocked ones excluded. Sort key columns as in v1_pool_rows; k_text is the lower-case symbol.
CREATE OR REPLACE VIEW v1_token_rows AS
SELECT *
FROM
(
    SELECT
        t.chain_id                                                   AS chain_id,
        t.token_address                                              AS address,
        t.symbol                                                     AS symbol,
        t.name                                                       AS name,
        t.decimals                                                   AS decimals,
        indexOf({chain_ids:Array(UInt32)}, t.chain_id)               AS i,
        {ok24:Array(UInt8)}[i] = 1                                   AS ok24,
        if(t.price_usd != 0 AND abs(t.price_usd) < reinterpretAsFloat64({underflow:UInt64}), NULL, t.price_usd) AS price,
        if(t.tvl_usd != 0 AND abs(t.tvl_usd) < reinterpretAsFloat64({underflow:UInt64}), NULL, t.tvl_usd)       AS tvl,
        if(ok24, coalesce(pp.volume_24h, 0), NULL)                   AS volume_24h_raw,
        if(volume_24h_raw != 0 AND abs(volume_24h_raw) < reinterpretAsFloat64({underflow:UInt64}), NULL, volume_24h_raw) AS volume_24h,
        coalesce(pp.pool_count, 0)                                   AS pool_count,
        toBool(e.address != '' AND e.curated)                       AS curated,
        if(curated, e.status, 'active')                              AS status,
        toBool(curated AND e.featured)                               AS featured,
        if(curated, e.display_order, NULL)                           AS display_order,
        if(curated, arraySort(e.tags), [])                           AS tags,
        multiIf({sort:String} = 'price', price,
                {sort:String} = 'volume24h', volume_24h,
                {sort:String} = 'tvl', tvl,
                {sort:String} = 'poolCount', toFloat64(pool_count),
                {sort:String} = 'displayOrder', toFloat64(display_order),
                0)                                                   AS sort_value,
        toUInt8(isNull(sort_value))                                  AS k_null,
        if({descending:UInt8} = 1, -ifNull(sort_value, 0), ifNull(sort_value, 0)) AS k_num,
        if({sort:String} = 'symbol', lowerUTF8(symbol), '')          AS k_text,
        toUInt8(isNull(tvl))                                         AS tvl_null,
        -ifNull(tvl, 0)                                              AS k_tvl
    FROM
    (
        SELECT *
        FROM token_snap15m FINAL
        WHERE chain_id IN {chain_ids:Array(UInt32)}
          AND snapshot_at IN {snapshot_ats:Array(DateTime64(3, 'UTC'))}
          AND has(arrayZip({chain_ids:Array(UInt32)}, {snapshot_ats:Array(DateTime64(3, 'UTC'))}), (chain_id, snapshot_at))
    ) AS t
    LEFT JOIN
    (
        -- per token: its pools at the snapshot (blocked ones excluded) and their 24-hour volume;
        -- sums in ascending order, so every page of a traversal computes the same bits
        SELECT chain_id, token_address, count() AS pool_count, arraySum(arraySort(groupArray(volume))) AS volume_24h
        FROM
        (
            SELECT p.chain_id AS chain_id, arrayJoin([p.token0_address, p.token1_address]) AS token_address,
                   coalesce(f.volume, 0) AS volume
            FROM
            (
                SELECT chain_id, pool_address, token0_address, token1_address
                FROM pool_snap15m FINAL
                WHERE chain_id IN {chain_ids:Array(UInt32)}
                  AND snapshot_at IN {snapshot_ats:Array(DateTime64(3, 'UTC'))}
                  AND has(arrayZip({chain_ids:Array(UInt32)}, {snapshot_ats:Array(DateTime64(3, 'UTC'))}), (chain_id, snapshot_at))
            ) AS p
            LEFT JOIN
            (
                SELECT chain_id, pool_address, arraySum(arraySort(groupArray(volume_usd))) AS volume
                FROM
                (
                    SELECT chain_id, pool_address, volume_usd, toInt64(toUnixTimestamp(hour_start)) AS hour,
                           {ends:Array(Int64)}[indexOf({chain_ids:Array(UInt32)}, chain_id)] AS anchor
                    FROM pool_hourly FINAL
                    WHERE chain_id IN {chain_ids:Array(UInt32)}
                      AND hour_start >= toDateTime64(arrayMin({ends:Array(Int64)}) - 86400, 3, 'UTC')
                      AND hour_start < toDateTime64(arrayMax({ends:Array(Int64)}), 3, 'UTC')
                )
                WHERE hour >= anchor - 86400 AND hour < anchor
                GROUP BY chain_id, pool_address
            ) AS f ON f.chain_id = p.chain_id AND f.pool_address = p.pool_address
            LEFT JOIN
            (
                SELECT chain_id, address
                FROM curation_entities FINAL
                WHERE digest = {curation:String} AND kind = 'pool' AND status = 'blocked'
            ) AS b ON b.chain_id = p.chain_id AND b.address = p.pool_address
            WHERE b.address = ''
        )
        GROUP BY chain_id, token_address
    ) AS pp ON pp.chain_id = t.chain_id AND pp.token_address = t.token_address
    LEFT JOIN
    (
        SELECT chain_id, address, curated, status, featured, display_order, tags
        FROM curation_entities FINAL
        WHERE digest = {curation:String} AND kind = 'token' AND chain_id IN {chain_ids:Array(UInt32)}
    ) AS e ON e.chain_id = t.chain_id AND e.address = t.token_address
)
WHERE status != 'blocked'
  AND status = {status:String}
  AND ({curated:Int8} < 0 OR curated = ({curated:Int8} = 1))
  AND (empty({tags:Array(String)})
       OR if({tag_all:UInt8} = 1, hasAll(tags, {tags:Array(String)}), hasAny(tags, {tags:Array(String)})))
  AND ({q:String} = ''
       OR positionCaseInsensitiveUTF8(symbol, {q:String}) > 0
       OR positionCaseInsensitiveUTF8(name, {q:String}) > 0
       OR positionCaseInsensitive(address, {q:String}) > 0)
