"""Session-wide: the instant every stack's data is built at (support/instant.py), printed in the header."""
from __future__ import annotations

from support import instant


def pytest_configure(config):
    instant.configure()


def pytest_report_header(config):
    return instant.header()


def pytest_terminal_summary(terminalreporter):
    terminalreporter.write_line(instant.header())  # shown under -q too: rerun a failure at this instant
