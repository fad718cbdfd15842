"""Measure the embedded warehouse: `python -m bench.warehouse [--rows N] [--runs N]`.

Starts a server on a free port over a temporary data directory and prints, for clickhouse-connect
through the server and for the same statement run in-process on chDB directly:

- p50 round trip of `SELECT 1` and of a small parameterized query (over `--runs`, default 200);
- the insert rate (rows/s) of `--rows` rows (default 1,000,000) of four columns through Native
  (client.insert, column-oriented), through pandas (insert_df, also Native) and through Arrow.
"""
from __future__ import annotations

import argparse
import dataclasses
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from ve_analytics.core.config import Settings
from ve_analytics.warehouse.client import get_client
from ve_analytics.warehouse.server import WarehouseServer

SMALL_QUERY = "SELECT id, name, price FROM bench_small WHERE id >= {lo:UInt32} ORDER BY id LIMIT 10"


def p50_ms(fn: Callable[[], object], runs: int) -> float:
    for _ in range(10):
        fn()
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.warehouse")
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args(argv)

    import numpy as np
    import pandas as pd
    import pyarrow as pa

    with tempfile.TemporaryDirectory(prefix="warehouse-bench-") as tmp:
        settings = dataclasses.replace(Settings.from_env(), data_dir=Path(tmp), clickhouse_database="bench")
        server = WarehouseServer(settings, port=0).start()
        try:
            settings = dataclasses.replace(settings, clickhouse_url=server.url)
            admin = get_client(settings, database=None)
            admin.command("CREATE DATABASE IF NOT EXISTS bench")
            client = get_client(settings)
            client.command(
                "CREATE TABLE bench_small (id UInt32, name String, price Float64) ENGINE = MergeTree ORDER BY id"
            )
            client.insert("bench_small", [[i, f"n{i}", i / 3] for i in range(1000)], column_names=["id", "name", "price"])

            print(f"chDB {server.engine.version}; p50 over {args.runs} runs")
            chdb_conn = server.engine._connector(0)().handle  # in-process baseline, same engine
            chdb_conn.query("USE bench", "TabSeparated")
            rows = [
                ("SELECT 1 (client.query)", lambda: client.query("SELECT 1"), lambda: chdb_conn.query("SELECT 1 FORMAT Native", "Native")),
                ("SELECT 1 (client.command)", lambda: client.command("SELECT 1"), lambda: chdb_conn.query("SELECT 1", "TabSeparated")),
                (
                    "small query, 10 rows (client.query)",
                    lambda: client.query(SMALL_QUERY, parameters={"lo": 500}),
                    lambda: chdb_conn.query(SMALL_QUERY + " FORMAT Native", "Native", params={"lo": "500"}),
                ),
                (
                    "small query, 10 rows (client.query_df)",
                    lambda: client.query_df(SMALL_QUERY, parameters={"lo": 500}),
                    None,
                ),
            ]
            for label, through_server, direct in rows:
                line = f"  {label:<40} {p50_ms(through_server, args.runs):7.3f} ms"
                if direct is not None:
                    line += f"   (chDB in-process: {p50_ms(direct, args.runs):.3f} ms)"
                print(line)
            chdb_conn.close()

            n = args.rows
            ids = np.arange(n, dtype=np.uint64)
            columns = {
                "id": ids,
                "ts": pd.to_datetime(1_700_000_000_000 + ids.astype(np.int64), unit="ms", utc=True),
                "price": ids.astype(np.float64) / 7,
                "pool": np.array([f"pool-{i % 1000}" for i in range(n)], dtype=object),
            }
            df = pd.DataFrame(columns)
            lists = [columns["id"].tolist(), columns["ts"].to_pydatetime().tolist(), columns["price"].tolist(), columns["pool"].tolist()]
            table = pa.Table.from_pandas(df, preserve_index=False)
            ddl = "CREATE TABLE {} (id UInt64, ts DateTime64(3, 'UTC'), price Float64, pool LowCardinality(String)) ENGINE = MergeTree ORDER BY id"
            print(f"insert of {n:,} rows (id UInt64, ts DateTime64(3,'UTC'), price Float64, pool LowCardinality(String))")
            for label, compress, do_insert in (
                ("Native (lz4), client.insert column-oriented", True, lambda c, t: c.insert(t, lists, column_names=list(columns), column_oriented=True)),
                ("Native (lz4), client.insert_df (pandas)", True, lambda c, t: c.insert_df(t, df)),
                ("Native, client.insert_df (pandas)", False, lambda c, t: c.insert_df(t, df)),
                ("Arrow, client.insert_arrow", False, lambda c, t: c.insert_arrow(t, table)),
            ):
                c = get_client(settings, compress=compress)
                name = "bench_ins_" + "".join(ch if ch.isalnum() else "_" for ch in label.lower())[:40]
                c.command(ddl.format(name))
                t0 = time.perf_counter()
                summary = do_insert(c, name)
                elapsed = time.perf_counter() - t0
                assert c.command(f"SELECT count() FROM {name}") == n
                server_s = int(summary.summary.get("elapsed_ns", 0)) / 1e9
                print(f"  {label:<40} {n / elapsed:12,.0f} rows/s  ({elapsed:.2f} s end to end, engine {server_s:.2f} s)")
                c.command(f"DROP TABLE {name}")
                c.close()
            client.close()
            admin.close()
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
