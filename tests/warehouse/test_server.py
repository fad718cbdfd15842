"""The embedded warehouse server through clickhouse-connect (and raw HTTP, as an analyst's curl)."""
from __future__ import annotations

import base64
import gzip
import json
import random
import threading
from datetime import UTC, datetime
from decimal import Decimal

import pyarrow as pa
import pytest
import urllib3
from clickhouse_connect.driver.exceptions import DatabaseError

from ve_analytics.warehouse.client import ANALYST, get_client

RW_USER, RW_PASSWORD = "writer", "w-secret"  # as configured by conftest.make_settings
ANALYST_USER, ANALYST_PASSWORD = "analyst", "a-secret"


@pytest.fixture(scope="module")
def client(wh):
    admin = get_client(wh.settings, database=None)
    admin.command(f"CREATE DATABASE IF NOT EXISTS {wh.settings.clickhouse_database}")
    admin.close()
    c = get_client(wh.settings)
    yield c
    c.close()


@pytest.fixture(scope="module")
def http():
    return urllib3.PoolManager(retries=False)


def _auth(user: str = RW_USER, password: str = RW_PASSWORD) -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()}


def test_ping_and_root(wh, http):
    for path in ("/ping", "/"):
        r = http.request("GET", wh.server.url + path)
        assert r.status == 200 and r.data == b"Ok.\n"


def test_server_side_parameters_cannot_inject(client):
    client.command("CREATE TABLE IF NOT EXISTS victims (name String) ENGINE = MergeTree ORDER BY name")
    client.command("TRUNCATE TABLE victims")
    client.insert("victims", [["alice"], ["bob"]], column_names=["name"])
    evil = "x' OR 1=1; DROP TABLE victims; --\t\\ \n\"`{y:String}` é"
    rows = client.query(
        "SELECT {s:String} AS s, count() FROM victims WHERE name = {s:String}", parameters={"s": evil}
    ).result_rows
    assert rows == [(evil, 0)]  # the value came back byte for byte and matched nothing
    assert client.query("SELECT {n:UInt32} + 1", parameters={"n": 41}).result_rows == [(42,)]
    assert client.command("SELECT count() FROM victims") == 2
    # A value that is not of the declared type is the engine's BAD_QUERY_PARAMETER, not SQL.
    with pytest.raises(DatabaseError) as err:
        client.query("SELECT {n:UInt8}", parameters={"n": "1; DROP TABLE victims"})
    assert err.value.code == 457
    assert client.command("SELECT count() FROM victims") == 2


def test_native_insert_100k_rows_and_read_back(client):
    client.command(
        """CREATE TABLE IF NOT EXISTS native_rows (
               id UInt64, name String, kind LowCardinality(String), price Float64,
               amount Decimal(38, 18), maybe Nullable(Int32), at DateTime64(3, 'UTC'), tags Array(String)
           ) ENGINE = MergeTree ORDER BY id"""
    )
    client.command("TRUNCATE TABLE native_rows")
    n = 100_000
    base = datetime(2024, 1, 4, tzinfo=UTC).timestamp()
    rows = [
        [
            i,
            f"name-{i}",
            ("v2", "stable", "cl")[i % 3],
            i * 0.5,
            Decimal(i) / Decimal(1000),
            None if i % 7 == 0 else i - 50_000,
            datetime.fromtimestamp(base + i, tz=UTC),
            [f"t{i % 5}"] * (i % 3),
        ]
        for i in range(n)
    ]
    cols = ["id", "name", "kind", "price", "amount", "maybe", "at", "tags"]
    summary = client.insert("native_rows", rows, column_names=cols)
    assert summary.written_rows == n
    agg = client.query(
        "SELECT count(), sum(id), uniqExact(name), sum(price), sum(amount), countIf(maybe IS NULL), "
        "min(at), max(at), sum(length(tags)) FROM native_rows"
    ).result_rows[0]
    assert agg[0] == n and agg[1] == n * (n - 1) // 2 and agg[2] == n
    assert agg[3] == pytest.approx(sum(i * 0.5 for i in range(n)))
    assert agg[4] == sum(Decimal(i) / Decimal(1000) for i in range(n))
    assert agg[5] == len(range(0, n, 7))
    assert agg[6].replace(tzinfo=UTC).timestamp() == base
    assert agg[7].replace(tzinfo=UTC).timestamp() == base + n - 1
    assert agg[8] == sum(i % 3 for i in range(n))
    back = client.query("SELECT * FROM native_rows WHERE id IN (0, 1, 99999) ORDER BY id").result_rows
    for got, i in zip(back, (0, 1, 99999)):
        want = rows[i]
        assert list(got[:6]) == want[:6]
        assert got[6].replace(tzinfo=UTC) == want[6] and got[7] == want[7]
    df = client.query_df("SELECT id, kind FROM native_rows ORDER BY id LIMIT 3")
    assert df["kind"].tolist() == ["v2", "stable", "cl"]


