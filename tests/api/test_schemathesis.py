"""Schemathesis over the whole /api/stats contract, against the real server with full data.

Every operation of the contract is exercised with Schemathesis's generated requests, valid and
invalid (its coverage phase: boundary and just-out-of-bounds values of every parameter, wrong
types, unsupported methods; its fuzzing phase: up to `MAX_EXAMPLES` random cases, positive and
negative), for the GET, HEAD and OPTIONS operation of every route, sent over HTTP to the `fresh` API
(seeded protocol, market and governance rows; the devnet chain RPC behind /live/dynamic-fees).
Each response must be no 5xx, a status code the operation documents, the documented content
type, and a body and headers matching the documented schemas; invalid input must be refused
with a 4xx (the contract documents a 400 per parameter).

Schemathesis parametrizes at collection time, before any server runs, so the schema it
generates from is built from the route table by the same function the server serves
`/api/stats/openapi.json` with; `served_contract` checks that the live document is exactly
that one, so what is fuzzed is what is served. (`schemathesis.pytest.from_fixture`, the lazy
loader, does not run under pytest 9.)

Deterministic (`derandomize`), so CI sees the same cases each run.
"""
from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    positive_data_acceptance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from ve_analytics.api.cron import CRON_PATH
from ve_analytics.api.openapi import build_openapi
from ve_analytics.api.stats.routes import FAMILY
from api_settings import settings_for

MAX_EXAMPLES = 30  # fuzzing cases per operation; the coverage phase adds its own deterministic ones
PRODUCTION_HOST = settings_for("http://unused", "unused", None).production_host  # what the test servers publish

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
    negative_data_rejection,  # schema-invalid input is refused with a 4xx
    positive_data_acceptance,  # schema-valid input is not refused (2xx, 304, or 404 for an unknown resource)
]

CONTRACT = build_openapi(FAMILY, PRODUCTION_HOST)
schema = schemathesis.openapi.from_dict(CONTRACT)


def test_the_fuzzed_contract_is_the_whole_stats_surface():
    assert sorted(CONTRACT["paths"]) == sorted(FAMILY.full_path(route) for route in FAMILY.routes)
    assert not any(path.startswith(CRON_PATH.rsplit("/", 1)[0]) for path in CONTRACT["paths"])  # internal: never published
    operations = [result.ok().label for result in schema.get_all_operations()]
    assert len(operations) == 3 * len(FAMILY.routes)  # GET, HEAD and the OPTIONS preflight of every route


@pytest.fixture(scope="session")
def served_contract(fresh, openapi):
    """The fresh API (RPC configured), once its served contract is known to be the one fuzzed."""
    assert openapi == CONTRACT, "the served /api/stats/openapi.json differs from build_openapi(FAMILY, ...)"
    return fresh


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    # the generated inputs are small; the server's latency is not what is measured here
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)
def test_contract_holds_for_generated_requests(case, served_contract):
    case.call_and_validate(base_url=served_contract.url, checks=CHECKS)
