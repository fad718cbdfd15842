"""CPU-heavy steps of an answer, run off the worker's event loop so cached answers are served
meanwhile: turning a large result into row dicts (api/sql.py), shaping long series (api/v1),
writing a computed answer's JSON (api/pipeline.py) and encoding a large body (api/compression.py).

A thread does not make Python run in parallel, but the event loop thread no longer waits for a
whole step to end: it takes the GIL back after at most the switch interval. CPython's default
(5 ms) can be paid on each wake-up of the loop while a step runs, several times per request, so
each worker sets `SWITCH_INTERVAL`; the cost is more frequent GIL hand-offs between busy threads.

The pool's threads run at the worker's compute niceness (API_COMPUTE_NICE, `configure`), so on
a busy core the operating system wakes the event loop thread ahead of them.

A step run here is a pure function of its arguments: it keeps nothing in the worker's cache
(api/cache.py), which belongs to the loop thread.

Bound: `THREADS` threads; their queue holds at most one step per open request, whose inputs are
in memory already (warehouse computations are themselves bounded by api/admission.py).
"""
from __future__ import annotations

import asyncio
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, TypeVar

THREADS = 2  # the cores of the machine this is sized for; more would only queue on the GIL
SWITCH_INTERVAL = 0.0005  # seconds; CPython's default is 0.005
_NICE = [0]  # the pool threads' niceness, set by `configure` before the first step starts one


def _lower_priority() -> None:
    if _NICE[0]:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), _NICE[0])  # Linux: one thread's niceness


_POOL = ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix="offload", initializer=_lower_priority)

T = TypeVar("T")


def configure(nice: int) -> None:
    """Set the worker's GIL switch interval (process-wide: call in the worker) and the niceness of
    the pool's threads."""
    sys.setswitchinterval(SWITCH_INTERVAL)
    _NICE[0] = nice


async def off_loop(fn: Callable[..., T], *args: Any) -> T:
    """`fn(*args)` in the pool, awaited."""
    return await asyncio.get_running_loop().run_in_executor(_POOL, fn, *args)