@pytest.mark.parametrize("compress", [False, "zstd", "gzip", "lz4"])
def test_insert_with_each_body_encoding(wh, compress):
    c = get_client(wh.settings, compress=compress)
    table = f"enc_{compress or 'none'}"
    c.command(f"CREATE TABLE IF NOT EXISTS {table} (a UInt32, s String) ENGINE = MergeTree ORDER BY a")
    c.command(f"TRUNCATE TABLE {table}")
    c.insert(table, [[i, "x" * (i % 50)] for i in range(20_000)], column_names=["a", "s"])
    assert c.query(f"SELECT count(), sum(a), sum(length(s)) FROM {table}").result_rows == [
        (20_000, sum(range(20_000)), sum(i % 50 for i in range(20_000)))
    ]
    c.close()


def test_insert_arrow_and_query_arrow(client):
    client.command(
        "CREATE TABLE IF NOT EXISTS arrow_rows (id UInt32, sym String, px Float64, at DateTime64(3, 'UTC')) "
        "ENGINE = MergeTree ORDER BY id"
    )
    client.command("TRUNCATE TABLE arrow_rows")
    n = 50_000
    table = pa.table(
        {
            "id": pa.array(range(n), pa.uint32()),
            "sym": pa.array([f"T{i % 97}" for i in range(n)], pa.string()),
            "px": pa.array([i / 8 for i in range(n)], pa.float64()),
            "at": pa.array([1_700_000_000_000 + i for i in range(n)], pa.timestamp("ms", tz="UTC")),
        }
    )
    client.insert_arrow("arrow_rows", table)
    back = client.query_arrow("SELECT id, sym, px, at FROM arrow_rows ORDER BY id")
    assert back.num_rows == n
    assert back.column("id").to_pylist() == table.column("id").to_pylist()
    assert back.column("sym").to_pylist() == table.column("sym").to_pylist()
    assert back.column("px").to_pylist() == table.column("px").to_pylist()
    assert back.column("at").cast(pa.int64()).to_pylist() == table.column("at").cast(pa.int64()).to_pylist()


def test_errors_surface_with_clickhouse_code(client, wh, http):
    with pytest.raises(DatabaseError) as err:
        client.query("SELECT * FROM no_such_table")
    assert err.value.code == 60 and "UNKNOWN_TABLE" in str(err.value)
    with pytest.raises(DatabaseError) as err:
        client.command("SELEC 1")
    assert err.value.code == 62
    r = http.request("POST", wh.server.url + "/?database=nope_db", body=b"SELECT 1", headers=_auth())
    assert r.status == 404 and r.headers["X-ClickHouse-Exception-Code"] == "81"
    assert r.data.startswith(b"Code: 81. DB::Exception:") and b"(UNKNOWN_DATABASE)" in r.data


def test_multi_statements_are_rejected(client):
    with pytest.raises(DatabaseError) as err:
        client.command("SELECT 1; DROP TABLE IF EXISTS victims")
    assert err.value.code == 62 and "Multi-statements" in str(err.value)
    assert client.command("SELECT 'a;b'") == "a;b"


def test_settings_apply_per_request_and_do_not_leak(client):
    with pytest.raises(DatabaseError) as err:
        client.query("SELECT number FROM numbers(100)", settings={"max_result_rows": 10, "result_overflow_mode": "throw"})
    assert err.value.code == 396  # TOO_MANY_ROWS_OR_BYTES
    for _ in range(5):  # whichever pooled connection serves it, the settings are gone
        assert len(client.query("SELECT number FROM numbers(100)").result_rows) == 100
    # Statements that change session state do not leak into later requests either.
    client.command("SET max_result_rows = 1, result_overflow_mode = 'throw'")
    client.command("USE system")
    for _ in range(5):
        assert client.command("SELECT currentDatabase()") == client.database
        assert len(client.query("SELECT number FROM numbers(10)").result_rows) == 10
    with pytest.raises(DatabaseError) as err:
        client.query("SELECT 1", settings={"no_such_setting_xyz": 1})
    assert err.value.code == 115


