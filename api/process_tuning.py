"""Process settings of an API worker (and of its compute child, api/compute_process.py).

The C allocator, so freed cache entries give their memory back. With glibc's defaults a worker's resident memory stays far above what it holds: after a large
answer (a few MB, allocated with mmap) is freed, glibc raises its mmap threshold to that size, so
the next answers of that size come from the heap, and their evicted bodies leave holes there that
are not returned; each thread of the warehouse client's pool also gets its own heap arena. Under
a flood of distinct large answers that put a worker 50% above its cache bound (bench/flood.py).
So each worker fixes the mmap threshold at 128 KiB (bodies above it are mapped and unmapped as
wholes) and allows 2 arenas. MALLOC_MMAP_THRESHOLD_ or MALLOC_ARENA_MAX set in the environment
are the operator's choice and left alone. Other C libraries: nothing to do.

The garbage collector, so its full collections stay short. Once the server has started, the
objects alive then (modules, route tables, schemas, some 100,000) are frozen: a full collection
no longer walks them. Without it, the containers a large answer allocates triggered a full
collection every few seconds that held the GIL for 60 to 75 ms (bench/flood.py).
"""
from __future__ import annotations

import ctypes
import gc
import logging
import os

log = logging.getLogger("api")

M_MMAP_THRESHOLD, M_ARENA_MAX = -3, -8  # glibc's mallopt parameters (malloc.h)
MMAP_THRESHOLD = 128 * 1024
ARENAS = 2


def tune_allocator() -> bool:
    """Apply the settings above; False where the C library is not glibc."""
    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):
        return False
    done = True
    if "MALLOC_MMAP_THRESHOLD_" not in os.environ:
        done = bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and done
    if "MALLOC_ARENA_MAX" not in os.environ:
        done = bool(mallopt(M_ARENA_MAX, ARENAS)) and done
    if not done:
        log.warning("mallopt refused the API worker's allocator settings; its memory may stay above its cache bound")
    return done


def freeze_startup_objects() -> int:
    """Collect once, then move every object alive now out of the collector's generations; the
    number frozen."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
