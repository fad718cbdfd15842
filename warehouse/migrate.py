"""Ordered, idempotent, recorded DDL migrations.

`warehouse_sql/migrations/NNN_name.sql` holds one statement per file, with unqualified table
names: the client's database is the target. `migrate(settings)`:

1. connects without a database and runs `CREATE DATABASE IF NOT EXISTS <db>`;
2. ensures `schema_migrations` (version, name, checksum, applied_at) in that database;
3. applies, in order, each file whose version is not recorded, recording it right after;
   a recorded file whose content changed is an error naming the file;
4. when the server has access control (a real ClickHouse), ensures the read-only role and its
   users (the analyst, the API's reader), best effort. The embedded server enforces their
   read-only levels itself.

With CLICKHOUSE_CLUSTER set, every statement runs in its cluster form (`warehouse.cluster`:
ON CLUSTER, replicated engines) once the server confirms the cluster has one shard of
CLICKHOUSE_REPLICAS replicas; the recorded checksum stays the file's, whichever form ran.

Two concurrent runs are not coordinated; run migrations from one place (`ve-analytics migrate`).
"""
from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.resources.abc import Traversable
from pathlib import Path

from clickhouse_connect.driver.exceptions import ClickHouseError as DriverError

from ..core.config import Settings
from . import sqlbook
from .client import get_client
from .cluster import cluster_name, render_ddl

log = logging.getLogger("warehouse.migrate")

MIGRATIONS_DIR: Traversable = sqlbook.folder("migrations")
MIGRATIONS_TABLE = "schema_migrations"
ANALYST_ROLE = "analyst_readonly"

_FILE_NAME = re.compile(r"(?P<version>\d+)_(?P<slug>[A-Za-z0-9_\-]+)\.sql\Z")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")

CREATE_MIGRATIONS_TABLE = f"""
CREATE TABLE IF NOT EXISTS {MIGRATIONS_TABLE}
(
    version    String,
    name       String,
    checksum   String,
    applied_at DateTime64(3, 'UTC')
)
ENGINE = ReplacingMergeTree
ORDER BY version
"""


class MigrationError(RuntimeError):
    """A migration could not be applied, or the recorded history does not match the files."""


@dataclass(frozen=True)
class Migration:
    version: str
    name: str  # the file name, e.g. 001_snapshot_runs.sql
    sql: str
    checksum: str  # sha256 of the file's bytes


def _identifier(name: str, what: str) -> str:
    if not _IDENTIFIER.match(name or ""):
        raise MigrationError(f"{what} {name!r} is not a plain identifier ([A-Za-z_][A-Za-z0-9_]*)")
    return f"`{name}`"


def _literal(value: str) -> str:
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def load_migrations(migrations_dir: Traversable) -> list[Migration]:
    """The migration files of a folder, in version order, validated."""
    if not migrations_dir.is_dir():
        raise MigrationError(f"migrations folder {migrations_dir} does not exist")
    found: dict[int, Migration] = {}
    for path in sorted(migrations_dir.iterdir(), key=lambda p: p.name):
        if not path.name.endswith(".sql") or path.name.startswith("."):
            continue
        m = _FILE_NAME.match(path.name)
        if not m:
            raise MigrationError(f"{path.name}: migration files are named NNN_name.sql")
        raw = path.read_bytes()
        sql = raw.decode("utf-8").strip().rstrip(";").strip()
        if not sql:
            raise MigrationError(f"{path.name}: empty migration")
        number = int(m.group("version"))
        if number in found:
            raise MigrationError(f"{path.name}: version {m.group('version')} is also used by {found[number].name}")
        found[number] = Migration(m.group("version"), path.name, sql, hashlib.sha256(raw).hexdigest())
    return [found[n] for n in sorted(found)]


