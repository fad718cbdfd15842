-- The document of one curation publication (the normalized curation: tags, categories, statuses,
-- token lists), read by the API when its pointer meets a new digest (latest_curation.sql).
-- Parameters: {digest:String}.
SELECT document
FROM curation_publications FINAL
WHERE digest = {digest:String}
LIMIT 1
