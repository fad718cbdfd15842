"""The one place that builds ClickHouse clients.

Every component reaches the warehouse through clickhouse-connect over HTTP, whether the server is
the embedded chDB one or a production ClickHouse; only `Settings` differ.

- `get_client(settings)`              sync client, read-write user, database from settings
- `get_client(settings, user=ANALYST)` the analyst's read-only credentials
- `get_client(settings, user=API)`      the API's read-only credentials (it may set output settings)
- `await get_async_client(settings)`  the same for asyncio (the API)
- `ping(settings)`                    is the server answering `/ping`?

Clients never share a session: `autogenerate_session_id=False`, so concurrent queries through one
client are independent requests (ClickHouse rejects concurrent queries in one session). Insert
bodies are lz4-compressed unless the server is on loopback; any keyword argument (compress,
settings, timeouts...) overrides these defaults. On a cluster, the read-write user's client carries
the insert quorum (`warehouse.cluster.quorum_settings`).
"""
from __future__ import annotations

import urllib.error
import urllib.request
from typing import Any
from urllib.parse import urlsplit

import clickhouse_connect
from clickhouse_connect.driver.asyncclient import AsyncClient
from clickhouse_connect.driver.client import Client

from ..core.config import Settings
from .cluster import quorum_settings

CONNECT_TIMEOUT = 10
SEND_RECEIVE_TIMEOUT = 300

_UNSET: Any = object()
# The warehouse users the project connects as: the pipeline's read-write user, the API's
# read-only user (readonly=2: it may set output-format settings) and the analysts' (readonly=1).
WRITER, API, ANALYST = "writer", "api", "analyst"
_LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})


def _endpoint(url: str) -> dict[str, Any]:
    """host/port/interface (and a proxy path, if any) from a ClickHouse URL."""
    parts = urlsplit(url if "://" in url else f"http://{url}")
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise ValueError(f"CLICKHOUSE_URL must be http:// or https://, got {url!r}")
    secure = scheme == "https"
    out: dict[str, Any] = {
        "host": parts.hostname or "localhost",
        "port": parts.port or (8443 if secure else 8123),
        "interface": scheme,
        "secure": secure,
    }
    path = parts.path.strip("/")
    if path:
        out["proxy_path"] = path
    return out


def credentials(settings: Settings, user: str) -> tuple[str, str]:
    """(name, password) of one of the warehouse users the project uses: WRITER, API or ANALYST."""
    if user == WRITER:
        return settings.clickhouse_user, settings.clickhouse_password
    if user == API:
        return settings.api_reader_user, settings.api_reader_password
    if user == ANALYST:
        return settings.analyst_user, settings.analyst_password
    raise ValueError(f"unknown warehouse user role {user!r}")


def client_kwargs(settings: Settings, *, user: str = WRITER, database: Any = _UNSET, **kw: Any) -> dict[str, Any]:
    """Keyword arguments for clickhouse_connect.get_client / get_async_client."""
    args = _endpoint(settings.clickhouse_url)
    args["username"], args["password"] = credentials(settings, user)
    args["database"] = settings.clickhouse_database if database is _UNSET else database
    args["autogenerate_session_id"] = False
    args["connect_timeout"] = CONNECT_TIMEOUT
    args["send_receive_timeout"] = SEND_RECEIVE_TIMEOUT
    # Compressing inserts (lz4) pays over a network and only costs CPU over loopback.
    args["compress"] = args["host"] not in _LOOPBACK
    if user == WRITER and quorum_settings(settings):
        # On a cluster every write waits for every replica (ADR 0012); readers never write.
        args["settings"] = quorum_settings(settings)
    args.update(kw)
    if args.get("database") in (None, ""):
        args.pop("database", None)  # the user's default database on the server
    return args


def get_client(settings: Settings, *, user: str = WRITER, **kw: Any) -> Client:
    """A clickhouse-connect sync client for settings.clickhouse_url.

    `user` picks the credentials (WRITER, API, ANALYST). `database=None` connects without a database
    (for creating it); any other keyword goes to clickhouse_connect.get_client.
    """
    return clickhouse_connect.get_client(**client_kwargs(settings, user=user, **kw))


async def get_async_client(settings: Settings, *, user: str = WRITER, **kw: Any) -> AsyncClient:
    """The asyncio counterpart of get_client (clickhouse_connect.get_async_client)."""
    return await clickhouse_connect.get_async_client(**client_kwargs(settings, user=user, **kw))


def ping(settings: Settings, timeout: float = 2.0) -> bool:
    """True when the server answers `GET /ping` (no credentials needed, as in ClickHouse)."""
    ep = _endpoint(settings.clickhouse_url)
    path = f"/{ep['proxy_path']}" if ep.get("proxy_path") else ""
    host = f"[{ep['host']}]" if ":" in ep["host"] else ep["host"]
    url = f"{ep['interface']}://{host}:{ep['port']}{path}/ping"
    handlers = [urllib.request.ProxyHandler({})] if ep["host"] in _LOOPBACK else []
    try:
        with urllib.request.build_opener(*handlers).open(url, timeout=timeout) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError, ValueError):
        return False
