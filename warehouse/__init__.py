"""The warehouse: ClickHouse reached over HTTP with clickhouse-connect.

- `warehouse.server`  the embedded default: a ClickHouse-HTTP-compatible server process that owns
  one chDB (in-process ClickHouse) instance with its data on local disk. A transport only: the
  engine, SQL dialect and storage are ClickHouse's own. Its parts are `handler`, `protocol`,
  `request`, `request_body`, `responses`, `engine`, `users`, `limits` and `errors` (see its docstring).
- `warehouse.client`  the one place that builds clickhouse-connect clients (sync and async).
- `warehouse.migrate` ordered, idempotent, recorded DDL migrations from `warehouse_sql/migrations`.

Nothing outside `warehouse.server` and its parts knows whether the server is chDB or a real ClickHouse.
"""
