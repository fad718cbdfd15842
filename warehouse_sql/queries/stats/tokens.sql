-- /api/stats/tokens (and the `current` of /api/stats/tokens/{address} with {address} set):
-- token snapshots (TokenSnapshot) of every token in a pool of the snapshot, by USD price
-- descending (unknown prices last), then address.
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}, {limit:UInt16},
-- {address:String} (lower-case; '' = every token)
SELECT
    token_address AS address,
    symbol,
    name,
    decimals,
    price_usd     AS priceUsd,
    derived_eth   AS derivedEth,
    tvl_usd       AS tvlUsd
FROM token_snap15m FINAL
WHERE chain_id = {chain_id:UInt32}
  AND snapshot_at = {snapshot_at:DateTime64(3, 'UTC')}
  AND ({address:String} = '' OR token_address = {address:String})
  AND token_address IN
  (
      SELECT arrayJoin([token0_address, token1_address])
      FROM pool_snap15m FINAL
      WHERE chain_id = {chain_id:UInt32}
        AND snapshot_at = {snapshot_at:DateTime64(3, 'UTC')}
  )
ORDER BY price_usd DESC NULLS LAST, token_address
LIMIT {limit:UInt16}
