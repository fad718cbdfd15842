-- Every account's records, account first (/v1/accounts/{address}/activity reads one account's
-- granules, not every chain's events): derived from the event tables by the history assets right
-- after they write a range (transforms/accounts/account_events.sql). One row per record and
-- account it concerns: a Voter transaction of a veNFT (its owner then), a VotingEscrow log (each
-- owner on either side: a transfer is one row for the sender and one for the receiver), a reward
-- claim (the owner paid), a vault deposit or redemption (the user), an xCORE move (the account).
-- `kind` is the activity kind ('vote', 'lockCreate', 'veTransferIn', 'claim', 'vaultDeposit',
-- 'xcoreBridgeOut', ...); `detail` a JSON object of the record's own fields (raw integers as text).
-- Re-deriving a range writes the same keys again, and FINAL keeps one.
CREATE TABLE IF NOT EXISTS account_events
(
    account           String,
    chain_id          UInt32,
    block_timestamp   DateTime64(3, 'UTC'),
    block_number      UInt64,
    log_index         UInt32,
    kind              LowCardinality(String),
    id                String,
    transaction_hash  String,
    detail            String CODEC(ZSTD(3)),
    ingested_at       DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
ORDER BY (account, chain_id, block_timestamp, block_number, log_index, kind, id)
SETTINGS non_replicated_deduplication_window = 1000
