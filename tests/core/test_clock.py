"""core.clock: the product's "now" is the wall clock, shifted or frozen by its settings."""
from __future__ import annotations

import time
from datetime import datetime, timezone

import pytest

from ve_analytics.core import clock

THURSDAY = int(datetime(2026, 11, 26, 0, 5, tzinfo=timezone.utc).timestamp())


def test_unset_it_is_the_wall_clock(monkeypatch):
    monkeypatch.delenv(clock.OFFSET_ENV, raising=False)
    monkeypatch.delenv(clock.FROZEN_ENV, raising=False)
    before = time.time()
    now = clock.now()
    assert before <= now <= time.time()
    assert clock.from_wall(1_700_000_000.5) == 1_700_000_000.5


def test_an_offset_shifts_now_and_dagsters_wall_times_alike(monkeypatch):
    monkeypatch.delenv(clock.FROZEN_ENV, raising=False)
    monkeypatch.setenv(clock.OFFSET_ENV, "-86400.5")
    before = time.time()
    now = clock.now()
    assert before - 86400.5 <= now <= time.time() - 86400.5
    assert clock.from_wall(1_700_000_000) == 1_700_000_000 - 86400.5


@pytest.mark.parametrize("text", [str(THURSDAY), "2026-11-26T00:05:00Z", "2026-11-26T00:05:00+00:00",
                                  "2026-11-26T01:05:00+01:00", "2026-11-26 00:05:00"])
def test_a_frozen_clock_stands_at_its_instant_whatever_the_offset(monkeypatch, text):
    monkeypatch.setenv(clock.OFFSET_ENV, "-3600")
    monkeypatch.setenv(clock.FROZEN_ENV, text)
    assert clock.now() == THURSDAY
    assert clock.from_wall(time.time()) == THURSDAY  # a run created now was created at the instant


@pytest.mark.parametrize("name,value,message", [
    (clock.OFFSET_ENV, "an hour", "is not a number of seconds"),
    (clock.FROZEN_ENV, "Thursday", "is neither Unix seconds nor an ISO 8601 instant"),
])
def test_a_bad_setting_is_refused_with_its_name(monkeypatch, name, value, message):
    monkeypatch.delenv(clock.OFFSET_ENV, raising=False)
    monkeypatch.delenv(clock.FROZEN_ENV, raising=False)
    monkeypatch.setenv(name, value)
    with pytest.raises(ValueError, match=f"{name}.*{message}"):
        clock.now()
