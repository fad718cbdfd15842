"""What a chain is missing, as served: the rows of `coverage_holes.sql` (per chain and dataset:
its 15-minute snapshots in its snapshot window, its hourly history since its first market
activity) as `coverage.missingSnapshots` / `coverage.missingHistory` of /v1/chains,
/v1/health/chains and /api/stats/health's chains, and their JSON Schemas (both families'
contracts use them). Pure functions: the handlers run the query with `holes_params`."""
from __future__ import annotations

from typing import Any, Mapping

from .schema import ISO_TIME, obj
from ..core.epochs import HOUR, QUARTER_HOUR, iso

# A snapshot boundary younger than this may still be in its run, an hour that ended less than
# this ago may still be in the history schedule's run (minute 1 of every hour): the windows end
# before them.
SNAPSHOT_GRACE_SECONDS = 2 * QUARTER_HOUR
HISTORY_GRACE_SECONDS = HOUR
MAX_RANGES_SHOWN = 20  # missing ranges listed per chain and dataset (newest first); the totals count them all

Holes = dict[str, dict[str, Any]]  # dataset ("snapshots", "history") -> coverage_holes.sql row


def holes_params(chains: Mapping[int, Any], chain_ids: list[int], now: float) -> dict[str, Any]:
    """The parameters of coverage_holes.sql for `chain_ids` at `now`."""
    return {"chain_ids": chain_ids, "depth_days": [chains[c].snapshot_days for c in chain_ids], "now_ts": int(now),
            "snapshot_grace_seconds": SNAPSHOT_GRACE_SECONDS, "history_grace_seconds": HISTORY_GRACE_SECONDS,
            "max_ranges": MAX_RANGES_SHOWN}


def holes_by_chain(rows: list[dict[str, Any]]) -> dict[int, Holes]:
    out: dict[int, Holes] = {}
    for row in rows:
        out.setdefault(int(row["chain_id"]), {})[row["dataset"]] = row
    return out


def missing(holes: Holes, dataset: str) -> dict[str, Any] | None:
    """One dataset's row as served: the window, the totals and the listed ranges; None when the
    chain has no window yet (its first market activity is unknown)."""
    row = holes.get(dataset)
    if row is None:
        return None
    ranges = [{"from": iso(int(first)), "to": iso(int(last)), "count": int(count)} for first, last, count in row["ranges"]]
    return {
        "window": {"from": iso(int(row["window_from_ts"])), "to": iso(int(row["window_to_ts"]))},
        "count": int(row["missing_count"]),
        "rangeCount": int(row["range_count"]),
        "ranges": ranges,
        "truncated": len(ranges) < int(row["range_count"]),
    }


def _missing_schema(unit: str, window: str, description: str) -> dict:
    return {
        "oneOf": [
            obj({
                "window": obj({"from": ISO_TIME, "to": ISO_TIME}, window),
                "count": {"type": "integer", "minimum": 0, "description": f"{unit} of the window that are missing"},
                "rangeCount": {"type": "integer", "minimum": 0, "description": f"runs of consecutive missing {unit}"},
                "ranges": {"type": "array", "maxItems": MAX_RANGES_SHOWN, "items": obj({
                    "from": {**ISO_TIME, "description": "the first missing one"},
                    "to": {**ISO_TIME, "description": "the last missing one (inclusive)"},
                    "count": {"type": "integer", "minimum": 1, "description": f"missing {unit} from `from` to `to`"},
                }), "description": f"the missing ranges, newest first, at most {MAX_RANGES_SHOWN}"},
                "truncated": {"type": "boolean", "description": "more ranges are missing than listed (see rangeCount)"},
            }),
            {"type": "null"},
        ],
        "description": f"{description}; the chain's catch-up sensor refills them once its upstream answers; null "
                       "until the chain's first market activity is known",
    }


MISSING_SNAPSHOTS_SCHEMA = _missing_schema(
    "15-minute snapshots",
    "the boundaries checked: from the chain's snapshot depth before now (not before its first market activity) "
    "to the boundary 30 minutes before now (a younger one may still be in its run)",
    "the 15-minute snapshots missing in the chain's snapshot window (failed runs, skipped boundaries, backfill holes)")
MISSING_HISTORY_SCHEMA = _missing_schema(
    "hourly buckets",
    "the hours checked (each by its start): from the hour after the first market activity's hour to the last hour "
    "that ended at least an hour before now",
    "the hours of history without a bucket (failed or skipped history runs, backfill holes)")
FILLING_SCHEMA = {
    "type": "array",
    "items": {"enum": ["snapshots", "history"]},
    "uniqueItems": True,
    "description": "what is still filling in: `snapshots` while any snapshot of the window is missing "
                   "(coverage.missingSnapshots), `history` while any hour is (coverage.missingHistory); empty when "
                   "complete",
}


def filling(holes: Holes) -> list[str]:
    """`snapshots` and `history` while the chain misses any of them (nothing while it has no window)."""
    return [dataset for dataset in ("snapshots", "history") if int(holes.get(dataset, {}).get("missing_count") or 0) > 0]
