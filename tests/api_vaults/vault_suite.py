"""Shared pieces of the vault API suite (a module of its own: `from conftest import ...` would be
ambiguous next to other suites' conftest files)."""
from __future__ import annotations

from typing import Any

import httpx

from support.contract_check import ContractChecker
from support.api_server import ApiServer

PAUSED_VAULT = "cl-btcb-wbnb"
UNPRICED_GAUGE_VAULT = "v2-core-wbnb"  # its gauge has no APR row: /gauges answers null + degraded
UNWRAPPED_GAUGE = "0x" + "ab" * 20  # a killed gauge in the stats snapshot that no vault wraps


class Api:
    def __init__(self, server: ApiServer, contract: ContractChecker, client: httpx.Client):
        self.server, self.contract, self.client = server, contract, client

    def request(self, method: str, path: str, **kw: Any) -> httpx.Response:
        r = self.client.request(method, self.server.url + "/api/v1" + path, **kw)
        self.contract.check(r)
        return r

    def get(self, path: str, **kw: Any) -> httpx.Response:
        return self.request("GET", path, **kw)
