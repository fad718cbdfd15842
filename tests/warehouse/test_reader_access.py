"""Only the read-write user reaches outside the warehouse (warehouse/access.py), over real HTTP to
the embedded server (conftest): the analyst (readonly=1) and the API's reader (readonly=2), whom
the engine's read-only levels would let read any local file through file(), get ACCESS_DENIED
for every table function and scalar that reads files or the network, however it is spelled, and
for INTO OUTFILE; their ordinary queries, the API's route files included, still run."""
from __future__ import annotations

import base64
import dataclasses
from pathlib import Path
from urllib.parse import urlencode

import pytest
import urllib3

from ve_analytics.warehouse import sqlbook
from ve_analytics.warehouse.client import API, get_client
from ve_analytics.warehouse.migrate import migrate

HOSTNAME = "/etc/hostname"
LINES = f"'{HOSTNAME}', 'LineAsString'"
HTTP = urllib3.PoolManager(retries=False, timeout=urllib3.Timeout(total=60))

REACHING_OUT = [  # (statement, the function the refusal names)
    (f"SELECT * FROM file({LINES})", "file"),
    (f"SELECT file('{HOSTNAME}')", "file"),  # the scalar
    (f"SELECT * FROM FILE ({LINES})", "FILE"),
    (f"SELECT * FROM `file`({LINES})", "file"),
    (f"SELECT * FROM file/**/({LINES})", "file"),
    (f"SELECT * FROM file -- a comment\n({LINES})", "file"),
    (f"SELECT * FROM `fi\\x6ce`({LINES})", "file"),  # an escape inside a backquoted name
    (f"SELECT 1 WHERE 1 IN (SELECT count() FROM file({LINES}))", "file"),
    (f"DESCRIBE file({LINES})", "file"),
    (f"SELECT * FROM file({LINES}) FORMAT JSONEachRow", "file"),
    ("SELECT * FROM filesystem('/etc') LIMIT 1", "filesystem"),
    ("SELECT * FROM url('http://127.0.0.1:9/x.csv', 'CSV', 'a String')", "url"),
    ("SELECT * FROM remote('127.0.0.1:9', system.one)", "remote"),
    ("SELECT * FROM s3('http://127.0.0.1:9/bucket/k.csv', 'CSV', 'a String')", "s3"),
    ("SELECT * FROM mysql('127.0.0.1:9', 'db', 't', 'u', 'p')", "mysql"),
]


def post(wh, user: tuple[str, str], sql: str, params: dict | None = None, method: str = "POST"):
    auth = base64.b64encode(f"{user[0]}:{user[1]}".encode()).decode()
    query = {**(params or {}), **({"query": sql} if method == "GET" else {})}
    url = f"{wh.settings.clickhouse_url}/?{urlencode(query)}"
    return HTTP.request(method, url, body=None if method == "GET" else sql.encode(),
                        headers={"Authorization": f"Basic {auth}"})


def readers(wh) -> dict[str, tuple[str, str]]:
    s = wh.settings
    return {"analyst": (s.analyst_user, s.analyst_password), "api": (s.api_reader_user, s.api_reader_password)}


def writer(wh) -> tuple[str, str]:
    return wh.settings.clickhouse_user, wh.settings.clickhouse_password


def test_the_read_write_user_may_read_a_file(wh):
    r = post(wh, writer(wh), f"SELECT * FROM file({LINES})")
    assert r.status == 200 and r.data.decode() == Path(HOSTNAME).read_text()
    r = post(wh, writer(wh), f"SELECT file('{HOSTNAME}') FORMAT TSVRaw")
    assert r.status == 200 and r.data.decode().rstrip("\n") == Path(HOSTNAME).read_text().rstrip("\n")


@pytest.mark.parametrize("reader", ["analyst", "api"])
@pytest.mark.parametrize("sql, function", REACHING_OUT)
def test_readers_cannot_reach_outside(wh, reader, sql, function):
    name = readers(wh)[reader][0]
    r = post(wh, readers(wh)[reader], sql)
    assert r.status == 403 and r.headers["X-ClickHouse-Exception-Code"] == "497", r.data[:300]
    assert r.data.startswith(f"Code: 497. DB::Exception: {name}: Not enough privileges. The function {function}()".encode())
    assert Path(HOSTNAME).read_bytes().strip() not in r.data


