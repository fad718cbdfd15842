"""Errors in ClickHouse's form: code, name and text, and the HTTP status ClickHouse gives each.

The engine's own exceptions already carry ClickHouse's text (`Code: N. DB::Exception: ...
(NAME)`); `ClickHouseError.from_engine` keeps it verbatim, so a client sees what a real server
would have said. Errors the server raises itself are rendered in the same form.
"""
from __future__ import annotations

import re

_ENGINE_ERROR = re.compile(r"Code:\s*(\d+)\.", re.DOTALL)
_ERROR_NAME = re.compile(r"\(([A-Z][A-Z0-9_]*)\)")

# ClickHouse's src/Server/HTTP/exceptionCodeToHTTPStatus.cpp, by error name.
_STATUS_BY_NAME: dict[str, int] = {"REQUIRED_PASSWORD": 401}
_STATUS_BY_NAME.update(
    dict.fromkeys(
        ["UNKNOWN_USER", "WRONG_PASSWORD", "AUTHENTICATION_FAILED", "SET_NON_GRANTED_ROLE", "ACCESS_DENIED"], 403
    )
)
_STATUS_BY_NAME.update(
    dict.fromkeys(
        [
            "BAD_ARGUMENTS", "CANNOT_COMPILE_REGEXP", "CANNOT_PARSE_TEXT", "CANNOT_PARSE_ESCAPE_SEQUENCE",
            "CANNOT_PARSE_QUOTED_STRING", "CANNOT_PARSE_DATE", "CANNOT_PARSE_DATETIME", "CANNOT_PARSE_NUMBER",
            "CANNOT_PARSE_DOMAIN_VALUE_FROM_STRING", "CANNOT_PARSE_IPV4", "CANNOT_PARSE_IPV6",
            "CANNOT_PARSE_INPUT_ASSERTION_FAILED", "CANNOT_PARSE_UUID", "DUPLICATE_COLUMN", "ILLEGAL_COLUMN",
            "UNKNOWN_ELEMENT_IN_AST", "UNKNOWN_TYPE_OF_AST_NODE", "THERE_IS_NO_COLUMN", "TOO_DEEP_AST",
            "TOO_BIG_AST", "UNEXPECTED_AST_STRUCTURE", "SYNTAX_ERROR", "INCORRECT_DATA", "TYPE_MISMATCH",
            "VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE",
        ],
        400,
    )
)
_STATUS_BY_NAME.update(
    dict.fromkeys(
        [
            "UNKNOWN_TABLE", "UNKNOWN_FUNCTION", "UNKNOWN_IDENTIFIER", "UNKNOWN_TYPE", "UNKNOWN_STORAGE",
            "UNKNOWN_DATABASE", "UNKNOWN_SETTING", "UNKNOWN_DIRECTION_OF_SORTING", "UNKNOWN_AGGREGATE_FUNCTION",
            "UNKNOWN_FORMAT", "UNKNOWN_DATABASE_ENGINE", "UNKNOWN_TYPE_OF_QUERY", "UNKNOWN_ROLE",
        ],
        404,
    )
)
_STATUS_BY_NAME.update(
    {
        "QUERY_IS_TOO_LARGE": 413,
        "NOT_IMPLEMENTED": 501,
        "SOCKET_TIMEOUT": 503,
        "CANNOT_OPEN_FILE": 503,
        "HTTP_LENGTH_REQUIRED": 411,
        "TIMEOUT_EXCEEDED": 408,
        "CANNOT_SCHEDULE_TASK": 503,
        "UNSUPPORTED_MEDIA_TYPE": 415,
    }
)


class ClickHouseError(Exception):
    """An error in ClickHouse's form: numeric code, symbolic name, message."""

    def __init__(self, code: int, name: str, message: str, *, text: str | None = None):
        super().__init__(message)
        self.code = code
        self.name = name
        self.message = message
        self._text = text  # the engine's own rendering, kept verbatim

    @classmethod
    def from_engine(cls, exc: BaseException) -> ClickHouseError:
        text = str(exc).strip()
        m = _ENGINE_ERROR.search(text)
        if not m:
            return cls(1001, "STD_EXCEPTION", text or type(exc).__name__)
        names = _ERROR_NAME.findall(text)
        return cls(int(m.group(1)), names[-1] if names else "UNKNOWN_EXCEPTION", text, text=text[m.start():])

    @property
    def status(self) -> int:
        return _STATUS_BY_NAME.get(self.name, 500)

    def render(self, version: str) -> bytes:
        if self._text is not None:
            text = self._text
        else:
            text = f"Code: {self.code}. DB::Exception: {self.message}. ({self.name})"
        if "(version " not in text:
            text = f"{text} (version {version})"
        return (text + "\n").encode("utf-8", "replace")
