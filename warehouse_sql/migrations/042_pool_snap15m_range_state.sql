-- Range state of a concentrated-liquidity pool at the snapshot block, as the subgraph's Pool
-- serves it: active liquidity, sqrt price (Q64.96) and current tick, exact raw integers (the
-- inputs of the per-profile emissions APR, docs/methodology/cl-emissions-apr.md). NULL for V2
-- pools (the subgraph derives theirs from reserves) and for rows written before this migration.
ALTER TABLE pool_snap15m
    ADD COLUMN IF NOT EXISTS liquidity_raw   Nullable(UInt256),
    ADD COLUMN IF NOT EXISTS sqrt_price_x96  Nullable(UInt256),
    ADD COLUMN IF NOT EXISTS tick            Nullable(Int32)
