-- Vault rows of published snapshots in [from_ts, to_ts]:
--   missing: a configured vault ({vaults:Array(String)}, lower-case) without a row in a published
--            snapshot at or after its first stored row (before it the vault was not deployed: the
--            asset writes no row for a vault without code and fails on any other missing read);
--   (at most one row per snapshot and vault is the table's key under FINAL: nothing to count)
--   bad_tvl: tvl_usd != amount0*p0/10^d0 + amount1*p1/10^d1 beyond {rel_tol:Float64} relative,
--            or tvl_usd known while a price is NULL, or NULL while both prices are known.
-- Parameters: {chain_id:UInt32}, {from_ts:Int64}, {to_ts:Int64} (Unix seconds, inclusive),
--             {vaults:Array(String)}, {rel_tol:Float64}
WITH published AS
(
    SELECT DISTINCT snapshot_at
    FROM snapshot_runs FINAL
    WHERE chain_id = {chain_id:UInt32}
      AND status = 'success'
      AND snapshot_at >= toDateTime64({from_ts:Int64}, 3, 'UTC')
      AND snapshot_at <= toDateTime64({to_ts:Int64}, 3, 'UTC')
),
rows AS
(
    SELECT snapshot_at, vault_address, tvl_usd, amount0_raw, amount1_raw, token0_price_usd, token1_price_usd,
           token0_decimals, token1_decimals
    FROM vault_snap15m FINAL
    WHERE chain_id = {chain_id:UInt32}
      AND snapshot_at IN (SELECT snapshot_at FROM published)
),
first_seen AS
(
    SELECT vault_address, min(snapshot_at) AS first_at
    FROM vault_snap15m FINAL
    WHERE chain_id = {chain_id:UInt32}
    GROUP BY vault_address
),
expected AS
(
    SELECT p.snapshot_at AS snapshot_at, f.vault_address AS vault_address
    FROM published AS p
    CROSS JOIN first_seen AS f
    WHERE has({vaults:Array(String)}, f.vault_address) AND p.snapshot_at >= f.first_at
),
counted AS
(
    SELECT snapshot_at, vault_address, count() AS n FROM rows GROUP BY snapshot_at, vault_address
)
SELECT
    (SELECT count() FROM published)                                                       AS published,
    (SELECT count() FROM rows)                                                            AS vault_rows,
    (
        SELECT count()
        FROM expected AS e
        LEFT JOIN counted AS c ON c.snapshot_at = e.snapshot_at AND c.vault_address = e.vault_address
        WHERE ifNull(c.n, 0) = 0
    )                                                                                     AS missing,
    (
        SELECT countIf(
            if(token0_price_usd IS NULL OR token1_price_usd IS NULL,
               tvl_usd IS NOT NULL,
               tvl_usd IS NULL
               OR abs(tvl_usd - (toFloat64(amount0_raw) * token0_price_usd / pow(10, token0_decimals)
                                 + toFloat64(amount1_raw) * token1_price_usd / pow(10, token1_decimals)))
                  > {rel_tol:Float64} * greatest(abs(tvl_usd), 1e-12)))
        FROM rows
    )                                                                                     AS bad_tvl,
    (SELECT length({vaults:Array(String)}) - count() FROM first_seen
     WHERE has({vaults:Array(String)}, vault_address))                                    AS vaults_never_seen
