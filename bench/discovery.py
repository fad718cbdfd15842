"""The discovery figures of the scale bench (bench/scale.py's last step): /v1/pools and /v1/tokens.

On the scale bench's warehouse, after its snapshots:

1. the repository's curation (curation/curation.json) is published with
   `assets.curation.publish_curation`, checked against every chain's latest snapshot (the scaled
   devnet keeps the devnet table's tokens and pools; the synthesized pools are uncurated); with
   fewer chains than the source names (a quick run), a copy restricted to them is published;
2. an API serving /v1 alone starts, one worker, response cache off;
3. figures, each a ratio taken in this run:
   a. uncached API p50 / raw SQL p50 of discovery pages: the SQL is every query the handler runs
      with its bound values (bench/trace.py runs the handler once to record them: the chains'
      anchors, their 24h and 7d flow evidence, the page, the facets), through clickhouse-connect,
      timed in turn with the API (bench/run.py time_interleaved). The API runs a page and its
      facets concurrently, the SQL side one after the other;
   b. traversal depth: /v1/pools?scope=all&limit=50 followed by pageInfo.nextCursor to its end;
      page 50 (its URL holds page 49's cursor) against page 1, uncached, interleaved with their
      SQL, p50 and p99 (goal: page 50 <= 1.2 x page 1, the keyset needs no OFFSET). Checked: page
      50 is full and has a next cursor, the traversal's rows are distinct and as many as the
      facets count.
A cached page is measured by bench/run.py, not here. The API log stays in the work folder (its
tail is printed when a request fails).
"""
from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import Any, Callable
from urllib.parse import quote

import orjson

from bench.curation import publish
from bench.run import V1_BOOK, fetch, http_client, percentiles, time_interleaved
from bench.trace import Call, trace_route

STALE_AFTER_MINUTES = 24 * 60  # no chain is stale for the bench's age; chain 5042 (its subgraph 36 h behind) is
ROUTES = ("/v1/pools", "/v1/pools?scope=all&limit=50", "/v1/tokens?curated=all", "/v1/pools?scope=all&includeFacets=true")
TRAVERSAL = "/v1/pools?scope=all&limit=50"
PAGE_SIZE, DEPTH, DEPTH_GOAL = 50, 50, 1.2
N, N_DEPTH, WARM_UP = 50, 50, 10  # requests per figure, per page of the depth figure; warm-up rounds of the latter
MAX_PAGES = 2000  # a traversal that does not end is a bug


class DiscoveryFailed(SystemExit):
    """Ends the bench with the reason (the figures printed before it stay)."""


def say(text: str = "") -> None:
    print(text, flush=True)


def ms(p: tuple[float, float]) -> str:
    return f"{p[0] * 1e3:8.2f} /{p[1] * 1e3:8.2f}"


def start_api(env: dict[str, str], work: Path, services: list) -> tuple[str, Any]:
    """`ve-analytics api --families v1`, one worker, no response cache: (its base URL, its Service)."""
    from ve_analytics.cli.processes import Service, cli, free_port

    port = free_port()
    extra = {"API_PORT": str(port), "API_WORKERS": "1", "API_CACHE_MAX_BYTES": "0",
             "STALE_AFTER_MINUTES": str(STALE_AFTER_MINUTES), "LOG_LEVEL": "INFO"}  # INFO: its start and stop
    base = f"http://127.0.0.1:{port}"
    api = Service("api-v1", cli("api", "--families", "v1"), f"{base}/openapi.json", env={**env, **extra},
                  log_path=work / "api-v1.log")
    services.append(api)  # stopped with the bench's other services
    return base, api.start(300)


def failed(work: Path, what: str, exc: BaseException, api: Any) -> DiscoveryFailed:
    """The failure, with the API process's state and the tail of its log (its traceback, if any)."""
    log = work / "api-v1.log"
    tail = log.read_text(errors="replace").splitlines()[-80:] if log.exists() else []
    code = api.proc.poll()
    state = "still running" if code is None else f"exited with code {code}" + (
        " (a clean stop: a SIGTERM or SIGINT from outside the bench?)" if code == 0 else "")
    return DiscoveryFailed(f"discovery: {what} failed: {exc}\n-- the API process (pid {api.proc.pid}) {state}; its log "
                           f"({log.name}), last {len(tail)} lines:\n" + "\n".join(tail))


