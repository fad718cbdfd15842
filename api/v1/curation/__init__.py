"""/v1 curation: the reviewed publication, its categories and wallet token lists."""
