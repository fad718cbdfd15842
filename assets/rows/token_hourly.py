"""Rows of token_hourly and price_valuation_runs: each token's valuation at the close of every
ended hour of a range, and per UTC day the record that the run valued it (ADR 0011).

A TokenHourData row's `priceUSD` is the token's price at the hour's last block, i.e. its value at
the closing hour boundary; an hour the subgraph has no row for is left out (a missing valuation
is not a price of 0), and hours that had not ended at the block read are never written.

Each row carries the price generation it was derived with and its revision: a rewrite that keeps
the stored value (both unknown, or the same float bit for bit) of the same generation keeps the
stored revision, a changed value is the stored revision + 1, a new row or a new generation is 1.
"""
from __future__ import annotations

import struct
from typing import Any, Mapping

from .values import opt_float, ref_id, req_int
from ...core.epochs import DAY, HOUR, to_datetime
from ...core.prices import PRICE_GENERATION

SOURCE = "subgraph:TokenHourData"
COLUMNS = ("chain_id", "token_address", "hour_start", "price_usd_close", "volume_usd", "source", "read_block",
           "generation", "revision")
RUN_COLUMNS = ("chain_id", "day_start", "valued_until", "generation", "revision", "tokens", "rows_written",
               "revised_rows", "read_block")

# (token, hour_start Unix seconds) -> (price_usd_close, generation, revision) as stored
Stored = Mapping[tuple[str, int], tuple[float | None, int, int]]


def same_value(a: float | None, b: float | None) -> bool:
    """Both unknown, or the same float bit for bit (-0.0 is not 0.0, a NaN is itself)."""
    if a is None or b is None:
        return a is None and b is None
    return struct.pack("<d", a) == struct.pack("<d", b)


def revision_of(price: float | None, generation: int, stored: tuple[float | None, int, int] | None) -> int:
    if stored is None or stored[1] != generation:
        return 1
    old_price, _, old_revision = stored
    return old_revision if same_value(price, old_price) else old_revision + 1


def is_revised(revision: int, generation: int, stored: tuple[float | None, int, int] | None) -> bool:
    """Whether a written row's revision grew over the stored one (its value changed)."""
    return stored is not None and stored[1] == generation and revision > stored[2]


def token_hourly_columns(chain_id: int, block: int, cutoff: int, data: list[dict[str, Any]],
                         first_activity: int | None, stored: Stored | None = None,
                         generation: int = PRICE_GENERATION) -> dict[str, list]:
    """token_hourly columns for the TokenHourData rows of hours that ended by `cutoff`, from the
    hour of the chain's first market activity (its first pool) on: before it a token has no
    market, whatever an indexer says. `stored`: the rows already in the warehouse (revisions)."""
    stored = stored or {}
    first_hour = first_activity - first_activity % HOUR if first_activity is not None else cutoff
    cols: dict[str, list] = {name: [] for name in COLUMNS}
    for d in sorted(data, key=lambda r: (int(r["periodStartUnix"]), ref_id(r.get("token")) or "")):
        hour = req_int(d.get("periodStartUnix"), f"token hour data {d.get('id')} periodStartUnix")
        token = ref_id(d.get("token"))
        if hour % HOUR or token is None:
            raise ValueError(f"token hour data {d.get('id')}: start {hour}, token {token}")
        if hour + HOUR > cutoff or hour < first_hour:
            continue
        price = opt_float(d.get("priceUSD"))
        cols["chain_id"].append(chain_id)
        cols["token_address"].append(token)
        cols["hour_start"].append(to_datetime(hour))
        cols["price_usd_close"].append(price)
        cols["volume_usd"].append(opt_float(d.get("volumeUSD")))
        cols["source"].append(SOURCE)
        cols["read_block"].append(block)
        cols["generation"].append(generation)
        cols["revision"].append(revision_of(price, generation, stored.get((token, hour))))
    return cols


def valuation_run_columns(chain_id: int, start: int, end: int, block: int, cutoff: int,
                          cols: Mapping[str, list], stored: Stored | None = None,
                          generation: int = PRICE_GENERATION) -> dict[str, list]:
    """price_valuation_runs columns: one row per UTC day of [start, end) the run valued (the
    hours it read had ended into it: `cutoff > day start`), valued up to min(day end, cutoff).
    `revision` is the day's highest revision once `cols` are written over `stored` (1 for a day
    without rows); `revised_rows` counts the rows of `cols` whose revision grew."""
    stored = stored or {}
    after = {key: s[2] for key, s in stored.items()}
    per_day: dict[int, dict[str, Any]] = {}
    for token, at, revision in zip(cols["token_address"], cols["hour_start"], cols["revision"]):
        hour = int(at.timestamp())
        after[(token, hour)] = revision
        day = per_day.setdefault(hour - hour % DAY, {"tokens": set(), "rows": 0, "revised": 0})
        day["tokens"].add(token)
        day["rows"] += 1
        day["revised"] += is_revised(revision, generation, stored.get((token, hour)))
    highest: dict[int, int] = {}
    for (_token, hour), revision in after.items():
        day_start = hour - hour % DAY
        highest[day_start] = max(highest.get(day_start, 1), revision)
    out: dict[str, list] = {name: [] for name in RUN_COLUMNS}
    for day_start in range(start - start % DAY, end, DAY):
        if cutoff <= day_start:
            break
        day = per_day.get(day_start, {"tokens": (), "rows": 0, "revised": 0})
        for name, value in (("chain_id", chain_id), ("day_start", to_datetime(day_start)),
                            ("valued_until", to_datetime(min(day_start + DAY, cutoff))),
                            ("generation", generation), ("revision", highest.get(day_start, 1)),
                            ("tokens", len(day["tokens"])), ("rows_written", day["rows"]),
                            ("revised_rows", day["revised"]), ("read_block", block)):
            out[name].append(value)
    return out
