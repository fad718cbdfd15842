"""The repository's curation published on a bench's warehouse (the /v1 routes that rest on it
answer 503 without one): bench/run.py (chain 56) and bench/discovery.py (the scale bench's chains)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "curation" / "curation.json"


class CurationFailed(SystemExit):
    """Ends the bench with every problem of the publication."""


def say(text: str) -> None:
    print(text, flush=True)


def publish(settings: Any, chain_ids: list[int], work: Path) -> Any:
    """Publish the curation source (restricted to `chain_ids` when it names other chains); the
    outcome. An invalid publication ends the bench with every problem."""
    from ve_analytics.assets.curation import publish_curation
    from ve_analytics.core.curation import CurationInvalid
    from ve_analytics.warehouse.client import get_client

    path, note = SOURCE, ""
    document = json.loads(SOURCE.read_text())
    others = sorted(set(document["chains"]) - {str(c) for c in chain_ids}, key=int)
    if others:
        document["chains"] = {cid: chain for cid, chain in document["chains"].items() if int(cid) in chain_ids}
        path = work / "curation-bench-chains.json"
        path.write_text(json.dumps(document, indent=1))
        note = f" (restricted to the bench's chains: chains {', '.join(others)} of the source left out)"
    try:
        with get_client(settings) as client:
            outcome = publish_curation(client, path, chain_ids)
    except CurationInvalid as exc:
        raise CurationFailed(f"the curation source {SOURCE.relative_to(ROOT)}{note} cannot be published on "
                             f"this devnet ({len(exc.problems)} problem(s)):\n" + "\n".join(f"  {p}" for p in exc.problems))
    say(outcome.line() + note)
    return outcome
