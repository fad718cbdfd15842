"""Upstream values as column values: subgraph BigDecimal/BigInt text to numbers, relation ids,
exact token amounts, sums that stay unknown when a part is, and rows to columns."""
from __future__ import annotations

import math
from decimal import Decimal
from typing import Any, Sequence


def opt_float(value: Any) -> float | None:
    """Subgraph BigDecimal (a JSON string) -> float; None stays None (unknown, not zero)."""
    if value is None or value == "":
        return None
    return float(value)


def req_float(value: Any, what: str) -> float:
    out = opt_float(value)
    if out is None:
        raise ValueError(f"missing value for {what}")
    return out


def opt_int(value: Any) -> int | None:
    return None if value is None or value == "" else int(value)


def req_int(value: Any, what: str) -> int:
    if value is None or value == "":
        raise ValueError(f"missing value for {what}")
    return int(value)


def lower_text(value: Any) -> str:
    """An optional text field (address, hash, id) lower-cased; '' where the upstream has none."""
    return str(value or "").lower()


def ref_id(value: Any) -> str | None:
    """A relation field, either `{id: ...}` or a bare id string, as a lower-case id."""
    if value is None:
        return None
    if isinstance(value, dict):
        value = value.get("id")
    return str(value).lower() if value is not None else None


def to_raw(text: Any, decimals: int) -> int:
    """Exact decimal text of a token amount -> raw integer (amount x 10^decimals)."""
    if text is None or text == "":
        raise ValueError("missing amount")
    value = Decimal(str(text)).scaleb(int(decimals))
    if value != value.to_integral_value():
        raise ValueError(f"{text} has more than {decimals} decimals")
    return int(value)


def opt_raw(text: Any, decimals: int | None) -> int | None:
    """Exact decimal text of a token amount -> raw integer; None when the decimals or the amount are
    unknown, or the text is not a whole number of raw units (unknown, not rounded)."""
    if decimals is None or text is None or text == "":
        return None
    try:
        return to_raw(text, decimals)
    except ValueError:
        return None


def fsum_or_none(values: Sequence[float | None]) -> float | None:
    """Exact sum, or None when a part is unknown: a total that misses a part is unknown, not smaller."""
    if any(v is None for v in values):
        return None
    return math.fsum(values)  # type: ignore[arg-type]


def columns(names: Sequence[str], rows: Sequence[dict[str, Any]]) -> dict[str, list[Any]]:
    """Rows (dicts) as the columns of one insert, in `names` order."""
    return {n: [r[n] for r in rows] for n in names}


def voter_pool(entity: dict) -> str:
    """The Voter's pool of a gauge, vote, bribe or claim entity: its user pool, or for a system
    gauge (no user pool) its target, which the Voter keeps in the pool's place."""
    return ref_id(entity.get("pool")) or str(entity.get("target") or "").lower()


def opt_price(value: Any) -> float | None:
    """A subgraph's USD price: None where missing or not positive (a DEX subgraph reports a token it
    cannot price as 0, which is no price, not a price of zero)."""
    price = opt_float(value)
    return price if price is not None and price > 0 else None
