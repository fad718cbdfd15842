"""The /v1 API over the session's stack, as the /v1 route tests read it: one worker, the lagging
chain stale and the others fresh whatever the hour, resting on a curation publication (the
repository's, published unless one already is: a module may have published a later version)."""
from __future__ import annotations

import dataclasses
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import httpx

from session_curation import session_source
from support.api_server import ApiServer
from support.contract_check import CheckedClient

STALE_AFTER_MINUTES = 24 * 60


def ensure_curation(stack, folder: Path) -> None:
    from ve_analytics.orchestration.curation import materialize_curation

    if not stack.scalar("SELECT count() FROM curation_publications"):
        materialize_curation(stack.settings, session_source(folder))


@contextmanager
def v1_server(stack, folder: Path, env: dict[str, str] | None = None) -> Iterator[ApiServer]:
    ensure_curation(stack, folder)
    settings = dataclasses.replace(stack.settings, stale_after_minutes=STALE_AFTER_MINUTES, api_workers=1)
    with ApiServer(settings, families=("v1",), log_path=folder / "api.log", env=env) as server:
        yield server



@contextmanager
def client_after(stack, folder: Path) -> Iterator[CheckedClient]:
    """A client of a v1 API started now: started after an event (a snapshot publication), its
    workers' first answers rest on it, with nothing to wait for. It signs and verifies cursors
    with the session's secrets, so it continues a traversal another of the session's APIs began."""
    with v1_server(stack, folder) as server, httpx.Client(timeout=60) as http:
        yield CheckedClient(server.url, http)
