-- /v1/tokens/{chainId}/{tokenAddress}: the token's /v1/tokens row (v1_token_rows, migration 053)
-- whatever its curation status and curated flag, and its canonical observation in the chain's
-- pinned snapshot (v1_price_observations, migration 057; columns as api/v1/price_observations.py
-- reads them, prefixed `obs_`; source '' when there is none).
-- The view selects one curation status by equality (a blocked token never), so the row is
-- looked for under each servable status; the address is matched exactly (q is a substring search).
-- Parameters: chain_ids, snapshot_ats, ends, ok24, curation, underflow as in tokens.sql (one
-- chain); {address:String} lower-case; {tokens:Array(String)} ['<chainId>:<address>'];
-- {pinned:Array(Int64)} [the pinned snapshot] and {pinned_at:Int64} the same, in Unix seconds.
-- No row: the snapshot does not list the token, or the curation blocks it.
SELECT r.*, o.price AS obs_price, o.source AS obs_source, o.sampled_at AS obs_sampled_at,
       o.generation AS obs_generation, o.revision AS obs_revision, o.block AS obs_block
FROM
(
    SELECT *
    FROM v1_token_rows(
        chain_ids = {chain_ids:Array(UInt32)}, snapshot_ats = {snapshot_ats:Array(DateTime64(3, 'UTC'))},
        ends = {ends:Array(Int64)}, ok24 = {ok24:Array(UInt8)}, curation = {curation:String},
        status = 'active', curated = -1, tags = [], tag_all = 0, q = '', sort = 'displayOrder', descending = 0,
        underflow = {underflow:UInt64})
    WHERE address = {address:String}
    UNION ALL
    SELECT *
    FROM v1_token_rows(
        chain_ids = {chain_ids:Array(UInt32)}, snapshot_ats = {snapshot_ats:Array(DateTime64(3, 'UTC'))},
        ends = {ends:Array(Int64)}, ok24 = {ok24:Array(UInt8)}, curation = {curation:String},
        status = 'hidden', curated = -1, tags = [], tag_all = 0, q = '', sort = 'displayOrder', descending = 0,
        underflow = {underflow:UInt64})
    WHERE address = {address:String}
    UNION ALL
    SELECT *
    FROM v1_token_rows(
        chain_ids = {chain_ids:Array(UInt32)}, snapshot_ats = {snapshot_ats:Array(DateTime64(3, 'UTC'))},
        ends = {ends:Array(Int64)}, ok24 = {ok24:Array(UInt8)}, curation = {curation:String},
        status = 'deprecated', curated = -1, tags = [], tag_all = 0, q = '', sort = 'displayOrder', descending = 0,
        underflow = {underflow:UInt64})
    WHERE address = {address:String}
) AS r
LEFT JOIN
(
    SELECT token_address, price, source, sampled_at, generation, revision, block
    FROM v1_price_observations(chain_ids = {chain_ids:Array(UInt32)}, pinned = {pinned:Array(Int64)},
                               tokens = {tokens:Array(String)}, from_ts = {pinned_at:Int64}, to_ts = {pinned_at:Int64})
    WHERE source = 'canonical-observation'
) AS o ON o.token_address = r.address