def test_analyst_is_read_only_and_can_select(wh, client, http):
    client.command("CREATE TABLE IF NOT EXISTS facts (k UInt32) ENGINE = MergeTree ORDER BY k")
    client.command("TRUNCATE TABLE facts")
    client.insert("facts", [[1], [2], [3]], column_names=["k"])
    analyst = get_client(wh.settings, user=ANALYST)
    assert analyst.query("SELECT sum(k) FROM facts WHERE k > {m:UInt32}", parameters={"m": 1}).result_rows == [(5,)]
    assert analyst.query_arrow("SELECT k FROM facts ORDER BY k").column("k").to_pylist() == [1, 2, 3]
    for statement in ("INSERT INTO facts VALUES (4)", "DROP TABLE facts", "TRUNCATE TABLE facts", "CREATE TABLE x (a UInt8) ENGINE = Memory"):
        with pytest.raises(DatabaseError) as err:
            analyst.command(statement)
        assert err.value.code == 164, statement
    with pytest.raises(DatabaseError) as err:
        analyst.insert("facts", [[5]], column_names=["k"])
    assert err.value.code == 164
    # The analyst cannot lift the restriction with a setting either.
    r = http.request(
        "POST", wh.server.url + "/?readonly=0", body=b"INSERT INTO facts VALUES (6)", headers=_auth(ANALYST_USER, ANALYST_PASSWORD)
    )
    assert r.status == 500 and r.headers["X-ClickHouse-Exception-Code"] == "164"
    assert client.query("SELECT groupArray(k) FROM (SELECT k FROM facts ORDER BY k)").result_rows == [([1, 2, 3],)]
    analyst.close()


def test_bad_credentials_are_rejected(wh, http):
    import dataclasses

    for user, password in ((RW_USER, "wrong"), ("nobody", RW_PASSWORD), (ANALYST_USER, RW_PASSWORD)):
        bad = dataclasses.replace(wh.settings, clickhouse_user=user, clickhouse_password=password)
        with pytest.raises(DatabaseError) as err:
            get_client(bad)
        assert err.value.code == 516 and "AUTHENTICATION_FAILED" in str(err.value)
    r = http.request("POST", wh.server.url + "/", body=b"SELECT 1")  # anonymous = user 'default'
    assert r.status == 403 and r.headers["X-ClickHouse-Exception-Code"] == "516"
    r = http.request("GET", wh.server.url + f"/?user={RW_USER}&password={RW_PASSWORD}&query=SELECT%2042")
    assert r.status == 200 and r.data == b"42\n"
    r = http.request("GET", wh.server.url + "/?query=SELECT%2043", headers={"X-ClickHouse-User": ANALYST_USER, "X-ClickHouse-Key": ANALYST_PASSWORD})
    assert r.status == 200 and r.data == b"43\n"


def test_formats_for_curl(wh, http):
    url = wh.server.url + "/?database=" + wh.settings.clickhouse_database
    sql = b"SELECT number AS n, toString(number) AS s FROM numbers(3)"
    r = http.request("POST", url, body=sql, headers=_auth())
    assert r.data == b"0\t0\n1\t1\n2\t2\n" and r.headers["X-ClickHouse-Format"] == "TabSeparated"
    r = http.request("POST", url, body=sql + b" FORMAT JSONEachRow", headers=_auth())
    assert [json.loads(line) for line in r.data.splitlines()] == [{"n": i, "s": str(i)} for i in range(3)]
    assert r.headers["X-ClickHouse-Format"] == "JSONEachRow"
    r = http.request("POST", url + "&default_format=JSON&param_lim=2", body=sql + b" LIMIT {lim:UInt8}", headers=_auth())
    doc = json.loads(r.data)
    assert doc["rows"] == 2 and doc["meta"][0] == {"name": "n", "type": "UInt64"}
    summary = json.loads(r.headers["X-ClickHouse-Summary"])
    assert summary["result_rows"] == "2" and r.headers["X-ClickHouse-Timezone"] and r.headers["X-ClickHouse-Query-Id"]
    # Query in the URL, data in the body (the documented curl form), chunked and gzip-compressed.
    ddl = b"CREATE TABLE IF NOT EXISTS curl_rows (a UInt32, s String) ENGINE = MergeTree ORDER BY a"
    assert http.request("POST", url, body=ddl, headers=_auth()).status == 200
    payload = gzip.compress(b"".join(json.dumps({"a": i, "s": f"r{i}"}).encode() + b"\n" for i in range(1000)))
    pieces = [payload[i : i + 700] for i in range(0, len(payload), 700)]
    r = http.request(
        "POST",
        url + "&query=" + "INSERT%20INTO%20curl_rows%20FORMAT%20JSONEachRow",
        body=iter(pieces),
        chunked=True,
        headers={**_auth(), "Content-Encoding": "gzip"},
    )
    assert r.status == 200, r.data
    assert json.loads(r.headers["X-ClickHouse-Summary"])["written_rows"] == "1000"
    r = http.request("GET", url + "&query=SELECT%20count(),%20sum(a)%20FROM%20curl_rows", headers=_auth())
    assert r.data == f"1000\t{sum(range(1000))}\n".encode()
    # GET is read-only, as in ClickHouse.
    r = http.request("GET", url + "&query=" + "TRUNCATE%20TABLE%20curl_rows", headers=_auth())
    assert r.headers["X-ClickHouse-Exception-Code"] == "164"


