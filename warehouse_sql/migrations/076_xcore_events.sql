-- One row per event of the escrow-share token xCORE (history, daily xcore_events asset; the
-- snapshot asset xcore_snapshots also reads the events since the chain's recorded boundary, so the
-- reconciliation at a snapshot has its transfers), on the chain that emitted it. On the canonical
-- chain (the one whose book has contracts.xcoreAdapter): 'deposit', 'exit', 'compound',
-- 'distribution', and the adapter's 'bridgeOut' (shares locked) / 'bridgeIn' (released); on a
-- chain with a bridged representation: 'bridgeIn' (minted) and 'bridgeOut' (burnt).
-- Raw integers (18 decimals); ratios are CORE per xCORE x 1e18, rounded down. supply, backing and
-- adapter_locked are after the event; ratios, backing and adapter_locked are NULL on a
-- representation's chain, bridge columns ''/0 for the other kinds. No source publishes the ratio
-- as a series: old and new ratios per event are the whole rate history. Replaced by
-- (chain_id, block_number, log_index); reads use FINAL.
CREATE TABLE IF NOT EXISTS xcore_events
(
    chain_id            UInt32,
    id                  String,                        -- <tx hash>-<log index>
    kind                LowCardinality(String),
    account             String,                        -- '' for compound and distribution
    amount_raw          Nullable(UInt256),             -- CORE deposited, paid out, compounded or distributed
    shares_raw          UInt256,                       -- minted, burnt or moved (0: compound, distribution)
    penalty_raw         Nullable(UInt256),             -- exits only
    old_ratio_raw       Nullable(UInt256),
    new_ratio_raw       Nullable(UInt256),
    supply_raw          UInt256,                       -- this chain's supply after the event
    backing_raw         Nullable(UInt256),
    adapter_locked_raw  Nullable(UInt256),
    epoch_start         DateTime('UTC'),               -- the epoch (Thursday 00:00 UTC) the event falls in
    guid                String,                        -- bridge events: the transfer's id on both chains
    src_chain_id        UInt32,                        -- bridge events (0 otherwise)
    dst_chain_id        UInt32,
    block_timestamp     DateTime('UTC'),
    block_number        UInt64,
    transaction_hash    String,
    log_index           UInt32,
    ingested_at         DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
ORDER BY (chain_id, block_number, log_index)
SETTINGS non_replicated_deduplication_window = 1000
