"""`ApiError`: a deliberate failure answer, with its HTTP status and envelope code.

A module of its own because every layer raises it (parameter parsing, snapshot resolution,
rate limiting, handlers) and the envelope turns it into a response: none of them needs the
others to raise one.
"""
from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """A failure with its HTTP status and envelope code; raised anywhere in a request."""

    def __init__(self, status: int, code: str, message: str, *, details: Any = None, headers: dict | None = None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.headers = headers or {}
