"""`make bench`: latency ratios and ingestion rates measured in one run."""
