-- vault_hourly holds only final buckets: none for an hour that had not ended by {now_ts}, none
-- flagged partial. vault_daily rows flagged partial are reported (the running day; a past day
-- still partial means its history was not re-read after the day ended).
-- Parameters: {chain_id:UInt32}, {now_ts:Int64} (Unix seconds)
SELECT
    (SELECT count() FROM vault_hourly FINAL WHERE chain_id = {chain_id:UInt32})           AS buckets,
    (SELECT count() FROM vault_hourly FINAL
     WHERE chain_id = {chain_id:UInt32}
       AND period_start + INTERVAL 1 HOUR > toDateTime64({now_ts:Int64}, 3, 'UTC'))       AS future_buckets,
    (SELECT count() FROM vault_hourly FINAL
     WHERE chain_id = {chain_id:UInt32} AND partial)                                      AS partial_buckets,
    (SELECT count() FROM vault_daily FINAL
     WHERE chain_id = {chain_id:UInt32} AND partial)                                      AS partial_days
