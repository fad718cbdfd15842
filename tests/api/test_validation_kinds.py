"""The parameter kinds of the multichain /v1 API (flag, chain_ids, decimal, timestamp, windows) and
the string kind's max_length: what each parses to, what it refuses (400, its own code, a message
saying what is accepted), and that the published schema allows what the parser accepts. No server."""
from __future__ import annotations

import re
from datetime import datetime, timezone
from decimal import Decimal

import pytest

from ve_analytics.api.errors import ApiError
from ve_analytics.api.validation import ALL_CHAINS, KINDS, Param, ParamParser, Window

FLAG = Param("onlyAlive", "flag")
CHAINS = Param("chainIds", "chain_ids", default="all")
AMOUNT = Param("minAmount", "decimal")
AT = Param("at", "timestamp")
FROM = Param("from", "timestamp", choices=("earliest",))
WINDOWS = Param("windows", "windows", default="24h,7d")
Q = Param("q", "string", max_length=100)


def refused(param: Param, raw: str) -> ApiError:
    with pytest.raises(ApiError) as err:
        param.parse(raw)
    assert err.value.status == 400
    assert err.value.code == param.error_code
    assert err.value.message.startswith(f"{param.name} must be {param.accepted()}")
    return err.value


def utc(*fields: int) -> int:
    return int(datetime(*fields, tzinfo=timezone.utc).timestamp())


def test_the_new_kinds_are_declared():
    assert {"flag", "chain_ids", "decimal", "timestamp", "windows"} <= set(KINDS)
    assert [p.error_code for p in (FLAG, CHAINS, AMOUNT, AT, FROM, WINDOWS, Q)] == [
        "invalid_only_alive", "invalid_chain_ids", "invalid_min_amount", "invalid_at", "invalid_from",
        "invalid_windows", "invalid_q",
    ]


# flag


def test_flag_is_exactly_true_or_false():
    assert FLAG.parse("true") is True and FLAG.parse("false") is False
    for raw in ("1", "0", "True", "FALSE", "yes", "", " true", "true "):
        refused(FLAG, raw)
    assert refused(FLAG, "1").message == "onlyAlive must be true or false"
    assert FLAG.json_schema() == {"type": "string", "enum": ["true", "false"]}


def test_a_flag_default_is_written_true_or_false():
    on, off = Param("x", "flag", default=True), Param("y", "flag", default=False)
    assert on.accepted() == "true or false (default true)" and off.json_schema()["default"] == "false"
    assert ParamParser([on, off]).parse("") == {"x": True, "y": False}
    assert ParamParser([on]).parse("x=false") == {"x": False}


def test_the_boolean_kind_still_takes_1_and_0():
    assert Param("b", "boolean").parse("1") is True and Param("b", "boolean").parse("0") is False


# chain_ids


@pytest.mark.parametrize(
    "raw, value",
    [
        ("all", ALL_CHAINS),
        ("1", (1,)),
        ("56", (56,)),
        ("56,1", (1, 56)),
        ("1,56,1", (1, 56)),
        ("8453,56,10,1", (1, 10, 56, 8453)),
        ("2147483647", (2147483647,)),
        (",".join(["7"] * 32), (7,)),
        (",".join(str(n) for n in range(32, 0, -1)), tuple(range(1, 33))),
    ],
)
def test_chain_ids_are_sorted_and_deduplicated(raw, value):
    assert CHAINS.parse(raw) == value and type(CHAINS.parse(raw)) is tuple


def test_all_is_the_empty_tuple_and_the_default():
    assert ALL_CHAINS == () and CHAINS.parse("all") is ALL_CHAINS
    parser = ParamParser([CHAINS])
    assert parser.parse("") == {"chainIds": ALL_CHAINS}
    assert parser.parse("chainIds=56,1") == parser.parse("chainIds=1,56,1") == {"chainIds": (1, 56)}
    assert CHAINS.json_schema()["default"] == "all"


@pytest.mark.parametrize(
    "raw",
    [
        "", ",", "1,", ",1", "1,,2", "all,1", "1,all", "all,all", "ALL", "All", "0", "01", "007", "+1", "-1",
        " 1", "1 ", "1, 2", "1.0", "0x38", "1e3", "2147483648", "9999999999", "99999999999",
        ",".join(str(n) for n in range(1, 34)),  # 33 items
    ],
)
def test_bad_chain_ids(raw):
    refused(CHAINS, raw)


def test_chain_ids_message_says_what_is_accepted():
    assert refused(CHAINS, "0").message == (
        "chainIds must be all (every public chain) or up to 32 comma-separated chain IDs, "
        "each an integer from 1 to 2147483647 (default all)"
    )


