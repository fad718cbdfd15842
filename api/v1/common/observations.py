"""One stored token price observation as every /v1 price route serves it (ADR 0011), and its
schema. The queries select observations as rows with these columns (a prefix distinguishes
several in one row, e.g. `ref_price`):

    price       Nullable(Float64)  the USD price; NULL: observed without a safe price
    source      String             core.prices.CANONICAL or core.prices.HISTORICAL
    sampled_at  Int64              Unix seconds: the snapshot time, or the closing hour boundary
    generation  UInt16             how the price was derived (core.prices.PRICE_GENERATION)
    revision    UInt32             canonical: successful publications of the snapshot time;
                                   historical: 1 + rewrites that changed the value
    block       UInt64             the snapshot's block, or the block the hour was read at
"""
from __future__ import annotations

from typing import Any

from ...schema import ISO_TIME, obj
from ....core.epochs import HOUR, iso
from ....core.prices import CANONICAL, HISTORICAL
from .decimals import decimal_text

FIELDS = ("price", "source", "sampled_at", "generation", "revision", "block")

SCHEMA = obj({
    "priceUsd": {"type": ["string", "null"], "description": "USD price, a decimal truncated toward zero at 36 places; "
                 "null: observed without a safe price source"},
    "source": {"enum": [CANONICAL, HISTORICAL], "description": "canonical-observation: the token's price in a published "
               "15-minute snapshot; historical-valuation: its value at the close of an ended hour"},
    "sampledAt": {**ISO_TIME, "description": "when the price holds: the snapshot time, or the closing hour boundary"},
    "generation": {"type": "integer", "minimum": 1, "description": "how the stored price was derived (bumped when the "
                   "derivation changes)"},
    "revision": {"type": "integer", "minimum": 1, "description": "canonical: how many times the snapshot was published; "
                 "historical: 1 + the rewrites that changed the value"},
    "canonical": {"oneOf": [obj({"snapshotAt": ISO_TIME, "blockNumber": {"type": "integer", "minimum": 0}}),
                            {"type": "null"}], "description": "the snapshot it was read in (canonical observations)"},
    "historical": {"oneOf": [obj({"hourStart": ISO_TIME, "boundary": ISO_TIME,
                                  "readBlock": {"type": "integer", "minimum": 0}}), {"type": "null"}],
                   "description": "the hour it closes and the block the hour was read at (historical valuations)"},
}, "A stored token price observation. Indexed observations are not live execution quotes.")
SCHEMAS = {"V1PriceObservation": SCHEMA}  # the component the price routes' schemas refer to


def observation(row: dict[str, Any], prefix: str = "") -> dict[str, Any] | None:
    """The served observation in `row`'s `<prefix><field>` columns; None when the row has none
    (its source is empty or NULL)."""
    source = row.get(prefix + "source")
    if not source:
        return None
    at = int(row[prefix + "sampled_at"])
    block = int(row[prefix + "block"])
    canonical = source == CANONICAL
    return {
        "priceUsd": decimal_text(row[prefix + "price"]),
        "source": source,
        "sampledAt": iso(at),
        "generation": int(row[prefix + "generation"]),
        "revision": int(row[prefix + "revision"]),
        "canonical": {"snapshotAt": iso(at), "blockNumber": block} if canonical else None,
        "historical": None if canonical else {"hourStart": iso(at - HOUR), "boundary": iso(at), "readBlock": block},
    }
