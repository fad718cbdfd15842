"""token_hourly rows: ended hours only, from the first market activity on, no invented prices."""
from __future__ import annotations

from ve_analytics.assets.rows.token_hourly import SOURCE, token_hourly_columns

H = 3600
T0 = 1_767_225_600  # 2026-01-01T00:00:00Z


def row(hour: int, token: str, price: str | None) -> dict:
    return {"id": f"{token}-{hour}", "periodStartUnix": hour, "token": {"id": token}, "priceUSD": price,
            "volumeUSD": "10.5"}


def test_only_ended_hours_from_the_first_activity_hour_are_written():
    data = [row(T0 + h * H, t, "1.25") for h in range(5) for t in ("0xb", "0xa")]
    cols = token_hourly_columns(56, 123, cutoff=T0 + 4 * H, data=data, first_activity=T0 + H + 120)
    hours = [int(d.timestamp()) for d in cols["hour_start"]]
    assert hours == [T0 + H, T0 + H, T0 + 2 * H, T0 + 2 * H, T0 + 3 * H, T0 + 3 * H]  # not before, not unended
    assert cols["token_address"][:2] == ["0xa", "0xb"] and set(cols["price_usd_close"]) == {1.25}
    assert set(cols["source"]) == {SOURCE} and set(cols["read_block"]) == {123} and set(cols["chain_id"]) == {56}


def test_a_missing_price_stays_null_and_no_activity_writes_nothing():
    cols = token_hourly_columns(1, 7, cutoff=T0 + H, data=[row(T0, "0xa", None)], first_activity=T0)
    assert cols["price_usd_close"] == [None]
    assert token_hourly_columns(1, 7, cutoff=T0 + H, data=[row(T0, "0xa", "2")], first_activity=None)["token_address"] == []
