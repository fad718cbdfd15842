"""`ve-analytics`: one console command with a subcommand per component.

    ve-analytics warehouse   embedded ClickHouse-HTTP server backed by chDB
    ve-analytics warehouse backup [--name NAME] [--disk D | --s3-collection C]
    ve-analytics warehouse restore --name NAME [--table T ...] [--replace] [--disk D | --s3-collection C]
                             back up the configured database, restore it or some of its tables
                             (ClickHouse BACKUP/RESTORE; docs/operations/backup.md)
    ve-analytics migrate     apply warehouse_sql/migrations to the configured ClickHouse
    ve-analytics backfill    materialize the whole upstream history as Dagster backfills
    ve-analytics api         the Sanic API (/api/stats, /api/v1 and /v1 with /openapi.json);
                             `--families v1` serves one family alone
    ve-analytics vault-api   the vault data API (/api/v1) alone, on VAULT_API_PORT
    ve-analytics up          all of the above plus the devnet (ve-devnet), Dagster webserver and daemon
    ve-analytics curation publish [--source PATH] [--check]
                             publish the reviewed curation (curation/curation.json) through Dagster

Configuration comes from the environment (core.config); every default is the local stack.
"""
from __future__ import annotations

import argparse
import logging
import signal
import sys
import time
from pathlib import Path

from ..core.config import Settings
from ..core.logs import setup_logging
from ..core.pipeline_names import catchup_sensor

log = logging.getLogger("cli")


def _warehouse(settings: Settings, args: argparse.Namespace) -> int:
    from ..warehouse.server import serve

    serve(settings, host=args.host, port=args.port, data_dir=Path(args.data_dir) if args.data_dir else None)
    return 0


def _destination(args: argparse.Namespace):
    from ..warehouse.backup import Destination

    return Destination(disk=args.disk or "", s3_collection=args.s3_collection or "")


def _warehouse_backup(settings: Settings, args: argparse.Namespace) -> int:
    from clickhouse_connect.driver.exceptions import ClickHouseError as ServerError
    from ..warehouse.backup import BackupError, backup

    try:
        print(backup(settings, args.name, _destination(args)).line())
    except (BackupError, ServerError) as exc:
        log.error("backup failed: %s", exc)
        return 1
    return 0


def _warehouse_restore(settings: Settings, args: argparse.Namespace) -> int:
    from clickhouse_connect.driver.exceptions import ClickHouseError as ServerError
    from ..warehouse.backup import BackupError, restore

    try:
        print(restore(settings, args.name, args.table or (), replace=args.replace, destination=_destination(args)).line())
    except (BackupError, ServerError) as exc:
        log.error("restore failed: %s", exc)
        return 1
    return 0


def _migrate(settings: Settings, args: argparse.Namespace) -> int:
    from ..warehouse.migrate import migrate

    applied = migrate(settings)
    log.info("migrations up to date (%d applied now)", len(applied))
    return 0


def incomplete_note(chains: list[int]) -> str:
    """What `up` and `backfill` say after a chain's backfill was incomplete."""
    names = ", ".join(map(str, chains)) or "some chains"
    return (f"history and snapshots are INCOMPLETE on chain(s) {names}: each chain's catch-up sensor "
            f"({', '.join(catchup_sensor(c) for c in chains) or 'catchup_sensor_<chain>'}) refills its missing "
            "snapshots once its upstream answers; /v1/health/chains lists what is missing")


def _backfill(settings: Settings, args: argparse.Namespace) -> int:
    """Backfills submitted to the instance's webserver (DAGSTER_URL, or DAGSTER_HOST:DAGSTER_PORT);
    when none answers, a webserver and daemon run on DAGSTER_HOME for the duration."""
    from .dagster_services import dagster_for
    from ..orchestration.backfill import BackfillFailed, backfill
    from ..readers.dagster_webserver import WebserverError

    try:
        with dagster_for(settings, settings.data_dir / "logs") as dagster_settings:
            backfill(dagster_settings, days=args.days)
    except BackfillFailed as exc:
        log.error("backfill failed: %s", exc)
        log.error("%s", incomplete_note(exc.chains))
        return 1
    except WebserverError as exc:
        log.error("backfill failed: %s", exc)
        return 1
    return 0


API_FAMILIES = ("stats", "vaults", "v1")  # what `ve-analytics api` (and so `make up`) serves


def _api(settings: Settings, args: argparse.Namespace) -> int:
    from ..api.server import serve

    serve(settings, host=args.host, port=args.port, workers=args.workers, families=tuple(args.families.split(",")))
    return 0


def _vault_api(settings: Settings, args: argparse.Namespace) -> int:
    from ..api.server import serve

    host = args.host or settings.vault_api_host
    port = args.port or settings.vault_api_port
    serve(settings, host=host, port=port, workers=args.workers, families=("vaults",))
    return 0