# decimal


@pytest.mark.parametrize(
    "raw",
    ["0", "1", "1500.25", "0.5", "007.50", "1.0", "9" * 60, "1." + "0" * 29 + "1", "9" * 60 + "." + "9" * 30],
)
def test_decimals_are_exact(raw):
    value = AMOUNT.parse(raw)
    assert type(value) is Decimal and value == Decimal(raw)
    assert value.as_tuple() == Decimal(raw).as_tuple()  # digits and exponent as given: nothing went through a float


def test_decimal_precision_survives():
    assert AMOUNT.parse("0.1") + AMOUNT.parse("0.2") == Decimal("0.3")
    assert AMOUNT.parse("1." + "0" * 29 + "1") - 1 == Decimal("1e-30")
    assert AMOUNT.parse("9" * 60) == 10**60 - 1


@pytest.mark.parametrize(
    "raw",
    [
        "", ".5", "5.", ".", "-1", "+1", "1e5", "1E5", "1e-5", "NaN", "nan", "Infinity", "inf", "1,5", "1.2.3",
        " 1", "1 ", "0x10", "1_000", "\u0661", "9" * 61, "1." + "1" * 31, "9" * 61 + ".5",
    ],
)
def test_bad_decimals(raw):
    refused(AMOUNT, raw)


def test_decimal_message_says_what_is_accepted():
    assert "up to 60 integer digits, optionally a dot and up to 30 fraction digits" in refused(AMOUNT, ".5").message


# timestamp


@pytest.mark.parametrize(
    "raw, unix",
    [
        ("2026-03-01T12:00:00Z", utc(2026, 3, 1, 12)),
        ("2026-03-01T14:00:00+02:00", utc(2026, 3, 1, 12)),
        ("2026-03-01T07:30:00-04:30", utc(2026, 3, 1, 12)),
        ("2026-03-01T12:00:00+00:00", utc(2026, 3, 1, 12)),
        ("2026-03-01T12:00:00-00:00", utc(2026, 3, 1, 12)),
        ("2026-03-01T00:30:00+01:00", utc(2026, 2, 28, 23, 30)),  # the day before, in UTC
        ("2026-12-31T23:00:00-05:00", utc(2027, 1, 1, 4)),  # the year after, in UTC
        ("2024-02-29T23:59:59Z", utc(2024, 2, 29, 23, 59, 59)),  # a leap day
        ("1970-01-01T00:00:00Z", 0),
        ("1970-01-01T00:00:00+23:59", -(23 * 3600 + 59 * 60)),
    ],
)
def test_timestamps_become_unix_seconds(raw, unix):
    value = AT.parse(raw)
    assert type(value) is int and value == unix


@pytest.mark.parametrize(
    "raw",
    [
        "2026-03-01T12:00:00",  # no offset
        "2026-03-01T12:00:00z",
        "2026-03-01t12:00:00Z",
        "2026-03-01 12:00:00Z",
        "2026-03-01T12:00:00.5Z",
        "2026-03-01T12:00:00.000Z",
        "2026-03-01T12:00Z",
        "2026-03-01",
        "2026-3-1T12:00:00Z",
        "2026-03-01T12:00:00+0200",
        "2026-03-01T12:00:00+02",
        "2026-03-01T12:00:00 02:00",  # a + that arrived unescaped as a space
        "2026-03-01T24:00:00Z",
        "2026-03-01T12:60:00Z",
        "2026-03-01T12:00:60Z",  # no leap seconds
        "2026-03-01T12:00:00+24:00",
        "2026-13-01T12:00:00Z",
        "2026-00-01T12:00:00Z",
        "2026-03-00T12:00:00Z",
        "20260301T120000Z",
        "1772366400",
        "earliest",  # a literal only where declared
        "",
    ],
)
def test_bad_timestamps(raw):
    refused(AT, raw)


@pytest.mark.parametrize("raw, whole", [
    ("2026-03-01T12:00:00.5Z", "2026-03-01T12:00:00Z"),
    ("2026-03-01T12:00:59.999999+02:00", "2026-03-01T12:00:59+02:00"),  # Python's datetime.now(tz).isoformat()
    ("2026-03-01T12:00:00.000Z", "2026-03-01T12:00:00Z"),  # JavaScript's toISOString()
])
def test_fractional_seconds_are_refused_with_the_value_to_send(raw, whole):
    message = refused(AT, raw).message
    assert message.endswith(f"; fractional seconds are not accepted: send {whole} (or the next whole second)")
    assert type(AT.parse(whole)) is int  # what it names is accepted


