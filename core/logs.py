"""One logging format for every component: a line a person can read."""
from __future__ import annotations

import logging
import os
import sys

_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def setup_logging(level: str | None = None) -> None:
    level = (level or os.environ.get("LOG_LEVEL") or "INFO").upper()
    root = logging.getLogger()
    if not any(getattr(h, "_vea", False) for h in root.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter(_FORMAT, "%Y-%m-%d %H:%M:%S"))
        handler._vea = True  # type: ignore[attr-defined]
        root.addHandler(handler)
    root.setLevel(level)
    # Third-party chatter that says nothing a person needs at INFO.
    for noisy in ("httpx", "httpcore", "urllib3", "web3", "sanic.access", "alembic"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