def test_concurrent_inserts_and_queries(wh, client):
    client.command("CREATE TABLE IF NOT EXISTS conc (worker UInt8, seq UInt32, v UInt64) ENGINE = MergeTree ORDER BY (worker, seq)")
    client.command("TRUNCATE TABLE conc")
    workers, batches, batch = 4, 12, 5_000
    errors: list[BaseException] = []
    seen_counts: list[int] = []

    def run(worker: int) -> None:
        c = get_client(wh.settings)
        rnd = random.Random(worker)
        try:
            for b in range(batches):
                rows = [[worker, b * batch + i, worker * 10**9 + b * batch + i] for i in range(batch)]
                c.insert("conc", rows, column_names=["worker", "seq", "v"])
                n = c.command("SELECT count() FROM conc WHERE worker = {w:UInt8}", parameters={"w": worker})
                assert n == (b + 1) * batch  # read-your-writes, exact, while others insert
                seen_counts.append(c.command("SELECT count() FROM conc"))
                k = rnd.randrange((b + 1) * batch)
                assert c.query(
                    "SELECT v FROM conc WHERE worker = {w:UInt8} AND seq = {k:UInt32}", parameters={"w": worker, "k": k}
                ).result_rows == [(worker * 10**9 + k,)]
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            c.close()

    threads = [threading.Thread(target=run, args=(w,)) for w in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    total = workers * batches * batch
    assert client.query("SELECT count(), uniqExact(worker, seq), sum(v) FROM conc").result_rows == [
        (total, total, sum(w * 10**9 * batches * batch + sum(range(batches * batch)) for w in range(workers)))
    ]
    assert max(seen_counts) <= total


def test_response_compression_when_enabled(wh):
    """A second server on the same data directory, compressing responses the client asks for."""
    import dataclasses

    from ve_analytics.warehouse.server import WarehouseServer

    second = WarehouseServer(wh.settings, port=0, data_dir=wh.data_dir, compress_responses=True).start()
    try:
        settings = dataclasses.replace(wh.settings, clickhouse_url=second.url)
        for compress in ("lz4", "zstd", "gzip", True):
            c = get_client(settings, compress=compress)
            assert c.query("SELECT sum(number) FROM numbers(100000)").result_rows == [(4999950000,)]
            assert c.query_arrow("SELECT toString(number) AS s FROM numbers(5000)").num_rows == 5000
            c.close()
    finally:
        second.stop()


def test_persistence_across_restart(wh, client):
    client.command("CREATE TABLE IF NOT EXISTS durable (k UInt32, s String) ENGINE = MergeTree ORDER BY k")
    client.command("TRUNCATE TABLE durable")
    client.insert("durable", [[i, f"s{i}"] for i in range(1234)], column_names=["k", "s"])
    wh.restart()
    c = get_client(wh.settings)
    assert c.query("SELECT count(), sum(k) FROM durable").result_rows == [(1234, sum(range(1234)))]
    c.close()


def test_bad_insert_data_fails_cleanly_and_keep_alive_survives(wh, client, http):
    client.command("CREATE TABLE IF NOT EXISTS strict_rows (k UInt32) ENGINE = MergeTree ORDER BY k")
    client.command("TRUNCATE TABLE strict_rows")
    url = wh.server.url + "/?database=" + wh.settings.clickhouse_database + "&query="
    pool = urllib3.HTTPConnectionPool("127.0.0.1", wh.server.port, maxsize=1, retries=False)
    bad = b'{"k": 1}\n{"k": "not a number"}\n'
    r = pool.request("POST", url + "INSERT%20INTO%20strict_rows%20FORMAT%20JSONEachRow", body=bad, headers=_auth())
    assert r.status >= 400 and int(r.headers["X-ClickHouse-Exception-Code"]) > 0
    # a large chunked body for a table that does not exist: refused, drained, connection reusable
    big = (b'{"k": 1}\n' * 20_000 for _ in range(10))
    r = pool.request("POST", url + "INSERT%20INTO%20nope_rows%20FORMAT%20JSONEachRow", body=big, chunked=True, headers=_auth())
    assert r.status == 404 and r.headers["X-ClickHouse-Exception-Code"] == "60"
    r = pool.request("POST", url.rstrip("&query="), body=b"SELECT count() FROM strict_rows", headers=_auth())
    assert r.status == 200 and r.data == b"0\n"
    assert pool.num_connections == 1  # the same keep-alive connection served all three
    pool.close()


def test_empty_results(client):
    assert client.query("SELECT number FROM numbers(10) WHERE number > 100").result_rows == []
    assert client.query_df("SELECT number FROM numbers(10) WHERE number > 100").empty
    assert client.query_arrow("SELECT number FROM numbers(10) WHERE number > 100").num_rows == 0
    assert client.command("SELECT number FROM numbers(10) WHERE number > 100") == ""