@pytest.mark.parametrize("reader", ["analyst", "api"])
def test_readers_cannot_write_a_file(wh, reader, tmp_path):
    target = tmp_path / "out.tsv"
    r = post(wh, readers(wh)[reader], f"SELECT 42 INTO   /* x */ OUTFILE '{target}'")
    assert r.status == 403 and r.headers["X-ClickHouse-Exception-Code"] == "497" and b"INTO OUTFILE" in r.data
    assert not target.exists()


def test_the_query_string_and_parameters_change_nothing(wh):
    """A GET with the statement in the URL (the API reader's readonly=2 path), a bound file name."""
    api = readers(wh)["api"]
    r = post(wh, api, f"SELECT * FROM file({LINES})", method="GET")
    assert r.status == 403 and r.headers["X-ClickHouse-Exception-Code"] == "497"
    r = post(wh, api, "SELECT file({p:String})", {"param_p": HOSTNAME})
    assert r.status == 403 and b"The function file()" in r.data
    # a statement that does not parse says why, at its own positions
    r = post(wh, api, "SELECT file(")
    assert r.status == 400 and r.headers["X-ClickHouse-Exception-Code"] == "62"
    assert b"position 12" in r.data and b"EXPLAIN" not in r.data


@pytest.mark.parametrize("reader", ["analyst", "api"])
def test_readers_ordinary_queries_still_run(wh, reader):
    user = readers(wh)[reader]
    for sql, expected in [
        ("SELECT sum(number) FROM numbers(10)", b"45\n"),
        ("SELECT count() FROM numbers_mt(5)", b"5\n"),
        ("SELECT * FROM values('a UInt8', 1, 2)", b"1\n2\n"),
        ("SELECT 'file(' || 'url' AS profile_url", b"file(url\n"),  # names in text, not calls
        ("SELECT count() FROM (SELECT a FROM generateRandom('a UInt8') LIMIT 3)", b"3\n"),
    ]:
        r = post(wh, user, sql)
        assert r.status == 200, (sql, r.data[:300])
        assert r.data == expected, sql


@pytest.fixture(scope="module")
def api_settings(wh):
    settings = dataclasses.replace(wh.settings, clickhouse_database="reader_access")
    migrate(settings)
    return settings


def test_the_apis_route_files_run_as_its_reader(api_settings):
    """Route files whose text names a refused function in a comment or a word (stats/core.sql:
    'input', vaults/gauge_aprs.sql) are parsed, found harmless and run; so does the rest."""
    with get_client(api_settings, user=API) as client:
        for path, params in [("stats/latest_snapshot.sql", {"chain_id": 56}),
                             ("stats/core.sql", {"chain_id": 56, "snapshot_at": "2026-01-01 00:00:00"}),
                             ("vaults/gauge_aprs.sql", {"chain_id": 56})]:
            sql = sqlbook.sql(f"queries/{path}").text
            assert client.query(sql, parameters=params).result_rows == [], path


@pytest.mark.parametrize("setting", ["format_schema", "FORMAT_TEMPLATE_ROW", "format_template_resultset",
                                     "output_format_schema", "input_format_record_errors_file_path"])
def test_readers_cannot_name_a_file_in_a_setting(wh, setting, tmp_path):
    target = tmp_path / "schema.proto"
    r = post(wh, readers(wh)["api"], "SELECT 1", {setting: str(target)})
    assert r.status == 403 and r.headers["X-ClickHouse-Exception-Code"] == "497", r.data[:300]
    assert f"The setting {setting} (a file path)".encode() in r.data
    assert not target.exists()
    # an output setting, what readonly = 2 is for, still applies
    r = post(wh, readers(wh)["api"], "SELECT toUInt64(1) AS n FORMAT JSONEachRow",
             {"output_format_json_quote_64bit_integers": "1"})
    assert r.status == 200 and r.data == b'{"n":"1"}\n'
