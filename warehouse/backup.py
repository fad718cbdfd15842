"""Backup and restore of the project's database with ClickHouse's own BACKUP and RESTORE.

Both run through the normal client as the read-write user, so they work the same on the embedded
warehouse and on a production ClickHouse; the server does the work and the files never pass
through this process (docs/operations/backup.md):

- `backup(settings, name)`: `BACKUP DATABASE <db> TO <destination>`, every table with its schema
  and data (schema_migrations, snapshot_runs, curation_publications included).
- `restore(settings, name, tables=...)`: `RESTORE TABLE <db>.<t>, ... FROM <destination>`, or
  the whole database. Restoring over a table that exists is refused unless `replace=True` (a
  table is restored beside it and swapped in; the whole database is dropped and restored once the
  backup is proved to open): a restore never appends to or mixes with what is there.

Where backups go (`Destination`): on the embedded warehouse `File('<name>')`, under its
`backups.allowed_path` (`<data>/warehouse/backups/<name>`, warehouse/engine.py); on a production
server a backup disk from its own configuration, `Disk('<disk>', '<name>')`, or S3 through a
server-side named collection, `S3(<collection>, '<name>')`. Credentials stay in the server's
configuration: no key is ever part of the statement, nor of a log line.

With a cluster configured (CLICKHOUSE_CLUSTER) both statements carry `ON CLUSTER`: ClickHouse
then coordinates the replicas, stores each replicated table's data once and restores it on every
replica. Names are checked against a strict pattern and identifiers quoted; no user text is
spliced into SQL otherwise.
"""
from __future__ import annotations

import logging
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timezone

from ..core.config import Settings
from .client import get_client
from .cluster import cluster_name
from .engine import quote_identifier, quote_literal

log = logging.getLogger("warehouse.backup")

# A backup name is a path below the destination: letters, digits, '_', '-', '.', no '..' and
# no leading dot. A name ending in .zip or .tar makes ClickHouse write one archive file.
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]{0,127}\Z")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# A backup of a big database takes longer than a query: the client waits this long for it.
BACKUP_TIMEOUT_SECONDS = 6 * 3600


class BackupError(ValueError):
    """A backup or restore refused before any statement ran (bad name, table in the way)."""


def check_name(name: str) -> str:
    if not _NAME.match(name) or ".." in name:
        raise BackupError(f"backup name {name!r}: use 1-128 letters, digits, '_', '-' or '.' "
                          "(no leading dot, no '..')")
    return name


def _identifier(kind: str, value: str) -> str:
    if not _IDENTIFIER.match(value):
        raise BackupError(f"{kind} {value!r} is not a plain identifier ([A-Za-z_][A-Za-z0-9_]*)")
    return value


@dataclass(frozen=True)
class Destination:
    """Where backups live. The default, `File`, is the embedded warehouse's backups folder (any
    server whose `backups.allowed_path` is set accepts it too). `disk`: a disk of the server's
    storage configuration listed in `backups.allowed_disk`; `s3_collection`: a named collection
    of the server holding the bucket URL and its credentials."""

    disk: str = ""
    s3_collection: str = ""

    def __post_init__(self) -> None:
        if self.disk and self.s3_collection:
            raise BackupError("choose one destination: a backup disk or an S3 named collection")
        if self.disk:
            _identifier("backup disk", self.disk)
        if self.s3_collection:
            _identifier("S3 named collection", self.s3_collection)

    def sql(self, name: str) -> str:
        name = quote_literal(check_name(name))
        if self.disk:
            return f"Disk({quote_literal(self.disk)}, {name})"
        if self.s3_collection:
            return f"S3({self.s3_collection}, {name})"  # a named collection is a bare identifier
        return f"File({name})"


@dataclass(frozen=True)
class Outcome:
    """What the server reported for one BACKUP or RESTORE (system.backups, when readable)."""

    action: str  # "backup" or "restore"
    name: str
    what: str  # "database ve_analytics", "tables a, b"
    destination: str  # the destination's SQL form (it holds no secret)
    status: str  # BACKUP_CREATED, RESTORED, ...
    backup_id: str
    seconds: float
    files: int | None = None
    bytes: int | None = None

    def line(self) -> str:
        size = "" if self.files is None else f", {self.files} files, {_size(self.bytes or 0)}"
        verb = "to" if self.action == "backup" else "from"
        return (f"{self.action} {self.name!r} of {self.what}: {self.status}{size} in {self.seconds:.1f} s "
                f"({verb} {self.destination}, id {self.backup_id})")


def _size(n: int) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} B"  # not reached


def default_name(settings: Settings, now: float | None = None) -> str:
    """`<database>-<UTC time>`, e.g. ve_analytics-20261124T031500Z."""
    at = datetime.fromtimestamp(time.time() if now is None else now, timezone.utc)
    return check_name(f"{settings.clickhouse_database}-{at:%Y%m%dT%H%M%SZ}")


def _on_cluster(settings: Settings) -> str:
    cluster = cluster_name(settings)
    return f" ON CLUSTER {quote_literal(cluster)}" if cluster else ""


