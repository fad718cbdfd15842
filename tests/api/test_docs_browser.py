"""The reference page in a real headless browser (Debian's chromium, installed by `make install`).

The browser gets no route to the internet (every non-loopback request goes to a dead proxy), so
the page must render from the API alone: every route of the live OpenAPI document is listed and
a `#try=` fragment calls a route and shows its JSON.
"""
from __future__ import annotations

import html
import re
import shutil
import subprocess

import pytest

BROWSER_TIMEOUT = 40


@pytest.fixture(scope="module")
def chromium() -> str:
    path = shutil.which("chromium")
    if path is None:
        pytest.fail("chromium is not installed; `make install` installs it (apt-get install -y chromium)")
    return path


def render(chromium: str, url: str, tmp_path) -> str:
    argv = [
        chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
        "--disable-dev-shm-usage", f"--user-data-dir={tmp_path / 'chromium-profile'}",
        # loopback goes direct; anything else would hit a closed port: the page must not need it
        "--proxy-server=http://127.0.0.1:9",
        "--virtual-time-budget=5000", "--dump-dom", url,
    ]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=BROWSER_TIMEOUT)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def section_paths(dom: str) -> set[str]:
    return {html.unescape(p) for p in re.findall(r'<section class="operation"[^>]*data-path="([^"]+)"', dom)}


def try_response(dom: str) -> tuple[str, str]:
    match = re.search(r'<pre class="try-response" data-status="(\d+)">(.*?)</pre>', dom, flags=re.S)
    assert match, "no Try-it response was rendered"
    return match.group(1), html.unescape(match.group(2))


def test_docs_page_renders_every_route_and_tries_one(chromium, fresh, openapi, tmp_path):
    dom = render(chromium, fresh.url + "/api/stats/docs#try=/api/stats/config", tmp_path)
    assert 'id="load-error"' not in dom
    paths = set(openapi["paths"])
    assert section_paths(dom) == paths
    for path in paths:
        assert html.escape(path) in dom
    assert "MIT" in dom and "0.1.0" in dom
    status, body = try_response(dom)
    assert status == "200" and '"ok": true' in body and '"chainId": 56' in body
    # the response schema of each route is rendered (the `data` member of the success envelope)
    assert dom.count("<h4>Response schema (200 data)</h4>") == len(paths)


def test_docs_page_try_with_query_parameters(chromium, fresh, tmp_path):
    dom = render(chromium, fresh.url + "/api/stats/docs#try=/api/stats/protocol/history?days=0", tmp_path)
    status, body = try_response(dom)
    assert status == "400" and '"code": "invalid_days"' in body  # the form sent the query as given


def test_long_patterns_are_left_to_the_words_of_the_description(chromium, v1, tmp_path):
    api, _, _ = v1
    dom = html.unescape(render(chromium, api.url + "/v1/docs", tmp_path))
    assert 'id="load-error"' not in dom
    chain_ids = next(p for p in api.http.get(api.url + "/openapi.json").json()["paths"]["/v1/pools"]["get"]["parameters"]
                     if p.get("name") == "chainIds")
    assert len(chain_ids["schema"]["pattern"]) > 60  # the machine's rule, in the contract
    assert chain_ids["schema"]["pattern"] not in dom
    assert "up to 32 comma-separated chain IDs, each an integer from 1 to 2147483647" in dom  # the rule, in words
    shown = re.findall(r"matching ([^<\s]+)", dom)
    assert shown and max(map(len, shown)) <= 60, [s for s in shown if len(s) > 60][:2]  # short patterns are still shown
