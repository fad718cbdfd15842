-- /v1/pools/{chainId}/{poolAddress}/trailing: the pool at the chain's published snapshot
-- (v1_pool_identity, migration 062: one row when listed, none otherwise) and its volume and fees
-- per requested window [starts[i], end): the sum of its hourly buckets there, as (i, volume, fees)
-- for the windows holding any bucket (i from 1). Summed in ascending order, so a 24h or 7d window
-- gives the bits of the pool's /v1/pools row (v1_pool_rows sums the same buckets the same way).
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}, {address:String} lower-case,
-- {curation:String}, {scope_all:UInt8}, {starts:Array(Int64)}, {end:Int64} (the chain's anchor,
-- Unix seconds; 0 and no starts when the chain has none).
SELECT
    p.pool_type AS pool_type,
    p.servable  AS servable,
    (
        SELECT groupArray((span, volume_usd, fees_usd))
        FROM
        (
            SELECT span,
                   arraySum(arraySort(groupArray(volume_usd))) AS volume_usd,
                   arraySum(arraySort(groupArray(fees_usd)))   AS fees_usd
            FROM
            (
                SELECT arrayJoin(arrayFilter(i -> {starts:Array(Int64)}[i] <= hour,
                                             arrayEnumerate({starts:Array(Int64)}))) AS span,
                       volume_usd, fees_usd
                FROM
                (
                    SELECT toInt64(toUnixTimestamp(hour_start)) AS hour, volume_usd, fees_usd
                    FROM pool_hourly FINAL
                    WHERE chain_id = {chain_id:UInt32}
                      AND pool_address = {address:String}
                      AND notEmpty({starts:Array(Int64)})
                      AND hour_start >= toDateTime64(arrayMin({starts:Array(Int64)}), 3, 'UTC')
                      AND hour_start < toDateTime64({end:Int64}, 3, 'UTC')
                )
            )
            GROUP BY span
            ORDER BY span
        )
    ) AS sums
FROM v1_pool_identity(chain_id = {chain_id:UInt32}, snapshot_at = {snapshot_at:DateTime64(3, 'UTC')},
                      address = {address:String}, curation = {curation:String}, scope_all = {scope_all:UInt8}) AS p
