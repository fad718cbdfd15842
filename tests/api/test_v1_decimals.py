"""Exact /v1 decimals (api.v1.common.decimals) against independent Decimal arithmetic; seeded, pure."""
from __future__ import annotations

import math
import random
import struct
from decimal import ROUND_DOWN, Decimal, localcontext

import pytest

from ve_analytics.api.v1.common.decimals import (
    UNDERFLOW, at_least, at_most, decimal_text, float_bits, served_at_least, served_at_most, units_text,
)

ONE_E_MINUS_36 = Decimal(1).scaleb(-36)
TINY = math.nextafter(UNDERFLOW, 0)  # the largest double below 10**-36


def reference_text(x: float) -> str | None:
    """The rule written out with Decimal at ample precision: exact value, cut at 36 places."""
    with localcontext() as ctx:
        ctx.prec = 2000
        exact = Decimal(x)
        cut = exact.quantize(ONE_E_MINUS_36, rounding=ROUND_DOWN)
        if cut == 0:
            return "0" if exact == 0 else None
        return format(cut, "f").rstrip("0").rstrip(".")


def random_double(rng: random.Random) -> float:
    """Any finite double, every exponent equally likely: tiny, subnormal, huge and in between."""
    while True:
        x = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
        if math.isfinite(x):
            return x


def realistic_double(rng: random.Random) -> float:
    return rng.choice([1, -1]) * rng.random() * 10 ** rng.randint(-40, 30)


@pytest.mark.parametrize("x, text", [
    (0.1, "0.100000000000000005551115123125782702"),  # exact binary 0.1000...0827021181..., cut
    (-0.1, "-0.100000000000000005551115123125782702"),  # toward zero, not ...703
    (1234.5, "1234.5"),
    (0.0, "0"),
    (-0.0, "0"),
    (-0.25, "-0.25"),
    (3.0, "3"),
    (1.2345678901234568e29, "123456789012345677877719597056"),  # the double's exact integer
    (2.0**-36, "0.000000000014551915228366851806640625"),  # exactly 36 places: nothing cut
    (2.0**-37, "0.000000000007275957614183425903320312"),  # 37 places: the last 5 cut
    (1e-30, "0.000000000000000000000000000001"),
    (UNDERFLOW, "0.000000000000000000000000000000000001"),
    (-UNDERFLOW, "-0.000000000000000000000000000000000001"),
    (2.0**60, "1152921504606846976"),
    (None, None), (math.nan, None), (math.inf, None), (-math.inf, None),
    (TINY, None), (-TINY, None), (5e-324, None), (1e-37, None),
])
def test_known_values(x, text):
    assert decimal_text(x) == text


def test_largest_double_is_written_out_in_full():
    big = 1.7976931348623157e308
    assert decimal_text(big) == str(int(big)) and len(decimal_text(big)) == 309
    assert decimal_text(-big) == "-" + str(int(big))


def test_underflow_boundary_is_exactly_ten_to_minus_36():
    assert Decimal(TINY) < ONE_E_MINUS_36 <= Decimal(UNDERFLOW)
    neighbours = [UNDERFLOW, TINY]
    for _ in range(5):
        neighbours += [math.nextafter(neighbours[-2], 1), math.nextafter(neighbours[-1], 0)]
    for x in neighbours + [-v for v in neighbours]:
        unavailable = 0 < abs(Decimal(x)) < ONE_E_MINUS_36
        assert (decimal_text(x) is None) == unavailable == (0 < abs(x) < UNDERFLOW)


def test_against_decimal_for_many_doubles():
    rng = random.Random(36)
    cases = [random_double(rng) for _ in range(4000)] + [realistic_double(rng) for _ in range(8000)]
    cases += [float(rng.randint(-10**18, 10**18)) for _ in range(1000)]
    cases += [rng.randint(1, 2**53) * 2.0 ** -rng.randint(1, 140) for _ in range(3000)]
    for x in cases:
        text = decimal_text(x)
        assert text == reference_text(x), repr(x)
        assert text is None or ("e" not in text and "E" not in text and not text.endswith("."))
        if text is not None and "." in text:
            assert not text.endswith("0")
        assert decimal_text(-x) == reference_text(-x)
        assert text is None or text == "0" or decimal_text(-x) == ("-" + text if x > 0 else text[1:])


