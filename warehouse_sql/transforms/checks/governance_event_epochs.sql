-- Governance events against the epoch calendar (Thursday 00:00 UTC weeks; the Unix epoch began on
-- a Thursday, so an epoch start is a multiple of 604800 seconds):
--   bribes and votes belong to the epoch of their block time;
--   claims pay an epoch that had ended when they were made;
--   no event is later than {now_ts:Int64}; no USD value is negative.
-- Parameters: {chain_id:UInt32}, {now_ts:Int64}
SELECT
    (SELECT count() FROM bribe_events FINAL WHERE chain_id = {chain_id:UInt32})       AS bribes,
    (SELECT count() FROM vote_events FINAL WHERE chain_id = {chain_id:UInt32})        AS votes,
    (SELECT count() FROM claim_events FINAL WHERE chain_id = {chain_id:UInt32})       AS claims,
    (
        SELECT countIf(toInt64(toUnixTimestamp(epoch)) != intDiv(toInt64(toUnixTimestamp(block_timestamp)), 604800) * 604800
                       OR toInt64(toUnixTimestamp(block_timestamp)) > {now_ts:Int64}
                       OR ifNull(amount_usd, 0) < 0)
        FROM bribe_events FINAL WHERE chain_id = {chain_id:UInt32}
    )                                                                                  AS bad_bribes,
    (
        SELECT countIf(toInt64(toUnixTimestamp(epoch)) != intDiv(toInt64(toUnixTimestamp(block_timestamp)), 604800) * 604800
                       OR toInt64(toUnixTimestamp(block_timestamp)) > {now_ts:Int64})
        FROM vote_events FINAL WHERE chain_id = {chain_id:UInt32}
    )                                                                                  AS bad_votes,
    (
        SELECT countIf(toInt64(toUnixTimestamp(epoch)) % 604800 != 0
                       OR toInt64(toUnixTimestamp(epoch)) + 604800 > toInt64(toUnixTimestamp(block_timestamp))
                       OR toInt64(toUnixTimestamp(block_timestamp)) > {now_ts:Int64}
                       OR ifNull(amount_usd, 0) < 0)
        FROM claim_events FINAL WHERE chain_id = {chain_id:UInt32}
    )                                                                                  AS bad_claims
