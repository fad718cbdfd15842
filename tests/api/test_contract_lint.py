"""Redocly's `recommended` ruleset over the three served contracts (/api/stats, /v1, the vault
API): no error, and no warning but the two the design keeps, each for its stated reason:
- `operation-4xx-response` on OPTIONS: a CORS preflight is answered 204 before any validation,
  whatever the path's parameters, so it has no 4xx to document;
- `no-unused-components` for the responses NotFound and MethodNotAllowed: what every family
  answers for a path no route matches and a method it does not serve, which no operation covers.
Redocly's CLI is installed by `make schemas` (which `make test` runs) from npm.
"""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import httpx
import pytest

from support.api_server import ApiServer

ROOT = Path(__file__).resolve().parents[2]
REDOCLY = ROOT / ".cache" / "redocly-2.77.0" / "node_modules" / ".bin" / "redocly"
CONTRACTS = ("/api/stats/openapi.json", "/openapi.json", "/api/v1/openapi.json")
GENERIC_RESPONSES = {"#/components/responses/NotFound", "#/components/responses/MethodNotAllowed"}


@pytest.fixture(scope="module")
def server(fresh_settings, fresh_data):
    with ApiServer(fresh_settings, log_path=fresh_settings.data_dir / "api-lint.log",
                   families=("stats", "v1", "vaults")) as api:
        yield api


def lint(path: Path) -> dict:
    assert REDOCLY.exists(), "run `make schemas` (make test does) to install Redocly's CLI"
    done = subprocess.run([str(REDOCLY), "lint", "--extends", "recommended", "--format", "json", str(path)],
                          capture_output=True, text=True, timeout=300, cwd=path.parent)
    return json.loads(done.stdout)


def explained(problem: dict) -> bool:
    pointer = problem["location"][0]["pointer"]
    if problem["ruleId"] == "operation-4xx-response":
        return pointer.endswith("/options/responses")
    if problem["ruleId"] == "no-unused-components":
        return pointer in GENERIC_RESPONSES
    return False


@pytest.mark.parametrize("contract", CONTRACTS)
def test_redocly_recommended_finds_no_error_and_only_the_explained_warnings(server, contract, tmp_path):
    path = tmp_path / "openapi.json"
    path.write_bytes(httpx.get(server.url + contract, timeout=60).raise_for_status().content)
    report = lint(path)
    assert report["totals"]["errors"] == 0, [p for p in report["problems"] if p["severity"] == "error"][:5]
    unexplained = [(p["ruleId"], p["location"][0]["pointer"], p["message"]) for p in report["problems"] if not explained(p)]
    assert unexplained == []
    paths = httpx.get(server.url + contract, timeout=60).json()["paths"]
    preflights = sum(1 for p in report["problems"] if p["ruleId"] == "operation-4xx-response")
    assert preflights == len(paths)  # one per path: its preflight, and no other operation
