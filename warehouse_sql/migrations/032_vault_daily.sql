-- Per-vault UTC day rows from the subgraph's VaultDayData read at one block
-- (the block at the range end when the subgraph has indexed past it, else its head; like
-- pool_hourly). State columns are as of the period's last block; harvested_usd is the rewards
-- harvested in the period (USD at harvest time); apr = harvested_usd / tvl_usd x periods per
-- year, a fraction. deposits / withdrawals count the period's VaultDeposit / VaultWithdrawal.
-- The in-progress UTC day is written with partial = true and replaced when its day is read again.
CREATE TABLE IF NOT EXISTS vault_daily
(
    chain_id          UInt32,
    vault_address     String,
    period_start      DateTime64(3, 'UTC') CODEC(DoubleDelta, ZSTD),
    total_supply_raw  UInt256,
    amount0_raw       UInt256,
    amount1_raw       UInt256,
    tvl_usd           Nullable(Float64),
    share_price_usd   Nullable(Float64),
    harvested_usd     Nullable(Float64),
    apr               Nullable(Float64),
    deposits          UInt32,
    withdrawals       UInt32,
    partial           Bool,
    ingested_at       DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
PARTITION BY toYYYYMM(period_start)
ORDER BY (chain_id, vault_address, period_start)
SETTINGS non_replicated_deduplication_window = 1000
