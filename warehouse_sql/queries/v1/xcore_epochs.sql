-- /v1/xcore/epochs: per epoch (Thursday 00:00 UTC) from {lo} to {hi} (epoch starts, inclusive), the
-- canonical chain's xCORE events of the epoch: the rate before the first and after the last, the
-- rate change split by cause (the sum of new - old ratio over the events of each kind; deposits
-- and bridge events leave the rate unchanged, so the causes sum to the change), counts and amounts
-- per kind (0 without events of the kind), supply and backing after the last event. Row epoch = 0 is the last event before {lo}
-- (the state an epoch without events carries). Events after {through} (inclusive) are not shown.
-- Parameters: {canonical:UInt32}, {lo:Int64}, {hi:Int64}, {through:Int64}.
SELECT epoch,
       toString(argMin(old_ratio_raw, (block_number, log_index))) AS rate_at_start_raw,
       toString(argMax(new_ratio_raw, (block_number, log_index))) AS rate_at_end_raw,
       toString(ifNull(sumIf(toInt256(new_ratio_raw) - toInt256(old_ratio_raw), kind = 'exit'), 0)) AS exit_penalty_raw,
       toString(ifNull(sumIf(toInt256(new_ratio_raw) - toInt256(old_ratio_raw), kind = 'compound'), 0)) AS compound_raw,
       toString(ifNull(sumIf(toInt256(new_ratio_raw) - toInt256(old_ratio_raw), kind = 'distribution'), 0)) AS distribution_raw,
       countIf(kind = 'deposit') AS deposits,
       countIf(kind = 'exit') AS exits,
       countIf(kind = 'compound') AS compounds,
       countIf(kind = 'distribution') AS distributions,
       countIf(kind = 'bridgeOut') AS bridge_outs,
       countIf(kind = 'bridgeIn') AS bridge_ins,
       toString(ifNull(sumIf(amount_raw, kind = 'deposit'), 0)) AS deposited_raw,
       toString(ifNull(sumIf(shares_raw, kind = 'exit'), 0)) AS exited_shares_raw,
       toString(ifNull(sumIf(amount_raw, kind = 'exit'), 0)) AS exit_paid_raw,
       toString(ifNull(sumIf(penalty_raw, kind = 'exit'), 0)) AS penalties_raw,
       toString(ifNull(sumIf(amount_raw, kind = 'compound'), 0)) AS compounded_raw,
       toString(ifNull(sumIf(amount_raw, kind = 'distribution'), 0)) AS distributed_raw,
       toString(argMax(supply_raw, (block_number, log_index))) AS supply_at_end_raw,
       toString(argMax(backing_raw, (block_number, log_index))) AS backing_at_end_raw
FROM
(
    SELECT if(epoch_start < toDateTime({lo:Int64}, 'UTC'), 0, toInt64(toUnixTimestamp(epoch_start))) AS epoch,
           kind, old_ratio_raw, new_ratio_raw, amount_raw, shares_raw, penalty_raw, supply_raw, backing_raw,
           block_number, log_index
    FROM xcore_events FINAL
    WHERE chain_id = {canonical:UInt32}
      AND epoch_start <= toDateTime({hi:Int64}, 'UTC')
      AND block_timestamp <= toDateTime({through:Int64}, 'UTC')
)
GROUP BY epoch
ORDER BY epoch
