"""A real PostgreSQL server for tests: the OS package's binaries (initdb, pg_ctl), a cluster in a
temporary folder, listening on a free port of 127.0.0.1 only (its unix socket in that folder).

PostgreSQL refuses to run as root, and the tests may run as root: the server then runs as the
`postgres` OS user (runuser), owning its folder. Local socket connections are trusted (the
test's superuser `postgres`); TCP connections need a password (scram-sha-256), so a client that
connects over 127.0.0.1 as `user` proves it was given `password`.

    with PostgresServer.start(tmp_root) as pg:
        pg.create_database("dagster", "dagster", "secret")
        pg.query("dagster", "SELECT 1")
"""
from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ve_analytics.cli.processes import free_port

SUPERUSER = "postgres"


def postgres_bin() -> Path:
    """The newest installed PostgreSQL's bin folder (`make test` installs the OS package)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if not found:
        raise RuntimeError("no PostgreSQL server binaries under /usr/lib/postgresql/*/bin: run `make test` "
                           "(it installs the postgresql package) or `apt-get install postgresql`")
    return Path(found[-1]).parent


def _as_server_user(argv: list[str]) -> list[str]:
    return ["runuser", "-u", SUPERUSER, "--", *argv] if os.geteuid() == 0 else argv


@dataclass
class PostgresServer:
    root: Path  # a folder of its own: data/, the socket, the log
    port: int
    bin: Path

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def log(self) -> Path:
        return self.root / "postgres.log"

    @classmethod
    def start(cls, parent: str | None = None) -> "PostgresServer":
        # a fresh folder the server's user owns (pytest's own tmp folders are root's, mode 0700)
        root = Path(tempfile.mkdtemp(prefix="vea-pg-", dir=parent))
        if os.geteuid() == 0:
            user = pwd.getpwnam(SUPERUSER)
            os.chown(root, user.pw_uid, user.pw_gid)
        server = cls(root, free_port(), postgres_bin())
        try:
            server._run([str(server.bin / "initdb"), "-D", str(server.data), "-U", SUPERUSER, "-E", "UTF8",
                         "--auth-local=trust", "--auth-host=scram-sha-256", "--no-sync"])
            options = (f"-c listen_addresses=127.0.0.1 -p {server.port} -k {root} "
                       "-c fsync=off -c synchronous_commit=off -c full_page_writes=off")  # a test's cluster
            server._run([str(server.bin / "pg_ctl"), "-D", str(server.data), "-l", str(server.log), "-w",
                         "-t", "60", "-o", options, "start"])
        except BaseException:
            shutil.rmtree(root, ignore_errors=True)
            raise
        return server

    def _run(self, argv: list[str]) -> None:
        out = subprocess.run(_as_server_user(argv), capture_output=True, text=True, timeout=120, cwd=self.root)
        if out.returncode != 0:
            log = self.log.read_text()[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{Path(argv[0]).name} failed ({out.returncode}): {out.stderr.strip()[-2000:]} {log}")

    def connect(self, database: str = "postgres"):
        """A psycopg2 connection as the superuser over the unix socket (autocommit)."""
        import psycopg2

        conn = psycopg2.connect(host=str(self.root), port=self.port, user=SUPERUSER, dbname=database)
        conn.autocommit = True
        return conn

    def create_database(self, name: str, owner: str, password: str) -> None:
        from psycopg2 import sql

        conn = self.connect()  # not `with conn`: that opens a transaction, where CREATE DATABASE cannot run
        try:
            with conn.cursor() as cur:
                cur.execute(sql.SQL("CREATE ROLE {} LOGIN PASSWORD %s").format(sql.Identifier(owner)), (password,))
                cur.execute(sql.SQL("CREATE DATABASE {} OWNER {}").format(sql.Identifier(name), sql.Identifier(owner)))
        finally:
            conn.close()

    def query(self, database: str, statement: str, params: tuple = ()) -> list[tuple]:
        conn = self.connect(database)
        try:
            with conn.cursor() as cur:
                cur.execute(statement, params)
                return cur.fetchall()
        finally:
            conn.close()

    def stop(self) -> None:
        try:
            self._run([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop"])
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> "PostgresServer":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
