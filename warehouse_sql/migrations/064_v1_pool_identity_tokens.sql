-- v1_pool_identity, as migration 062 made it, with the pool's tokens (address, symbol, decimals) for
-- /v1/pools/{chainId}/{poolAddress}/history and /daily, which value each period's holdings per token.
CREATE OR REPLACE VIEW v1_pool_identity AS
SELECT
    p.pool_address                                                   AS address,
    p.pool_type                                                      AS pool_type,
    p.token0_address                                                 AS token0_address,
    p.token1_address                                                 AS token1_address,
    p.token0_symbol                                                  AS token0_symbol,
    p.token1_symbol                                                  AS token1_symbol,
    p.token0_decimals                                                AS token0_decimals,
    p.token1_decimals                                                AS token1_decimals,
    toBool(e.address != '' AND e.curated)                            AS curated,
    (if(curated, e.status, 'active') != 'blocked'
        AND NOT ((c0.address != '' AND c0.status = 'blocked') OR (c1.address != '' AND c1.status = 'blocked'))
        AND ({scope_all:UInt8} = 1 OR curated))                      AS servable
FROM
(
    SELECT pool_address, pool_type, token0_address, token1_address, token0_symbol, token1_symbol,
           token0_decimals, token1_decimals
    FROM pool_snap15m FINAL
    WHERE chain_id = {chain_id:UInt32}
      AND snapshot_at = {snapshot_at:DateTime64(3, 'UTC')}
      AND pool_address = {address:String}
    LIMIT 1
) AS p
LEFT JOIN
(
    SELECT address, curated, status FROM curation_entities FINAL
    WHERE digest = {curation:String} AND kind = 'pool' AND chain_id = {chain_id:UInt32} AND address = {address:String}
) AS e ON e.address = p.pool_address
LEFT JOIN
(
    SELECT address, status FROM curation_entities FINAL
    WHERE digest = {curation:String} AND kind = 'token' AND chain_id = {chain_id:UInt32}
) AS c0 ON c0.address = p.token0_address
LEFT JOIN
(
    SELECT address, status FROM curation_entities FINAL
    WHERE digest = {curation:String} AND kind = 'token' AND chain_id = {chain_id:UInt32}
) AS c1 ON c1.address = p.token1_address
