-- The curated state of each token and pool under one curation publication (digest): a row per
-- curated token, and a row per pool indexed at the chain's snapshot the publication was validated
-- against (curated false for the pools the source does not list: status 'active', no display
-- order, not featured). categories: those of the canonical rules plus the explicit ones; tags:
-- a token's own (a pool's are its tokens', unioned by the reader). Blocked entities are kept so
-- readers can always exclude them. Written in one insert per publication, before its
-- curation_publications row. (One statement per migration file, hence two files.)
CREATE TABLE IF NOT EXISTS curation_entities
(
    digest         String,
    chain_id       UInt32,
    kind           LowCardinality(String),         -- 'token' | 'pool'
    address        String,                         -- lower-case 0x hex
    curated        Bool,
    status         LowCardinality(String),         -- 'active' | 'hidden' | 'deprecated' | 'blocked'
    tags           Array(LowCardinality(String)),
    categories     Array(LowCardinality(String)),
    display_order  Nullable(UInt32),
    featured       Bool,
    ingested_at    DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
ORDER BY (digest, chain_id, kind, address)
SETTINGS non_replicated_deduplication_window = 1000