def _curation_publish(settings: Settings, args: argparse.Namespace) -> int:
    """Validate the curation source against every chain's latest published snapshot and publish it
    by materializing the `curation_publication` asset in this process on the configured Dagster
    instance (DAGSTER_HOME; the run shows in the UI). `--check` validates and prints what would be
    published, writing nothing and starting no run. Exit 1 with every problem of an invalid source."""
    from ..core.curation import CurationInvalid
    from ..orchestration.curation import check_curation, materialize_curation

    source = Path(args.source).resolve() if args.source else settings.curation_source
    try:
        if args.check:
            outcome = check_curation(settings, source)
            print("\n".join([outcome.line(), *(f"  {line}" for line in outcome.details())]))
        else:
            published = materialize_curation(settings, source)
            print(f"{published['summary']} (Dagster run {published['run_id']})")
    except CurationInvalid as exc:
        print(f"{source}: {exc}", file=sys.stderr)
        return 1
    return 0


def _up(settings: Settings, args: argparse.Namespace) -> int:
    from .processes import unwind_on_signals
    from .stack import Stack

    stack = Stack(settings, log_dir=settings.data_dir / "logs")
    stopping = False

    def _stop(signum, frame):  # noqa: ARG001 - signal handler signature
        nonlocal stopping
        stopping = True

    try:
        # A shell's background job starts with SIGINT ignored; during the start both signals unwind
        # (a running backfill is canceled, what started is stopped), afterwards they end the wait.
        unwind_on_signals()
        # the banner comes as soon as every chain is fresh; older history fills in behind it
        incomplete = stack.start(backfill_days=args.days, on_fresh=lambda: print(stack.banner(), flush=True))
        if incomplete:
            log.warning("%s", incomplete_note(incomplete))
        else:
            log.info("history and snapshots are complete; the schedules keep every chain fresh")
        signal.signal(signal.SIGINT, _stop)
        signal.signal(signal.SIGTERM, _stop)
        while not stopping:
            dead = stack.dead_services()
            if dead:
                log.error("service(s) stopped unexpectedly: %s (logs in %s)", ", ".join(dead), stack.log_dir)
                return 1
            time.sleep(1.0)
    except KeyboardInterrupt:
        pass
    finally:
        stack.stop()
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="ve-analytics", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)

    w = sub.add_parser("warehouse", help="run the embedded ClickHouse-HTTP server (chDB)")
    w.add_argument("--host")
    w.add_argument("--port", type=int)
    w.add_argument("--data-dir")
    w.set_defaults(func=_warehouse)
    # `ve-analytics warehouse` alone serves; its actions work on the configured warehouse (any server)
    ws = w.add_subparsers(dest="action", metavar="{backup,restore}")
    wb = ws.add_parser("backup", help="back up the configured database (BACKUP DATABASE)")
    wb.add_argument("--name", help="backup name (default <database>-<UTC time>)")
    wr = ws.add_parser("restore", help="restore the database, or some of its tables, from a backup")
    wr.add_argument("--name", required=True, help="the backup's name")
    wr.add_argument("--table", action="append", metavar="T", help="restore only this table (repeatable)")
    wr.add_argument("--replace", action="store_true",
                    help="replace tables that exist (default: refuse); without --table, the whole database")
    for action, func in ((wb, _warehouse_backup), (wr, _warehouse_restore)):
        where = action.add_mutually_exclusive_group()
        where.add_argument("--disk", help="a backup disk of the server's configuration (default: File under "
                                          "the server's backups.allowed_path)")
        where.add_argument("--s3-collection", help="a named collection of the server holding the S3 URL and keys")
        action.set_defaults(func=func)

    m = sub.add_parser("migrate", help="apply warehouse migrations")
    m.set_defaults(func=_migrate)

    b = sub.add_parser("backfill", help="materialize the upstream history through Dagster")
    b.add_argument("--days", type=int, help="only the most recent N days")
    b.set_defaults(func=_backfill)

    a = sub.add_parser("api", help="run the API")
    a.add_argument("--host")
    a.add_argument("--port", type=int)
    a.add_argument("--workers", type=int)
    a.add_argument("--families", default=",".join(API_FAMILIES),
                   help=f"comma-separated API families to serve (default {','.join(API_FAMILIES)})")
    a.set_defaults(func=_api)

    v = sub.add_parser("vault-api", help="run the vault data API (/api/v1) on its own port")
    v.add_argument("--host")
    v.add_argument("--port", type=int)
    v.add_argument("--workers", type=int)
    v.set_defaults(func=_vault_api)

    c = sub.add_parser("curation", help="the reviewed curation (tags, categories, statuses, token lists)")
    cs = c.add_subparsers(dest="action", required=True)
    cp = cs.add_parser("publish", help="validate the curation source and publish it through Dagster")
    cp.add_argument("--source", help="curation source file (default CURATION_SOURCE, curation/curation.json)")
    cp.add_argument("--check", action="store_true", help="validate and print what would be published; write nothing")
    cp.set_defaults(func=_curation_publish)

    u = sub.add_parser("up", help="run everything on the embedded default")
    u.add_argument("--days", type=int, help="backfill only the most recent N days")
    u.set_defaults(func=_up)
    return p


def main(argv: list[str] | None = None) -> int:
    setup_logging()
    args = build_parser().parse_args(argv)
    settings = Settings.from_env()
    try:
        return args.func(settings, args)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
