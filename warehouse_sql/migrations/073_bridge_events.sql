-- One row per cross-chain bridge event (history, daily bridge_events asset), on the chain that
-- emitted it: on the source chain 'PacketSent'; on the destination 'PacketVerified',
-- 'PacketDelivered', 'LzReceiveAlert' (execution reverted: the payload is stored for a retry) and
-- 'PacketBurnt' (the message will never be delivered). A message is identified by its guid across
-- both chains; its state is derived from the events each chain has indexed (api/v1/bridge).
-- Generic messages carry no token, amount or wallets (''/NULL). Replaced by (guid, chain_id, id);
-- reads use FINAL. Ordered by guid first: a message is read by its guid, both sides together.
CREATE TABLE IF NOT EXISTS bridge_events
(
    guid              String,                          -- 0x + 64 hex
    chain_id          UInt32,                          -- the chain that emitted the event
    id                String,                          -- <tx hash>-<log index>
    kind              LowCardinality(String),
    nonce             UInt64,                          -- the message's nonce on its pathway
    src_chain_id      UInt32,
    dst_chain_id      UInt32,
    src_eid           UInt32,
    dst_eid           UInt32,
    sender            String,                          -- the source application (OApp)
    receiver          String,                          -- the destination application
    from_address      String,                          -- transfers: the wallet debited ('' otherwise)
    to_address        String,                          -- transfers: the wallet credited ('' otherwise)
    token_address     String,                          -- transfers: this chain's token ('' otherwise)
    token_symbol      String,
    token_decimals    Nullable(UInt8),
    amount_raw        Nullable(UInt256),               -- transfers: raw amount in the token's units
    reason            String,                          -- LzReceiveAlert: why execution reverted
    block_timestamp   DateTime64(3, 'UTC'),
    block_number      UInt64,
    transaction_hash  String,
    log_index         UInt32,
    ingested_at       DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
ORDER BY (guid, chain_id, id)
SETTINGS non_replicated_deduplication_window = 1000