def migrate(settings: Settings, migrations_dir: Path | None = None) -> list[str]:
    """Apply the pending migrations to settings.clickhouse_database; returns the file names applied."""
    database = settings.clickhouse_database
    quoted_db = _identifier(database, "database name")
    migrations = load_migrations(Path(migrations_dir) if migrations_dir is not None else MIGRATIONS_DIR)

    cluster = cluster_name(settings)
    client = get_client(settings, database=None)  # the database may not exist yet
    try:
        if cluster:
            check_cluster(client, cluster, settings.clickhouse_replicas)
        client.command(render_ddl(f"CREATE DATABASE IF NOT EXISTS {quoted_db}", cluster))
        client.database = database
        client.command(render_ddl(CREATE_MIGRATIONS_TABLE.strip(), cluster))
        recorded = {
            row[0]: (row[1], row[2])
            for row in client.query(
                f"SELECT version, argMax(name, applied_at), argMax(checksum, applied_at) FROM {MIGRATIONS_TABLE} GROUP BY version"
            ).result_rows
        }
        applied: list[str] = []
        for mig in migrations:
            if mig.version in recorded:
                name, checksum = recorded[mig.version]
                if checksum != mig.checksum:
                    raise MigrationError(
                        f"{mig.name}: changed after it was applied (recorded as {name} with checksum "
                        f"{checksum[:12]}…, the file now has {mig.checksum[:12]}…); add a new migration instead"
                    )
                continue
            try:
                client.command(render_ddl(mig.sql, cluster))
            except DriverError as exc:
                raise MigrationError(f"{mig.name}: {exc}") from exc
            client.insert(
                MIGRATIONS_TABLE,
                [[mig.version, mig.name, mig.checksum, datetime.now(UTC)]],
                column_names=["version", "name", "checksum", "applied_at"],
            )
            log.info("applied migration %s to %s", mig.name, database)
            applied.append(mig.name)
        log.info(
            "database %s: %d migration(s) applied now, %d already applied, %d in total",
            database,
            len(applied),
            len(migrations) - len(applied),
            len(migrations),
        )
        ensure_readers(client, settings)
        return applied
    finally:
        client.close()


def check_cluster(client, cluster: str, replicas: int) -> None:
    """The server must know `cluster` as one shard of `replicas` replicas: the insert quorum
    (every replica) and the unsharded tables (ADR 0012) both rest on that."""
    shards, found = client.query(
        "SELECT uniqExact(shard_num), count() FROM system.clusters WHERE cluster = {cluster:String}",
        parameters={"cluster": cluster},
    ).result_rows[0]
    if found == 0:
        raise MigrationError(f"the server has no cluster {cluster!r} (system.clusters); check CLICKHOUSE_CLUSTER")
    if shards != 1 or found != replicas:
        raise MigrationError(f"cluster {cluster!r} has {shards} shard(s) and {found} replica(s); this deployment "
                             f"expects one shard of CLICKHOUSE_REPLICAS={replicas} (ADR 0012)")
    log.info("cluster %s: one shard of %d replicas; migrations run ON CLUSTER with replicated engines", cluster, found)


def ensure_readers(client, settings: Settings) -> bool:
    """Create the read-only role and its users when the server has access control: the analyst
    (readonly = 1) and the API's reader (readonly = 2: it may set output-format settings, never write).

    Best effort: returns False (with one log line) when the server does not manage users, as with
    the embedded chDB server, which enforces each user's read-only level itself.
    """
    readers = [(name, password, level) for name, password, level in (
        (settings.analyst_user, settings.analyst_password, 1),
        (settings.api_reader_user, settings.api_reader_password, 2),
    ) if name and name != settings.clickhouse_user]
    if not readers:
        return False
    names = ", ".join(f"'{name}'" for name, _, _ in readers)
    try:
        client.command("SHOW ACCESS")
    except DriverError as exc:
        log.info("server has no SQL access control for %s (%s); readers %s not managed by migrate",
                 settings.clickhouse_user, _first_line(exc), names)
        return False
    database = _identifier(settings.clickhouse_database, "database name")
    statements = [f"CREATE ROLE IF NOT EXISTS {ANALYST_ROLE}", f"GRANT SELECT ON {database}.* TO {ANALYST_ROLE}"]
    for name, password, level in readers:
        user = _identifier(name, "reader user name")
        statements += [
            (f"CREATE USER IF NOT EXISTS {user} IDENTIFIED BY {_literal(password)} "
             f"DEFAULT ROLE {ANALYST_ROLE} SETTINGS readonly = {level}"),
            f"GRANT {ANALYST_ROLE} TO {user}",
            f"SET DEFAULT ROLE {ANALYST_ROLE} TO {user}",
        ]
    for statement in statements:
        try:
            client.command(statement)
        except DriverError as exc:
            log.warning("could not ensure the read-only users %s (%s): %s",
                        names, statement.split(" IDENTIFIED BY ")[0], _first_line(exc))
            return False
    log.info("read-only users %s ensured (role %s: SELECT on %s.*)", names, ANALYST_ROLE, settings.clickhouse_database)
    return True


def _first_line(exc: BaseException) -> str:
    """The server's message without the driver's wrapping, URL or version trailer."""
    text = str(exc).strip()
    text = text.split("server response: ", 1)[-1]
    text = re.sub(r"\s*\((?:for url|version) [^)]*\)", "", text)
    return text.splitlines()[0][:300] if text else type(exc).__name__
