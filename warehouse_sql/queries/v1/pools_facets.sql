-- /v1/pools?includeFacets=true: how many pools of v1_pool_rows (every matching row, before any
-- page limit; the parameters of pools.sql without the keyset) fall in each chain, pool type,
-- category, token tag and status. One row per (facet, value) with at least one pool.
SELECT facet, value, count() AS n
FROM
(
    SELECT arrayJoin(arrayConcat(
               [('chainId', toString(chain_id)), ('poolType', toString(pool_type)), ('status', toString(status))],
               arrayMap(c -> ('category', toString(c)), categories),
               arrayMap(t -> ('tokenTag', toString(t)), token_tags))) AS pair,
           pair.1 AS facet, pair.2 AS value
    FROM v1_pool_rows(
        chain_ids = {chain_ids:Array(UInt32)}, snapshot_ats = {snapshot_ats:Array(DateTime64(3, 'UTC'))},
        ends = {ends:Array(Int64)}, ok24 = {ok24:Array(UInt8)}, ok7 = {ok7:Array(UInt8)},
        curation = {curation:String}, apr_profile = {apr_profile:String}, status = {status:String},
        scope_all = {scope_all:UInt8}, curated = {curated:Int8}, featured = {featured:Int8},
        incentivized = {incentivized:Int8}, live_gauge = {live_gauge:Int8}, dynamic_fee = {dynamic_fee:Int8},
        custom_fee = {custom_fee:Int8}, pool_types = {pool_types:Array(String)},
        categories = {categories:Array(String)}, category_all = {category_all:UInt8},
        token_tags = {token_tags:Array(String)}, token_tag_all = {token_tag_all:UInt8},
        min_tvl = {min_tvl:Array(UInt64)}, max_tvl = {max_tvl:Array(UInt64)},
        min_fee_apr = {min_fee_apr:Array(UInt64)}, min_emissions_apr = {min_emissions_apr:Array(UInt64)},
        token = {token:String}, token_chain = {token_chain:UInt32}, q = {q:String},
        sort = {sort:String}, descending = {descending:UInt8}, underflow = {underflow:UInt64},
        address = '')
)
GROUP BY facet, value
ORDER BY facet, value
