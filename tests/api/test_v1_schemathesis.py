"""Schemathesis over the whole /v1 contract, against the /v1 test stack (v1_stack.py: five
chains, fresh, stale and unavailable ones). As for /api/stats (test_schemathesis.py): every
operation (GET, HEAD, OPTIONS) with the coverage phase's boundary and invalid values and up to
MAX_EXAMPLES fuzzed cases; no 5xx but the documented 503s, only documented statuses, bodies and
headers matching the contract, schema-invalid input refused with a 4xx, schema-valid input
accepted (or 404 for a chain that is not public). The fuzzed document is built by the function
the server serves /openapi.json with; `served_contract` checks that both are the same."""
from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from test_schemathesis import CHECKS, MAX_EXAMPLES, PRODUCTION_HOST
from support import instant
from ve_analytics.api.app import REQUEST_HEAD_LIMIT as HEAD_LIMIT
from ve_analytics.api.cursors import MAX_CURSOR_CHARS
from ve_analytics.api.openapi import build_openapi
from ve_analytics.api.param_kinds import TIMESTAMP_PATTERN, parse_timestamp
from ve_analytics.api.v1.routes import FAMILY
from ve_analytics.core.epochs import is_epoch_start

CONTRACT = build_openapi(FAMILY, PRODUCTION_HOST)
schema = schemathesis.openapi.from_dict(CONTRACT)
# a chain without a published snapshot (the stack's chain 1) is the documented 503 chain_unavailable on a
# route that needs its data: an answer of the contract (status and body checked), not a server error
schema.config.checks.not_a_server_error.expected_statuses = ["2xx", "3xx", "4xx", "503"]


def test_the_fuzzed_contract_is_the_whole_v1_surface():
    assert sorted(CONTRACT["paths"]) == sorted(FAMILY.full_path(route) for route in FAMILY.routes)
    assert len([r.ok().label for r in schema.get_all_operations()]) == 3 * len(FAMILY.routes)


@pytest.fixture(scope="session")
def served_contract(v1):
    api, _, _ = v1
    assert api.contract.doc == CONTRACT, "the served /openapi.json differs from build_openapi(FAMILY, ...)"
    return api


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])
def test_v1_contract_holds_for_generated_requests(case, served_contract):
    # a valid cursor is one the server signed: any other well-formed one is 400 invalid_cursor, which
    # no schema can say (cursors are tested in test_v1_discovery_states and the devnet's discovery tests)
    cursor = (case.query or {}).get("cursor")
    if isinstance(cursor, str) and len(cursor) <= MAX_CURSOR_CHARS:
        del case.query["cursor"]
    # price-changes refuses a `to` later than the server time, before 1970 or off the calendar (a schema-valid
    # 30 February): 400 invalid_to, which no schema can say (tested in test_v1_token_prices)
    to = (case.query or {}).get("to")
    if case.path.endswith("/price-changes") and isinstance(to, str) and re.fullmatch(TIMESTAMP_PATTERN, to):
        try:
            refused = not 0 <= parse_timestamp(to) <= instant.AT  # the API's clock: frozen there
        except ValueError:
            refused = True
        if refused:
            del case.query["to"]
    # an epoch filter must be an epoch start (Thursday 00:00 UTC): another schema-valid time is 400
    # epoch_not_aligned, which no schema can say (tested in test_v1_bribes)
    epoch = (case.query or {}).get("epoch")
    if isinstance(epoch, str) and re.fullmatch(TIMESTAMP_PATTERN, epoch):
        try:
            refused = not is_epoch_start(parse_timestamp(epoch))
        except ValueError:
            refused = True
        if refused:
            del case.query["epoch"]
    # /v1/votes?view=current (and an account's /votes) takes neither epoch nor kind (filters of the
    # logs): 400 filter_not_in_view, a dependency between parameters no parameter schema can say
    # (tested in test_v1_votes and test_v1_accounts_voting)
    if case.path in ("/v1/votes", "/v1/accounts/{address}/votes") and (case.query or {}).get("view") == "current":
        for name in ("epoch", "kind"):
            case.query.pop(name, None)
    if len(urlencode(case.query or {})) > HEAD_LIMIT - 1024:
        # an oversized negative case (an 8,193-character cursor of multibyte characters, percent-encoded):
        # the HTTP server refuses a request head over its limit with 413 before any route runs
        response = case.call(base_url=served_contract.url)
        assert response.status_code == 413, response.text
        return
    case.call_and_validate(base_url=served_contract.url, checks=CHECKS)
