"""The session's instant: the one "now" every test stack's data is built at.

`VEA_TEST_AT` (Unix seconds or ISO 8601 UTC, in the past) pins it; unset, it is the wall clock
read once at session start. pytest's header prints it, so any failure reruns at the same instant
(`VEA_TEST_AT=<printed value> pytest ...`). From session start on, the session's clock runs on
from that instant: `configure()` puts the product's clock (VEA_CLOCK_OFFSET_SECONDS) and the
devnet's (DEVNET_CLOCK_OFFSET) that far from the wall clock in this process's environment, which
every process a stack starts inherits. A stack that must not age while the session runs (an API
asserting health ages) freezes its clock at `AT` (`frozen_env`).
"""
from __future__ import annotations

import os
import time
from contextlib import contextmanager
from typing import Iterator

from ve_analytics.core import clock
from ve_analytics.core.epochs import iso

ENV = "VEA_TEST_AT"

_wall = time.time()
_raw = os.environ.get(ENV, "").strip()
AT: int = int(clock.parse_instant(_raw)) if _raw else int(_wall)  # whole seconds: iso() round-trips it
OFFSET: int = AT - int(_wall)  # <= 0: Dagster's partitions follow the wall clock, so the instant is never ahead
if OFFSET > 0:
    raise ValueError(f"{ENV}={_raw} is {OFFSET} s in the future; the pinned instant must be in the past")


def now() -> int:
    """The session's running clock: AT at session start."""
    return int(time.time()) + OFFSET


def frozen_env() -> dict[str, str]:
    """Environment of a product process whose clock stays at AT."""
    return {clock.FROZEN_ENV: str(AT)}


def configure() -> None:
    """Every process started from here on (and this one's product code) runs on the session's clock."""
    os.environ[clock.OFFSET_ENV] = str(OFFSET)
    os.environ["DEVNET_CLOCK_OFFSET"] = str(OFFSET)
    os.environ.pop(clock.FROZEN_ENV, None)


@contextmanager
def wall_clock() -> Iterator[None]:
    """The product and devnet clocks of processes started inside it are the wall clock: for a stack
    whose world is pinned on its own (a fixed genesis and a manual devnet clock), whatever the instant."""
    saved = {name: os.environ.get(name) for name in (clock.OFFSET_ENV, "DEVNET_CLOCK_OFFSET")}
    os.environ.update({name: "0" for name in saved})
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def header() -> str:
    pinned = "pinned" if _raw else "the wall clock at session start"
    return f"instant: {ENV}={iso(AT)} ({AT}, {pinned}; clocks shifted by {OFFSET} s)"