def check_bounds(d: Decimal) -> None:
    lo, hi = at_least(d), at_most(d)
    assert Decimal(lo) >= d and Decimal(math.nextafter(lo, -math.inf)) < d, d
    assert Decimal(hi) <= d and Decimal(math.nextafter(hi, math.inf)) > d, d
    if Decimal(float(d)) == d:  # exactly representable: both bounds are the value itself
        assert lo == hi == float(d)
    else:
        assert math.nextafter(hi, math.inf) == lo


def adversarial_decimals(rng: random.Random):
    yield from (Decimal(0), Decimal(10) ** 60 - 1, Decimal(10) ** 60, Decimal("1e-30"), Decimal("1e-36"),
                Decimal("0." + "0" * 29 + "1"), Decimal("9" * 60 + "." + "9" * 30), Decimal("0.1"),
                Decimal("0.5"), Decimal("1"), Decimal(2) ** 53 + 1, Decimal(2) ** 60, Decimal("123.456"))
    with localcontext() as ctx:
        ctx.prec = 2000
        for _ in range(1500):
            yield Decimal(rng.randint(0, 10**60 - 1))  # up to 60 integer digits
            yield Decimal(rng.randint(0, 10**30 - 1)).scaleb(-30)  # 30 fraction digits
            yield Decimal(f"{rng.randint(0, 10**rng.randint(0, 60))}.{rng.randint(0, 10**30 - 1):030d}")
            x = abs(realistic_double(rng)) or 1.0
            below, above = math.nextafter(x, 0), math.nextafter(x, math.inf)
            yield Decimal(x)  # exactly representable
            yield Decimal(below)
            yield Decimal(above)
            yield (Decimal(x) + Decimal(above)) / 2  # exact halfway: round-to-even must not fool us
            yield (Decimal(below) + Decimal(x)) / 2
            yield Decimal(x) + Decimal("1e-30")
            yield Decimal(x) - Decimal("1e-30")
            yield Decimal(x).quantize(Decimal("1e-30"), rounding=ROUND_DOWN)  # float(d)'s own digits, cut


def test_at_least_and_at_most_against_exact_comparison():
    rng = random.Random(60)
    count = 0
    for d in adversarial_decimals(rng):
        for signed in (d, -d):
            check_bounds(signed)
            count += 1
    assert count > 30000


def test_halfway_between_two_doubles():
    with localcontext() as ctx:
        ctx.prec = 100
        a = 0.1
        b = math.nextafter(a, 1)
        mid = (Decimal(a) + Decimal(b)) / 2
        assert at_least(mid) == b and at_most(mid) == a
        big_a = 2.0**53  # from 2**53 doubles are two apart: 2**53 + 1 is halfway, float() rounds to even
        assert at_least(Decimal(2**53 + 1)) == 2.0**53 + 2 and at_most(Decimal(2**53 + 1)) == big_a


def test_bounds_beyond_the_doubles():
    assert at_least(Decimal("1e400")) == math.inf and at_most(Decimal("1e400")) == 1.7976931348623157e308
    assert at_most(Decimal("-1e400")) == -math.inf
    assert at_least(Decimal("1e-400")) == 5e-324 and at_most(Decimal("1e-400")) == 0.0
    with pytest.raises(ValueError):
        at_least(Decimal("NaN"))


def served(x: float) -> Decimal | None:
    text = decimal_text(x)
    return None if text is None else Decimal(text)


