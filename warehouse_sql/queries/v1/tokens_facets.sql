-- /v1/tokens?includeFacets=true: how many tokens of v1_token_rows (every matching row, before any
-- page limit; the parameters of tokens.sql without the keyset) fall in each chain, tag and
-- status. One row per (facet, value) with at least one token.
SELECT facet, value, count() AS n
FROM
(
    SELECT arrayJoin(arrayConcat(
               [('chainId', toString(chain_id)), ('status', toString(status))],
               arrayMap(t -> ('tag', toString(t)), tags))) AS pair,
           pair.1 AS facet, pair.2 AS value
    FROM v1_token_rows(
        chain_ids = {chain_ids:Array(UInt32)}, snapshot_ats = {snapshot_ats:Array(DateTime64(3, 'UTC'))},
        ends = {ends:Array(Int64)}, ok24 = {ok24:Array(UInt8)}, curation = {curation:String},
        status = {status:String}, curated = {curated:Int8}, tags = {tags:Array(String)}, tag_all = {tag_all:UInt8},
        q = {q:String}, sort = {sort:String}, descending = {descending:UInt8}, underflow = {underflow:UInt64})
)
GROUP BY facet, value
ORDER BY facet, value
