"""`probe_upstream`: one cheap read of a chain's upstream (its RPC's latest block and its subgraph's
`_meta`), each bounded by a short timeout and tried once: whether the upstream answers now, and
how far it reaches. The catch-up sensor asks it before launching runs against a chain that failed
(a run against a dead upstream would only wait out its own timeouts and retries)."""
from __future__ import annotations

from dataclasses import dataclass

import httpx

from .breaker import UpstreamDown

PROBE_TIMEOUT_SECONDS = 3.0
META_QUERY = "{ _meta { block { number timestamp } hasIndexingErrors } }"


@dataclass(frozen=True)
class Liveness:
    head_at: int  # the chain head's block time (Unix seconds)
    indexed_at: int  # the subgraph's indexed block time

    @property
    def now(self) -> int:
        """What the upstream can answer for: the older of the two heads."""
        return min(self.head_at, self.indexed_at)


def probe_upstream(rpc_url: str, subgraph_url: str, timeout: float = PROBE_TIMEOUT_SECONDS) -> Liveness:
    """Both heads, or UpstreamDown (readers.breaker) naming the part that did not answer."""
    with httpx.Client(timeout=timeout) as http:
        try:
            r = http.post(rpc_url, json={"jsonrpc": "2.0", "id": 1, "method": "eth_getBlockByNumber",
                                         "params": ["latest", False]})
            r.raise_for_status()
            head_at = int(r.json()["result"]["timestamp"], 16)
        except (httpx.HTTPError, ValueError, KeyError, TypeError) as exc:
            raise UpstreamDown(f"rpc {rpc_url}: {type(exc).__name__}: {str(exc)[:200]}") from exc
        try:
            r = http.post(subgraph_url, json={"query": META_QUERY})
            r.raise_for_status()
            body = r.json()
            if body.get("errors"):
                raise ValueError(str(body["errors"])[:200])
            indexed_at = int(body["data"]["_meta"]["block"]["timestamp"])
        except (httpx.HTTPError, ValueError, KeyError, TypeError) as exc:
            raise UpstreamDown(f"subgraph {subgraph_url}: {type(exc).__name__}: {str(exc)[:200]}") from exc
    return Liveness(head_at, indexed_at)
