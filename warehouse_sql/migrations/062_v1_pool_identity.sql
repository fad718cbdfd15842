-- v1_pool_identity: one pool at a chain's published snapshot, for the /v1/pools/{chainId}/{poolAddress}
-- sub-routes (ticks, trailing): its type and whether the route may serve it, by the rule of
-- v1_pool_rows (migrations 052, 059): never a blocked pool or one holding a blocked token; with
-- {scope_all:UInt8} = 0 only curated pools. One row when the snapshot lists the pool, none otherwise.
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}, {address:String} lower-case,
-- {curation:String} (the publication digest), {scope_all:UInt8}.
CREATE OR REPLACE VIEW v1_pool_identity AS
SELECT
    p.pool_address                                                   AS address,
    p.pool_type                                                      AS pool_type,
    toBool(e.address != '' AND e.curated)                            AS curated,
    (if(curated, e.status, 'active') != 'blocked'
        AND NOT ((c0.address != '' AND c0.status = 'blocked') OR (c1.address != '' AND c1.status = 'blocked'))
        AND ({scope_all:UInt8} = 1 OR curated))                      AS servable
FROM
(
    SELECT pool_address, pool_type, token0_address, token1_address
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
