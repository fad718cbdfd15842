"""Retention of the per-item snapshot tables served only at their newest snapshots (venft_snap15m,
liquidity_position_snap15m): a run writes the snapshots within RECENT_SECONDS of the chain's newest
(the run's or one stored before, so a backfill's runs of older snapshots write none) and drops the
chain's day partitions (chain, YYYYMMDD) older than that: the retention follows the chain's data,
not the wall clock."""
from __future__ import annotations

from typing import Sequence

from ..core.epochs import QUARTER_HOUR

RECENT_SECONDS = 2 * 86400


def newest_stored(client, table: str, chain_id: int) -> int:
    """The chain's newest snapshot time in `table` (0 when it has none)."""
    return client.query(f"SELECT toInt64(toUnixTimestamp(max(snapshot_at))) FROM {table} "
                        "WHERE chain_id = {c:UInt32}", parameters={"c": chain_id}).result_rows[0][0]


def recent_from(times: Sequence[int], stored_newest: int) -> int:
    """The first snapshot time whose rows are kept: RECENT_SECONDS (less a quarter hour) before the
    newest of the run's snapshot times and the newest stored."""
    return max([*times, stored_newest]) - RECENT_SECONDS + QUARTER_HOUR


def drop_days_before(client, table: str, chain_id: int, kept_from: int) -> None:
    """Drop the chain's day partitions of `table` before `kept_from`'s day."""
    days = client.query(
        "SELECT DISTINCT toUInt32(splitByChar('-', partition_id)[2]) AS day FROM system.parts "
        "WHERE database = currentDatabase() AND table = {t:String} AND active "
        "AND partition_id LIKE {p:String} AND day < toYYYYMMDD(toDateTime({k:Int64}, 'UTC'))",
        parameters={"t": table, "p": f"{chain_id}-%", "k": kept_from}).result_rows
    for (day,) in days:
        client.command(f"ALTER TABLE {table} DROP PARTITION ({int(chain_id)}, {int(day)})")
