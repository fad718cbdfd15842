"""The analyst's limits on a real embedded warehouse (`ve-analytics warehouse` in its own process,
small limits from its environment): each limit is ClickHouse's own error through clickhouse-connect
and raw HTTP, no way of lifting one works, the read-write user is not limited, concurrency past
the limit is code 202, and the server keeps answering afterwards."""
from __future__ import annotations

import base64
import threading
import time
from pathlib import Path

import clickhouse_connect
import pytest
import urllib3
from clickhouse_connect.driver.exceptions import DatabaseError, ProgrammingError

from ve_analytics.cli.processes import Service, cli, free_port

RW = ("writer", "w-secret")
ANALYST = ("analyst", "a-secret")
LIMITS = {
    "ANALYST_MAX_EXECUTION_SECONDS": "1",
    "ANALYST_MAX_MEMORY_BYTES": str(32 << 20),
    "ANALYST_MAX_RESULT_ROWS": "10000",  # clickhouse-connect reads system.settings (~1,900 rows) on connect
    "ANALYST_MAX_CONCURRENT_QUERIES": "2",
    "ANALYST_MAX_THREADS": "1",
    "ANALYST_OS_THREAD_PRIORITY": "19",
}
BIG_GROUP_BY = "SELECT number % 1000000 AS k, count() FROM numbers(200000000) GROUP BY k"
ENDLESS = "SELECT count() FROM system.numbers WHERE NOT ignore(sipHash64(number))"
TOO_MANY_ROWS = "SELECT number FROM numbers(20000)"
READONLY, TIMEOUT_EXCEEDED, MEMORY_LIMIT_EXCEEDED, TOO_MANY_ROWS_OR_BYTES, TOO_MANY_SIMULTANEOUS = 164, 159, 241, 396, 202


class Warehouse:
    def __init__(self, service: Service, port: int):
        self.service = service
        self.url = f"http://127.0.0.1:{port}"
        self.port = port
        self.http = urllib3.PoolManager(retries=False, timeout=urllib3.Timeout(total=60))

    def client(self, user: tuple[str, str]):
        return clickhouse_connect.get_client(
            host="127.0.0.1", port=self.port, username=user[0], password=user[1],
            autogenerate_session_id=False, send_receive_timeout=60,
        )

    def post(self, sql: str, user: tuple[str, str] = ANALYST, query: str = "") -> urllib3.BaseHTTPResponse:
        auth = base64.b64encode(f"{user[0]}:{user[1]}".encode()).decode()
        return self.http.request("POST", f"{self.url}/{query}", body=sql.encode(), headers={"Authorization": f"Basic {auth}"})