def body(http, url: str) -> dict:
    return orjson.loads(fetch(http, url).data)


def with_param(url: str, param: str) -> str:
    return url + ("&" if "?" in url else "?") + param


def matched(http, url: str) -> int:
    """How many rows match `url`'s filters: its facets' chain counts (includeFacets=true)."""
    facets = body(http, url if "includeFacets=true" in url else with_param(url, "includeFacets=true"))["data"]["facets"]
    return sum(f["count"] for f in facets["chainIds"])


def interleaved(runs: list[Callable[[], None]], n: int, warm_up: int = WARM_UP) -> list[list[float]]:
    """`n` timings of each of `runs`, one of each in turn (after `warm_up` rounds)."""
    for _ in range(warm_up):
        for run in runs:
            run()
    out: list[list[float]] = [[] for _ in runs]
    for _ in range(n):
        for run, samples in zip(runs, out):
            t0 = time.perf_counter()
            run()
            samples.append(time.perf_counter() - t0)
    return out


def traverse(http, base: str) -> tuple[list[str], list[dict], float]:
    """Every page of TRAVERSAL: (the URL of each page, each page's body, seconds for the walk)."""
    urls, pages = [TRAVERSAL], []
    t0 = time.perf_counter()
    while len(pages) < MAX_PAGES:
        page = body(http, base + urls[-1])
        pages.append(page)
        info = page["pageInfo"]
        if not info["hasNextPage"]:
            return urls, pages, time.perf_counter() - t0
        urls.append(with_param(TRAVERSAL, "cursor=" + quote(info["nextCursor"], safe="")))
    raise RuntimeError(f"{TRAVERSAL}: still a next page after {MAX_PAGES} pages")


