"""Cluster mode: the same migrations and writes on a replicated ClickHouse cluster (ADR 0012).

With `CLICKHOUSE_CLUSTER` set, `render_ddl` turns each single-node statement of
`warehouse_sql/migrations/` into its cluster form; without it, statements run as written:

- `CREATE TABLE IF NOT EXISTS t`, `ALTER TABLE t`, `CREATE OR REPLACE VIEW v`,
  `CREATE DATABASE IF NOT EXISTS d` get `ON CLUSTER '<cluster>'` after the name;
- `ENGINE = <Kind>MergeTree(<args>)` becomes `Replicated<Kind>MergeTree('/clickhouse/tables/
  {shard}/{database}/{table}', '{replica}', <args>)` (the servers' macros name the shard and the
  replica); ORDER BY, PARTITION BY, columns and codecs are left exactly as written;
- `non_replicated_deduplication_window` becomes `replicated_deduplication_window`, the same
  window of retried inserts dropped, now kept in Keeper for every replica.

Any other statement kind is refused rather than guessed at: a migration that cannot be rendered
fails its test (tests/warehouse/test_cluster_ddl.py has the engine's parser check both forms).

`quorum_settings` are what every write of the pipeline's user carries on a cluster: an insert
returns only once every replica holds its part, so a success row, written after its rows, can
never be visible on a replica that lacks them.
"""
from __future__ import annotations

import re

from ..core.config import Settings

ZOOKEEPER_PATH = "/clickhouse/tables/{shard}/{database}/{table}"
REPLICA_NAME = "{replica}"
# How long a quorum insert may wait for the slowest replica before it fails (and its run with it).
QUORUM_TIMEOUT_MS = 120_000

_CLUSTER_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-]*\Z")
_COMMENT_LINES = re.compile(r"\A(?:\s*--[^\n]*\n)*\s*")
_HEAD = re.compile(
    r"(?P<head>CREATE\s+TABLE\s+IF\s+NOT\s+EXISTS|CREATE\s+OR\s+REPLACE\s+VIEW|ALTER\s+TABLE"
    r"|CREATE\s+DATABASE\s+IF\s+NOT\s+EXISTS)\s+(?P<name>`[^`]+`|[A-Za-z_][A-Za-z0-9_]*)",
    re.IGNORECASE,
)
_ENGINE = re.compile(r"\bENGINE\s*=\s*(?P<kind>[A-Za-z]*)MergeTree\b(?:\s*\((?P<args>[^()]*)\))?")
_DEDUP = re.compile(r"\bnon_replicated_deduplication_window\b")


class ClusterDDLError(ValueError):
    """A statement this module does not know how to run on a cluster."""


def cluster_name(settings: Settings) -> str:
    """The configured cluster ('' = single node), validated: it is written into DDL text."""
    name = settings.clickhouse_cluster
    if name and not _CLUSTER_NAME.match(name):
        raise ClusterDDLError(f"CLICKHOUSE_CLUSTER {name!r} is not a plain cluster name ([A-Za-z0-9_.-])")
    return name


def render_ddl(sql: str, cluster: str) -> str:
    """`sql` as written when `cluster` is empty, else its ON CLUSTER / replicated form."""
    if not cluster:
        return sql
    lead = _COMMENT_LINES.match(sql).end()
    head = _HEAD.match(sql, lead)
    if head is None:
        first = sql[lead:].split("\n", 1)[0][:80]
        raise ClusterDDLError(f"no cluster rendering for a statement starting {first!r}")
    out = f"{sql[:head.end()]} ON CLUSTER '{cluster}'{sql[head.end():]}"
    if head.group("head").upper().startswith("CREATE TABLE"):
        out = _replicated_engine(out)
    return _DEDUP.sub("replicated_deduplication_window", out)


def _replicated_engine(sql: str) -> str:
    engines = list(_ENGINE.finditer(sql))
    if len(engines) != 1:
        raise ClusterDDLError(f"a CREATE TABLE needs exactly one MergeTree-family ENGINE clause, found {len(engines)}")
    engine = engines[0]
    if engine.group("kind").startswith("Replicated"):
        raise ClusterDDLError("migrations are written single-node; cluster mode adds the replication")
    args = [f"'{ZOOKEEPER_PATH}'", f"'{REPLICA_NAME}'"]
    if engine.group("args") and engine.group("args").strip():
        args.append(engine.group("args").strip())
    replicated = f"ENGINE = Replicated{engine.group('kind')}MergeTree({', '.join(args)})"
    return sql[:engine.start()] + replicated + sql[engine.end():]


def quorum_settings(settings: Settings) -> dict[str, int]:
    """Settings of the pipeline's writes: on a cluster, an insert succeeds only once every replica
    (CLICKHOUSE_REPLICAS) has its part. Parallel quorum inserts stay allowed (the default):
    the sequential mode would fail one chain's insert while another's quorum is pending."""
    if not cluster_name(settings):
        return {}
    return {"insert_quorum": settings.clickhouse_replicas, "insert_quorum_timeout": QUORUM_TIMEOUT_MS}
