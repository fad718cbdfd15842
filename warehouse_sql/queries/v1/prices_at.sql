-- The price of tokens at boundaries (ADR 0011; api/v1/token_prices.py), for /v1/prices,
-- /v1/tokens/{chainId}/{tokenAddress}/prices, /trailing and /price-changes: per requested boundary
-- (a token and a time T), from the stored observations of v1_price_observations (migration 057):
--   p_*: the latest observation with a price at or before T, either kind, a canonical one winning
--        a tie with a valuation (the caller applies the age limit);
--   c_*: the latest canonical observation at or before T (its price may be NULL);
--   h_*: the latest historical valuation at or before T (its price may be NULL);
-- each as the columns api/v1/price_observations.py reads (source '' when there is none), and
--   listed:         1 when the token is in its chain's pinned snapshot and the curation does not block it;
--   first_activity: the chain's first market activity (Unix seconds; NULL when unknown).
-- Parameters: chain_ids Array(UInt32), pinned Array(Int64) (each chain's pinned snapshot, Unix
-- seconds) and snapshot_ats Array(DateTime64(3, 'UTC')) (the same snapshots as stored), aligned;
-- tokens Array(String): the distinct '<chainId>:<address>' of the boundaries; from_ts, to_ts Int64:
-- the range of observations read; curation String: the publication's digest; b_tokens
-- Array(String) and b_ats Array(Int64): the i-th boundary is token b_tokens[i] at b_ats[i].
-- One row per boundary, `b` = i (from 1), in order.
SELECT
    q.b                                                                   AS b,
    q.listed                                                              AS listed,
    q.first_activity                                                      AS first_activity,
    argMaxIf((o.price, o.source, o.sampled_at, o.generation, o.revision, o.block),
             (o.sampled_at, o.source = 'canonical-observation'),
             o.source != '' AND o.sampled_at <= q.at AND o.price IS NOT NULL)      AS priced,
    argMaxIf((o.price, o.source, o.sampled_at, o.generation, o.revision, o.block), o.sampled_at,
             o.source = 'canonical-observation' AND o.sampled_at <= q.at)         AS canonical,
    argMaxIf((o.price, o.source, o.sampled_at, o.generation, o.revision, o.block), o.sampled_at,
             o.source = 'historical-valuation' AND o.sampled_at <= q.at)          AS historical,
    priced.1 AS p_price, priced.2 AS p_source, priced.3 AS p_sampled_at, priced.4 AS p_generation,
    priced.5 AS p_revision, priced.6 AS p_block,
    canonical.1 AS c_price, canonical.2 AS c_source, canonical.3 AS c_sampled_at, canonical.4 AS c_generation,
    canonical.5 AS c_revision, canonical.6 AS c_block,
    historical.1 AS h_price, historical.2 AS h_source, historical.3 AS h_sampled_at, historical.4 AS h_generation,
    historical.5 AS h_revision, historical.6 AS h_block
FROM
(
    SELECT w.b AS b, w.token AS token, w.at AS at, m.first_activity AS first_activity,
           toUInt8(w.token IN (
               SELECT concat(toString(chain_id), ':', token_address)
               FROM token_snap15m FINAL
               WHERE chain_id IN {chain_ids:Array(UInt32)}
                 AND snapshot_at IN {snapshot_ats:Array(DateTime64(3, 'UTC'))}
                 AND has(arrayZip({chain_ids:Array(UInt32)}, {snapshot_ats:Array(DateTime64(3, 'UTC'))}), (chain_id, snapshot_at))
                 AND concat(toString(chain_id), ':', token_address) IN {tokens:Array(String)})
           AND w.token NOT IN (
               SELECT concat(toString(chain_id), ':', address)
               FROM curation_entities FINAL
               WHERE digest = {curation:String} AND kind = 'token' AND status = 'blocked'
                 AND chain_id IN {chain_ids:Array(UInt32)})) AS listed
    FROM
    (
        SELECT arrayJoin(arrayEnumerate({b_tokens:Array(String)})) AS b,
               {b_tokens:Array(String)}[b]                         AS token,
               {b_ats:Array(Int64)}[b]                             AS at,
               toUInt32(splitByChar(':', token)[1])                AS chain_id
    ) AS w
    LEFT JOIN
    (
        SELECT chain_id, toNullable(toInt64(toUnixTimestamp(min(first_at)))) AS first_activity
        FROM chain_coverage
        WHERE chain_id IN {chain_ids:Array(UInt32)} AND dataset = 'market_activity'
        GROUP BY chain_id
    ) AS m ON m.chain_id = w.chain_id
) AS q
LEFT JOIN
(
    SELECT concat(toString(chain_id), ':', token_address) AS token, source, sampled_at, price, generation, revision, block
    FROM v1_price_observations(chain_ids = {chain_ids:Array(UInt32)}, pinned = {pinned:Array(Int64)},
                               tokens = {tokens:Array(String)}, from_ts = {from_ts:Int64}, to_ts = {to_ts:Int64})
) AS o ON o.token = q.token
GROUP BY q.b, q.listed, q.first_activity
ORDER BY b
