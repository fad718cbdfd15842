"""The repository's curation source for the session's chains (chain 8453 is not one of them: the
publication refuses a chain outside the chain book, so it is left out)."""
from __future__ import annotations

import json
from pathlib import Path

from orchestration_session import CHAINS

REPO_SOURCE = Path(__file__).resolve().parents[2] / "curation" / "curation.json"


def session_source(folder: Path, edit=None) -> Path:
    """The repository's source without the chains the session does not run, edited by `edit`."""
    raw = json.loads(REPO_SOURCE.read_text())
    raw["chains"] = {cid: chain for cid, chain in raw["chains"].items() if int(cid) in CHAINS}
    if edit is not None:
        edit(raw)
    path = folder / "curation.json"
    path.write_text(json.dumps(raw))
    return path
