"""The vault contract (/api/v1) read by the common Python generator (openapi-python-client): it
generates without a warning, and the routes called through the generated client give typed
models that hold the very answer the API sent (`to_dict()` equals the JSON body), the vault
detail with its integration manifest included."""
from __future__ import annotations

import pytest

from support.generated_client import as_sent, body, generate, operation


@pytest.fixture(scope="module")
def vault_client(api, tmp_path_factory):
    url = api.server.url
    package = generate(url + "/api/v1/openapi.json", "vault_client", tmp_path_factory.mktemp("vault-client"))
    return package, package.Client(base_url=url, raise_on_unexpected_status=True), url


@pytest.mark.parametrize("tag, name, args, path", [
    ("system", "meta", (), "/api/v1/meta"),
    ("vaults", "vaults", (), "/api/v1/vaults"),
    ("vaults", "vault", ("cl-wbnb-usdt",), "/api/v1/vaults/cl-wbnb-usdt"),
    ("vaults", "gauges", (), "/api/v1/gauges"),
    ("vaults", "tokens", (), "/api/v1/tokens"),
])
def test_vault_routes_through_the_generated_client(vault_client, tag, name, args, path):
    package, client, url = vault_client
    model = operation(package, tag, name).sync(*args, client=client)
    assert type(model).__module__.startswith("vault_client.models.")  # a typed model, not None or a dict
    assert model.ok is True
    assert as_sent(model.to_dict()) == body(url + path)
