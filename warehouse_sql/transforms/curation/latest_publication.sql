-- The latest curation publication: the row with the greatest published_at (FINAL: a digest
-- published again keeps only its newest row). No parameters. At most one row.
SELECT digest, version, source_digest, document, toInt64(toUnixTimestamp64Milli(published_at)) AS published_ms
FROM curation_publications FINAL
ORDER BY published_at DESC, digest DESC
LIMIT 1
