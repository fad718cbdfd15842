"""The tick figures of `make bench` (ADR 0014): /v1/pools/{chainId}/{poolAddress}/ticks and the tick
capture's storage.

bench/run.py (the latency table), on its throwaway warehouse, before the APIs start (the cached API
caches per snapshot):

- `deep_table(client, chain_id)`: the chain's CL pool with the most initialized ticks at its latest
  published snapshot gets a synthetic valid table of DEEP_TICKS ticks (POSITIONS nested positions
  of liquidity L around the pool's current tick c: +L at c - i*step, -L at c + i*step, i = 1..POSITIONS;
  liquidityNet sums to 0, the running sum is never negative) as a new set in pool_tick_sets and a newer marker for that
  snapshot and pool in pool_tick_snap15m (ReplacingMergeTree keeps the newest ingested_at), its
  invariants computed as the capture computes them (verified = 1). A devnet table has about 15
  ticks: too few for a traversal;
- `DeepTable.page_path(...)`: the URL of page DEPTH of the table's traversal, following
  pageInfo.nextCursor on the API, each page checked against the table;
- `depth_line(...)`: page DEPTH against page 1, uncached p50 (goal <= DEPTH_GOAL x).

bench/scale.py (5 chains x 1,000 pools): `set_counts` before its backfill, `storage_lines` after:
per chain the markers and pool_tick_sets rows the backfill wrote, CL pools, distinct tables,
bytes on disk (system.parts after OPTIMIZE ... FINAL), extrapolated to a day of 96 snapshots,
beside storing the full table at every snapshot.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable
from urllib.parse import quote

from ve_analytics.assets.rows.ticks import MARKER_COLUMNS, SET_COLUMNS, marker_row, set_id, set_rows
from ve_analytics.assets.rows.values import columns
from ve_analytics.assets.writers import insert_columns
from ve_analytics.readers.ticks import TickTable

MAX_TICK = 887272  # TickMath.MAX_TICK
POSITIONS = 6_000  # nested positions: 2 x 6,000 = 12,000 initialized ticks
DEEP_TICKS = 2 * POSITIONS
L = 10**15  # each position's liquidity
PAGE, DEPTH, DEPTH_GOAL = 200, 50, 1.2  # the route's default limit; page 50 within 1.2 x page 1
SNAPSHOTS_PER_DAY = 96

LATEST = "(SELECT max(snapshot_at) FROM snapshot_runs FINAL WHERE chain_id = {c:UInt32} AND status = 'success')"


@dataclasses.dataclass(frozen=True)
class DeepTable:
    chain_id: int
    pool: str
    snapshot_at: Any
    devnet_ticks: int  # the pool's own table at that snapshot
    devnet_tick: int  # the pool's own current tick
    spacing: int
    step: int  # tick step of the synthetic table (the spacing, unless 6,000 spacings overflow MAX_TICK)
    table: TickTable
    set_id: int
    runner_up: tuple[str, int] | None  # the next CL pool by ticks: (address, its devnet tick count)

    @property
    def path(self) -> str:
        return f"/v1/pools/{self.chain_id}/{self.pool}/ticks?scope=all"

    def runner_up_path(self) -> str | None:
        return f"/v1/pools/{self.chain_id}/{self.runner_up[0]}/ticks?scope=all" if self.runner_up else None

    def describe(self) -> str:
        step = (f"step {self.step} (spacing {self.spacing})" if self.step == self.spacing else
                f"step {self.step}: the pool's spacing {self.spacing} cannot hold {POSITIONS:,} positions a side "
                f"within +-{MAX_TICK}; the warehouse and route do not check the spacing")
        return (f"pool {self.pool} (chain {self.chain_id}'s CL pool with the most ticks, {self.devnet_ticks} at "
                f"snapshot {self.snapshot_at:%Y-%m-%d %H:%M} UTC): synthetic table of {len(self.table.ticks):,} ticks, "
                f"{POSITIONS:,} nested positions of liquidity {L:.0e}, {step}, ticks {self.table.ticks[0][0]}.."
                f"{self.table.ticks[-1][0]}, current tick {self.table.current_tick}"
                + ("" if self.table.current_tick == self.devnet_tick else
                   f" (the pool's own {self.devnet_tick} is outside the table)") + ", "
                f"set_id {self.set_id}")

    def page_path(self, get_json: Callable[[str], dict], base: str, depth: int = DEPTH) -> str:
        """The path of page `depth` of the traversal of `path`, following pageInfo.nextCursor on the API
        at `base` (depth - 1 times); every page checked against the inserted table."""
        path, running = self.path, 0
        for n in range(1, depth + 1):
            data = get_json(base + path)
            want = self.table.ticks[(n - 1) * PAGE: n * PAGE]
            got = data["data"]["ticks"]
            problems = []
            if [(t["tick"], int(t["liquidityNet"]), int(t["liquidityGross"])) for t in got] != list(want):
                problems.append(f"ticks {got[0]['tick'] if got else None}.. are not the table's")
            if int(data["data"]["liquidityBeforePageRaw"]) != running:
                problems.append(f"liquidityBeforePageRaw {data['data']['liquidityBeforePageRaw']} != {running}")
            if data["data"]["invariants"]["tickCount"] != DEEP_TICKS or not data["data"]["complete"]:
                problems.append(f"invariants {data['data']['invariants']}")
            if not data["pageInfo"]["hasNextPage"]:
                problems.append("no next page")
            if problems:
                raise SystemExit(f"ticks traversal, page {n} ({path}): " + "; ".join(problems))
            running += sum(net for _, net, _ in want)
            if n < depth:
                path = f"{self.path}&cursor={quote(data['pageInfo']['nextCursor'], safe='')}"
        return path


def synthetic(pool: str, block: int, current_tick: int, sqrt_price_x96: int, step: int) -> TickTable:
    """POSITIONS nested positions [c - i*step, c + i*step] of liquidity L around c, the multiple of
    `step` nearest the pool's current tick that keeps the table within +-MAX_TICK; the current tick
    the pool's own when inside the table, else c; liquidity() the running sum there, as on a chain."""
    reach = (MAX_TICK // step - POSITIONS) * step
    centre = max(-reach, min(reach, round(current_tick / step) * step))
    lowers = [(centre - i * step, L, L) for i in range(POSITIONS, 0, -1)]
    uppers = [(centre + i * step, -L, L) for i in range(1, POSITIONS + 1)]
    ticks = tuple(lowers + uppers)
    current = current_tick if ticks[0][0] <= current_tick < ticks[-1][0] else centre
    liquidity = sum(net for t, net, _ in ticks if t <= current)
    return TickTable(pool, block, ticks, current, liquidity, sqrt_price_x96)


def deep_table(client, chain_id: int) -> DeepTable:
    """Insert the synthetic table for the chain's CL pool with the most ticks at its latest published
    snapshot, and its marker; checked as the route reads it (the marker FINAL names the new set)."""
    rows = client.query(
        "SELECT m.pool_address, m.snapshot_at, m.tick_count, m.current_tick, m.block_number, m.sqrt_price_x96, "
        "p.tick_spacing FROM (SELECT * FROM pool_tick_snap15m FINAL WHERE chain_id = {c:UInt32} "
        f"AND snapshot_at = {LATEST}) AS m "
        "LEFT JOIN (SELECT pool_address, tick_spacing FROM pool_snap15m FINAL WHERE chain_id = {c:UInt32} "
        f"AND snapshot_at = {LATEST}) AS p ON p.pool_address = m.pool_address "
        "ORDER BY m.tick_count DESC, m.pool_address LIMIT 2", parameters={"c": chain_id}).result_rows
    if not rows:
        raise SystemExit(f"ticks: chain {chain_id}'s latest published snapshot has no tick marker (pool_tick_snap15m)")
    pool, at, count, current, block, sqrt_price, spacing = rows[0]
    spacing = int(spacing or 1)
    step = spacing if POSITIONS * spacing <= MAX_TICK // spacing * spacing else MAX_TICK // POSITIONS
    table = synthetic(pool, int(block), int(current), int(sqrt_price), step)
    sid = set_id(table.ticks)
    insert_columns(client, "pool_tick_sets", columns(SET_COLUMNS, set_rows(chain_id, table, sid)),
                   asset="bench_ticks", partition_range=str(sid))
    marker = marker_row(chain_id, at, table, sid)
    if not marker["verified"]:
        raise SystemExit(f"ticks: the synthetic table fails its invariants: {marker['problem']}")
    insert_columns(client, "pool_tick_snap15m", columns(MARKER_COLUMNS, [marker]), asset="bench_ticks",
                   partition_range=str(sid))
    served = client.query(
        "SELECT set_id, tick_count, verified, (SELECT count() FROM pool_tick_sets FINAL WHERE chain_id = {c:UInt32} "
        "AND pool_address = {p:String} AND set_id = {s:UInt64}) FROM pool_tick_snap15m FINAL "
        "WHERE chain_id = {c:UInt32} AND snapshot_at = {at:DateTime64(3, 'UTC')} AND pool_address = {p:String}",
        parameters={"c": chain_id, "p": pool, "s": sid, "at": at}).result_rows
    if served != [(sid, DEEP_TICKS, 1, DEEP_TICKS)]:
        raise SystemExit(f"ticks: the newest marker of {pool} is {served}, not the synthetic set {sid}")
    runner_up = (rows[1][0], int(rows[1][2])) if len(rows) > 1 else None
    return DeepTable(chain_id, pool, at, int(count), int(current), spacing, step, table, sid, runner_up)


def depth_line(page1: tuple[float, float], deep: tuple[float, float], sql1: float, sql_deep: float) -> str:
    """Page DEPTH / page 1 of the uncached API's p50 (and their SQL's), against DEPTH_GOAL."""
    ratio = deep[0] / page1[0]
    return (f"ticks, page {DEPTH} / page 1 of the {DEEP_TICKS:,}-tick table ({PAGE} a page), uncached p50: "
            f"{deep[0] * 1e3:.2f} / {page1[0] * 1e3:.2f} ms = {ratio:.2f} (goal <= {DEPTH_GOAL}: "
            f"{'met' if ratio <= DEPTH_GOAL else 'MISSED'}); their raw SQL: {sql_deep / sql1:.2f}")


# -- bench/scale.py: storage of the tick capture ----------------------------------------------

def set_counts(client) -> dict[int, tuple[int, int]]:
    """Per chain: (rows, distinct tables) in pool_tick_sets, duplicates not counted."""
    return {int(c): (int(n), int(d)) for c, n, d in client.query(
        "SELECT chain_id, count(), uniqExact(pool_address, set_id) FROM pool_tick_sets FINAL GROUP BY chain_id"
    ).result_rows}


def _parts(client, table: str) -> tuple[int, int, int]:
    """(rows, compressed bytes, uncompressed bytes) of the table's active parts."""
    rows, packed, raw = client.query(
        "SELECT sum(rows), sum(data_compressed_bytes), sum(data_uncompressed_bytes) FROM system.parts "
        "WHERE active AND database = currentDatabase() AND table = {t:String}", parameters={"t": table}).result_rows[0]
    return int(rows or 0), int(packed or 0), int(raw or 0)


def _mb(n: float) -> str:
    return f"{n / 1e6:,.2f} MB"


def storage_lines(client, chain_ids: list[int], ranges: dict[int, tuple[int, int]], published: dict[int, int],
                  before: dict[int, tuple[int, int]]) -> list[str]:
    """The tick capture's storage over the backfill (`ranges`: each chain's first and last backfilled
    boundary, unix; `before`: set_counts before the backfill)."""
    for table in ("pool_tick_sets", "pool_tick_snap15m"):
        client.command(f"OPTIMIZE TABLE {table} FINAL")  # duplicates (reruns, retries) do not count
    try:
        sets, marks = _parts(client, "pool_tick_sets"), _parts(client, "pool_tick_snap15m")
    except Exception as exc:  # noqa: BLE001 - the embedded warehouse may not expose it
        return [f"tick capture storage: system.parts not available ({type(exc).__name__})"]
    set_bpr = sets[1] / sets[0] if sets[0] else 0.0  # compressed bytes per row, measured
    set_raw_bpr = sets[2] / sets[0] if sets[0] else 0.0
    mark_bpr = marks[1] / marks[0] if marks[0] else 0.0
    mark_raw_bpr = marks[2] / marks[0] if marks[0] else 0.0
    after = set_counts(client)
    lines = [
        "tick capture storage (tick_snapshots: pool_tick_sets stores each distinct table once, pool_tick_snap15m "
        "one marker per CL pool per snapshot; after OPTIMIZE TABLE ... FINAL, active parts of system.parts):",
        f"  pool_tick_sets: {sets[0]:,} rows, {_mb(sets[1])} compressed / {_mb(sets[2])} uncompressed = "
        f"{set_bpr:.1f} / {set_raw_bpr:.1f} bytes a row; pool_tick_snap15m: {marks[0]:,} rows, {_mb(marks[1])} "
        f"compressed / {_mb(marks[2])} uncompressed = {mark_bpr:.1f} / {mark_raw_bpr:.1f} bytes a row (bytes below: "
        "compressed)",
    ]
    for cid in chain_ids:
        a, b = ranges[cid]
        n = published.get(cid, 0)
        marker, pools, tables, full = (int(v or 0) for v in client.query(
            "SELECT count(), uniqExact(pool_address), uniqExact(pool_address, set_id), sum(tick_count) "
            "FROM pool_tick_snap15m FINAL WHERE chain_id = {c:UInt32} "
            "AND snapshot_at >= toDateTime64({a:Int64}, 3, 'UTC') AND snapshot_at <= toDateTime64({b:Int64}, 3, 'UTC')",
            parameters={"c": cid, "a": a, "b": b}).result_rows[0])
        if not marker or not n:
            lines.append(f"  chain {cid}: {n} backfilled snapshots, no tick markers (the devnet "
                         "chain has no clPools feature: no tick capture)")
            continue
        rows_before, tables_before = before.get(cid, (0, 0))
        rows_after, tables_after = after.get(cid, (0, 0))
        written, new_tables = rows_after - rows_before, tables_after - tables_before
        day = SNAPSHOTS_PER_DAY / n
        mark_b, set_b, full_b = marker * mark_bpr, written * set_bpr, full * set_bpr
        lines += [
            f"  chain {cid}: {n} backfilled snapshots x {pools:,} CL pools: {marker:,} markers ({_mb(mark_b)}) naming "
            f"{tables:,} distinct tables; the backfill wrote {new_tables:,} tables = {written:,} pool_tick_sets rows "
            f"({_mb(set_b)})",
            f"    a day (x {SNAPSHOTS_PER_DAY}/{n}): {marker * day:,.0f} markers + {written * day:,.0f} "
            f"set rows = {_mb((mark_b + set_b) * day)}; the full table at every snapshot instead: {full:,} rows "
            f"({_mb(full_b)}) over these snapshots, {full * day:,.0f} rows ({_mb(full_b * day)}) a day "
            f"({full / written if written else float('inf'):.1f}x the rows written)",
        ]
    lines += [
        "  assumptions: the tables written by the backfill are those its snapshots do not share with a later one "
        "(the newest snapshot's tables were stored by the one-snapshot run before it), as a running deployment writes "
        "the tables a new snapshot does not share with an earlier one; bytes = rows x the table's measured "
        "compressed bytes a row; a day = the window's figures x 96 snapshots / the window's, linearly.",
        "  the devnet's change model: every CL pool mints or burns a side position every other hour, and its positions "
        "re-centre as the price moves; an unchanged table is not written again and a table that comes back (a burnt "
        "side position) is stored once, so a longer window writes fewer new tables a day than this linear figure. "
        "Busy production pools change more often (mints and burns within minutes): their written rows approach the "
        "full-table figure; the markers stay one row per CL pool per snapshot.",
    ]
    return lines


def step_seconds(results: list[dict], chain_ids: list[int], asset: str = "tick_snapshots") -> str:
    """The asset's seconds in each chain's run ('-' where the run has no such step)."""
    cells = []
    for cid, r in zip(chain_ids, results):
        seconds = [s for key, s in r["steps"].items() if key.split("__")[-1] == asset]
        cells.append(f"{cid} {seconds[0]:.2f}" if seconds else f"{cid} -")
    return ", ".join(cells)