def a_double_just_above_a_30_digit_threshold() -> tuple[float, Decimal]:
    """x = m / 2**60 with m * 10**30 = 1 * 2**30 (mod 2**60): x exceeds t = trunc30(x) by
    2**30 / 2**60 / 10**30 < 10**-36, so x serves exactly t while x > t."""
    m = pow(5**30, -1, 2**30)
    m += ((2**52 - m) // 2**30 + 1) * 2**30
    assert 2**52 <= m < 2**53
    x = m / 2.0**60
    with localcontext() as ctx:
        ctx.prec = 200
        t = Decimal(x).quantize(Decimal("1e-30"), rounding=ROUND_DOWN)
        assert 0 < Decimal(x) - t < ONE_E_MINUS_36
    return x, t


def test_upper_bound_on_the_double_can_drop_a_row_the_served_value_keeps():
    x, t = a_double_just_above_a_30_digit_threshold()
    assert served(x) == t  # served value equals the threshold...
    assert not x <= at_most(t)  # ...yet the double is above it: at_most alone would drop the row
    assert x <= served_at_most(t)
    assert -x >= served_at_least(-t) and not -x >= at_least(-t)  # the mirror for negative values


def test_lower_bound_on_non_negative_values_needs_nothing_more():
    rng = random.Random(30)
    x, t = a_double_just_above_a_30_digit_threshold()
    thresholds = [t, t + Decimal("1e-30"), Decimal(0)]
    thresholds += [Decimal(rng.randint(0, 10**30)).scaleb(rng.randint(-30, 30)) for _ in range(2000)]
    for d in thresholds:
        assert at_least(d) == served_at_least(d) or d == 0, d
        for y in neighbours(at_least(d)):
            if y >= 0 and served(y) is not None:
                assert (y >= at_least(d)) == (served(y) >= d)


def neighbours(f: float, n: int = 3) -> list[float]:
    out = [f]
    up = down = f
    for _ in range(n):
        up, down = math.nextafter(up, math.inf), math.nextafter(down, -math.inf)
        out += [up, down]
    return [v for v in out if math.isfinite(v)]


def test_served_bounds_compare_exactly_like_the_served_decimal():
    rng = random.Random(3036)
    x, t = a_double_just_above_a_30_digit_threshold()
    thresholds = [t, -t, Decimal(0), Decimal("1e-30"), Decimal("-1e-30"), Decimal(10) ** 60 - 1,
                  Decimal("0.100000000000000005551115123125782702"), Decimal("1e-37"), Decimal("-1e-37")]
    for _ in range(1500):
        sign = rng.choice([1, -1])
        thresholds.append(sign * Decimal(f"{rng.randint(0, 10**rng.randint(0, 20))}.{rng.randint(0, 10**30 - 1):030d}"))
        with localcontext() as ctx:
            ctx.prec = 200
            cut = Decimal(abs(realistic_double(rng))).quantize(Decimal("1e-30"), rounding=ROUND_DOWN)
        thresholds.append(sign * cut)
    for d in thresholds:
        lo, hi = served_at_least(d), served_at_most(d)
        probes = neighbours(lo) + neighbours(hi) + neighbours(at_least(d)) + neighbours(at_most(d)) + [x, -x]
        for y in probes:
            s = served(y)
            if s is None:
                continue  # unavailable: the route excludes it with abs(x) >= UNDERFLOW
            assert (y >= lo) == (s >= d), (d, y)
            assert (y <= hi) == (s <= d), (d, y)


def test_float_bits():
    assert float_bits(0.1) == 0x3FB999999999999A and float_bits(-0.0) == 1 << 63
    assert float_bits(UNDERFLOW) == float_bits(math.nextafter(TINY, 1)) and 0 <= float_bits(-math.inf) < 2**64


def test_token_amounts_are_their_raw_integer_cut_at_36_places():
    rng = random.Random(36)
    for _ in range(20_000):
        decimals = rng.choice((0, 1, 6, 8, 18, 24, 36, 37, 40))
        raw = rng.choice((0, 1, -1, rng.getrandbits(rng.randint(1, 256)), -rng.getrandbits(rng.randint(1, 256))))
        with localcontext() as ctx:
            ctx.prec = 2000
            exact = Decimal(raw).scaleb(-decimals)
            cut = exact.quantize(ONE_E_MINUS_36, rounding=ROUND_DOWN)
        want = "0" if exact == 0 else None if cut == 0 else format(cut, "f").rstrip("0").rstrip(".")
        assert units_text(raw, decimals) == want, (raw, decimals)
    assert units_text(10 ** 18 + 5, 18) == "1.000000000000000005" and units_text(-25, 1) == "-2.5"
    assert units_text(1, 40) is None  # below 10**-36: unavailable, not "0"
