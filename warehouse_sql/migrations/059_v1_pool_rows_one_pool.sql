-- v1_pool_rows, second version (replaces migration 052's; its comment documents the view): two
-- parameters for a single pool, so /v1/pools/<chainId>/<poolAddress> evaluates the view once and
-- reads one pool instead of every pool of its chain three times:
--   address String: '' = every pool; a lower-case address = only that pool (its snapshot row,
--   hourly buckets and gauge rows alone are read);
--   status String: '' = any servable curation status (active, hidden, deprecated); blocked pools
--   and pools holding a blocked token stay excluded whatever the status.
-- Every other parameter, column and rule is 052's.
CREATE OR REPLACE VIEW v1_pool_rows AS
SELECT *
FROM
(
    SELECT
        p.chain_id                                                    AS chain_id,
        p.pool_address                                                AS address,
        p.pool_type                                                   AS pool_type,
        p.token0_address                                              AS token0_address,
        p.token0_symbol                                               AS token0_symbol,
        n0.name                                                       AS token0_name,
        p.token0_decimals                                             AS token0_decimals,
        p.token1_address                                              AS token1_address,
        p.token1_symbol                                               AS token1_symbol,
        n1.name                                                       AS token1_name,
        p.token1_decimals                                             AS token1_decimals,
        p.fee_pips                                                    AS fee_pips,
        p.is_dynamic_fee                                              AS dynamic_fee,
        p.is_custom_fee                                               AS custom_fee,
        p.tick_spacing                                                AS tick_spacing,
        p.gauge_address                                               AS gauge_address,
        p.gauge_alive                                                 AS gauge_alive,
        coalesce(p.gauge_alive, false)                                AS live_gauge,
        toBool(coalesce(p.gauge_alive, false)
               AND (g.emissions_epoch_raw IS NULL OR g.emissions_epoch_raw > 0)) AS incentivized,
        indexOf({chain_ids:Array(UInt32)}, p.chain_id)                AS i,
        {ok24:Array(UInt8)}[i] = 1                                    AS ok24,
        {ok7:Array(UInt8)}[i] = 1                                     AS ok7,
        if(p.tvl_usd != 0 AND abs(p.tvl_usd) < reinterpretAsFloat64({underflow:UInt64}), NULL, p.tvl_usd) AS tvl,
        if(ok24, coalesce(f.volume_24h, 0), NULL)                     AS volume_24h,
        if(ok24, coalesce(f.fees_24h, 0), NULL)                       AS fees_24h,
        if(ok7, coalesce(f.volume_7d, 0), NULL)                       AS volume_7d,
        if(ok7, coalesce(f.fees_7d, 0), NULL)                         AS fees_7d,
        if(tvl > 0, fees_24h * 365 / tvl, NULL)               AS fee_apr_raw,
        if(fee_apr_raw != 0 AND abs(fee_apr_raw) < reinterpretAsFloat64({underflow:UInt64}), NULL, fee_apr_raw) AS fee_apr,
        multiIf({apr_profile:String} = 'minimum', g.emission_apr_minimum,
                {apr_profile:String} = 'five-spacing', g.emission_apr_five_spacing,
                g.emission_apr_standard)                              AS emissions_apr_raw,
        if(emissions_apr_raw != 0 AND abs(emissions_apr_raw) < reinterpretAsFloat64({underflow:UInt64}), NULL, emissions_apr_raw) AS emissions_apr,
        g.range_tick_lower                                            AS range_tick_lower,
        g.range_tick_upper                                            AS range_tick_upper,
        toBool(e.address != '' AND e.curated)                        AS curated,
        if(curated, e.status, 'active')                               AS status,
        toBool(curated AND e.featured)                                AS featured,
        if(curated, e.display_order, NULL)                            AS display_order,
        arraySort(e.categories)                                       AS categories,
        if(c0.address != '', arraySort(c0.tags), [])                  AS token0_tags,
        if(c1.address != '', arraySort(c1.tags), [])                  AS token1_tags,
        arraySort(arrayDistinct(arrayConcat(token0_tags, token1_tags))) AS token_tags,
        (c0.address != '' AND c0.status = 'blocked') OR (c1.address != '' AND c1.status = 'blocked') AS token_blocked,
        multiIf({sort:String} = 'volume24h', volume_24h,
                {sort:String} = 'volume7d', volume_7d,
                {sort:String} = 'fees24h', fees_24h,
                {sort:String} = 'fees7d', fees_7d,
                {sort:String} = 'feeApr', fee_apr,
                {sort:String} = 'emissionsApr', emissions_apr,
                {sort:String} = 'displayOrder', toFloat64(display_order),
                tvl)                                                  AS sort_value,
        toUInt8(isNull(sort_value))                                   AS k_null,
        if({descending:UInt8} = 1, -ifNull(sort_value, 0), ifNull(sort_value, 0)) AS k_num,
        ''                                                            AS k_text,
        toUInt8(isNull(tvl))                                      AS tvl_null,
        -ifNull(tvl, 0)                                           AS k_tvl
    FROM
    (
        SELECT *
        FROM pool_snap15m FINAL
        WHERE chain_id IN {chain_ids:Array(UInt32)}
          AND snapshot_at IN {snapshot_ats:Array(DateTime64(3, 'UTC'))}
          AND ({address:String} = '' OR pool_address = {address:String})
          AND has(arrayZip({chain_ids:Array(UInt32)}, {snapshot_ats:Array(DateTime64(3, 'UTC'))}), (chain_id, snapshot_at))
    ) AS p
    LEFT JOIN
    (
        -- each pool's buckets over the 7 days before its chain's anchor, the last 24 hours apart;
        -- summed in ascending order, so every page of a traversal computes the same bits
        SELECT chain_id, pool_address,
               arraySum(arraySort(groupArrayIf(volume_usd, hour >= anchor - 86400))) AS volume_24h,
               arraySum(arraySort(groupArrayIf(fees_usd, hour >= anchor - 86400)))   AS fees_24h,
               arraySum(arraySort(groupArray(volume_usd)))                           AS volume_7d,
               arraySum(arraySort(groupArray(fees_usd)))                             AS fees_7d
        FROM
        (
            SELECT chain_id, pool_address, volume_usd, fees_usd,
                   toInt64(toUnixTimestamp(hour_start))                      AS hour,
                   {ends:Array(Int64)}[indexOf({chain_ids:Array(UInt32)}, chain_id)] AS anchor
            FROM pool_hourly FINAL
            WHERE chain_id IN {chain_ids:Array(UInt32)}
              AND ({address:String} = '' OR pool_address = {address:String})
              AND hour_start >= toDateTime64(arrayMin({ends:Array(Int64)}) - 7 * 86400, 3, 'UTC')
              AND hour_start < toDateTime64(arrayMax({ends:Array(Int64)}), 3, 'UTC')
        )
        WHERE hour >= anchor - 7 * 86400 AND hour < anchor
        GROUP BY chain_id, pool_address
    ) AS f ON f.chain_id = p.chain_id AND f.pool_address = p.pool_address
    LEFT JOIN
    (
        SELECT chain_id, snapshot_at, pool_address, emissions_epoch_raw,
               emission_apr_minimum, emission_apr_five_spacing, emission_apr_standard,
               range_tick_lower, range_tick_upper
        FROM gauge_snap15m FINAL
        WHERE chain_id IN {chain_ids:Array(UInt32)}
          AND snapshot_at IN {snapshot_ats:Array(DateTime64(3, 'UTC'))}
          AND ({address:String} = '' OR pool_address = {address:String})
        ORDER BY is_alive DESC, gauge_address
        LIMIT 1 BY chain_id, snapshot_at, pool_address
    ) AS g ON g.chain_id = p.chain_id AND g.snapshot_at = p.snapshot_at AND g.pool_address = p.pool_address
    LEFT JOIN
    (
        SELECT chain_id, snapshot_at, token_address, name
        FROM token_snap15m FINAL
        WHERE chain_id IN {chain_ids:Array(UInt32)}
          AND snapshot_at IN {snapshot_ats:Array(DateTime64(3, 'UTC'))}
    ) AS n0 ON n0.chain_id = p.chain_id AND n0.snapshot_at = p.snapshot_at AND n0.token_address = p.token0_address
    LEFT JOIN
    (
        SELECT chain_id, snapshot_at, token_address, name
        FROM token_snap15m FINAL
        WHERE chain_id IN {chain_ids:Array(UInt32)}
          AND snapshot_at IN {snapshot_ats:Array(DateTime64(3, 'UTC'))}
    ) AS n1 ON n1.chain_id = p.chain_id AND n1.snapshot_at = p.snapshot_at AND n1.token_address = p.token1_address
    LEFT JOIN
    (
        SELECT chain_id, address, curated, status, featured, display_order, categories
        FROM curation_entities FINAL
        WHERE digest = {curation:String} AND kind = 'pool' AND chain_id IN {chain_ids:Array(UInt32)}
    ) AS e ON e.chain_id = p.chain_id AND e.address = p.pool_address
    LEFT JOIN
    (
        SELECT chain_id, address, status, tags
        FROM curation_entities FINAL
        WHERE digest = {curation:String} AND kind = 'token' AND chain_id IN {chain_ids:Array(UInt32)}
    ) AS c0 ON c0.chain_id = p.chain_id AND c0.address = p.token0_address
    LEFT JOIN
    (
        SELECT chain_id, address, status, tags
        FROM curation_entities FINAL
        WHERE digest = {curation:String} AND kind = 'token' AND chain_id IN {chain_ids:Array(UInt32)}
    ) AS c1 ON c1.chain_id = p.chain_id AND c1.address = p.token1_address
)
WHERE status != 'blocked' AND NOT token_blocked
  AND ({status:String} = '' OR status = {status:String})
  AND ({scope_all:UInt8} = 1 OR curated)
  AND ({curated:Int8} < 0 OR curated = ({curated:Int8} = 1))
  AND ({featured:Int8} < 0 OR featured = ({featured:Int8} = 1))
  AND ({incentivized:Int8} < 0 OR incentivized = ({incentivized:Int8} = 1))
  AND ({live_gauge:Int8} < 0 OR live_gauge = ({live_gauge:Int8} = 1))
  AND ({dynamic_fee:Int8} < 0 OR dynamic_fee = ({dynamic_fee:Int8} = 1))
  AND ({custom_fee:Int8} < 0 OR custom_fee = ({custom_fee:Int8} = 1))
  AND (empty({pool_types:Array(String)}) OR has({pool_types:Array(String)}, pool_type))
  AND (empty({categories:Array(String)})
       OR if({category_all:UInt8} = 1, hasAll(categories, {categories:Array(String)}), hasAny(categories, {categories:Array(String)})))
  AND (empty({token_tags:Array(String)})
       OR if({token_tag_all:UInt8} = 1, hasAll(token_tags, {token_tags:Array(String)}), hasAny(token_tags, {token_tags:Array(String)})))
  AND (empty({min_tvl:Array(UInt64)}) OR ifNull(tvl >= reinterpretAsFloat64({min_tvl:Array(UInt64)}[1]), false))
  AND (empty({max_tvl:Array(UInt64)}) OR ifNull(tvl <= reinterpretAsFloat64({max_tvl:Array(UInt64)}[1]), false))
  AND (empty({min_fee_apr:Array(UInt64)}) OR ifNull(fee_apr >= reinterpretAsFloat64({min_fee_apr:Array(UInt64)}[1]), false))
  AND (empty({min_emissions_apr:Array(UInt64)}) OR ifNull(emissions_apr >= reinterpretAsFloat64({min_emissions_apr:Array(UInt64)}[1]), false))
  AND ({token:String} = '' OR token0_address = {token:String} OR token1_address = {token:String})
  AND ({token_chain:UInt32} = 0 OR chain_id = {token_chain:UInt32})
  AND ({q:String} = ''
       OR positionCaseInsensitiveUTF8(concat(token0_symbol, '/', token1_symbol), {q:String}) > 0
       OR positionCaseInsensitiveUTF8(ifNull(token0_name, ''), {q:String}) > 0
       OR positionCaseInsensitiveUTF8(ifNull(token1_name, ''), {q:String}) > 0
       OR positionCaseInsensitive(address, {q:String}) > 0
       OR positionCaseInsensitive(token0_address, {q:String}) > 0
       OR positionCaseInsensitive(token1_address, {q:String}) > 0)