def _run(settings: Settings, action: str, name: str, what: str, destination: Destination, sql: str) -> Outcome:
    started = time.monotonic()
    client = get_client(settings, database=None, send_receive_timeout=BACKUP_TIMEOUT_SECONDS)
    try:
        rows = client.query(sql).result_rows  # (id, status); the statement returns once done
        backup_id, status = str(rows[0][0]), str(rows[0][1])
        files = size = None
        # The server's record of it (system.backups, since the server started): sizes and files.
        found = client.query(
            "SELECT status, num_files, total_size FROM system.backups WHERE id = {id:String}",
            parameters={"id": backup_id},
        ).result_rows
        if found:
            status, files, size = str(found[0][0]), int(found[0][1]), int(found[0][2])
    finally:
        client.close()
    outcome = Outcome(action, name, what, destination.sql(name), status, backup_id,
                      time.monotonic() - started, files, size)
    log.info("%s", outcome.line())
    return outcome


def backup(settings: Settings, name: str | None = None, destination: Destination = Destination()) -> Outcome:
    """Back up the whole database (every table, schema and data) as `name` (default:
    `<database>-<UTC time>`). A name already used at the destination is an error of the server's
    (BACKUP_ALREADY_EXISTS): backups are never overwritten."""
    name = check_name(name) if name else default_name(settings)
    database = settings.clickhouse_database
    sql = (f"BACKUP DATABASE {quote_identifier(database)}{_on_cluster(settings)} "
           f"TO {destination.sql(name)}")
    return _run(settings, "backup", name, f"database {database}", destination, sql)


def existing_tables(settings: Settings) -> list[str] | None:
    """The tables of the configured database; None when the database does not exist."""
    client = get_client(settings, database=None)
    try:
        rows = client.query(
            "SELECT name FROM system.tables WHERE database = {db:String} ORDER BY name",
            parameters={"db": settings.clickhouse_database},
        ).result_rows
        if rows:
            return [r[0] for r in rows]
        found = client.query("SELECT count() FROM system.databases WHERE name = {db:String}",
                             parameters={"db": settings.clickhouse_database}).result_rows[0][0]
    finally:
        client.close()
    return [] if found else None


STAGING = "__restoring"  # suffix of a table being restored beside the one it replaces
CHECK = "__restore_check"  # suffix of the scratch database that proves a backup opens


def restore(settings: Settings, name: str, tables: Iterable[str] = (), *, replace: bool = False,
            destination: Destination = Destination()) -> Outcome:
    """Restore `tables` of the database from backup `name`, or the whole database when none is
    named. A table that exists is in the way: refused unless `replace`.

    With `replace`, a table is restored beside the one it replaces (`<t>__restoring`) and swapped
    in (EXCHANGE TABLES), so the old one serves until the restored one is whole; the whole
    database is first proved to open (its structure restored into a scratch database, dropped
    again), then dropped and restored. On a cluster `replace` is refused: drop ON CLUSTER by hand
    (docs/operations/backup.md), as a replicated table restored under another name would share
    its replica path in Keeper with the one it replaces.
    """
    check_name(name)
    database = settings.clickhouse_database
    tables = [_identifier("table", t) for t in dict.fromkeys(tables)]
    present = existing_tables(settings)
    if present is None and tables:
        raise BackupError(f"database {database} does not exist: restore the whole database")
    in_the_way = [t for t in present or [] if t in tables or not tables]
    cluster = _on_cluster(settings)
    if in_the_way and (not replace or cluster):
        how = "drop them ON CLUSTER first" if cluster else "drop them first or restore with replace"
        raise BackupError(f"{', '.join(in_the_way)} already exist in database {database}: {how}")
    db = quote_identifier(database)
    source = destination.sql(name)
    if tables:
        label = f"table{'s' if len(tables) > 1 else ''} {', '.join(tables)} of {database}"
    else:
        label = f"database {database}"
    if not in_the_way:
        what = ", ".join(f"TABLE {db}.{quote_identifier(t)}" for t in tables) or f"DATABASE {db}"
        return _run(settings, "restore", name, label, destination, f"RESTORE {what}{cluster} FROM {source}")

    client = get_client(settings, database=None)
    try:
        if tables:
            staged = {t: quote_identifier(t + STAGING) for t in tables}
            for t in tables:
                client.command(f"DROP TABLE IF EXISTS {db}.{staged[t]} SYNC")  # a failed attempt's
            what = ", ".join(f"TABLE {db}.{quote_identifier(t)} AS {db}.{staged[t]}" for t in tables)
            try:
                outcome = _run(settings, "restore", name, label, destination, f"RESTORE {what} FROM {source}")
            except BaseException:
                for t in tables:  # what a failed restore left beside the tables, untouched
                    client.command(f"DROP TABLE IF EXISTS {db}.{staged[t]} SYNC")
                raise
            for t in tables:
                if t in in_the_way:
                    client.command(f"EXCHANGE TABLES {db}.{quote_identifier(t)} AND {db}.{staged[t]}")
                    client.command(f"DROP TABLE {db}.{staged[t]} SYNC")
                else:
                    client.command(f"RENAME TABLE {db}.{staged[t]} TO {db}.{quote_identifier(t)}")
            log.info("replaced %s of database %s with the restored ones", ", ".join(in_the_way), database)
            return outcome
        scratch = quote_identifier(database + CHECK)
        client.command(f"DROP DATABASE IF EXISTS {scratch} SYNC")
        client.command(f"RESTORE DATABASE {db} AS {scratch} FROM {source} SETTINGS structure_only = 1")
        client.command(f"DROP DATABASE {scratch} SYNC")
        client.command(f"DROP DATABASE {db} SYNC")
        log.info("dropped database %s (%d tables) to restore it whole", database, len(in_the_way))
    finally:
        client.close()
    return _run(settings, "restore", name, label, destination, f"RESTORE DATABASE {db} FROM {source}")
