"""Rows of token_hourly: each token's valuation at the close of every ended hour of a range.

A TokenHourData row's `priceUSD` is the token's price at the hour's last block, i.e. its value at
the closing hour boundary; an hour the subgraph has no row for is left out (a missing valuation
is not a price of 0), and hours that had not ended at the block read are never written.
"""
from __future__ import annotations

from typing import Any

from .values import opt_float, ref_id, req_int
from ...core.epochs import HOUR, to_datetime

SOURCE = "subgraph:TokenHourData"
COLUMNS = ("chain_id", "token_address", "hour_start", "price_usd_close", "volume_usd", "source", "read_block")


def token_hourly_columns(chain_id: int, block: int, cutoff: int, data: list[dict[str, Any]],
                         first_activity: int | None) -> dict[str, list]:
    """token_hourly columns for the TokenHourData rows of hours that ended by `cutoff`, from the
    hour of the chain's first market activity (its first pool) on: before it a token has no
    market, whatever an indexer says."""
    first_hour = first_activity - first_activity % HOUR if first_activity is not None else cutoff
    cols: dict[str, list] = {name: [] for name in COLUMNS}
    for d in sorted(data, key=lambda r: (int(r["periodStartUnix"]), ref_id(r.get("token")) or "")):
        hour = req_int(d.get("periodStartUnix"), f"token hour data {d.get('id')} periodStartUnix")
        token = ref_id(d.get("token"))
        if hour % HOUR or token is None:
            raise ValueError(f"token hour data {d.get('id')}: start {hour}, token {token}")
        if hour + HOUR > cutoff or hour < first_hour:
            continue
        cols["chain_id"].append(chain_id)
        cols["token_address"].append(token)
        cols["hour_start"].append(to_datetime(hour))
        cols["price_usd_close"].append(opt_float(d.get("priceUSD")))
        cols["volume_usd"].append(opt_float(d.get("volumeUSD")))
        cols["source"].append(SOURCE)
        cols["read_block"].append(block)
    return cols
