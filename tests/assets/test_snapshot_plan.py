"""A snapshot run's plan as a pure function of its window, tags, creation time and published set."""
from __future__ import annotations

from datetime import datetime, timezone

from ve_analytics.assets.partitions import snapshot_tags
from ve_analytics.assets.snapshot_plan import due_times, plan_snapshots, times_within_tags
from ve_analytics.core.epochs import DAY, QUARTER_HOUR

DAY0 = int(datetime(2026, 11, 20, tzinfo=timezone.utc).timestamp())


def test_a_day_partition_holds_its_96_snapshots_from_0015_to_next_midnight():
    due = due_times(DAY0, DAY0 + DAY, {}, None)
    assert len(due) == 96 and due[0] == DAY0 + QUARTER_HOUR and due[-1] == DAY0 + DAY


def test_tags_bound_the_times_and_without_an_until_tag_the_creation_time_does():
    tags = snapshot_tags(DAY0 + 3600, DAY0 + 5400)
    assert due_times(DAY0, DAY0 + DAY, tags, None) == [DAY0 + 3600, DAY0 + 4500, DAY0 + 5400]
    created = DAY0 + 3600 + 899  # a boundary that has not passed yet is not due
    assert due_times(DAY0, DAY0 + DAY, {}, created)[-1] == DAY0 + 3600
    assert times_within_tags([DAY0 + 900, DAY0 + 1800], {"ve/snapshots_from": "2026-11-20T00:30:00Z"}, None) == [
        DAY0 + 1800]


def test_published_times_are_skipped_unless_forced_and_the_label_names_the_range():
    due = [DAY0 + 900, DAY0 + 1800, DAY0 + 2700]
    plan = plan_snapshots(due, snapshot_tags(due[0], due[-1]), {DAY0 + 900})
    assert plan.times == due[1:] and plan.label == "2026-11-20T00:30:00Z..2026-11-20T00:45:00Z"
    forced = plan_snapshots(due, snapshot_tags(due[0], due[-1], force=True), {DAY0 + 900})
    assert forced.times == due
    assert plan_snapshots(due, {}, set(due)).times == [] and plan_snapshots([], {}, set()).label == ""


def test_every_asset_of_a_run_gets_the_same_plan_from_the_same_inputs():
    tags = snapshot_tags(DAY0 + 900, DAY0 + DAY)
    first = plan_snapshots(due_times(DAY0, DAY0 + DAY, tags, None), tags, {DAY0 + 900})
    again = plan_snapshots(due_times(DAY0, DAY0 + DAY, tags, None), tags, {DAY0 + 900})
    assert first == again and len(first.times) == 95