@pytest.mark.parametrize("raw", ["2026-02-30T00:00:00Z", "2025-02-29T00:00:00Z", "2026-04-31T00:00:00+02:00", "0000-01-01T00:00:00Z"])
def test_timestamps_are_calendar_dates(raw):
    assert refused(AT, raw).message.endswith(f"; {raw[:10]} is not a calendar date")


def test_timestamp_literals():
    assert FROM.parse("earliest") == "earliest"
    assert FROM.parse("2026-03-01T12:00:00Z") == utc(2026, 3, 1, 12)
    for raw in ("Earliest", "latest", ""):
        refused(FROM, raw)
    assert refused(FROM, "latest").message == (
        "from must be an ISO 8601 timestamp with whole seconds and UTC (Z) or an offset (+HH:MM or -HH:MM), "
        "e.g. 2026-03-01T12:00:00Z, or earliest"
    )
    assert ParamParser([Param("from", "timestamp", choices=("earliest",), default="earliest")]).parse("") == {"from": "earliest"}


def test_timestamp_schemas():
    plain = AT.json_schema()
    assert plain["type"] == "string" and plain["format"] == "date-time" and "pattern" in plain
    with_literal = FROM.json_schema()
    assert with_literal == {"type": "string", "anyOf": [{"format": "date-time", "pattern": plain["pattern"]}, {"enum": ["earliest"]}]}


# windows


def test_windows_keep_their_order_and_labels():
    assert WINDOWS.parse("24h,7d") == (Window("24h", 86400), Window("7d", 604800))
    assert WINDOWS.parse("7d,1h") == (Window("7d", 604800), Window("1h", 3600))
    assert WINDOWS.parse("1h") == (Window("1h", 3600),)
    assert WINDOWS.parse("366d") == (Window("366d", 366 * 86400),)
    assert WINDOWS.parse("8784h") == (Window("8784h", 366 * 86400),)
    assert WINDOWS.parse("1h,2h,3h,1d,2d,3d") == tuple(
        Window(label, seconds) for label, seconds in
        (("1h", 3600), ("2h", 7200), ("3h", 10800), ("1d", 86400), ("2d", 172800), ("3d", 259200))
    )
    window = WINDOWS.parse("24h")[0]
    assert window.label == "24h" and window.seconds == 86400 and isinstance(window, tuple)


def test_windows_default():
    assert ParamParser([WINDOWS]).parse("") == {"windows": (Window("24h", 86400), Window("7d", 604800))}
    assert WINDOWS.accepted().endswith("(default 24h,7d)") and WINDOWS.json_schema()["default"] == "24h,7d"
    assert WINDOWS.json_schema()["maxLength"] == 100


@pytest.mark.parametrize(
    "raw",
    [
        "", "0h", "0d", "01h", "024h", "367d", "8785h", "9999h", "1w", "1m", "60m", "1H", "1D", "24", "h", "d", "-1h",
        "+1h", "1.5h", "1.5d", " 24h", "24h ", "24h,", ",24h", "24h,,7d", "24h, 7d", "24h;7d", "1h,2h,3h,4h,5h,6h,7h",
        "1h," * 40 + "1d",  # over 100 characters
    ],
)
def test_bad_windows(raw):
    refused(WINDOWS, raw)


@pytest.mark.parametrize("raw, labels", [("24h,1d", ["24h", "1d"]), ("1h,1h", ["1h"]), ("7d,24h,7d", ["7d", "24h"])])
def test_a_window_given_twice_is_answered_once_and_each_label_of_one_length_under_its_own(raw, labels):
    assert [w.label for w in WINDOWS.parse(raw)] == labels


# string max_length


def test_string_max_length():
    assert Q.parse("x" * 100) == "x" * 100 and Q.parse("") == ""
    assert refused(Q, "x" * 101).message == "q must be a string of at most 100 characters"
    assert Q.json_schema() == {"type": "string", "maxLength": 100}
    cursor = Param("cursor", "string", max_length=8192)
    assert cursor.parse("a" * 8192) == "a" * 8192
    refused(cursor, "a" * 8193)
    patterned = Param("sym", "string", pattern="[a-z]+", max_length=3)
    assert patterned.parse("abc") == "abc"
    refused(patterned, "abcd")
    refused(patterned, "AB")
    assert patterned.json_schema() == {"type": "string", "pattern": "^(?:[a-z]+)$", "maxLength": 3}
    assert "at most 3 characters" in patterned.accepted()