@pytest.fixture(scope="module")
def wh(tmp_path_factory):
    data: Path = tmp_path_factory.mktemp("analyst-limits")
    port = free_port()
    env = {
        "CLICKHOUSE_USER": RW[0], "CLICKHOUSE_PASSWORD": RW[1],
        "CLICKHOUSE_ANALYST_USER": ANALYST[0], "CLICKHOUSE_ANALYST_PASSWORD": ANALYST[1],
        "LOG_LEVEL": "WARNING", **LIMITS,
    }
    argv = cli("warehouse", "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(data))
    service = Service("warehouse", argv, f"http://127.0.0.1:{port}/ping", env, data / "warehouse.log").start(120)
    try:
        yield Warehouse(service, port)
    finally:
        service.stop()


@pytest.fixture(scope="module")
def analyst(wh):
    c = wh.client(ANALYST)
    yield c
    c.close()


@pytest.fixture(scope="module")
def writer(wh):
    c = wh.client(RW)
    yield c
    c.close()


def _code(excinfo: pytest.ExceptionInfo[DatabaseError]) -> int:
    return int(excinfo.value.code)


def test_analyst_session_carries_the_operator_limits(analyst, writer):
    names = ("max_execution_time", "max_memory_usage", "max_result_rows", "max_threads", "os_thread_priority", "readonly")
    sql = "SELECT " + ", ".join(f"toString(getSetting('{n}'))" for n in names)
    assert analyst.query(sql).first_row == ("1", str(32 << 20), "10000", "1", "19", "1")
    assert writer.query(sql).first_row[:3] == ("0", "0", "0")


def test_timeout_is_timeout_exceeded_with_http_408(wh, analyst):
    t0 = time.monotonic()
    with pytest.raises(DatabaseError) as err:
        analyst.query(ENDLESS)
    assert _code(err) == TIMEOUT_EXCEEDED and "TIMEOUT_EXCEEDED" in str(err.value)
    assert time.monotonic() - t0 < 10  # the engine stopped it, not a client timeout
    r = wh.post(ENDLESS)
    assert r.status == 408 and r.headers["X-ClickHouse-Exception-Code"] == "159"
    assert r.data.startswith(b"Code: 159. DB::Exception: Timeout exceeded")


def test_memory_is_memory_limit_exceeded(wh, analyst):
    with pytest.raises(DatabaseError) as err:
        analyst.query(BIG_GROUP_BY)
    assert _code(err) == MEMORY_LIMIT_EXCEEDED and "MEMORY_LIMIT_EXCEEDED" in str(err.value)
    r = wh.post(BIG_GROUP_BY)
    assert r.status == 500 and r.headers["X-ClickHouse-Exception-Code"] == "241"


def test_result_rows_is_too_many_rows(wh, analyst):
    assert len(analyst.query("SELECT number FROM numbers(10000)").result_rows) == 10000
    with pytest.raises(DatabaseError) as err:
        analyst.query(TOO_MANY_ROWS)
    assert _code(err) == TOO_MANY_ROWS_OR_BYTES and "TOO_MANY_ROWS_OR_BYTES" in str(err.value)
    with pytest.raises(DatabaseError) as err:  # an unbounded source is stopped by the limit too
        analyst.query("SELECT number FROM system.numbers")
    assert _code(err) == TOO_MANY_ROWS_OR_BYTES
    r = wh.post(TOO_MANY_ROWS)
    assert r.status == 500 and r.headers["X-ClickHouse-Exception-Code"] == "396"


@pytest.mark.parametrize(
    "how, sql, query",
    [
        ("URL setting", TOO_MANY_ROWS, "?max_result_rows=0"),
        ("URL overflow mode", TOO_MANY_ROWS, "?result_overflow_mode=break"),
        ("URL time", ENDLESS, "?max_execution_time=0"),
        ("URL memory", BIG_GROUP_BY, "?max_memory_usage=0"),
        ("URL threads", "SELECT 1", "?max_threads=8"),
        ("URL priority", "SELECT 1", "?os_thread_priority=0"),
        ("URL readonly", TOO_MANY_ROWS, "?readonly=0&max_result_rows=0"),
        ("SETTINGS clause", TOO_MANY_ROWS + " SETTINGS max_result_rows = 0", ""),
        ("SETTINGS time", ENDLESS + " SETTINGS max_execution_time = 0", ""),
        ("SETTINGS memory", BIG_GROUP_BY + " SETTINGS max_memory_usage = 0", ""),
        ("SET", "SET max_result_rows = 0", ""),
        ("SET readonly", "SET readonly = 0", ""),
    ],
)
def test_no_way_of_lifting_a_limit_works(wh, how, sql, query):
    t0 = time.monotonic()
    r = wh.post(sql, query=query)
    assert r.status == 500 and r.headers["X-ClickHouse-Exception-Code"] == str(READONLY), (how, r.status, r.data[:300])
    assert b"(READONLY)" in r.data and b"readonly mode" in r.data, how
    assert time.monotonic() - t0 < 5, how  # refused up front, not after running


@pytest.mark.parametrize(
    "sql, code",
    [
        (f"SELECT * FROM ({TOO_MANY_ROWS} SETTINGS max_result_rows = 0)", TOO_MANY_ROWS_OR_BYTES),
        (f"WITH x AS ({TOO_MANY_ROWS} SETTINGS max_result_rows = 0) SELECT * FROM x", TOO_MANY_ROWS_OR_BYTES),
        (f"SELECT count() FROM ({BIG_GROUP_BY} SETTINGS max_memory_usage = 0)", MEMORY_LIMIT_EXCEEDED),
        (f"SELECT count() FROM ({ENDLESS} SETTINGS max_execution_time = 0, readonly = 0)", TIMEOUT_EXCEEDED),
    ],
)
def test_settings_in_a_subquery_change_nothing(wh, sql, code):
    """The engine accepts a SETTINGS clause inside a subquery but does not apply it."""
    r = wh.post(sql)
    assert r.headers["X-ClickHouse-Exception-Code"] == str(code), r.data[:300]


def test_switching_profile_changes_nothing(wh):
    """chDB's only profile is `default`; asking for it again keeps the limits."""
    r = wh.post(TOO_MANY_ROWS, query="?profile=default")
    assert r.headers["X-ClickHouse-Exception-Code"] == str(TOO_MANY_ROWS_OR_BYTES), r.data[:300]
    r = wh.post("SELECT 1", query="?profile=no_such_profile")
    assert r.status != 200, r.data[:300]


@pytest.mark.parametrize("sql, grant", [("KILL QUERY WHERE 1 SYNC", b"KILL QUERY"), ("SYSTEM STOP MERGES", b"SYSTEM")])
def test_engine_wide_statements_are_refused(wh, sql, grant):
    """readonly=1 lets these through, and every engine connection is one internal user: the
    analyst could end the API's queries or stop everyone's merges."""
    r = wh.post(sql)
    assert r.status == 403 and r.headers["X-ClickHouse-Exception-Code"] == "497"
    assert r.data.startswith(b"Code: 497. DB::Exception: analyst: Not enough privileges.") and grant in r.data


def test_lifting_through_clickhouse_connect_settings_does_not_work(analyst):
    # clickhouse-connect itself refuses a setting the read-only user cannot change
    with pytest.raises(ProgrammingError, match="max_result_rows is readonly"):
        analyst.query(TOO_MANY_ROWS, settings={"max_result_rows": 0})
    with pytest.raises(DatabaseError) as err:
        analyst.query(TOO_MANY_ROWS + " SETTINGS max_result_rows = 0")
    assert _code(err) == READONLY
    # and a SET does not stick to a later request
    with pytest.raises(DatabaseError) as err:
        analyst.command("SET max_result_rows = 0")
    assert _code(err) == READONLY
    with pytest.raises(DatabaseError) as err:
        analyst.query(TOO_MANY_ROWS)
    assert _code(err) == TOO_MANY_ROWS_OR_BYTES


def test_read_write_user_is_not_limited(writer):
    assert len(writer.query(TOO_MANY_ROWS).result_rows) == 20000
    assert writer.query(f"SELECT count() FROM ({BIG_GROUP_BY})").first_row == (1_000_000,)
    t0 = time.monotonic()
    assert writer.query("SELECT sum(sleepEachRow(0.3)) FROM numbers(5) SETTINGS max_block_size = 1").first_row == (0,)
    assert time.monotonic() - t0 >= 1.4  # past the analyst's 1 s


def test_concurrency_past_the_limit_is_202_and_frees_up(wh, writer):
    # Three analyst queries released together, each holding its slot 0.9 s (the analyst's 1 s limit
    # caps it): whatever order they reach the server in, two are admitted and the third is refused.
    holders = [wh.client(ANALYST) for _ in range(2)]  # connected first: connecting runs queries too
    outcomes: list[object] = []
    released = threading.Barrier(4)

    def hold(c) -> None:
        released.wait()
        try:
            outcomes.append(c.query("SELECT sleep(0.9)").first_row)
        except DatabaseError as err:
            outcomes.append(err)

    def raw() -> None:
        released.wait()
        outcomes.append(wh.post("SELECT sleep(0.9)"))

    threads = [threading.Thread(target=hold, args=(c,)) for c in holders] + [threading.Thread(target=raw)]
    for t in threads:
        t.start()
    released.wait()
    assert writer.command("SELECT 42") == 42  # the read-write user is not counted, meanwhile too
    for t in threads:
        t.join(10)
    admitted = [o for o in outcomes if o == (0,) or getattr(o, "status", None) == 200]
    refused = [o for o in outcomes if o not in admitted]
    assert len(admitted) == 2 and len(refused) == 1, outcomes
    (no,) = refused
    text = no.data.decode() if hasattr(no, "data") else str(no)
    assert "Code: 202. DB::Exception: Too many simultaneous queries for user analyst. Current: 2, maximum: 2." in text
    assert "(TOO_MANY_SIMULTANEOUS_QUERIES)" in text
    if hasattr(no, "headers"):
        assert no.status == 500 and no.headers["X-ClickHouse-Exception-Code"] == str(TOO_MANY_SIMULTANEOUS)
    r = wh.post("SELECT 1")  # the slots are free again
    assert r.status == 200 and r.data == b"1\n"
    for c in holders:
        c.close()


def _can_renice() -> bool:
    """CAP_SYS_NICE (bit 23): without it the engine does not apply os_thread_priority."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("CapEff:"):
            return bool(int(line.split()[1], 16) >> 23 & 1)
    return False


@pytest.mark.skipif(not _can_renice(), reason="the engine applies os_thread_priority only with CAP_SYS_NICE")
def test_analyst_threads_run_at_the_lowest_cpu_priority(wh):
    """os_thread_priority is honoured: a thread of the warehouse process runs at nice 19 while an
    analyst query runs (and the process itself stays at its own priority)."""
    task_dir = Path(f"/proc/{wh.service.proc.pid}/task")
    seen: set[int] = set()
    runner = threading.Thread(target=wh.post, args=(ENDLESS,))
    runner.start()
    while runner.is_alive():
        for stat in task_dir.glob("*/stat"):
            try:
                seen.add(int(stat.read_text().rsplit(")", 1)[1].split()[16]))  # field 19: nice
            except (OSError, IndexError, ValueError):
                pass
        time.sleep(0.02)
    assert 19 in seen
    assert int(Path(f"/proc/{wh.service.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()[16]) == 0


def test_server_keeps_answering(wh, analyst, writer):
    assert wh.service.alive
    assert wh.http.request("GET", wh.url + "/ping").data == b"Ok.\n"
    assert analyst.query("SELECT sum(number) FROM numbers(1000)").first_row == (499500,)
    assert writer.command("SELECT 1") == 1


def test_limits_are_validated(monkeypatch):
    from ve_analytics.core.config import Settings

    for name, value in (("ANALYST_MAX_THREADS", "-1"), ("ANALYST_MAX_MEMORY_BYTES", "1GB"),
                        ("ANALYST_OS_THREAD_PRIORITY", "-5"), ("ANALYST_MAX_EXECUTION_SECONDS", "nan")):
        monkeypatch.setenv(name, value)
        with pytest.raises(ValueError, match=name):
            Settings.from_env()
        monkeypatch.delenv(name)
