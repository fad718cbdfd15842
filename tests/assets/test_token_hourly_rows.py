"""token_hourly rows: ended hours only, from the first market activity on, no invented prices; their
revisions and the price_valuation_runs row of each valued day (ADR 0011)."""
from __future__ import annotations

import math

from ve_analytics.assets.rows.token_hourly import SOURCE, same_value, token_hourly_columns, valuation_run_columns
from ve_analytics.core.prices import PRICE_GENERATION

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


# -- revisions (ADR 0011) --------------------------------------------------------------------------
def written(cols) -> dict[tuple[str, int], tuple]:
    return {(t, int(h.timestamp())): (p, g, r) for t, h, p, g, r in zip(
        cols["token_address"], cols["hour_start"], cols["price_usd_close"], cols["generation"], cols["revision"])}


def test_first_write_is_revision_1_of_the_current_generation():
    data = [row(T0 + h * H, t, "1.5") for h in range(2) for t in ("0xa", "0xb")]
    cols = token_hourly_columns(56, 9, cutoff=T0 + 2 * H, data=data, first_activity=T0)
    assert set(cols["generation"]) == {PRICE_GENERATION} and set(cols["revision"]) == {1}


def test_a_rewrite_keeps_an_unchanged_value_and_revises_a_changed_one():
    nudged = math.nextafter(1.5, 2.0)  # one bit away: a change
    data = [row(T0, "0xa", "1.5"), row(T0, "0xb", repr(nudged)), row(T0, "0xc", None), row(T0, "0xd", "2"),
            row(T0, "0xe", None), row(T0, "0xf", "3"), row(T0, "0x9", "4")]
    stored = {("0xa", T0): (1.5, PRICE_GENERATION, 4),  # same float: keeps 4
              ("0xb", T0): (1.5, PRICE_GENERATION, 4),  # changed: 5
              ("0xc", T0): (None, PRICE_GENERATION, 2),  # both unknown: keeps 2
              ("0xd", T0): (None, PRICE_GENERATION, 2),  # unknown -> a price: 3
              ("0xe", T0): (7.0, PRICE_GENERATION, 1),  # a price -> unknown: 2
              ("0xf", T0): (3.0, PRICE_GENERATION + 1, 6)}  # another generation: starts over at 1
    # 0x9 was never stored: 1
    got = written(token_hourly_columns(56, 9, cutoff=T0 + H, data=data, first_activity=T0, stored=stored))
    assert {t: got[(t, T0)][2] for t in ("0xa", "0xb", "0xc", "0xd", "0xe", "0xf", "0x9")} == {
        "0xa": 4, "0xb": 5, "0xc": 2, "0xd": 3, "0xe": 2, "0xf": 1, "0x9": 1}
    assert got[("0xb", T0)][0] == nudged and got[("0xe", T0)][0] is None


def test_a_new_generation_writes_every_row_as_revision_1_of_that_generation():
    stored = {("0xa", T0): (1.5, 1, 3)}
    got = written(token_hourly_columns(56, 9, cutoff=T0 + H, data=[row(T0, "0xa", "1.5")], first_activity=T0,
                                       stored=stored, generation=2))
    assert got == {("0xa", T0): (1.5, 2, 1)}


def test_same_value_is_bit_for_bit():
    assert same_value(None, None) and same_value(0.1 + 0.2, 0.30000000000000004)
    assert not same_value(None, 0.0) and not same_value(0.0, None) and not same_value(0.0, -0.0)
    assert not same_value(1.0, math.nextafter(1.0, 2.0)) and same_value(math.nan, math.nan)


# -- price_valuation_runs --------------------------------------------------------------------------
D = 86_400


def runs_of(cols) -> list[dict]:
    names = list(cols)
    return [dict(zip(names, values)) for values in zip(*(cols[n] for n in names))]


def test_one_run_row_per_valued_day_with_its_highest_revision_and_counts():
    start, end = T0, T0 + 3 * D  # three days; the run's hours ended 5 hours into the second
    cutoff = T0 + D + 5 * H
    data = [row(T0 + h * H, t, "2") for h in range(24 + 6) for t in ("0xa", "0xb")]
    stored = {("0xa", T0 + 3 * H): (1.0, PRICE_GENERATION, 2),  # changes: 3, revised
              ("0xb", T0 + 3 * H): (2.0, PRICE_GENERATION, 4),  # unchanged: keeps 4
              ("0xa", T0 + D + H): (2.0, PRICE_GENERATION + 1, 9),  # another generation: back to 1, not revised
              ("0xc", T0 + D + 9 * H): (5.0, PRICE_GENERATION, 7)}  # not rewritten: still the day's
    cols = token_hourly_columns(56, 77, cutoff, data, first_activity=T0, stored=stored)
    got = runs_of(valuation_run_columns(56, start, end, 77, cutoff, cols, stored))
    assert [int(r["day_start"].timestamp()) for r in got] == [T0, T0 + D]  # the third day was not valued
    first, second = got
    assert int(first["valued_until"].timestamp()) == T0 + D and int(second["valued_until"].timestamp()) == cutoff
    assert (first["revision"], first["tokens"], first["rows_written"], first["revised_rows"]) == (4, 2, 48, 1)
    assert (second["revision"], second["tokens"], second["rows_written"], second["revised_rows"]) == (7, 2, 10, 0)
    assert {r["chain_id"] for r in got} == {56} and {r["read_block"] for r in got} == {77}
    assert {r["generation"] for r in got} == {PRICE_GENERATION}


def test_a_valued_day_without_rows_is_revision_1_and_an_unvalued_range_has_no_row():
    # the day before the chain's first activity: valued (its hours ended), nothing to price
    cols = token_hourly_columns(56, 5, T0 + D, [row(T0 + h * H, "0xa", "1") for h in range(24)], first_activity=T0 + D)
    (day,) = runs_of(valuation_run_columns(56, T0, T0 + D, 5, T0 + D, cols))
    assert (day["revision"], day["tokens"], day["rows_written"], day["revised_rows"]) == (1, 0, 0, 0)
    assert int(day["valued_until"].timestamp()) == T0 + D
    assert runs_of(valuation_run_columns(56, T0, T0 + D, 5, T0, token_hourly_columns(56, 5, T0, [], T0))) == []


def test_an_unchanged_rerun_revises_nothing():
    data = [row(T0 + h * H, "0xa", str(1 + h / 7)) for h in range(24)]
    first = token_hourly_columns(56, 5, T0 + D, data, first_activity=T0)
    stored = written(first)
    again = token_hourly_columns(56, 5, T0 + D, data, first_activity=T0, stored=stored)
    assert again == first
    (day,) = runs_of(valuation_run_columns(56, T0, T0 + D, 5, T0 + D, again, stored))
    assert (day["revision"], day["revised_rows"], day["rows_written"]) == (1, 0, 24)


def test_snapshot_token_rows_carry_the_price_generation(monkeypatch):
    from ve_analytics.assets.rows import market

    monkeypatch.setattr(market, "PRICE_GENERATION", 7)  # whatever the constant is when a row is built
    (got,) = market.token_rows(56, T0, [{"id": "0xa", "symbol": "A", "decimals": "18", "priceUSD": "2"}])
    assert "price_generation" in market.TOKEN_COLUMNS and got["price_generation"] == 7 and got["price_usd"] == 2.0
