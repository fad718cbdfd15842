-- /v1/xcore: the xCORE bridge transfers as per-chain observers see them, for the reconciliation of
-- the canonical adapter's locked shares with the bridged supplies. Each chain shows its events at
-- or before its instant ({observed}: its published snapshot's time); a chain not selected shows
-- nothing. A transfer (one guid) is `sent` when its source chain shows the bridgeOut and
-- `delivered` when its destination shows the bridgeIn. Per remote chain (the side that is not the
-- canonical chain) and direction ('out': canonical -> remote, 'back': remote -> canonical): the
-- shares and counts sent, delivered, in flight (sent, not delivered) and seen only delivered
-- (observer skew: the instants lie further apart than the delivery delay).
-- Parameters: {chain_ids:Array(UInt32)}, {observed:Array(Int64)}, {canonical:UInt32}.
SELECT if(src = {canonical:UInt32}, dst, src) AS remote_chain_id,
       if(src = {canonical:UInt32}, 'out', 'back') AS direction,
       toString(sumIf(shares, sent)) AS sent_raw,
       toString(sumIf(shares, delivered)) AS delivered_raw,
       toString(sumIf(shares, sent AND NOT delivered)) AS in_flight_raw,
       countIf(sent AND NOT delivered) AS in_flight_count,
       toString(sumIf(shares, delivered AND NOT sent)) AS skew_raw
FROM
(
    SELECT guid,
           any(src_chain_id) AS src,
           any(dst_chain_id) AS dst,
           max(shares_raw) AS shares,
           countIf(kind = 'bridgeOut') > 0 AS sent,
           countIf(kind = 'bridgeIn') > 0 AS delivered
    FROM xcore_events FINAL
    WHERE kind IN ('bridgeOut', 'bridgeIn') AND guid != ''
      AND has({chain_ids:Array(UInt32)}, chain_id)
      AND toInt64(toUnixTimestamp(block_timestamp))
          <= {observed:Array(Int64)}[indexOf({chain_ids:Array(UInt32)}, chain_id)]
    GROUP BY guid
)
WHERE src = {canonical:UInt32} OR dst = {canonical:UInt32}
GROUP BY remote_chain_id, direction
ORDER BY remote_chain_id, direction
