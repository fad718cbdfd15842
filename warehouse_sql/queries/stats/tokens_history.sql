-- /api/stats/tokens/{address} `history`: the token's price in the latest 672 successful
-- snapshots up to the served one, oldest first.
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}, {address:String}
SELECT *
FROM
(
    SELECT
        toDateTime(snapshot_at, 'UTC') AS snapshotAt,
        price_usd   AS priceUsd,
        derived_eth AS derivedEth
    FROM token_snap15m FINAL
    WHERE chain_id = {chain_id:UInt32}
      AND token_address = {address:String}
      AND snapshot_at <= {snapshot_at:DateTime64(3, 'UTC')}
      AND snapshot_at IN
      (
          SELECT snapshot_at
          FROM snapshot_runs FINAL
          WHERE chain_id = {chain_id:UInt32}
            AND status = 'success'
            AND snapshot_at <= {snapshot_at:DateTime64(3, 'UTC')}
      )
    ORDER BY snapshot_at DESC
    LIMIT 672
)
ORDER BY snapshotAt
