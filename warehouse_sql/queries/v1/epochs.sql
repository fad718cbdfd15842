-- /v1/epochs and /v1/epochs/{chainId}/{epochStart}: per (chain, epoch) asked, the sum over the
-- chain's gauges of their epoch aggregates as last read (gauge_epochs): gauge counts (all, alive
-- at the epoch's end, with votes, with emissions), votes in effect, emissions allotted and
-- emitted, notified bribes (USD at deposit time; unknown when a deposit had no price: counted)
-- and trading fees accrued to the fee rewards (USD at each swap's time), whether any gauge's
-- figures were read before the epoch ended, and when they were read up to. A pair without a row
-- was not read (the handler names the gap). Aliases differ from the columns they sum.
-- Parameters: {chain_ids:Array(UInt32)}, {epochs:Array(Int64)} (the i-th pair: chain_ids[i],
-- epochs[i], Unix seconds of an epoch start).
SELECT
    chain_id,
    toInt64(toUnixTimestamp(epoch))                               AS epoch_ts,
    count()                                                       AS gauges,
    countIf(is_alive)                                             AS alive,
    countIf(votes_raw > 0)                                        AS voted,
    countIf(emissions_raw > 0)                                    AS emitting,
    toString(sum(votes_raw))                                      AS total_votes,
    toString(sum(emissions_raw))                                  AS total_emissions,
    toString(sum(emitted_raw))                                    AS total_emitted,
    sum(bribe_count)                                              AS total_bribe_count,
    sum(unpriced_bribe_count)                                     AS total_unpriced,
    arraySum(arraySort(groupArray(ifNull(bribes_usd, 0))))        AS total_bribes_usd,
    countIf(bribes_usd IS NULL)                                   AS bribes_unknown,
    arraySum(arraySort(groupArray(ifNull(fees_usd, 0))))          AS total_fees_usd,
    countIf(fees_usd IS NULL)                                     AS fees_unknown,
    max(is_partial)                                               AS partial,
    toInt64(toUnixTimestamp(max(read_at)))                        AS read_until
FROM gauge_epochs FINAL
WHERE (chain_id, toInt64(toUnixTimestamp(epoch))) IN
      (SELECT arrayJoin(arrayZip({chain_ids:Array(UInt32)}, {epochs:Array(Int64)})))
GROUP BY chain_id, epoch
