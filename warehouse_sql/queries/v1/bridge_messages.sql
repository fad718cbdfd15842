-- /v1/bridge and /v1/bridge/{guid}: cross-chain messages as the events each chain has indexed
-- show them, newest first: (order_at DESC, guid), after the keyset position when {after} is 1.
-- An event of chain c counts when it is before that chain's observation boundary (the i-th of
-- {bounds} for the i-th of {chain_ids}: its published snapshot's time, or the end of its indexed
-- bridge events when earlier); a chain not listed shows nothing. State (LayerZero Scan's words):
--   DELIVERED       delivered on the destination (terminal);
--   FAILED          burnt on the destination: never to be delivered (terminal);
--   PAYLOAD_STORED  its execution reverted on the destination; a retry can deliver it;
--   BLOCKED         verified, waiting behind an earlier nonce of its pathway whose payload is stored;
--   INFLIGHT        verified, or sent and past its source confirmations, not yet executed;
--   CONFIRMING      sent less than the source chain's finality (the i-th of {finality}, seconds)
--                   before the source chain's boundary.
-- order_at: the send time, or (the source side not yet indexed) the first destination event's.
-- Filters with an empty value (or 0) select everything: {guid:String}, {src_chain:UInt32},
-- {dst_chain:UInt32}, {address:String} (a wallet or application on either side), {states:Array(String)}.
-- Parameters: {chain_ids:Array(UInt32)}, {bounds:Array(DateTime64(3, 'UTC'))}, {finality:Array(UInt32)},
-- the filters, {after:UInt8}, {c_at:Int64} (Unix milliseconds), {c_guid:String}, {limit:UInt32}.
SELECT *
FROM
(
    SELECT *,
           multiIf(delivered_ms IS NOT NULL, 'DELIVERED',
                   burnt_ms IS NOT NULL, 'FAILED',
                   alert_ms IS NOT NULL, 'PAYLOAD_STORED',
                   verified_ms IS NOT NULL AND nonce > first_stored, 'BLOCKED',
                   verified_ms IS NOT NULL, 'INFLIGHT',
                   sent_ms IS NOT NULL
                       AND toUnixTimestamp64Milli({bounds:Array(DateTime64(3, 'UTC'))}[indexOf({chain_ids:Array(UInt32)}, src_chain_id)])
                           - sent_ms < 1000 * {finality:Array(UInt32)}[indexOf({chain_ids:Array(UInt32)}, src_chain_id)],
                   'CONFIRMING',
                   'INFLIGHT') AS state
    FROM
    (
        SELECT *,
               -- the lowest nonce of the pathway whose payload is stored (none: 2^64 - 1)
               min(if(alert_ms IS NOT NULL AND delivered_ms IS NULL AND burnt_ms IS NULL, nonce, 18446744073709551615))
                   OVER (PARTITION BY src_chain_id, dst_chain_id, sender, receiver) AS first_stored,
               coalesce(sent_ms, least(ifNull(verified_ms, 9223372036854775807), ifNull(alert_ms, 9223372036854775807),
                                       ifNull(delivered_ms, 9223372036854775807), ifNull(burnt_ms, 9223372036854775807))) AS order_at
        FROM
        (
            SELECT
                guid,
                any(nonce)                                                        AS nonce,
                any(src_chain_id)                                                 AS src_chain_id,
                any(dst_chain_id)                                                 AS dst_chain_id,
                any(src_eid)                                                      AS src_eid,
                any(dst_eid)                                                      AS dst_eid,
                any(sender)                                                       AS sender,
                any(receiver)                                                     AS receiver,
                anyIf(from_address, from_address != '')                           AS from_address,
                anyIf(to_address, to_address != '')                               AS to_address,
                anyIf(token_address, kind = 'PacketSent')                         AS src_token,
                anyIf(token_symbol, kind = 'PacketSent')                          AS src_token_symbol,
                anyIf(token_decimals, kind = 'PacketSent')                        AS src_token_decimals,
                anyIf(toString(amount_raw), kind = 'PacketSent' AND amount_raw IS NOT NULL) AS src_amount_raw,
                anyIf(token_address, kind != 'PacketSent' AND token_address != '') AS dst_token,
                anyIf(token_symbol, kind != 'PacketSent' AND token_address != '') AS dst_token_symbol,
                anyIf(token_decimals, kind != 'PacketSent' AND token_address != '') AS dst_token_decimals,
                anyIf(toString(amount_raw), kind != 'PacketSent' AND amount_raw IS NOT NULL) AS dst_amount_raw,
                countIf(kind != 'PacketSent') > 0                                 AS destination_seen,
                minIfOrNull(toUnixTimestamp64Milli(block_timestamp), kind = 'PacketSent') AS sent_ms,
                argMinIf(block_number, block_timestamp, kind = 'PacketSent')      AS sent_block,
                argMinIf(transaction_hash, block_timestamp, kind = 'PacketSent')  AS sent_tx,
                minIfOrNull(toUnixTimestamp64Milli(block_timestamp), kind = 'PacketVerified') AS verified_ms,
                argMinIf(block_number, block_timestamp, kind = 'PacketVerified')  AS verified_block,
                argMinIf(transaction_hash, block_timestamp, kind = 'PacketVerified') AS verified_tx,
                maxIfOrNull(toUnixTimestamp64Milli(block_timestamp), kind = 'LzReceiveAlert') AS alert_ms,
                argMaxIf(reason, block_timestamp, kind = 'LzReceiveAlert')        AS alert_reason,
                argMaxIf(transaction_hash, block_timestamp, kind = 'LzReceiveAlert') AS alert_tx,
                countIf(kind = 'LzReceiveAlert')                                  AS alerts,
                minIfOrNull(toUnixTimestamp64Milli(block_timestamp), kind = 'PacketDelivered') AS delivered_ms,
                argMinIf(block_number, block_timestamp, kind = 'PacketDelivered') AS delivered_block,
                argMinIf(transaction_hash, block_timestamp, kind = 'PacketDelivered') AS delivered_tx,
                minIfOrNull(toUnixTimestamp64Milli(block_timestamp), kind = 'PacketBurnt') AS burnt_ms,
                argMinIf(transaction_hash, block_timestamp, kind = 'PacketBurnt') AS burnt_tx
            FROM
            (
                SELECT *
                FROM bridge_events FINAL
                WHERE chain_id IN {chain_ids:Array(UInt32)}
                  AND block_timestamp < {bounds:Array(DateTime64(3, 'UTC'))}[indexOf({chain_ids:Array(UInt32)}, chain_id)]
                  -- one message: its pathway's messages (BLOCKED depends on the earlier nonces)
                  AND ({guid:String} = ''
                       OR (src_chain_id, dst_chain_id, sender, receiver) IN
                          (SELECT src_chain_id, dst_chain_id, sender, receiver FROM bridge_events WHERE guid = {guid:String}))
            )
            GROUP BY guid
        )
    )
)
WHERE ({guid:String} = '' OR guid = {guid:String})
  AND ({src_chain:UInt32} = 0 OR src_chain_id = {src_chain:UInt32})
  AND ({dst_chain:UInt32} = 0 OR dst_chain_id = {dst_chain:UInt32})
  AND ({address:String} = '' OR {address:String} IN (from_address, to_address, sender, receiver))
  AND (empty({states:Array(String)}) OR has({states:Array(String)}, state))
  AND (NOT {after:UInt8} OR order_at < {c_at:Int64} OR (order_at = {c_at:Int64} AND guid > {c_guid:String}))
ORDER BY order_at DESC, guid ASC
LIMIT {limit:UInt32}
