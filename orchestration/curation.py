"""Publishing the curation from the command line and the local stack, through Dagster.

    materialize_curation(settings[, source])   runs `curation_job` in this process on the
                                                instance at DAGSTER_HOME: the run and its
                                                materialization show in the Dagster UI like any
                                                other (execute_in_process, public API)
    check_curation(settings[, source])          the same validation, nothing written, no run

Both run assets.curation.publish_curation, the function the asset runs. An invalid source (or a
changed one under a published version) raises CurationInvalid listing every problem.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..assets.curation import Outcome, publish_curation
from ..core.config import Settings
from ..core.pipeline_names import CURATION_ASSET, CURATION_JOB
from ..warehouse.client import get_client
from .definitions import build_defs
from .instance import dagster_instance


def check_curation(settings: Settings, source: str | Path | None = None) -> Outcome:
    """Validate `source` (default CURATION_SOURCE) against the warehouse; write nothing."""
    with get_client(settings) as client:
        return publish_curation(client, Path(source or settings.curation_source), settings.chains, check=True)


def materialize_curation(settings: Settings, source: str | Path | None = None) -> dict[str, Any]:
    """Materialize `curation_publication` (default source: CURATION_SOURCE); its metadata
    (status, version, digest, entity counts) with the run id under "run_id"."""
    # the console shows nothing of the run: an invalid source is a user's error, raised to the
    # caller with its problems (the run's events, failure included, are in the instance, for the UI)
    config: dict[str, Any] = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}
    if source is not None:
        config["ops"] = {CURATION_ASSET: {"config": {"source": str(Path(source).resolve())}}}
    job = build_defs(settings).resolve_job_def(CURATION_JOB)
    with dagster_instance(settings) as instance:
        result = job.execute_in_process(instance=instance, run_config=config, raise_on_error=True)
    [materialization] = result.asset_materializations_for_node(CURATION_ASSET)
    metadata = {key: getattr(value, "value", value) for key, value in materialization.metadata.items()}
    return {**metadata, "run_id": result.run_id}