def test_max_length_is_a_string_bound():
    with pytest.raises(ValueError):
        Param("n", "integer", max_length=3)
    with pytest.raises(ValueError):
        Param("q", "string", max_length=0)


# declarations


def test_bad_defaults_are_refused_at_declaration():
    for kind, default in (("windows", "24h,0d"), ("chain_ids", "0"), ("flag", "1"), ("decimal", "-1"), ("timestamp", "now")):
        with pytest.raises(ApiError):
            Param("p", kind, default=default)


def test_parsed_values_make_a_cache_key():
    parser = ParamParser([FLAG, CHAINS, AMOUNT, AT, FROM, WINDOWS, Q])
    values = parser.parse("onlyAlive=true&chainIds=56,1&minAmount=1.5&at=2026-03-01T12:00:00Z&from=earliest&windows=1h,30d&q=x")
    assert values == {
        "onlyAlive": True,
        "chainIds": (1, 56),
        "minAmount": Decimal("1.5"),
        "at": utc(2026, 3, 1, 12),
        "from": "earliest",
        "windows": (Window("1h", 3600), Window("30d", 30 * 86400)),
        "q": "x",
    }
    key = tuple(sorted(values.items()))
    assert hash(key) == hash(tuple(sorted(parser.parse("chainIds=1,56,56&onlyAlive=true&minAmount=1.5&at=2026-03-01T14:00:00%2B02:00&from=earliest&windows=1h,30d&q=x").items())))


def test_given_twice_is_still_refused():
    with pytest.raises(ApiError) as err:
        ParamParser([CHAINS]).parse("chainIds=1&chainIds=56")
    assert err.value.code == "invalid_chain_ids" and "at most once" in err.value.message


# the published schema against the parser


def parses(param: Param, raw: str) -> bool:
    try:
        param.parse(raw)
    except ApiError:
        return False
    return True


def schema_allows(param: Param, raw: str) -> bool:
    schema = param.json_schema()
    return re.fullmatch(schema["pattern"], raw) is not None and len(raw) <= schema.get("maxLength", len(raw))


SAMPLES = {
    CHAINS: [
        "all", "ALL", "all,1", "1,all", "", ",", "1", "9", "10", "56", "8453", "1,56", "56,1", "1,56,1", "1,1",
        "0", "00", "01", "-1", "+1", " 1", "1 ", "1,,2", "1,", ",1", "1.5", "1e3", "0x1", "999999999",
        "1000000000", "1999999999", "2000000000", "2147483646", "2147483647", "2147483648", "2147483650",
        "2200000000", "3000000000", "9999999999", "10000000000", ",".join(["1"] * 32), ",".join(["1"] * 33),
        ",".join(["2147483647"] * 32),
    ],
    AMOUNT: [
        "0", "00", "1", "01", "1.0", "1.00", "0.5", ".5", "5.", ".", "-1", "+1", "1e3", "1E3", "NaN", "inf",
        "1.2.3", "1,5", " 1", "1 ", "", "9" * 59, "9" * 60, "9" * 61, "1." + "9" * 29, "1." + "9" * 30,
        "1." + "9" * 31, "9" * 60 + "." + "9" * 30, "9" * 61 + "." + "9", "0.000", "123456789.123456789", "1_0",
        "\u0661", "0x1", "1..2", "1.-2", "12a", "a12", "1\n", "1.5\n",
    ],
    WINDOWS: [
        "1h", "24h", "7d", "24h,7d", "7d,24h", "1d,24h", "24h,1d", "1h,60h", "0h", "0d", "01h", "1h,", ",1h", "",
        "366d", "367d", "400d", "8784h", "8785h", "8800h", "9999h", "10000h", "1000d", "365d", "999h", "1000h",
        "1w", "1H", "h", "24", "-1h", "1.5h", "24h, 7d", "1h,2h,3h,4h,5h,6h", "1h,2h,3h,4h,5h,6h,7h",
        "1h,2d,3h,4d,5h,6d", "8784h,366d", "1h,1h", "24h;7d", "24h\n",
    ],
}


@pytest.mark.parametrize("param", [CHAINS, AMOUNT], ids=["chain_ids", "decimal"])
def test_schema_pattern_matches_exactly_what_parses(param):
    """Purely syntactic kinds (the chain ID range and the count are written into the pattern)."""
    for raw in SAMPLES[param]:
        assert schema_allows(param, raw) == parses(param, raw), raw


