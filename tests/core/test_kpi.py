"""KPI classification rules (docs/methodology/kpi-classification.md), one case per decision step."""
from __future__ import annotations

import pytest

from ve_analytics.core.kpi import KpiInputs, classify, relative_change


def k(**kw) -> KpiInputs:
    base = dict(elapsed_hours=48, foundation_votes=10, bribe_cost_usd=100.0, value_per_bribe_usd=1.5,
                tvl_delta=0.0, volume_delta=0.1, fees_delta=0.1)
    base.update(kw)
    return KpiInputs(**base)


@pytest.mark.parametrize("inputs, expected", [
    (k(elapsed_hours=23), "insufficient_data"),
    (k(foundation_votes=0, bribe_cost_usd=0.0), "insufficient_data"),
    (k(bribe_cost_usd=0.0, fees_delta=0.0), "repeat"),
    (k(bribe_cost_usd=0.0, fees_delta=-0.1), "monitor"),
    (k(bribe_cost_usd=0.0, volume_delta=None), "insufficient_data"),
    (k(value_per_bribe_usd=None), "insufficient_data"),
    (k(tvl_delta=None), "insufficient_data"),
    (k(value_per_bribe_usd=0.4, fees_delta=0.0), "stop"),
    (k(value_per_bribe_usd=0.4, fees_delta=0.2), "reduce"),
    (k(value_per_bribe_usd=0.99), "reduce"),
    (k(value_per_bribe_usd=2.0, volume_delta=0.01, tvl_delta=0.0), "scale"),
    (k(value_per_bribe_usd=2.0, volume_delta=0.0), "repeat"),
    (k(value_per_bribe_usd=1.0, volume_delta=0.0), "repeat"),
    (k(value_per_bribe_usd=1.5, volume_delta=-0.2), "monitor"),
])
def test_decision_order(inputs, expected):
    assert classify(inputs) == expected


def test_relative_change_unknown_is_not_zero():
    assert relative_change(110.0, 100.0) == pytest.approx(0.1)
    assert relative_change(None, 100.0) is None and relative_change(1.0, None) is None
    assert relative_change(1.0, 0.0) is None
