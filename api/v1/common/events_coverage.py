"""How far a chain's indexed events are shown: one record per chain of an answer built from event
tables (governance records, bridge messages), and its schema. The hourly history job reads each
hour's events at minute 1 of the next hour, so a chain whose events end more than
EVENTS_LAG_SECONDS before its snapshot is behind, and the answer says it is not complete."""
from __future__ import annotations

from typing import Any

from ...routes import RequestContext
from ...schema import ISO_TIME, obj
from ....core.epochs import HOUR
from .flows import stamp
from .schemas import CHAIN_ID, NULLABLE_TIME

EVENTS_LAG_SECONDS = 2 * HOUR


def indexed_coverage(chains, indexed: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    """Per chain: its snapshot and how far its events are indexed (`indexed`: its coverage row with
    `events_from` and `events_through`); `indexedUntil` is exclusive and at most the snapshot's time."""
    out = []
    for c in chains:
        row = indexed.get(c.chain_id)
        until = None if row is None else min(row["events_through"] + 1, c.snapshot.unix)
        out.append({"chainId": c.chain_id, "snapshotAt": c.snapshot.at_iso,
                    "indexedFrom": None if row is None else stamp(row["events_from"]),
                    "indexedUntil": None if until is None else stamp(until),
                    "behind": until is None or c.snapshot.unix - until > EVENTS_LAG_SECONDS})
    return out


async def read_coverage(ctx: RequestContext, chains, dataset: str) -> tuple[list[dict[str, Any]], dict[int, dict[str, Any]]]:
    """(`indexed_coverage` of the chains for a chain_coverage dataset, their events_coverage rows by
    chain); meta.complete is false when a chain's events are behind its snapshot."""
    return (await read_coverages(ctx, {dataset: chains}))[dataset]


async def read_coverages(ctx: RequestContext, wanted: dict[str, Any]) -> dict[str, tuple[list, dict[int, dict]]]:
    """`read_coverage` of several datasets in one query: {dataset: its chains} -> {dataset:
    (covered, indexed)}."""
    ids = sorted({c.chain_id for chains in wanted.values() for c in chains})
    found = await ctx.rows("events_coverage", chain_ids=ids, datasets=list(wanted))
    out = {}
    for dataset, chains in wanted.items():
        indexed = {int(r["chain_id"]): r for r in found if r["dataset"] == dataset}
        covered = indexed_coverage(chains, indexed)
        mark_incomplete(ctx, covered)
        out[dataset] = (covered, indexed)
    return out


def deployment_covered(ctx: RequestContext, covered: list[dict[str, Any]], indexed: dict[int, dict]) -> None:
    """Adds `fromDeployment` to each chain's coverage: its events are indexed from its deployment
    on, so nothing a replay or a sum of them needs can be missing."""
    for c in covered:
        deployed = ctx.settings.chains[c["chainId"]].deployed_at
        row = indexed.get(c["chainId"])
        c["fromDeployment"] = row is not None and deployed is not None and row["events_from"] <= deployed


def mark_incomplete(ctx: RequestContext, covered: list[dict[str, Any]]) -> None:
    if any(c["behind"] for c in covered):
        ctx.meta["complete"] = False


def indexed_coverage_schema(events: str, shown: str) -> dict[str, Any]:
    """The schema of one `indexed_coverage` record: `events` names the indexed events, `shown` what
    of them an answer shows."""
    return obj({
        "chainId": CHAIN_ID,
        "snapshotAt": {**ISO_TIME, "description": "the chain's published snapshot the answer rests on"},
        "indexedFrom": {**NULLABLE_TIME, "description": f"the first second of the chain's indexed {events}; null: "
                        "never indexed"},
        "indexedUntil": {**NULLABLE_TIME, "description": f"exclusive: the chain's {shown} before this time are shown "
                         "(at most its snapshot's time); null: never indexed, nothing of the chain is shown"},
        "behind": {"type": "boolean", "description": f"the chain's {events} end more than two hours before its "
                   "snapshot (the hourly history run is late or failing, or they were never indexed): its recent "
                   f"{shown} may be missing, and meta.complete is false"},
    }, f"How far one chain's {events} are indexed.")
