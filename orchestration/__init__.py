"""Dagster code location: definitions, resources, partitions, jobs, schedules, checks, backfill."""
