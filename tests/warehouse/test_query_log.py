"""The embedded warehouse's query log (WAREHOUSE_QUERY_LOG): one line per query with its user,
statement (passwords hidden), bound parameters, duration and exception code; off by default."""
from __future__ import annotations

import dataclasses

import pytest
from clickhouse_connect.driver.exceptions import DatabaseError

from ve_analytics.core.config import Settings
from ve_analytics.warehouse.client import ANALYST, get_client
from ve_analytics.warehouse.query_log import read_log
from ve_analytics.warehouse.server import WarehouseServer


RW_USER, ANALYST_USER = "writer", "analyst"


def make_settings(data_dir) -> Settings:
    return dataclasses.replace(Settings.from_env(), data_dir=data_dir, clickhouse_user=RW_USER,
                               clickhouse_password="w-secret", analyst_user=ANALYST_USER,
                               analyst_password="a-secret", warehouse_host="127.0.0.1", warehouse_port=0,
                               warehouse_query_log="")


def test_each_query_is_one_line_with_its_user_parameters_and_outcome(tmp_path):
    log_path = tmp_path / "query_log.jsonl"
    settings = dataclasses.replace(make_settings(tmp_path), warehouse_query_log=str(log_path))
    with WarehouseServer(settings, port=0, data_dir=tmp_path) as server:
        settings = dataclasses.replace(settings, clickhouse_url=server.url, clickhouse_database="")
        writer = get_client(settings, database=None)
        _, offset = read_log(log_path)  # the client's own start-up queries
        assert writer.query("SELECT {n:UInt32} + 1 AS x", parameters={"n": 41}).first_row == (42,)
        with pytest.raises(DatabaseError, match="UNKNOWN_TABLE"):
            writer.query("SELECT * FROM no_such_table")
        analyst = get_client(settings, user=ANALYST, database=None)
        analyst.query("SELECT 7")
        entries, _ = read_log(log_path, offset)
    ok = next(e for e in entries if "{n:UInt32}" in e["query"])
    assert ok["user"] == RW_USER and ok["parameters"] == {"n": "41"} and ok["exception_code"] == 0
    assert ok["query_duration_ms"] >= 0 and ok["query_id"]
    failed = next(e for e in entries if "no_such_table" in e["query"])
    assert failed["exception_code"] == 60
    assert any(e["user"] == ANALYST_USER and e["query"].startswith("SELECT 7") for e in entries)


def test_off_by_default(tmp_path):
    settings = make_settings(tmp_path)
    assert settings.warehouse_query_log == ""
    with WarehouseServer(settings, port=0, data_dir=tmp_path) as server:
        assert server.engine is not None
    assert not list(tmp_path.glob("*.jsonl"))
