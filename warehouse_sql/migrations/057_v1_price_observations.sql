-- v1_price_observations: every stored price observation of the given tokens in a time range, as a
-- parameterized view (ADR 0011), one row per observation:
--   canonical-observation: the token's row in a successfully published snapshot at or before its
--     chain's pinned snapshot; sampled at the snapshot time; revision = how many successful runs
--     published that snapshot time; block = the snapshot's block;
--   historical-valuation: the token's token_hourly row of an hour that is valued (its day's
--     price_valuation_runs row has valued_until at or after the hour's end); sampled at the hour's
--     closing boundary; block = the block the hour was read at.
-- price is NULL when the observation has no safe price. Parameters: chain_ids Array(UInt32) and
-- pinned Array(Int64) (each chain's pinned snapshot, Unix seconds), tokens Array(String) of
-- '<chainId>:<lower-case address>', from_ts and to_ts Int64 (inclusive bounds of sampled_at).
CREATE OR REPLACE VIEW v1_price_observations AS
SELECT
    t.chain_id                                       AS chain_id,
    t.token_address                                  AS token_address,
    'canonical-observation'                          AS source,
    toInt64(toUnixTimestamp(t.snapshot_at))          AS sampled_at,
    t.price                                          AS price,
    t.generation                                     AS generation,
    r.revision                                       AS revision,
    r.block                                          AS block
FROM
(
    SELECT chain_id, snapshot_at, token_address,
           argMax(price_usd, ingested_at)        AS price,
           argMax(price_generation, ingested_at) AS generation
    FROM token_snap15m
    WHERE chain_id IN {chain_ids:Array(UInt32)}
      AND concat(toString(chain_id), ':', token_address) IN {tokens:Array(String)}
      AND snapshot_at >= fromUnixTimestamp64Milli({from_ts:Int64} * 1000)
      AND snapshot_at <= fromUnixTimestamp64Milli({to_ts:Int64} * 1000)
    GROUP BY chain_id, snapshot_at, token_address
) AS t
INNER JOIN
(
    SELECT chain_id, snapshot_at,
           toUInt32(uniqExact(run_id))            AS revision,
           argMax(block_number, finished_at)      AS block
    FROM snapshot_runs
    WHERE status = 'success'
      AND chain_id IN {chain_ids:Array(UInt32)}
      AND snapshot_at >= fromUnixTimestamp64Milli({from_ts:Int64} * 1000)
      AND snapshot_at <= fromUnixTimestamp64Milli({to_ts:Int64} * 1000)
    GROUP BY chain_id, snapshot_at
) AS r ON r.chain_id = t.chain_id AND r.snapshot_at = t.snapshot_at
WHERE toInt64(toUnixTimestamp(t.snapshot_at)) <= {pinned:Array(Int64)}[indexOf({chain_ids:Array(UInt32)}, t.chain_id)]

UNION ALL

SELECT
    h.chain_id                                       AS chain_id,
    h.token_address                                  AS token_address,
    'historical-valuation'                           AS source,
    h.boundary                                       AS sampled_at,
    h.price                                          AS price,
    h.generation                                     AS generation,
    h.revision                                       AS revision,
    h.read_block                                     AS block
FROM
(
    SELECT chain_id, token_address,
           toInt64(toUnixTimestamp(hour_start)) + 3600        AS boundary,
           toStartOfDay(hour_start)                           AS day,
           argMax(price_usd_close, ingested_at)               AS price,
           argMax(generation, ingested_at)                    AS generation,
           argMax(revision, ingested_at)                      AS revision,
           argMax(read_block, ingested_at)                    AS read_block
    FROM token_hourly
    WHERE chain_id IN {chain_ids:Array(UInt32)}
      -- the addresses alone first: they are in the sorting key, the pairs are not
      AND token_address IN (SELECT arrayJoin(arrayMap(k -> splitByChar(':', k)[2], {tokens:Array(String)})))
      AND concat(toString(chain_id), ':', token_address) IN {tokens:Array(String)}
      AND hour_start >= fromUnixTimestamp64Milli(({from_ts:Int64} - 3600) * 1000)
      AND hour_start <= fromUnixTimestamp64Milli(({to_ts:Int64} - 3600) * 1000)
    GROUP BY chain_id, token_address, hour_start
) AS h
INNER JOIN
(
    SELECT chain_id, toStartOfDay(day_start) AS day,
           toInt64(toUnixTimestamp(argMax(valued_until, written_at))) AS valued_until
    FROM price_valuation_runs
    WHERE chain_id IN {chain_ids:Array(UInt32)}
    GROUP BY chain_id, day_start
) AS v ON v.chain_id = h.chain_id AND v.day = h.day
WHERE h.boundary <= v.valued_until
