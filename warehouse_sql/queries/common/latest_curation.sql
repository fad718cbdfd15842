-- The latest reviewed curation publication (the one with the newest published_at): what each
-- API worker's pointer holds beside the snapshots (api/snapshots.py), refreshed in the
-- background. Its document is read separately (curation_document.sql) only when the digest
-- changes. No row before the first publication.
-- No parameters.
SELECT digest, version, published_at
FROM curation_publications FINAL
ORDER BY published_at DESC, digest DESC
LIMIT 1
