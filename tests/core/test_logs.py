"""core.logs: one handler, on whatever stderr the process has when a line is logged."""
from __future__ import annotations

import io
import logging
import sys

from ve_analytics.core.logs import setup_logging


def test_a_line_goes_to_the_current_stderr_after_the_first_is_closed(monkeypatch):
    first = io.StringIO()
    monkeypatch.setattr(sys, "stderr", first)
    setup_logging("INFO")
    first.close()  # as a test runner closes a test's captured stream
    second = io.StringIO()
    monkeypatch.setattr(sys, "stderr", second)
    logging.getLogger("drill").info("restored %d tables", 2)
    assert second.getvalue().endswith(" INFO drill: restored 2 tables\n")
    setup_logging("INFO")  # set up again: still one handler of ours
    assert sum(getattr(h, "_vea", False) for h in logging.getLogger().handlers) == 1
