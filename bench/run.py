"""Benchmark: API latency against the raw SQL it runs and against a framework hello-world.

Every figure is a ratio of two numbers taken in this one run, on this machine, printed with the
size of the dataset behind it:

- uncached API p50 / raw SQL p50: what the API adds over running the route's SQL files through
  clickhouse-connect into Python rows (same warehouse, same user, same queries with the same
  parameters: every query file the route's handler declares (@runs, Route.sql), with the values
  it bound when run once, see bench/trace.py; the latest snapshot comes from each
  worker's pointer, not from a query per request), the two timed in turn request by request;
- cached API p50 / hello-world p50: what a per-snapshot cache hit costs over the cheapest
  possible Sanic response;
- /v1/pools/56/<CL pool>/ticks: the devnet's tables are 10-15 ticks, so chain 56's CL pool
  with the most ticks gets a synthetic 12,000-tick table at its latest snapshot before the APIs
  start (bench/ticks.py); page 1 and page 50 of its traversal, and page 50 / page 1 (goal <= 1.2);
- /v1/accounts/<heavy account>/...: a made-up address with 1,000 veNFTs, 1,000 CL liquidity positions
  and 10,000 activity records (bench/accounts.py), inserted likewise: /voting-positions page 1,
  /activity page 1 and page 50, /rewards page 1 (every veNFT voting at each epoch's end and sharing each
  rebase: about 60,000 claimable rewards, and its positions' emissions), /liquidity-positions page 1
  and /portfolio; the provider's /rewards (its emissions, unclaimed and claimed) too;
- under load (bench/load.py, wrk): requests/s of cached 200s and of 304s as ratios to the
  hello-world's at the same worker count and concurrency, errors, and a soak of mixed requests
  with the resident memory of the warehouse and the API before and after.

The stack (embedded warehouse, devnet with 90 days of history by default, API with and without
its response cache, a hello-world app) starts on free ports in a temporary folder and stops at
the end. The backfill materializes every 15-minute snapshot as Dagster backfills (a webserver and
daemon on a temporary instance), which takes long for 90 days; `--days 7 -n 50` is a quick
end-to-end check.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path

import urllib3

from ve_analytics.api.routes import Family
from ve_analytics.api.sql import QueryBook
from ve_analytics.api.stats.routes import FAMILY as STATS
from ve_analytics.api.v1.routes import FAMILY as V1
from bench.load import report as load_report
from bench.trace import Call, trace_route
from ve_analytics.core.chains import STATS_CHAIN_ID
from ve_analytics.core.config import Settings
from ve_analytics.core.logs import setup_logging
from ve_analytics.cli.processes import Service, cli, free_port, unwind_on_signals

BOOK = QueryBook("stats")  # warehouse_sql/queries/stats/*.sql, as the API loads them
V1_BOOK = QueryBook("v1")
CORE = "{coreToken}"  # replaced by the core token's address (lower case, as the API parses it)
HOLDER = "{xcoreHolder}"  # replaced by the account with the most xCORE moves on chain 56
VOTER = "{veOwner}"  # replaced by the owner with the most Voter logs on chain 56
HEAVY = "{heavyAccount}"  # the made-up account of bench/accounts.py: 1,000 veNFTs and positions, 10,000 records
PROVIDER = "{lpProvider}"  # replaced by the account with the most liquidity positions at chain 56's newest snapshot

# The routes measured: paths under /api/stats, then under /v1. What each runs as its raw SQL is
# derived, not listed here: its handler's query files (@runs, Route.sql) with the values the
# handler bound when run once against the warehouse (bench/trace.py); a request that runs fewer
# files than its route declares stops the bench (it would time a shortcut).
STATS_ROUTES: tuple[str, ...] = (
    "/protocol",
    "/protocol/history?days=365",
    "/pools?sort=volume24h&type=all&limit=500&minTvl=0",
    "/pools?sort=apr&type=v3&incentivized=true",
    "/epochs?limit=52",
    "/markets/bribes?limit=500",
    f"/tokens/{CORE}",
    "/votes?latestOnly=false",
)
V1_ROUTES: tuple[str, ...] = (
    "/protocol",
    "/protocol/trailing?windows=1h,24h,7d,30d,90d",
    "/protocol/history?days=90",
    "/protocol/daily?days=90&alignment=utc",
    "/protocol/volume",
    "/gauges?limit=100",
    "/bribes?limit=100",
    "/epochs?limit=100",
    "/markets/bribes?limit=100",
    "/votes?limit=100",
    "/votes?view=current&limit=100",
    "/bridge?limit=100",
    "/auto-manage/vaults",  # a live read of every chain's vault book (kept 15 s) and their indexed state
    "/xcore",
    "/xcore/rate-history?interval=1d&from=earliest&limit=500",  # every event of the token's history
    "/xcore/rate-history?interval=15m&limit=500",  # the last 24 hours in 96 periods
    "/xcore/epochs?limit=52",
    f"/accounts/{HOLDER}/xcore",
    f"/accounts/{VOTER}/voting-positions",
    f"/accounts/{VOTER}/votes?limit=100",
    f"/accounts/{VOTER}/votes?view=current&limit=100",
    f"/accounts/{VOTER}/activity?limit=100",
    f"/accounts/{VOTER}/rewards?limit=100",
    f"/accounts/{HEAVY}/voting-positions?limit=100",
    f"/accounts/{HEAVY}/activity?limit=100",
    f"/accounts/{HEAVY}/rewards?limit=100",
    f"/accounts/{PROVIDER}/liquidity-positions?limit=100",
    f"/accounts/{PROVIDER}/rewards?limit=100",
    f"/accounts/{HEAVY}/liquidity-positions?limit=100",
    f"/accounts/{VOTER}/portfolio",
    f"/accounts/{HEAVY}/portfolio",
)
# A /v1 route whose path is known once the dataset is: the core token's price history over the 500
# whole hours before chain 56's latest snapshot (one full page; every period holds four published
# snapshots and a valuation).
PRICE_HISTORY_PERIODS = 500
PRICE_HISTORY_LABEL = f"/tokens/56/<coreToken>/price-history?interval=1h&limit={PRICE_HISTORY_PERIODS}"
# and the pool detail of chain 56's largest concentrated-liquidity pool (every part of the answer)
POOL_LABEL = "/pools/56/<largest CL pool>?scope=all"
# and the ticks of chain 56's CL pool with the most ticks, given a synthetic 12,000-tick table before
# the APIs start (bench/ticks.py): its page 1 and page 50; and the runner-up's devnet table
TICKS_LABEL = "/pools/56/<CL pool>/ticks?scope=all"


def price_history_path(client, core: str) -> str:
    from ve_analytics.core.epochs import HOUR, iso

    latest = client.command("SELECT toInt64(toUnixTimestamp(max(snapshot_at))) FROM snapshot_runs FINAL "
                            f"WHERE chain_id = {STATS_CHAIN_ID} AND status = 'success'")
    end = int(latest) // HOUR * HOUR
    start = end - PRICE_HISTORY_PERIODS * HOUR
    return (f"/tokens/{STATS_CHAIN_ID}/{core}/price-history?interval=1h&limit={PRICE_HISTORY_PERIODS}"
            f"&from={iso(start)}&to={iso(end)}")


def pool_path(client) -> str:
    address = client.command(
        "SELECT argMax(pool_address, tuple(snapshot_at, tvl_usd)) FROM pool_snap15m FINAL "
        f"WHERE chain_id = {STATS_CHAIN_ID} AND pool_type = 'cl'")
    return f"/pools/{STATS_CHAIN_ID}/{address}?scope=all"


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]
    return statistics.median(ordered), p99


def http_client() -> urllib3.PoolManager:
    """The bench's HTTP client: urllib3, the library clickhouse-connect reads the raw SQL with, so
    both sides of a ratio pay the same client cost (httpx takes about 4x as long as urllib3 to
    read a 2 MB body, which would be charged to the API); identity: the uncached figure compares
    JSON to its SQL, and content coding is a cost of its own."""
    return urllib3.PoolManager(headers={"Accept-Encoding": "identity"}, timeout=120, retries=False)


def fetch(http: urllib3.PoolManager, url: str, ok: tuple[int, ...] = (200,)) -> urllib3.BaseHTTPResponse:
    r = http.request("GET", url)
    if r.status not in ok:
        raise RuntimeError(f"{url} answered {r.status}: {r.data[:200]!r}")
    return r


def time_http(http: urllib3.PoolManager, url: str, n: int) -> list[float]:
    for _ in range(min(20, n)):  # warm-up: connections, caches, JIT-free Python paths
        fetch(http, url)
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        fetch(http, url)
        out.append(time.perf_counter() - t0)
    return out


def time_interleaved(http: urllib3.PoolManager, url: str, client, book: QueryBook, calls: list[Call],
                     n: int) -> tuple[list[float], list[float]]:
    """`n` timings of the uncached API and of the route's queries through clickhouse-connect, one of
    each in turn, so the drift of a shared machine weighs on both alike. The queries are every data
    query of the handler with its bound values, as the API runs them per uncached request (the
    latest snapshot comes from the worker's pointer, api/snapshots.py, not from a query)."""

    def sql_once() -> None:
        for name, bound in calls:
            client.query(book[name].text, parameters=bound).result_rows

    def http_once() -> None:
        fetch(http, url)

    for _ in range(min(20, n)):  # warm-up: connections, caches
        http_once()
        sql_once()
    api, sql = [], []
    for _ in range(n):
        for run, out in ((http_once, api), (sql_once, sql)):
            t0 = time.perf_counter()
            run()
            out.append(time.perf_counter() - t0)
    return api, sql


RAN: dict[str, set[str]] = {}  # route name: the files its measured requests ran, all together


def traced(family: Family, client, settings: Settings, url: str) -> list[Call]:
    """The route's SQL as its handler runs it for `url` (bench.trace), with the values bound: the
    files its @runs declares, in order; a route whose requests choose between files (/v1/votes'
    views) may run part of them here, as long as its measured requests run them all together
    (`check_every_file_ran`)."""
    route, _, calls = trace_route(family, url, client, settings)
    # a file read twice in a row is one step (prices_at.sql: the recent observations, then the older ones)
    ran = [name for i, (name, _) in enumerate(calls) if i == 0 or name != calls[i - 1][0]]
    declared = iter(route.sql)
    if not all(name in declared for name in ran):  # an ordered subsequence of the declared files
        raise SystemExit(f"{url}: the handler ran {tuple(ran)}, not in the order of the route's {route.sql}")
    RAN.setdefault(f"{family.prefix} {route.name}", set()).update(ran)
    return calls


def check_every_file_ran(families: tuple[Family, ...]) -> None:
    """Each measured route's requests ran every file it declares: none is timed by a shortcut."""
    for family in families:
        for route in family.routes:
            key = f"{family.prefix} {route.name}"
            if key in RAN and RAN[key] != set(route.sql):
                raise SystemExit(f"{family.prefix}: the measured requests of {route.name} ran {sorted(RAN[key])} of "
                                 f"its {route.sql}; measure requests that run them all")


class Heartbeat:
    """Prints, every `every` seconds while the backfill runs, the rows its snapshot assets have
    written so far: the backfill itself reports a snapshot run only when it ends."""

    def __init__(self, settings: Settings, every: float = 60.0):
        self.settings, self.every = settings, every
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.t0 = time.monotonic()

    def __enter__(self) -> "Heartbeat":
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(5)

    def _run(self) -> None:
        from ve_analytics.warehouse.client import get_client

        client = None
        while not self.stop.wait(self.every):
            try:
                client = client or get_client(self.settings)
                rows = client.query(
                    "SELECT table, sum(rows) FROM system.parts WHERE active AND database = currentDatabase() "
                    "AND (table LIKE '%snap15m' OR table = 'snapshot_runs') GROUP BY table ORDER BY table"
                ).result_rows
                text = ", ".join(f"{t.removesuffix('_snap15m')} {n:,}" for t, n in rows) or "none yet"
            except Exception as exc:  # noqa: BLE001 - progress only
                text = f"({type(exc).__name__})"
            print(f"  ... {time.monotonic() - self.t0:.0f} s, snapshot rows so far: {text}", flush=True)


def dataset_size(client) -> str:
    """Row counts of every table of the warehouse database (views excluded)."""
    tables = client.query(
        "SELECT name FROM system.tables WHERE database = currentDatabase() AND engine NOT LIKE '%View' ORDER BY name"
    ).result_rows
    parts = [f"{name}={client.command(f'SELECT count() FROM `{name}`'):,}" for (name,) in tables]
    return textwrap.fill(", ".join(parts), width=110, initial_indent="  ", subsequent_indent="  ")


def items(body: dict) -> int:
    """Rows in a response: list length, the history length of a detail object, or the periods of a
    /v1 period answer (every chain's)."""
    data = body.get("data")
    if isinstance(data, list):
        return len(data)
    if isinstance(data, dict) and isinstance(data.get("history"), list):
        return len(data["history"])
    if isinstance(data, dict) and isinstance(data.get("periods"), list):  # a price history page
        return len(data["periods"])
    if isinstance(data, dict) and isinstance(data.get("ticks"), list):  # a page of a pool's ticks
        return len(data["ticks"])
    if isinstance(data, dict) and isinstance(data.get("rows"), list):  # a /v1 collection page
        return len(data["rows"])
    if isinstance(data, dict) and "periodSeconds" in data:
        return sum(len(c["periods"] or ()) for c in data["chains"])
    return 1


def progress(text: str) -> None:
    if sys.stderr.isatty():
        sys.stderr.write("\r\033[K" + text)
        sys.stderr.flush()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--days", type=int, default=90, help="devnet history in days (default 90; 7 for a quick check)")
    ap.add_argument("-n", type=int, default=500, help="requests per measurement")
    ap.add_argument("--only", default="", metavar="TEXT[,TEXT...]",
                    help="measure only the routes whose label contains one of these texts (the whole stack still starts)")
    ap.add_argument("--hold", action="store_true",
                    help="after the figures, keep the stack running (URLs printed) until interrupted, to profile by hand")
    args = ap.parse_args(argv)
    unwind_on_signals()  # an interrupt or kill stops the services started below
    setup_logging("WARNING")

    work = Path(tempfile.mkdtemp(prefix="ve-bench-"))
    ports = {name: free_port() for name in ("warehouse", "devnet", "api", "api_nocache", "hello")}
    env = {
        "VEA_DATA_DIR": str(work),
        "WAREHOUSE_PORT": str(ports["warehouse"]),
        "DEVNET_PORT": str(ports["devnet"]),
        "DEVNET_HISTORY_DAYS": str(args.days),
        "DEVNET_CHAINS": "56",  # the routes measured here are chain 56's (/api/stats, /api/v1)
        "SNAPSHOT_PARTITION_DAYS": str(args.days + 2),
        "DAGSTER_HOME": str(work / "dagster"),
        "DEVNET_DATA_DIR": str(work),
        "LOG_LEVEL": "WARNING",
        "WAREHOUSE_QUERY_LOG": str(work / "query_log.jsonl"),  # bench/load.py counts the API's queries
    }
    os.environ.update(env)
    (work / "dagster").mkdir(parents=True, exist_ok=True)
    settings = Settings.from_env()
    services: list[Service] = []

    def start(name: str, argv: list[str], ready: str, extra: dict | None = None) -> None:
        print(f"starting {name} ...", flush=True)
        services.append(Service(name, argv, ready, env={**env, **(extra or {})}, log_path=work / f"{name}.log").start(600))

    try:
        start("warehouse", cli("warehouse"), f"http://127.0.0.1:{ports['warehouse']}/ping")
        # the devnet is a distribution of its own; its chain book is the product's configuration
        start("devnet", [sys.executable, "-m", "devnet"], f"http://127.0.0.1:{ports['devnet']}/health")
        from ve_analytics.cli.dagster_services import DagsterServices
        from ve_analytics.cli.stack import write_devnet_book
        from ve_analytics.orchestration.backfill import backfill
        from ve_analytics.warehouse.migrate import migrate

        book = write_devnet_book(f"http://127.0.0.1:{ports['devnet']}", settings.chain_book)
        # snapshots over the whole history (the chain book's snapshotDays), so the history routes
        # measured below serve every 15-minute row of it
        document = json.loads(book.read_text())
        for chain in document["chains"]:
            chain["snapshotDays"] = args.days
        book.write_text(json.dumps(document))
        settings = Settings.from_env()
        migrate(settings)
        print("starting dagster-webserver and dagster-daemon ...", flush=True)
        with DagsterServices(settings, work / "logs", port=free_port(), schedules=False) as dagster:
            t0 = time.perf_counter()
            with Heartbeat(settings):
                backfill(dagster.settings)
            backfill_s = time.perf_counter() - t0
        from bench.curation import publish

        publish(settings, [STATS_CHAIN_ID], work)  # the /v1 token routes rest on a curation publication
        from bench.ticks import DEPTH, deep_table, depth_line
        from ve_analytics.warehouse.client import get_client

        from bench.accounts import ACCOUNT as heavy, DEPTH as HEAVY_DEPTH, heavy_account, page_path

        with get_client(settings) as writer:  # before the APIs start: the cached one caches per snapshot
            deep = deep_table(writer, STATS_CHAIN_ID)
            print(heavy_account(writer, STATS_CHAIN_ID), flush=True)
        print(f"ticks: {deep.describe()}", flush=True)
        start("api", cli("api", "--port", str(ports["api"])), f"http://127.0.0.1:{ports['api']}/api/stats/openapi.json")
        start(
            "api_nocache",
            cli("api", "--port", str(ports["api_nocache"])),
            f"http://127.0.0.1:{ports['api_nocache']}/api/stats/openapi.json",
            {"API_CACHE_MAX_BYTES": "0"},
        )
        workers = settings.api_workers  # the API's default: one per core; the hello-world gets as many
        start("hello", [sys.executable, "-m", "bench.hello", str(ports["hello"]), str(workers)],
              f"http://127.0.0.1:{ports['hello']}/hello")

        from ve_analytics.warehouse.client import API, get_client

        sql_client = get_client(settings, user=API)  # the API's credentials
        print(f"\ndataset: {args.days}-day devnet history, backfilled in {backfill_s:.0f} s; rows:", flush=True)
        print(dataset_size(sql_client))

        core = settings.contracts(STATS_CHAIN_ID)["coreToken"].lower()
        holder = sql_client.command("SELECT argMax(account, n) FROM (SELECT account, count() AS n FROM xcore_events "
                                    f"WHERE chain_id = {STATS_CHAIN_ID} AND account != '' GROUP BY account)")
        voter = sql_client.command(  # the busiest voter (the owner of the most veNFTs may never vote)
            "SELECT argMax(owner, n) FROM (SELECT owner, count() AS n FROM vote_actions WHERE chain_id = "
            f"{STATS_CHAIN_ID} AND owner != '' GROUP BY owner)")
        provider = sql_client.command(
            "SELECT argMax(account, n) FROM (SELECT account, count() AS n FROM liquidity_position_snap15m WHERE "
            f"chain_id = {STATS_CHAIN_ID} AND account != {{h:String}} GROUP BY account)", parameters={"h": heavy})
        names = {CORE: (core, "<coreToken>"), HOLDER: (holder, "<xCORE holder>"), VOTER: (voter, "<voter>"),
                 HEAVY: (heavy, "<heavy account>"), PROVIDER: (provider, "<provider>")}
        http = http_client()
        plan = []  # (label, url path, SQL calls, items)
        print("tracing each route's handler for its SQL ...", flush=True)
        # labels: /api/stats routes by their path below the prefix, /v1 routes by their whole path
        for family, book, shown, paths in ((STATS, BOOK, "", STATS_ROUTES), (V1, V1_BOOK, "/v1", V1_ROUTES)):
            for label in paths:
                path, shown_label = family.prefix + label, shown + label
                for placeholder, (value, name) in names.items():
                    path, shown_label = path.replace(placeholder, value), shown_label.replace(placeholder, name)
                calls = traced(family, sql_client, settings, path)
                r = fetch(http, f"http://127.0.0.1:{ports['api_nocache']}{path}")
                plan.append((shown_label, path, book, calls, items(r.json())))
        path = "/v1" + price_history_path(sql_client, core)
        calls = traced(V1, sql_client, settings, path)
        r = fetch(http, f"http://127.0.0.1:{ports['api_nocache']}{path}")
        plan.append(("/v1" + PRICE_HISTORY_LABEL, path, V1_BOOK, calls, items(r.json())))
        path = "/v1" + pool_path(sql_client)
        calls = traced(V1, sql_client, settings, path)
        r = fetch(http, f"http://127.0.0.1:{ports['api_nocache']}{path}")
        plan.append(("/v1" + POOL_LABEL, path, V1_BOOK, calls, items(r.json())))
        for sub in ("/trailing", "/bribes", "/history", "/daily"):  # the same pool's sub-routes
            sub_path = path.replace("?", sub + "?")
            calls = traced(V1, sql_client, settings, sub_path)
            r = fetch(http, f"http://127.0.0.1:{ports['api_nocache']}{sub_path}")
            plan.append(("/v1" + POOL_LABEL.replace("?", sub + "?"), sub_path, V1_BOOK, calls, items(r.json())))
        nocache = f"http://127.0.0.1:{ports['api_nocache']}"
        top = fetch(http, nocache + "/v1/gauges?limit=1&chainIds=56").json()["data"]["rows"][0]
        path = f"/v1/gauges/56/{top['address']}"
        plan.append(("/v1/gauges/56/<most-voted gauge>", path, V1_BOOK, traced(V1, sql_client, settings, path), 1))
        for sub in ("/history", "/rewards", "/bribes"):  # the same gauge's sub-routes
            calls = traced(V1, sql_client, settings, path + sub)
            plan.append((f"/v1/gauges/56/<most-voted gauge>{sub}", path + sub, V1_BOOK, calls,
                         items(fetch(http, nocache + path + sub).json())))
        guid = fetch(http, nocache + "/v1/bridge?limit=1").json()["data"]["rows"][0]["guid"]
        path = f"/v1/bridge/{guid}"
        plan.append(("/v1/bridge/<newest message>", path, V1_BOOK, traced(V1, sql_client, settings, path), 1))
        vault = next(v.address.lower() for v in settings.vaults(56) if v.kind == "cl")
        for sub in ("", "/history?interval=1h&days=7", "/rebalances?limit=100", "/activity?limit=100"):
            path = f"/v1/auto-manage/vaults/56/{vault}{sub}"
            plan.append((f"/v1/auto-manage/vaults/56/<a CL vault>{sub}", path, V1_BOOK,
                         traced(V1, sql_client, settings, path), items(fetch(http, nocache + path).json())))
        epoch = fetch(http, nocache + "/v1/epochs?limit=2&chainIds=56").json()["data"]["rows"][-1]["epochStart"]
        path = f"/v1/epochs/56/{epoch}"
        plan.append(("/v1/epochs/56/<last closed epoch>", path, V1_BOOK, traced(V1, sql_client, settings, path),
                     items(fetch(http, nocache + path).json())))
        ticks = [("/v1" + TICKS_LABEL, deep.path),
                 (f"/v1{TICKS_LABEL} page {DEPTH}", deep.page_path(lambda url: fetch(http, url).json(), nocache))]
        if deep.runner_up:
            ticks.append((f"/v1{TICKS_LABEL.replace('<CL pool>', '<CL pool 2>')} ({deep.runner_up[1]} devnet ticks)",
                          deep.runner_up_path()))
        path = page_path(lambda url: fetch(http, url).json(), nocache, f"/v1/accounts/{heavy}/activity?limit=100")
        ticks.append((f"/v1/accounts/<heavy account>/activity?limit=100 page {HEAVY_DEPTH}", path))
        for label, path in ticks:
            calls = traced(V1, sql_client, settings, path)
            plan.append((label, path, V1_BOOK, calls, items(fetch(http, nocache + path).json())))

        check_every_file_ran((STATS, V1))
        # a route of several hundred rows (the devnet has too few pools for a 500-row /pools)
        token_rows = next(rows for label, _, _, _, rows in plan if label == "/tokens/<coreToken>")
        only = tuple(text for text in args.only.split(",") if text)

        def chosen(label: str) -> bool:
            return not only or any(text in label for text in only)

        plan = [entry for entry in plan if chosen(entry[0])]
        print(f"\nrequests per figure: {args.n}, sequential, keep-alive, one client; "
              f"raw SQL = the handler's files (column 'sql'), clickhouse-connect, same user, timed in turn with "
              f"the uncached API\n")
        hello = percentiles(time_http(http, f"http://127.0.0.1:{ports['hello']}/hello", args.n))
        width = max(len(label) for label, *_ in plan)
        header = (f"{'route (/api/stats, /v1)':{width}} {'sql':>3} {'rows':>5}  {'uncached ms p50/p99':>18}  "
                  f"{'raw SQL ms p50/p99':>18}  {'cached ms p50/p99':>18}  {'uncached/SQL':>12} {'cached/hello':>12}")
        print(header)
        print("-" * len(header), flush=True)

        def ms(p: tuple[float, float]) -> str:
            return f"{p[0]*1e3:8.2f} /{p[1]*1e3:8.2f}"

        p50 = {}  # label: (uncached (p50, p99), raw SQL p50)
        for label, path, book, calls, rows in plan:
            progress(f"{label}: uncached and raw SQL, interleaved ...")
            unc_samples, sql_samples = time_interleaved(http, f"http://127.0.0.1:{ports['api_nocache']}{path}",
                                                        sql_client, book, calls, args.n)
            unc, sql = percentiles(unc_samples), percentiles(sql_samples)
            p50[label] = (unc, sql[0])
            progress(f"{label}: cached ...")
            cached = percentiles(time_http(http, f"http://127.0.0.1:{ports['api']}{path}", args.n))
            progress("")
            print(
                f"{label:{width}} {len(calls):3d} {rows:5d}  {ms(unc)}  {ms(sql)}  {ms(cached)}  "
                f"{unc[0]/sql[0]:12.2f} {cached[0]/hello[0]:12.2f}",
                flush=True,
            )
        print(f"\nSanic hello-world p50/p99: {hello[0]*1e3:.2f}/{hello[1]*1e3:.2f} ms")
        if ticks[0][0] in p50 and ticks[1][0] in p50:
            (page1, sql1), (deep_page, sql_deep) = p50[ticks[0][0]], p50[ticks[1][0]]
            print(depth_line(page1, deep_page, sql1, sql_deep))

        api_url = f"http://127.0.0.1:{ports['api']}"
        etag = fetch(http, api_url + "/api/stats/protocol").headers["etag"]
        by_name = {svc.name: svc for svc in services}
        loaded = {"/protocol": "/api/stats/protocol",
                  f"{token_rows}-row /tokens/<coreToken>": f"/api/stats/tokens/{core}",
                  "/v1/chains (multichain)": "/v1/chains",
                  "/v1/protocol (multichain)": "/v1/protocol",
                  "365-day /protocol/history": "/api/stats/protocol/history?days=365",
                  **{label: path for label, path, *_ in plan
                     if label.startswith(("/v1/pools/", "/v1/gauges", "/v1/bribes", "/v1/epochs", "/v1/markets", "/v1/votes",
                                          "/v1/bridge", "/v1/auto-manage", "/v1/xcore",
                                          "/v1/accounts"))}}
        load_report(
            hello_url=f"http://127.0.0.1:{ports['hello']}", api_url=api_url,
            routes={label: path for label, path in loaded.items() if chosen(label)},
            etag_path="/api/stats/protocol", etag=etag, workers=workers,
            warehouse_pid=by_name["warehouse"].proc.pid, api_pid=by_name["api"].proc.pid,
            cold={"/protocol/history?days=364": "/api/stats/protocol/history?days=364",
                  "/votes?latestOnly=true": "/api/stats/votes?latestOnly=true"},
            query_log=Path(env["WAREHOUSE_QUERY_LOG"]), api_user=settings.api_reader_user)
        if args.hold:
            print("\nholding the stack (Ctrl-C stops it): "
                  + ", ".join(f"{name} http://127.0.0.1:{port}" for name, port in ports.items())
                  + f"; data in {work}", flush=True)
            threading.Event().wait()
    finally:
        for svc in reversed(services):
            svc.stop()
        shutil.rmtree(work, ignore_errors=True)  # a 90-day warehouse is hundreds of MB
    return 0


if __name__ == "__main__":
    sys.exit(main())
