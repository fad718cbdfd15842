-- /v1/pools: one page of the pools of v1_pool_rows (migrations 052, 059; its parameters are this
-- file's), after the keyset of the previous page's last row, in the requested order: the sort
-- value (NULL last in both directions), then TVL descending, then chain ID and address ascending.
-- Keyset: {after:UInt8} = 0 on the first page; otherwise the last row's k_null, k_num,
-- k_text, tvl_null, k_tvl, chain_id and address (c_null, c_num, c_text, c_tvl_null, c_tvl,
-- c_chain, c_address; the doubles as their bits): one tuple comparison, no OFFSET (page 50
-- costs what page 1 does).
-- {limit:UInt32}: the page size plus one (the extra row says whether a next page exists).
SELECT *
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
WHERE {after:UInt8} = 0
   OR (k_null, k_num) > ({c_null:UInt8}, reinterpretAsFloat64({c_num:UInt64}))
   OR ((k_null, k_num) = ({c_null:UInt8}, reinterpretAsFloat64({c_num:UInt64}))
       AND (if({descending:UInt8} = 1, k_text < {c_text:String}, k_text > {c_text:String})
            OR (k_text = {c_text:String}
                AND (tvl_null, k_tvl, chain_id, address)
                    > ({c_tvl_null:UInt8}, reinterpretAsFloat64({c_tvl:UInt64}), {c_chain:UInt32}, {c_address:String}))))
ORDER BY k_null, k_num, if({descending:UInt8} = 1, '', k_text), if({descending:UInt8} = 1, k_text, '') DESC,
         tvl_null, k_tvl, chain_id, address
LIMIT {limit:UInt32}
