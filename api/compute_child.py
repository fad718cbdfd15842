"""A worker's compute child (api/compute_process.py says why and how it is used):

    python -m ve_analytics.api.compute_child SOCKET

started by its worker, which writes its settings and API families, pickled, to the child's stdin.
It serves the same application on the Unix socket SOCKET, at the worker's compute niceness, and
exits with its worker (even one killed outright), removing the socket's folder.
"""
from __future__ import annotations

import ctypes
import os
import pickle
import shutil
import signal
import sys

from .server import serve_compute

PARENT_GONE = signal.SIGUSR1  # what the kernel sends this child when its worker dies


def _exit_with_parent(folder: str) -> None:
    """Ask the kernel to signal this process when its parent (the worker) dies (Linux only); the
    child then removes its socket's folder and exits at once: it keeps nothing, and nobody is left
    to ask it anything. Not SIGTERM: Sanic ignores a SIGTERM that arrives while the server is
    still starting (its stop() is a no-op before serving begins), and a worker killed just after
    starting its child would leave the child running."""

    def gone(*_: object) -> None:
        shutil.rmtree(folder, ignore_errors=True)
        os._exit(0)

    signal.signal(PARENT_GONE, gone)
    parent = os.getppid()
    try:
        ctypes.CDLL("libc.so.6").prctl(1, PARENT_GONE)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the worker died before the request took effect
        gone()


def main(argv: list[str]) -> int:
    (socket_path,) = argv
    folder = os.path.dirname(socket_path)  # made by the worker for this child alone
    _exit_with_parent(folder)
    settings, families = pickle.loads(sys.stdin.buffer.read())  # from its worker
    os.nice(settings.api_limits.compute_nice)
    try:
        serve_compute(settings, socket_path, families)
    finally:  # stopped by its worker, which removes the folder too
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
