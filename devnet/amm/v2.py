"""v2 pool math (Velodrome/Aerodrome `Pool.sol`), integer-exact.

Volatile pools keep x*y = k, stable pools keep x^3*y + y^3*x = k on reserves normalised to 18
decimals. The swap fee (pips of the input) is taken out of the input before the curve is applied
and leaves the pool (it is paid to voters as fee rewards), so `k` never decreases: the curve
output is rounded down.
"""
from __future__ import annotations

PIPS = 1_000_000
E18 = 10**18


class V2Pool:
    __slots__ = ("stable", "reserve0", "reserve1", "dec0", "dec1", "fee")

    def __init__(self, stable: bool, decimals0: int, decimals1: int, fee: int,
                 reserve0: int = 0, reserve1: int = 0):
        self.stable = stable
        self.dec0 = 10**decimals0
        self.dec1 = 10**decimals1
        self.fee = fee
        self.reserve0 = reserve0
        self.reserve1 = reserve1

    # -- invariant -----------------------------------------------------------------------------
    def k(self, x: int | None = None, y: int | None = None) -> int:
        x = self.reserve0 if x is None else x
        y = self.reserve1 if y is None else y
        if not self.stable:
            return x * y
        _x = x * E18 // self.dec0
        _y = y * E18 // self.dec1
        _a = _x * _y // E18
        _b = _x * _x // E18 + _y * _y // E18
        return _a * _b // E18

    @staticmethod
    def _f(x0: int, y: int) -> int:
        _a = x0 * y // E18
        _b = x0 * x0 // E18 + y * y // E18
        return _a * _b // E18

    @staticmethod
    def _d(x0: int, y: int) -> int:
        return 3 * x0 * (y * y // E18) // E18 + (x0 * x0 // E18) * x0 // E18

    @classmethod
    def _get_y(cls, x0: int, xy: int, y: int) -> int:
        for _ in range(255):
            k = cls._f(x0, y)
            if k < xy:
                dy = (xy - k) * E18 // cls._d(x0, y)
                if dy == 0:
                    if k == xy:
                        return y
                    if cls._f(x0, y + 1) > xy:
                        return y + 1
                    dy = 1
                y += dy
            else:
                dy = (k - xy) * E18 // cls._d(x0, y)
                if dy == 0:
                    if k == xy or cls._f(x0, y - 1) < xy:
                        return y
                    dy = 1
                y -= dy
        raise ArithmeticError("!y")

    # -- quotes and swaps ----------------------------------------------------------------------
    def _curve_out(self, amount_in: int, zero_in: bool) -> int:
        r0, r1 = self.reserve0, self.reserve1
        if self.stable:
            xy = self.k(r0, r1)
            n0 = r0 * E18 // self.dec0
            n1 = r1 * E18 // self.dec1
            ra, rb = (n0, n1) if zero_in else (n1, n0)
            amt = amount_in * E18 // (self.dec0 if zero_in else self.dec1)
            y = rb - self._get_y(amt + ra, xy, rb)
            return y * (self.dec1 if zero_in else self.dec0) // E18
        ra, rb = (r0, r1) if zero_in else (r1, r0)
        return amount_in * rb // (ra + amount_in)

    def quote(self, amount_in: int, zero_in: bool) -> tuple[int, int]:
        """(amountOut, feeAmount) for an exact input, without changing state."""
        fee = amount_in * self.fee // PIPS
        return self._curve_out(amount_in - fee, zero_in), fee

    def swap(self, amount_in: int, zero_in: bool) -> tuple[int, int]:
        """Apply an exact-input swap; returns (amountOut, feeAmount). Fees leave the reserves."""
        out, fee = self.quote(amount_in, zero_in)
        if out <= 0:
            raise ArithmeticError("INSUFFICIENT_OUTPUT_AMOUNT")
        net = amount_in - fee
        if zero_in:
            if out >= self.reserve1:
                raise ArithmeticError("INSUFFICIENT_LIQUIDITY")
            self.reserve0 += net
            self.reserve1 -= out
        else:
            if out >= self.reserve0:
                raise ArithmeticError("INSUFFICIENT_LIQUIDITY")
            self.reserve1 += net
            self.reserve0 -= out
        return out, fee

    # -- prices ---------------------------------------------------------------------------------
    def price(self) -> float:
        """Marginal price of token0 in token1, human units (token1 per token0)."""
        x = self.reserve0 / self.dec0
        y = self.reserve1 / self.dec1
        if x <= 0 or y <= 0:
            return 0.0
        if not self.stable:
            return y / x
        # d(x^3 y + y^3 x): dy/dx = -(3x^2 y + y^3) / (x^3 + 3 x y^2)
        return (3 * x * x * y + y ** 3) / (x ** 3 + 3 * x * y * y)

    def amount_in_for_price(self, target: float) -> tuple[int, bool] | None:
        """Input (gross of fee) that moves a volatile pool's price to `target` (token1 per token0)."""
        if self.stable or target <= 0:
            return None
        ratio_raw = target * self.dec1 / self.dec0  # reserve1 / reserve0 at the target
        k = self.reserve0 * self.reserve1
        new_r0 = (k / ratio_raw) ** 0.5
        if new_r0 > self.reserve0:
            net = new_r0 - self.reserve0
            zero_in = True
        else:
            net = (k * ratio_raw) ** 0.5 - self.reserve1
            zero_in = False
        if net <= 0:
            return None
        return int(net * PIPS / (PIPS - self.fee)), zero_in
