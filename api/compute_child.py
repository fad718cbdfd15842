"""A worker's compute child (api/compute_process.py says why and how it is used):

    python -m ve_analytics.api.compute_child SOCKET

started by its worker, which writes its settings and API families, pickled, to the child's stdin.
It serves the same application on the Unix socket SOCKET, at the worker's compute niceness, and
exits with its worker.
"""
from __future__ import annotations

import ctypes
import os
import pickle
import signal
import sys

from .server import serve_compute


def _exit_with_parent() -> None:
    """Ask the kernel to stop this process when its parent (the worker) dies (Linux only)."""
    parent = os.getppid()
    try:
        ctypes.CDLL("libc.so.6").prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the worker died before the request took effect
        sys.exit(0)


def main(argv: list[str]) -> int:
    (socket_path,) = argv
    _exit_with_parent()
    settings, families = pickle.loads(sys.stdin.buffer.read())  # from its worker
    os.nice(settings.api_limits.compute_nice)
    serve_compute(settings, socket_path, families)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
