-- /v1/tokens: one page of the tokens of v1_token_rows (migration 053; its parameters are this
-- file's), after the keyset of the previous page's last row, in the requested order: the sort
-- value (NULL last in both directions; `symbol` sorts the lower-case symbol), then TVL
-- descending, then chain ID and address ascending. Keyset and {limit:UInt32} as in pools.sql.
SELECT *
FROM v1_token_rows(
    chain_ids = {chain_ids:Array(UInt32)}, snapshot_ats = {snapshot_ats:Array(DateTime64(3, 'UTC'))},
    ends = {ends:Array(Int64)}, ok24 = {ok24:Array(UInt8)}, curation = {curation:String},
    status = {status:String}, curated = {curated:Int8}, tags = {tags:Array(String)}, tag_all = {tag_all:UInt8},
    q = {q:String}, sort = {sort:String}, descending = {descending:UInt8}, underflow = {underflow:UInt64})
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