def test_windows_schema_is_the_parser():
    for raw in SAMPLES[WINDOWS]:
        assert schema_allows(WINDOWS, raw) == parses(WINDOWS, raw), raw
    for n in range(0, 10001):  # every count of hours and days around the bounds
        for unit in "hd":
            assert schema_allows(WINDOWS, f"{n}{unit}") == parses(WINDOWS, f"{n}{unit}"), f"{n}{unit}"


@pytest.mark.parametrize("limit", [1, 7, 9, 10, 36, 99, 100, 366, 1000, 8784])
def test_numbers_up_to(limit):
    from ve_analytics.api.param_kinds import numbers_up_to

    pattern = re.compile(f"(?:{numbers_up_to(limit)})")
    for n in range(0, 10001):
        assert (pattern.fullmatch(str(n)) is not None) == (1 <= n <= limit), n
        assert pattern.fullmatch(f"0{n}") is None


def test_chain_id_bounds_in_the_pattern():
    for n in (*range(0, 1001), 2147483000, *range(2147483600, 2147483700), 2**31, 2**32):
        assert schema_allows(CHAINS, str(n)) == parses(CHAINS, str(n)), n


TIMESTAMP_SAMPLES = [
    "2026-03-01T12:00:00Z", "2026-03-01T14:00:00+02:00", "2026-03-01T07:30:00-04:30", "2026-03-01T12:00:00-00:00",
    "2024-02-29T00:00:00Z", "1970-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "0001-01-01T00:00:00+23:59",
    "2026-03-01T23:59:59+23:59", "2026-03-01T12:00:00", "2026-03-01T12:00:00z", "2026-03-01 12:00:00Z",
    "2026-03-01t12:00:00Z", "2026-03-01T12:00:00.5Z", "2026-03-01T12:00Z", "2026-03-01", "2026-3-1T12:00:00Z",
    "2026-03-01T12:00:00+0200", "2026-03-01T12:00:00+02", "2026-03-01T24:00:00Z", "2026-03-01T12:60:00Z",
    "2026-03-01T12:00:60Z", "2026-03-01T12:00:00+24:00", "2026-13-01T12:00:00Z", "2026-00-01T12:00:00Z",
    "2026-03-00T12:00:00Z", "2026-03-32T12:00:00Z", "20260301T120000Z", "1772366400", "earliest", "",
    "2026-03-01T12:00:00Z\n", " 2026-03-01T12:00:00Z", "+2026-03-01T12:00:00Z", "12026-03-01T12:00:00Z",
    # the calendar, which the pattern knows too:
    "2026-02-30T00:00:00Z", "2026-02-29T00:00:00Z", "2100-02-29T00:00:00Z", "2026-04-31T00:00:00Z",
    "2026-06-31T00:00:00Z", "0000-01-01T00:00:00Z", "2000-02-29T00:00:00Z", "0004-02-29T00:00:00Z",
    "0400-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-12-31T00:00:00Z", "2026-11-31T00:00:00Z",
]


def test_timestamp_schema_allows_exactly_what_parses():
    for raw in TIMESTAMP_SAMPLES:
        assert schema_allows(AT, raw) == parses(AT, raw), raw
    for year in (*range(1, 30), *range(1896, 1905), *range(1996, 2105), *range(2396, 2405), *range(9990, 10000)):
        for month in range(0, 14):
            for day in range(0, 33):
                raw = f"{year:04d}-{month:02d}-{day:02d}T00:00:00Z"
                assert schema_allows(AT, raw) == parses(AT, raw), raw
    literal_schema = FROM.json_schema()["anyOf"]
    assert schema_allows(AT, "2026-03-01T12:00:00Z") and literal_schema[1]["enum"] == list(FROM.choices)


def test_flag_schema_enum_is_what_parses():
    for raw in ("true", "false", "True", "1", "0", "", "yes"):
        assert (raw in FLAG.json_schema()["enum"]) == parses(FLAG, raw)


def test_schema_patterns_are_portable():
    """OpenAPI patterns are ECMA 262: no Python-only syntax (named groups, \\A, \\Z)."""
    for param in (CHAINS, AMOUNT, AT, WINDOWS):
        pattern = param.json_schema()["pattern"]
        assert pattern.startswith("^(?:") and pattern.endswith(")$")
        assert "(?P" not in pattern and "\\A" not in pattern and "\\Z" not in pattern


def test_choices_belong_to_enums_and_timestamps():
    with pytest.raises(ValueError):
        Param("chainIds", "chain_ids", choices=("every",))
    assert Param("to", "timestamp", choices=("latest", "now")).accepted().endswith(", or one of latest, now")
