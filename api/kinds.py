"""The one registry of parameter kinds (`KINDS`): for each, how a raw value is read, the words
saying what it accepts, and its OpenAPI schema, each given the declaring `Param` (its bounds,
choices, pattern). `api/validation.py` adds what every kind shares (the default, the bounds in
the schema, the 400); the multichain formats' parsers and patterns are in `api/param_kinds.py`.

A reader returns the typed value or raises `ValueError`, whose message (often empty) the 400
appends as the reason.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Callable, Protocol

from . import param_kinds

# An integer parameter is at most 18 digits (it always fits the warehouse's Int64/UInt64
# bindings); a declared minimum or maximum narrows that, and the contract publishes the bounds.
INTEGER_DIGITS = 18
INTEGER_LIMIT = 10**INTEGER_DIGITS - 1

_INTEGER = re.compile(rf"-?[0-9]{{1,{INTEGER_DIGITS}}}")
_NUMBER = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?")
_ADDRESS = re.compile(r"0x[0-9a-fA-F]{40}")
_BOOLEANS = {"true": True, "1": True, "false": False, "0": False}


class Param(Protocol):
    """What a kind reads of its declaration (api/validation.py `Param`)."""
    minimum: int | float | None
    maximum: int | float | None
    choices: tuple[str, ...]
    pattern: str | None
    rule: str
    max_length: int | None
    multiple_of: int | None
    multiple_text: str

    @property
    def low(self) -> int | float | None: ...

    @property
    def high(self) -> int | float | None: ...


@dataclass(frozen=True)
class Kind:
    read: Callable[[Param, str], Any]
    accepted: Callable[[Param], str]
    schema: Callable[[Param], dict[str, Any]]
    default_is_text: bool = False  # a declared default is query text, read like a given value (chain_ids `all`)


def _in_range(param: Param, value: int | float) -> int | float:
    low, high = param.low, param.high
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError()
    return value


def _range_text(minimum: int | float | None, maximum: int | float | None) -> str:
    if minimum is not None and maximum is not None:
        return f" from {minimum} to {maximum}"
    if minimum is not None:
        return f" >= {minimum}"
    if maximum is not None:
        return f" <= {maximum}"
    return ""


def _read_integer(param: Param, raw: str) -> int:
    if not _INTEGER.fullmatch(raw):
        raise ValueError()
    value = int(_in_range(param, int(raw)))
    if param.multiple_of and value % param.multiple_of:
        raise ValueError()
    return value


def _integer_text(param: Param) -> str:
    what = "an integer" + _range_text(param.low, param.high)
    if param.multiple_of:
        what += f", a multiple of {param.multiple_of}" + (f" ({param.multiple_text})" if param.multiple_text else "")
    return what


def _read_number(param: Param, raw: str) -> float:
    if not _NUMBER.fullmatch(raw) or not math.isfinite(value := float(raw)):
        raise ValueError()
    return float(_in_range(param, value))


def _read_boolean(param: Param, raw: str) -> bool:
    try:
        return _BOOLEANS[raw]
    except KeyError:
        raise ValueError() from None


def _read_enum(param: Param, raw: str) -> str:
    if raw not in param.choices:
        raise ValueError()
    return raw


def _read_address(param: Param, raw: str) -> str:
    if not _ADDRESS.fullmatch(raw):
        raise ValueError()
    return raw.lower()


def _read_string(param: Param, raw: str) -> str:
    # the length first: no pattern runs over an oversized value
    if (param.max_length is not None and len(raw) > param.max_length) or (
            param.pattern is not None and not re.fullmatch(param.pattern, raw)):
        raise ValueError()
    return raw


def _string_text(param: Param) -> str:
    what = param.rule or (f"a string matching {param.pattern}" if param.pattern else "a string")
    return what + (f" of at most {param.max_length} characters" if param.max_length is not None else "")


def _string_schema(param: Param) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    if param.pattern:
        schema["pattern"] = f"^(?:{param.pattern})$"
    if param.max_length is not None:
        schema["maxLength"] = param.max_length
    return schema


def _format(kind: str) -> Kind:
    """A multichain format (api/param_kinds.py): its literals (a timestamp's `earliest`), given
    as `choices`, are read as themselves."""
    parser = param_kinds.PARSERS[kind]

    def read(param: Param, raw: str) -> Any:
        return raw if raw in param.choices else parser(raw)

    def accepted(param: Param) -> str:
        what = param_kinds.ACCEPTS[kind]
        if param.choices:
            what += ", or " + ("one of " if len(param.choices) > 1 else "") + ", ".join(param.choices)
        return what

    def schema(param: Param) -> dict[str, Any]:
        found = param_kinds.schema(kind)
        if param.location == "path":  # text in a URL: a generated client prints a date-time path value with
            found.pop("format", None)  # str(), a space for the T (openapi-python-client); the pattern says it
        if param.choices:  # a timestamp or one of its literals; `type` stays on top for readers of it
            literal = {"enum": list(param.choices)}
            found = {"type": "string", "anyOf": [{k: v for k, v in found.items() if k != "type"}, literal]}
        return found

    return Kind(read, accepted, schema, default_is_text=True)


KINDS: dict[str, Kind] = {
    "integer": Kind(_read_integer, _integer_text, lambda p: {"type": "integer"}),
    "number": Kind(_read_number, lambda p: "a number" + _range_text(p.minimum, p.maximum), lambda p: {"type": "number"}),
    "boolean": Kind(_read_boolean, lambda p: "true or 1, false or 0",
                    lambda p: {"type": "string", "enum": ["true", "1", "false", "0"]}),
    "enum": Kind(_read_enum, lambda p: "one of " + ", ".join(p.choices), lambda p: {"type": "string", "enum": list(p.choices)}),
    "address": Kind(_read_address, lambda p: "0x followed by exactly 40 hex digits (either case)",
                    lambda p: {"type": "string", "pattern": "^0x[0-9a-fA-F]{40}$"}),
    "string": Kind(_read_string, _string_text, _string_schema),
    **{kind: _format(kind) for kind in param_kinds.PARSERS},
}
