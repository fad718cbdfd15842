-- /api/v1 token prices: the latest successful snapshot's token rows for the given tokens.
-- Parameters: {chain_id:UInt32}, {addresses:Array(String)} (lower-case token addresses)
-- A token without a row (or with a null price) is unknown to the caller, never 0.
WITH latest AS
(
    SELECT max(snapshot_at) AS at
    FROM snapshot_runs FINAL
    WHERE chain_id = {chain_id:UInt32} AND status = 'success'
)
SELECT
    lower(token_address) AS address,
    price_usd           AS priceUsd,
    snapshot_at         AS snapshotAt
FROM token_snap15m FINAL
WHERE chain_id = {chain_id:UInt32}
  AND snapshot_at = (SELECT at FROM latest)
  AND lower(token_address) IN {addresses:Array(String)}
