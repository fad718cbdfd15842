"""Names of each chain's Dagster objects, in one place: the code location defines them, and the
backfill and the API's cron trigger (which imports no Dagster) launch runs by them.

Every chain of the chain book gets its own assets under the key prefix `chain_<id>` (so the UI's
asset catalog, lineage and checks read per chain), its own groups, jobs and schedules.
"""
from __future__ import annotations

CHAIN_TAG = "ve/chain"  # on every run of a chain's jobs: which chain it materializes
# On every run of every job: the kind of asset group it materializes, whatever the chain (the run
# queue's per-group limits, orchestration/instance.py, count runs by it).
GROUP_TAG = "ve/group"
SNAPSHOTS, HISTORY = "snapshots", "history"  # GROUP_TAG values; the curation's is CURATION_GROUP
# The curation publication covers every chain at once: one asset, group and job of its own.
CURATION_ASSET, CURATION_GROUP, CURATION_JOB = "curation_publication", "curation", "curation_job"


def asset_prefix(chain_id: int) -> str:
    return f"chain_{chain_id}"


def snapshot_group(chain_id: int) -> str:
    return f"chain_{chain_id}_snapshots"


def history_group(chain_id: int) -> str:
    return f"chain_{chain_id}_history"


def snapshot_job(chain_id: int) -> str:
    return f"snapshot_job_{chain_id}"


def history_job(chain_id: int) -> str:
    return f"history_job_{chain_id}"


CATCHUP_SENSOR_PREFIX = "catchup_sensor_"  # + chain id: the chain's catch-up sensor (orchestration.catchup)


def catchup_sensor(chain_id: int) -> str:
    return f"{CATCHUP_SENSOR_PREFIX}{chain_id}"


def chain_of_job(job_name: str) -> int | None:
    """The chain a job of this module's naming belongs to (None for any other job)."""
    head, _, tail = job_name.rpartition("_")
    return int(tail) if head in ("snapshot_job", "history_job") and tail.isdigit() else None
