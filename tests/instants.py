"""Run the date-sensitive suites at pinned instants (`make test-instants`): the most recent
Thursday 00:05 UTC (minutes into a new epoch), Thursday 07:40 UTC (hours into one, before the
foundation has voted: issue 24's red run), Wednesday 23:50 UTC (minutes before one), the last
day of a month at 23:50 UTC, and now. Each run is `pytest` with VEA_TEST_AT set (tests/support/
instant.py); its last line and wall time are printed, and the exit status is the worst run's.

    python tests/instants.py [--only thursday,...] [pytest paths and options...]
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone

SUITES = ["tests/e2e", "tests/orchestration", "tests/api_vaults",
          "tests/api/test_health_config.py", "tests/api/test_health_chains.py"]


def most_recent(now: datetime, weekday: int | None, hour: int, minute: int, month_end: bool = False) -> datetime:
    """The latest instant before `now` at hour:minute UTC on the given weekday (Monday 0) or, with
    month_end, on the last day of a month."""
    day = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
    while True:
        if day < now and (weekday is None or day.weekday() == weekday) and (
                not month_end or (day + timedelta(days=1)).month != day.month):
            return day
        day -= timedelta(days=1)


def instants(now: datetime) -> dict[str, datetime]:
    return {
        "thursday-00:05": most_recent(now, 3, 0, 5),
        "thursday-07:40": most_recent(now, 3, 7, 40),
        "wednesday-23:50": most_recent(now, 2, 23, 50),
        "month-end-23:50": most_recent(now, None, 23, 50, month_end=True),
        "now": now.replace(microsecond=0),
    }


def main(argv: list[str]) -> int:
    only = None
    if argv[:1] == ["--only"]:
        only, argv = set(argv[1].split(",")), argv[2:]
    args = argv or SUITES
    worst = 0
    for name, at in instants(datetime.now(timezone.utc)).items():
        if only and name not in only:
            continue
        stamp = at.strftime("%Y-%m-%dT%H:%M:%SZ")
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args]
        started = time.monotonic()
        run = subprocess.run(cmd, env={**os.environ, "VEA_TEST_AT": stamp}, capture_output=True, text=True)
        lines = [line for line in run.stdout.splitlines() if line.strip()]
        print(f"{name} VEA_TEST_AT={stamp}: {lines[-1] if lines else '(no output)'} "
              f"[exit {run.returncode}, {time.monotonic() - started:.0f} s]", flush=True)
        if run.returncode:
            print("\n".join(lines[-60:]), flush=True)
        worst = max(worst, run.returncode)
    return worst


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
