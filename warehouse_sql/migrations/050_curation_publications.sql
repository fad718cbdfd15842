-- One row per publication of the curation (curation/curation.json, reviewed by pull request):
-- its digest (sha256 of the document), semantic version, digest of the source alone, review and
-- the document the API serves (JSON: tags, categories, statuses, per-chain snapshots validated
-- against, token lists). The latest publication is the row with the greatest published_at; it
-- is written only after every curation_entities row of its digest, so a reader that finds it
-- finds all its entities. Publishing a digest again moves its published_at (read with FINAL).
CREATE TABLE IF NOT EXISTS curation_publications
(
    digest         String,
    version        String,
    source_digest  String,
    published_at   DateTime64(3, 'UTC'),
    reviewed_by    String,
    reviewed_at    DateTime64(3, 'UTC'),
    document       String CODEC(ZSTD(3)),
    ingested_at    DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
ORDER BY digest
SETTINGS non_replicated_deduplication_window = 1000
