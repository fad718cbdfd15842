"""Exact /v1 decimals: the served text of a Float64, and the Float64 bounds of a decimal filter.

Served value. `decimal_text(x)` is the exact value of the double x (a double is n / 2**k, a
finite decimal), truncated toward zero at 36 places, in plain notation. A nonzero x that truncates
to zero is unavailable (None): that happens exactly when 0 < |x| < 10**-36, which for a double is
exactly `abs(x) < UNDERFLOW` with UNDERFLOW the smallest double >= 10**-36 (no double lies in
[10**-36, UNDERFLOW), and every double below UNDERFLOW is below 10**-36).

Filter bounds. `at_least(d)` is the smallest double >= d and `at_most(d)` the largest double
<= d, so for every double x: x >= d  <=>  x >= at_least(d), and x <= d  <=>  x <= at_most(d).
In SQL, `reinterpretAsFloat64({name:UInt64})` with `float_bits(bound)` carries the exact double
whatever the server's float parser (ClickHouse documents that text parsing may not give the nearest
double; `repr(bound)` did round-trip for thousands of random values on chDB, but it is not promised).

Do these filter the served decimal? Write s = trunc36(x) and let t be a threshold with at most
30 fraction digits (the API's limit), so t lies on the 10**-36 grid that s lies on.
- Lower bounds on values >= 0 (minTvlUsd, minFeeApr, minEmissionsApr): s = floor36(x), and
  rounding down to a grid that contains t cannot cross t: s >= t <=> x >= t. So `at_least` is
  exact there.
- Upper bounds are not symmetric: s <= t <=> x < t + 10**-36, and a double can lie strictly
  between t and t + 10**-36 (one whose digits 31 to 36 are all zero; such doubles exist below 8,
  where the spacing of doubles allows it), which `x <= at_most(t)` would drop although its served
  value equals t. Negative values mirror this (s = ceil36(x)).
`served_at_least(t)` and `served_at_most(t)` give the double bounds that compare exactly like the
served decimal for any sign and any decimal t; a route should filter with those, and add
`(x = 0 OR abs(x) >= UNDERFLOW)` where an unavailable value must not match (it serves null).
"""
from __future__ import annotations

from typing import Any

import math
import struct
from decimal import Decimal
from fractions import Fraction

PLACES = 36
_SCALE = 10**PLACES
_GRID = Fraction(1, _SCALE)
_INF = math.inf


def decimal_text(x: float | None) -> str | None:
    """Exact decimal text of x truncated toward zero at 36 places; None when unavailable."""
    if x is None:
        return None
    try:
        n, d = x.as_integer_ratio()  # exact; d is a power of two
    except (ValueError, OverflowError):  # NaN, infinities
        return None
    if d == 1:  # integral (and -0.0): the integer is the exact value
        return str(n)
    # floor(|x| * 10**36) in integers: the value truncated toward zero, scaled by 10**36
    t = ((-n if n < 0 else n) * _SCALE) >> (d.bit_length() - 1)
    if not t:
        return None  # 0 < |x| < 10**-36: unavailable, not "0"
    return _scaled_text(t, n < 0)


def fraction_text(q: Fraction | int | None) -> str | None:
    """decimal_text of an exact rational (a price from integer pool state): truncated toward zero
    at 36 places; None when unavailable (None, or nonzero and below 10**-36)."""
    if q is None:
        return None
    q = Fraction(q)
    t = abs(q.numerator) * _SCALE // q.denominator
    if not t and q:
        return None
    return _scaled_text(t, q < 0)


def quantity(raw: Any, decimals: int | None = 18) -> dict[str, Any]:
    """An exact token quantity: its raw integer text and its decimal (raw / 10**decimals, as
    `units_text`); the decimal is null where the raw amount or the decimals are unknown."""
    raw = None if raw is None else int(raw)
    return {"raw": None if raw is None else str(raw),
            "value": None if raw is None or decimals is None else units_text(raw, decimals)}


def units_text(raw: int, decimals: int) -> str | None:
    """The decimal text of a raw token amount (raw / 10**decimals), as fraction_text gives it;
    integer arithmetic alone for up to 36 decimals (a page of amounts is the hot path)."""
    if decimals > PLACES:
        return fraction_text(Fraction(raw, 10 ** decimals))
    return _scaled_text(abs(raw) * 10 ** (PLACES - decimals), raw < 0)


def _scaled_text(t: int, negative: bool) -> str:
    """The plain decimal text of t / 10**36 (t >= 0), its sign, no trailing fraction zeros."""
    digits = f"{t:037d}"
    fraction = digits[-PLACES:].rstrip("0")
    text = f"{digits[:-PLACES]}.{fraction}" if fraction else digits[:-PLACES]
    return f"-{text}" if negative else text


def _fraction(d: Decimal | Fraction | int) -> Fraction:
    if isinstance(d, Decimal) and not d.is_finite():
        raise ValueError(f"a threshold is a finite decimal, got {d}")
    return Fraction(d)  # exact for Decimal, int and Fraction


def _nearest(q: Fraction) -> float:
    """A double next to q (correctly rounded: int / int division is), or +-inf beyond range."""
    try:
        return q.numerator / q.denominator
    except OverflowError:
        return _INF if q > 0 else -_INF


def _at_least(q: Fraction) -> float:
    f = _nearest(q)
    # Fraction(f) is exact; a finite f below q has the next double up as the smallest >= q
    done = f == _INF or (f != -_INF and Fraction(f) >= q)
    return f if done else math.nextafter(f, _INF)


def _at_most(q: Fraction) -> float:
    f = _nearest(q)
    done = f == -_INF or (f != _INF and Fraction(f) <= q)
    return f if done else math.nextafter(f, -_INF)


def at_least(d: Decimal) -> float:
    """The smallest double >= d (inf beyond the largest double): x >= d <=> x >= at_least(d)."""
    return _at_least(_fraction(d))


def at_most(d: Decimal) -> float:
    """The largest double <= d (-inf below the lowest double): x <= d <=> x <= at_most(d)."""
    return _at_most(_fraction(d))


UNDERFLOW: float = at_least(Decimal("1e-36"))


def float_bits(f: float) -> int:
    """The IEEE 754 bits of f as an unsigned 64-bit integer (for reinterpretAsFloat64 in SQL)."""
    return struct.unpack("<Q", struct.pack("<d", f))[0]


def served_at_least(d: Decimal) -> float:
    """The double bound L with, for every double x served as a decimal s: x >= L <=> s >= d."""
    q = _fraction(d)
    t = Fraction(math.ceil(q * _SCALE), _SCALE)  # s is on the grid: s >= d <=> s >= ceil36(d)
    if t > 0:
        return _at_least(t)  # only x >= 0 can reach it, and for those s >= t <=> x >= t
    # x < 0 serves ceil36(x): s >= t <=> x > t - 10**-36 (and every x >= 0 qualifies)
    return math.nextafter(_at_most(t - _GRID), _INF)


def served_at_most(d: Decimal) -> float:
    """The double bound U with, for every double x served as a decimal s: x <= U <=> s <= d."""
    q = _fraction(d)
    t = Fraction(math.floor(q * _SCALE), _SCALE)
    if t < 0:
        return _at_most(t)  # mirror of served_at_least
    # x >= 0 serves floor36(x): s <= t <=> x < t + 10**-36
    return math.nextafter(_at_least(t + _GRID), -_INF)


UNDER_BITS = float_bits(UNDERFLOW)  # the underflow bound as the warehouse compares it