def discovery_figures(work: Path, env: dict[str, str], settings: Any, chain_ids: list[int], pools: int,
                      services: list) -> None:
    """Steps 1 to 3 (module docstring), then the report block."""
    from ve_analytics.api.v1.routes import FAMILY
    from ve_analytics.warehouse.client import API, get_client

    t0 = time.perf_counter()
    say("\ndiscovery: publishing the curation ...")
    outcome = publish(settings, chain_ids, work)
    say("discovery: starting the /v1 API (1 worker, response cache off) ...")
    base, api = start_api(env, work, services)
    settings = dataclasses.replace(settings, stale_after_minutes=STALE_AFTER_MINUTES)  # as the API's
    http = http_client()
    sql = get_client(settings, user=API)  # the API's credentials
    step = "the first request"
    try:
        first = body(http, base + ROUTES[0])
        states = ", ".join(f"{c['chainId']} {c['state']}" for c in first["meta"]["chains"])
        cur = first["meta"]["curation"]
        plan = []  # (url, calls, rows in the answer, rows matched)
        for url in ROUTES:
            step = f"{url} (traced, then fetched)"
            _, _, calls = trace_route(FAMILY, url, sql, settings)
            plan.append((url, calls, len(body(http, base + url)["data"]["rows"]), matched(http, base + url)))
        step = f"the traversal of {TRAVERSAL}"
        say(f"discovery: walking {TRAVERSAL} to its end ...")
        urls, pages, walk_s = traverse(http, base)
        depth = DEPTH if len(pages) > DEPTH else max(1, len(pages) - 1)  # a quick run has fewer pages
        keys = [(r["chainId"], r["address"]) for page in pages for r in page["data"]["rows"]]
        total = matched(http, base + TRAVERSAL)
        deep = pages[depth - 1]
        checks = [
            (f"page {depth} has {PAGE_SIZE} rows and a next cursor",
             len(deep["data"]["rows"]) == PAGE_SIZE and deep["pageInfo"]["nextCursor"] is not None),
            (f"{len(keys):,} rows over {len(pages)} pages = the facets' {total:,}", len(keys) == total),
            ("no row twice", len(set(keys)) == len(keys)),
        ]
        step = f"page {depth} of the traversal (traced)"
        first_calls = next(calls for url, calls, *_ in plan if url == TRAVERSAL)
        _, _, deep_calls = trace_route(FAMILY, urls[depth - 1], sql, settings)

        say(f"discovery: timing {len(plan)} pages against their SQL (n={N}), then page {depth} against page 1 (n={N_DEPTH}) ...")
        figures = []
        for url, calls, rows, found in plan:
            step = f"{url} (timed)"
            api_s, sql_s = time_interleaved(http, base + url, sql, V1_BOOK, calls, N)
            figures.append((url, calls, rows, found, percentiles(api_s), percentiles(sql_s)))

        def api_run(url: str) -> Callable[[], None]:
            return lambda: fetch(http, base + url)

        def sql_run(calls: list[Call]) -> Callable[[], None]:
            return lambda: [sql.query(V1_BOOK[name].text, parameters=bound).result_rows for name, bound in calls]

        step = f"page 1 and page {depth} (timed)"
        samples = interleaved([api_run(urls[0]), api_run(urls[depth - 1]), sql_run(first_calls), sql_run(deep_calls)], N_DEPTH)
        api1, api_d, sql1, sql_d = map(percentiles, samples)
    except Exception as exc:  # noqa: BLE001 - reported with the API's log, then the bench stops
        raise failed(work, step, exc, api) from exc
    finally:
        sql.close()

    ratio = api_d[0] / api1[0]
    width = max(len(url) for url in ROUTES)
    lines = [
        "",
        f"== discovery: /v1/pools and /v1/tokens, {len(chain_ids)} chains x {pools:,} pools (uncached API, 1 worker, "
        f"cache off; this step {time.perf_counter() - t0:.0f} s) ==",
        f"curation {cur['version']} (digest {cur['digest'][:12]}…): {outcome.publication.counts()['pools_curated']} "
        f"curated of {outcome.publication.counts()['pools_indexed']:,} indexed pools, "
        f"{outcome.publication.counts()['tokens']} curated tokens; chains: {states}",
        f"uncached p50 vs the p50 of its SQL (every query of the handler, bound values, clickhouse-connect, same user; "
        f"n={N}, timed in turn):",
        f"  {'route':{width}}  {'rows':>4} {'matched':>8}  {'uncached ms p50/p99':>19}  {'raw SQL ms p50/p99':>19}  "
        f"{'uncached/SQL':>12}  queries",
    ]
    for url, calls, rows, found, unc, raw in figures:
        lines.append(f"  {url:{width}}  {rows:4d} {found:8,}  {ms(unc):>19}  {ms(raw):>19}  {unc[0] / raw[0]:12.2f}  "
                     + ", ".join(name for name, _ in calls))
    verdict = "met" if ratio <= DEPTH_GOAL else "MISSED"
    where = f"page {depth}" + ("" if depth == DEPTH else f" (page {DEPTH} wanted: the traversal has {len(pages)} pages)")
    lines += [
        f"traversal of {TRAVERSAL}: {len(pages)} pages, {len(keys):,} rows, walked in {walk_s:.1f} s "
        f"({walk_s / len(pages) * 1e3:.1f} ms a page); " + "; ".join(f"{text}: {'ok' if ok else 'FAILED'}" for text, ok in checks),
        f"depth, {where} vs page 1 (uncached, n={N_DEPTH} each, interleaved with their SQL):",
        f"  page 1      API {ms(api1)} ms   SQL {ms(sql1)} ms",
        f"  page {depth:<6} API {ms(api_d)} ms   SQL {ms(sql_d)} ms",
        f"  page {depth} / page 1 p50: API {ratio:.2f} (goal <= {DEPTH_GOAL}: {verdict}), SQL {sql_d[0] / sql1[0]:.2f}",
    ]
    say("\n".join(lines))
    if not all(ok for _, ok in checks):
        raise DiscoveryFailed("discovery: a traversal check failed (above)")
