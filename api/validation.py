"""The one validation layer: typed parameters parsed from a route's declared parameter list.

A route declares its parameters once (`Param`); the same declaration parses requests, names the
error code (`invalid_<snake_name>`, e.g. `invalid_days`, `invalid_pool_id`), writes the message
saying what is accepted, and becomes the OpenAPI parameter. Unknown query parameters are
refused with `unknown_parameter`; a parameter given twice is refused with its own code.

What each kind reads, accepts and publishes is its entry in the one registry, `api/kinds.py`;
`ALL_CHAINS` and `Window` (what handlers get for chain_ids and windows) come from
`api/param_kinds.py`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable
from urllib.parse import parse_qsl, unquote

from .errors import ApiError
from .kinds import INTEGER_LIMIT, KINDS
from .param_kinds import ALL_CHAINS, Window  # noqa: F401 - re-exported: what handlers get and compare with

UNKNOWN_PARAMETER = "unknown_parameter"

_CAMEL = re.compile(r"(?<=[a-z0-9])([A-Z])")


def snake(name: str) -> str:
    return _CAMEL.sub(r"_\1", name).lower()


@dataclass(frozen=True)
class Param:
    name: str
    kind: str  # one of KINDS
    description: str = ""
    location: str = "query"  # "query" or "path"
    default: Any = None
    minimum: int | float | None = None
    maximum: int | float | None = None
    choices: tuple[str, ...] = ()  # kind "enum": the values; kind "timestamp": literals besides a time
    pattern: str | None = None  # kind "string": full-match regular expression
    rule: str = ""  # kind "string": what the pattern accepts, in words (said instead of a pattern too long to read)
    max_length: int | None = None  # kind "string": at most this many characters
    multiple_of: int | None = None  # kind "integer": the value must be a multiple of this
    multiple_text: str = ""  # what the multiple means, in words (e.g. "an epoch start")
    code: str | None = None  # error code; default invalid_<snake_name>
    mandatory: bool = False  # a query parameter the request must give (path parameters always are)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"{self.name}: unknown parameter kind {self.kind!r}")
        if self.kind == "enum" and not self.choices:
            raise ValueError(f"{self.name}: an enum needs choices")
        if self.choices and self.kind not in ("enum", "timestamp"):
            raise ValueError(f"{self.name}: only an enum or a timestamp (its literals) has choices")
        if self.max_length is not None and (self.kind != "string" or self.max_length < 1):
            raise ValueError(f"{self.name}: max_length is a positive bound of a string")
        if self.default is not None and self.location == "query":
            self.parse(self.default_text)

    @property
    def default_text(self) -> str | None:
        """The default as a query string would give it (a bool as true/false)."""
        if self.default is None:
            return None
        return str(self.default).lower() if isinstance(self.default, bool) else str(self.default)

    @property
    def default_value(self) -> Any:
        """The value a handler gets when the parameter is absent. A /v1 kind's default is written
        as query text (chain_ids `all`, windows `24h,7d`), so it is parsed like a given value."""
        if self.default is not None and KINDS[self.kind].default_is_text:
            return self.parse(self.default_text)
        return self.default

    @property
    def error_code(self) -> str:
        return self.code or f"invalid_{snake(self.name)}"

    @property
    def required(self) -> bool:
        return self.location == "path" or self.mandatory

    @property
    def low(self) -> int | float | None:
        """The smallest accepted value: the declared minimum, or an integer's implicit bound."""
        if self.minimum is None and self.kind == "integer":
            return -INTEGER_LIMIT
        return self.minimum

    @property
    def high(self) -> int | float | None:
        """The largest accepted value: the declared maximum, or an integer's implicit bound."""
        if self.maximum is None and self.kind == "integer":
            return INTEGER_LIMIT
        return self.maximum

    def accepted(self) -> str:
        """What the parameter accepts, in words (the 400 message and the OpenAPI description)."""
        what = KINDS[self.kind].accepted(self)
        return what + (f" (default {self.default_text})" if self.default is not None else "")

    def invalid(self, reason: str = "") -> ApiError:
        message = f"{self.name} must be {self.accepted()}"
        return ApiError(400, self.error_code, f"{message}; {reason}" if reason else message)

    def parse(self, raw: str) -> Any:
        try:
            return KINDS[self.kind].read(self, raw)
        except ValueError as err:
            raise self.invalid(str(err)) from None

    def json_schema(self) -> dict[str, Any]:
        schema = KINDS[self.kind].schema(self)
        if self.multiple_of:
            schema["multipleOf"] = self.multiple_of
        if self.low is not None:
            schema["minimum"] = self.low
        if self.high is not None:
            schema["maximum"] = self.high
        if self.default is not None:
            schema["default"] = self.default if self.kind in ("integer", "number") else self.default_text
        return schema


class ParamParser:
    """Parses one route's query string and path arguments into a dict of typed values.

    Built once per route at startup; `parse` is the per-request hot path.
    """

    def __init__(self, params: Iterable[Param]):
        self.params = tuple(params)
        self.query = {p.name: p for p in self.params if p.location == "query"}
        self.path = {p.name: p for p in self.params if p.location == "path"}
        self.defaults = {p.name: p.default_value for p in self.query.values()}
        self.mandatory = tuple(p for p in self.query.values() if p.mandatory)
        self.known = ", ".join(self.query) or "none"

    def parse(self, query_string: str, path_args: dict[str, str] | None = None) -> dict[str, Any]:
        values = dict(self.defaults)
        if path_args:
            for name, raw in path_args.items():  # the router leaves a segment percent-encoded (%3A for a colon)
                values[name] = self.path[name].parse(unquote(raw) if "%" in raw else raw)
        if query_string:
            seen: set[str] = set()
            for name, raw in parse_qsl(query_string, keep_blank_values=True):
                param = self.query.get(name)
                if param is None:
                    raise ApiError(400, UNKNOWN_PARAMETER, f"unknown query parameter {name[:64]!r}; accepted: {self.known}")
                if name in seen:
                    raise param.invalid("give it at most once")
                seen.add(name)
                values[name] = param.parse(raw)
        for param in self.mandatory:
            if values[param.name] is None:
                raise param.invalid("it is required")
        return values
