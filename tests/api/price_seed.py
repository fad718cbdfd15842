"""Writers of crafted price rows (ADR 0011) for the API's price tests: published snapshots with
their token prices (canonical observations), hourly valuations with generation and revision, the
valuation runs that say which hours are valued, and a chain's first market activity. Each test
module composes its own dataset from these; the expectations are built from the same inputs, in
plain Python."""
from __future__ import annotations

from dataclasses import dataclass

from multichain_seed import COVERAGE_COLUMNS, RUN_COLUMNS, cov, run, ts
from ve_analytics.core.epochs import DAY, HOUR

SNAPSHOT_COLUMNS = ["chain_id", "snapshot_at", "token_address", "symbol", "name", "decimals", "price_usd",
                    "derived_eth", "tvl_usd", "price_generation"]
HOURLY_COLUMNS = ["chain_id", "token_address", "hour_start", "price_usd_close", "volume_usd", "source", "read_block",
                  "generation", "revision"]
VALUATION_RUN_COLUMNS = ["chain_id", "day_start", "valued_until", "generation", "revision", "tokens", "rows_written",
                         "revised_rows", "read_block", "written_at"]


@dataclass(frozen=True)
class Valuation:
    token: str
    hour_start: int  # the valuation holds at hour_start + 1h
    price: float | None
    revision: int = 1
    generation: int = 1
    volume: float | None = 0.0


def publish_snapshot(client, chain_id: int, at: int, prices: dict[str, float | None], run_id: str | None = None,
                     status: str = "success") -> None:
    """One snapshot of `prices` (token -> price, None: listed without a price) and its run row."""
    rows = [[chain_id, ts(at), token, f"T{token[2:6]}", f"Token {token[2:6]}", 18, price, None, None, 1]
            for token, price in prices.items()]
    if rows:
        client.insert("token_snap15m", rows, column_names=SNAPSHOT_COLUMNS)
    client.insert("snapshot_runs", [run(chain_id, at, run_id or f"run-{chain_id}-{at}", status)], column_names=RUN_COLUMNS)


def write_valuations(client, chain_id: int, valuations: list[Valuation], read_block: int = 1) -> None:
    rows = [[chain_id, v.token, ts(v.hour_start), v.price, v.volume, "subgraph:TokenHourData", read_block, v.generation,
             v.revision] for v in valuations]
    client.insert("token_hourly", rows, column_names=HOURLY_COLUMNS)


def mark_valued(client, chain_id: int, first_hour: int, valued_until: int, revision: int = 1, generation: int = 1,
                written_at: int | None = None) -> None:
    """Valuation-run rows for every UTC day from first_hour's to valued_until's: each of their hours
    ending at or before valued_until is valued."""
    day = first_hour - first_hour % DAY
    rows = []
    while day < valued_until:
        until = min(day + DAY, valued_until)
        rows.append([chain_id, ts(day), ts(until), generation, revision, 1, (until - max(day, first_hour)) // HOUR, 0, 1,
                     ts(written_at if written_at is not None else until)])
        day += DAY
    client.insert("price_valuation_runs", rows, column_names=VALUATION_RUN_COLUMNS)


def first_market_activity(client, chain_id: int, at: int, last: int) -> None:
    client.insert("chain_coverage", [cov(chain_id, "market_activity", at, last)], column_names=COVERAGE_COLUMNS)
