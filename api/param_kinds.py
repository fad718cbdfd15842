"""The formats of the multichain /v1 API's parameters: flag, chain_ids, decimal, timestamp, windows.

Each is a parser (raw query text -> typed, hashable value, or `ValueError` whose message, often
empty, is appended to the 400 as the reason), the words saying what it accepts, and its OpenAPI
schema; `api/kinds.py` registers them beside the other kinds.

The schema patterns carry the numeric bounds too (chain IDs up to 2147483647, windows from 1h to
366d, at most 32 IDs and six windows), written out digit by digit by `numbers_up_to`: a value the
published schema allows must not be a 400 (the contract is fuzzed with Schemathesis); a timestamp's
pattern knows the calendar too (years 0001 to 9999, month lengths, leap days). A window written
twice is answered once; two labels of one length (24h, 1d) each under its own.
"""
from __future__ import annotations

import re
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any, Callable, NamedTuple

from ..core.epochs import DAY, HOUR

# chain_ids=all: every public chain. The empty tuple, so the cache key is small and the same for
# `all` and for the default; whether given IDs are public is the pipeline's check (a 404).
ALL_CHAINS: tuple[int, ...] = ()
MAX_CHAIN_ID = 2**31 - 1  # the spec's bound: a chain ID fits a signed 32-bit integer
MAX_CHAINS = 32

DECIMAL_INTEGER_DIGITS = 60
DECIMAL_FRACTION_DIGITS = 30

MAX_WINDOWS = 6
MAX_WINDOWS_TEXT = 100  # the spec's string limit; six windows need at most 35 characters
LONGEST_WINDOW_DAYS = 366
WINDOW_UNITS = {"h": HOUR, "d": DAY}


class Window(NamedTuple):
    """One trailing window: its label as given (`24h`) and its length."""

    label: str
    seconds: int


def numbers_up_to(limit: int) -> str:
    """A regular expression (no anchors) for the integers 1..limit written without leading zeros."""
    digits = str(limit)
    shorter = ["[1-9]" if len(digits) == 2 else f"[1-9][0-9]{{0,{len(digits) - 2}}}"] if len(digits) > 1 else []
    # as long as `limit`: its first i digits, a smaller digit at i, then any digits
    same_length = []
    for i, digit in enumerate(digits):
        low, high = (1 if i == 0 else 0), int(digit) - 1
        if high >= low:
            rest = len(digits) - i - 1
            choice = str(low) if low == high else f"[{low}-{high}]"
            same_length.append(digits[:i] + choice + ("[0-9]" if rest == 1 else f"[0-9]{{{rest}}}" if rest else ""))
    return "|".join([*shorter, *same_length, digits])


_CHAIN_ID = f"(?:{numbers_up_to(MAX_CHAIN_ID)})"
CHAIN_IDS_PATTERN = f"all|{_CHAIN_ID}(?:,{_CHAIN_ID}){{0,{MAX_CHAINS - 1}}}"

DECIMAL_PATTERN = rf"[0-9]{{1,{DECIMAL_INTEGER_DIGITS}}}(?:\.[0-9]{{1,{DECIMAL_FRACTION_DIGITS}}})?"

# Fixed width, so the parser reads the fields by position: date, T, time, then Z or +HH:MM / -HH:MM.
# The date is a calendar date of a year 0001-9999: days 1-28 of any month, 29-30 of all but
# February, 31 of the long months, and 29 February of leap years (divisible by 4, and by 400 when
# a century).
_YEAR = r"(?:[1-9][0-9]{3}|0[1-9][0-9]{2}|00[1-9][0-9]|000[1-9])"
_LEAP_YEAR = r"(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)"
_MONTH_DAY = r"(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1[0-9]|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31)"
_TIME = r"T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])"
TIMESTAMP_PATTERN = rf"(?:{_YEAR}-{_MONTH_DAY}|{_LEAP_YEAR}-02-29){_TIME}"

_WINDOW = (
    f"(?:(?:{numbers_up_to(LONGEST_WINDOW_DAYS * DAY // HOUR)})h"
    f"|(?:{numbers_up_to(LONGEST_WINDOW_DAYS)})d)"
)
WINDOWS_PATTERN = f"{_WINDOW}(?:,{_WINDOW}){{0,{MAX_WINDOWS - 1}}}"

