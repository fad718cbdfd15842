"""`record_coverage`: widen a chain's recorded observation ranges (table chain_coverage).

Each asset run says what it observed: the snapshots it published, the hours and events it wrote,
the first market activity it saw, and the heads of the chain and of its subgraph when it read
them (so a subgraph that lags its chain is visible per chain, also when the run fails on it). The
table keeps the min of every first_at and the max of every last_at, so re-runs and backfills in
any order only widen a range. Recording is best effort: it logs and never fails the run (the
data the run wrote matters more than the note about it).
"""
from __future__ import annotations

import logging
from typing import Any

from .writers import WRITE_SETTINGS
from ..core.epochs import to_datetime
from ..readers.chain import ChainReader
from ..readers.graphql import SubgraphClient
from ..core import clock

log = logging.getLogger("assets.coverage")
Range = tuple[int, int]  # (first, last) Unix seconds


def _heads(reader: ChainReader, subgraph: SubgraphClient) -> dict[str, Range]:
    out: dict[str, Range] = {}
    try:
        head = reader.head()
        out["chain_head"] = (head.timestamp, head.timestamp)
    except Exception as exc:  # noqa: BLE001 - an unreachable chain is the run's error to report
        log.warning("chain head unknown: %s", exc)
    try:
        meta = subgraph.meta()
        out["subgraph"] = (meta.block_timestamp, meta.block_timestamp)
    except Exception as exc:  # noqa: BLE001
        log.warning("subgraph head unknown: %s", exc)
    return out


def record_coverage(warehouse: Any, chain_id: int, *, heads: tuple[ChainReader, SubgraphClient] | None = None,
                    **ranges: Range | None) -> None:
    """Record `ranges` (dataset -> (first, last)) for the chain, plus the chain and subgraph heads
    read now when `heads` is given. None ranges are skipped."""
    observed = {name: r for name, r in ranges.items() if r is not None}
    if heads is not None:
        observed.update(_heads(*heads))
    if not observed:
        return
    try:
        with warehouse.client() as client:
            _insert(client, chain_id, observed)
    except Exception as exc:  # noqa: BLE001 - see the module docstring
        log.warning("coverage of chain %s not recorded (%s): %s", chain_id, ", ".join(observed), exc)


def record_coverage_with(client: Any, chain_id: int, **ranges: Range) -> None:
    """`record_coverage` through an open warehouse client (an asset step that holds one)."""
    try:
        _insert(client, chain_id, ranges)
    except Exception as exc:  # noqa: BLE001 - see the module docstring
        log.warning("coverage of chain %s not recorded (%s): %s", chain_id, ", ".join(ranges), exc)


def recorded_until(client: Any, chain_id: int, dataset: str) -> int | None:
    """The last second recorded for the chain's dataset (None: never recorded)."""
    last = client.query("SELECT toInt64(toUnixTimestamp(max(last_at))), count() FROM chain_coverage "
                        "WHERE chain_id = {c:UInt32} AND dataset = {d:String}",
                        parameters={"c": chain_id, "d": dataset}).result_rows[0]
    return int(last[0]) if last[1] else None


def _insert(client: Any, chain_id: int, observed: dict[str, Range]) -> None:
    now = to_datetime(clock.now())
    names = list(observed)
    client.insert(
        "chain_coverage",
        [[chain_id] * len(names), names, [to_datetime(observed[n][0]) for n in names],
         [to_datetime(observed[n][1]) for n in names], [now] * len(names)],
        column_names=["chain_id", "dataset", "first_at", "last_at", "updated_at"],
        column_oriented=True, settings=dict(WRITE_SETTINGS, insert_deduplicate=0),
    )
