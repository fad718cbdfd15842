"""The /v1 API over the session's stack, as the /v1 route tests read it: one worker, the lagging
chain stale and the others fresh whatever the hour, resting on a curation publication (the
repository's, published unless one already is: a module may have published a later version)."""
from __future__ import annotations

import dataclasses
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from session_curation import session_source
from support.api_server import ApiServer

STALE_AFTER_MINUTES = 24 * 60


def ensure_curation(stack, folder: Path) -> None:
    from ve_analytics.orchestration.curation import materialize_curation

    if not stack.scalar("SELECT count() FROM curation_publications"):
        materialize_curation(stack.settings, session_source(folder))


@contextmanager
def v1_server(stack, folder: Path) -> Iterator[ApiServer]:
    ensure_curation(stack, folder)
    settings = dataclasses.replace(stack.settings, stale_after_minutes=STALE_AFTER_MINUTES, api_workers=1)
    with ApiServer(settings, families=("v1",), log_path=folder / "api.log") as server:
        yield server


def wait_for_snapshot(api, path: str, chain_id: int, at: int, timeout: float = 10.0) -> dict:
    """The answer of `path` once the API serves chain `chain_id`'s snapshot published at `at`
    (Unix seconds): the event is the served `meta.chains[].snapshotAt`, which each worker's pointer
    picks up within a second of the publication (api/snapshots.py); polled, bounded by `timeout`."""
    from ve_analytics.core.epochs import iso

    deadline = time.monotonic() + timeout
    while True:
        body = api.get(path).json()
        served = next(c for c in body["meta"]["chains"] if c["chainId"] == chain_id)["snapshotAt"]
        if served == iso(at) or time.monotonic() > deadline:
            assert served == iso(at), body["meta"]
            return body
        time.sleep(0.25)