_CHAIN_IDS = re.compile(CHAIN_IDS_PATTERN)
_DECIMAL = re.compile(DECIMAL_PATTERN)
# the parser reads the fields by this looser form, so a date past its month's end is refused
# saying so (the published pattern refuses it as well)
_TIMESTAMP = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}" + _TIME)
# what datetime.now().isoformat() and JavaScript's toISOString() write: refused, with the value to send
_FRACTIONAL = re.compile(r"([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2})\.[0-9]+(Z|[+-][0-9]{2}:[0-9]{2})")
_WINDOWS = re.compile(WINDOWS_PATTERN)
_UNIX_EPOCH = datetime(1970, 1, 1)
_ONE_SECOND = timedelta(seconds=1)
_FLAGS = {"true": True, "false": False}


def parse_flag(raw: str) -> bool:
    try:
        return _FLAGS[raw]
    except KeyError:
        raise ValueError() from None


def parse_chain_ids(raw: str) -> tuple[int, ...]:
    if not _CHAIN_IDS.fullmatch(raw):
        raise ValueError()
    if raw == "all":
        return ALL_CHAINS
    # sorted and de-duplicated: `56,1` and `1,56,1` are one query (one cache entry)
    return tuple(sorted({int(item) for item in raw.split(",")}))


def parse_decimal(raw: str) -> Decimal:
    if not _DECIMAL.fullmatch(raw):
        raise ValueError()
    return Decimal(raw)  # exact: the context's precision applies to arithmetic, not to construction


def parse_timestamp(raw: str) -> int:
    """-> Unix seconds (UTC). Fractional seconds are refused, not truncated: truncating moves an
    exclusive bound (`to` of a price history) and the periods anchored on it."""
    if not _TIMESTAMP.fullmatch(raw):
        fractional = _FRACTIONAL.fullmatch(raw)
        if fractional:
            raise ValueError(f"fractional seconds are not accepted: send {fractional[1]}{fractional[2]} (or the next "
                             f"whole second)")
        raise ValueError()
    try:  # the pattern bounds each field; the calendar (30 February) is datetime's check
        local = datetime(int(raw[0:4]), int(raw[5:7]), int(raw[8:10]), int(raw[11:13]), int(raw[14:16]), int(raw[17:19]))
    except ValueError:
        raise ValueError(f"{raw[:10]} is not a calendar date") from None
    offset = 0 if raw[19] == "Z" else (1 if raw[19] == "+" else -1) * (int(raw[20:22]) * HOUR + int(raw[23:25]) * 60)
    # naive arithmetic: no datetime outside years 1..9999 is built, whatever the offset
    return (local - _UNIX_EPOCH) // _ONE_SECOND - offset


def parse_windows(raw: str) -> tuple[Window, ...]:
    if len(raw) > MAX_WINDOWS_TEXT or not _WINDOWS.fullmatch(raw):
        raise ValueError()
    labels = dict.fromkeys(raw.split(","))  # a label given twice is answered once, in its first place
    return tuple(Window(label, int(label[:-1]) * WINDOW_UNITS[label[-1]]) for label in labels)


PARSERS: dict[str, Callable[[str], Any]] = {
    "flag": parse_flag,
    "chain_ids": parse_chain_ids,
    "decimal": parse_decimal,
    "timestamp": parse_timestamp,
    "windows": parse_windows,
}

ACCEPTS = {
    "flag": "true or false",
    "chain_ids": f"all (every public chain) or up to {MAX_CHAINS} comma-separated chain IDs, each an integer "
    f"from 1 to {MAX_CHAIN_ID}",
    "decimal": f"a decimal number of up to {DECIMAL_INTEGER_DIGITS} integer digits, optionally a dot and up to "
    f"{DECIMAL_FRACTION_DIGITS} fraction digits (no sign or exponent), e.g. 1500.25",
    "timestamp": "an ISO 8601 timestamp with whole seconds and UTC (Z) or an offset (+HH:MM or -HH:MM), "
    "e.g. 2026-03-01T12:00:00Z",
    "windows": f"up to six comma-separated trailing windows, each a whole number of hours or days from 1h to "
    f"{LONGEST_WINDOW_DAYS}d (e.g. 24h,7d), at most {MAX_WINDOWS_TEXT} characters; a window given twice is answered once",
}


def schema(kind: str) -> dict[str, Any]:
    """A fresh OpenAPI schema for `kind` (the caller adds its default)."""
    if kind == "flag":
        return {"type": "string", "enum": ["true", "false"]}
    if kind == "chain_ids":
        return {"type": "string", "pattern": f"^(?:{CHAIN_IDS_PATTERN})$"}
    if kind == "decimal":
        return {"type": "string", "pattern": f"^(?:{DECIMAL_PATTERN})$"}
    if kind == "timestamp":
        return {"type": "string", "format": "date-time", "pattern": f"^(?:{TIMESTAMP_PATTERN})$"}
    return {"type": "string", "pattern": f"^(?:{WINDOWS_PATTERN})$", "maxLength": MAX_WINDOWS_TEXT}
