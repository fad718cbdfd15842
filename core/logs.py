"""One logging format for every component: a line a person can read."""
from __future__ import annotations

import logging
import os
import sys

_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class _StderrHandler(logging.StreamHandler):
    """Writes to whatever `sys.stderr` is when a line is logged, not the one at set-up: a stream
    replaced since (a test runner's capture, closed after its test) is never written to."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    @property  # type: ignore[override]
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, _value) -> None:
        pass


def setup_logging(level: str | None = None) -> None:
    level = (level or os.environ.get("LOG_LEVEL") or "INFO").upper()
    root = logging.getLogger()
    if not any(getattr(h, "_vea", False) for h in root.handlers):
        handler = _StderrHandler()
        handler.setFormatter(logging.Formatter(_FORMAT, "%Y-%m-%d %H:%M:%S"))
        handler._vea = True  # type: ignore[attr-defined]
        root.addHandler(handler)
    root.setLevel(level)
    # Third-party chatter that says nothing a person needs at INFO.
    for noisy in ("httpx", "httpcore", "urllib3", "web3", "sanic.access", "alembic"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
