"""The /api/stats contract read by the common Python generator (openapi-python-client): it
generates without a warning, and a representative set of routes called through the generated
client gives typed models that hold the very answer the API sent (`to_dict()` of the model
equals the JSON body, UTC date-times written back alike). /v1: tests/orchestration/
test_v1_generated_client.py; the vault API: tests/api_vaults/test_vault_generated_client.py.
"""
from __future__ import annotations

import pytest

from support.generated_client import as_sent, body, generate, operation


@pytest.fixture(scope="module")
def stats_client(fresh, tmp_path_factory):
    package = generate(fresh.url + "/api/stats/openapi.json", "stats_client", tmp_path_factory.mktemp("stats-client"))
    return package, package.Client(base_url=fresh.url, raise_on_unexpected_status=True)


@pytest.mark.parametrize("tag, name, path, kwargs", [
    ("protocol", "protocol", "/api/stats/protocol", {}),
    ("protocol", "protocol_history", "/api/stats/protocol/history?days=7", {"days": 7}),
    ("pools", "pools", "/api/stats/pools", {}),
    ("tokens", "tokens", "/api/stats/tokens", {}),
    ("governance", "epochs", "/api/stats/epochs", {}),
])
def test_stats_routes_through_the_generated_client(stats_client, fresh, tag, name, path, kwargs):
    package, client = stats_client
    model = operation(package, tag, name).sync(client=client, **kwargs)
    assert type(model).__module__.startswith("stats_client.models.")  # a typed model, not None or a dict
    assert model.ok is True
    assert as_sent(model.to_dict()) == body(fresh.url + path)
