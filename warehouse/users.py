"""Users and authentication, the way ClickHouse accepts credentials over HTTP.

The users come from Settings: the read-write user and, when configured, a read-only analyst
whose queries run on engine connections opened with `readonly=1`, so the engine itself refuses
their writes. Here a user is only picked; the analyst's limits are `warehouse.limits`.
"""
from __future__ import annotations

import base64
import hmac
from collections.abc import Iterable
from dataclasses import dataclass

from ..core.config import Settings
from .errors import ClickHouseError


@dataclass(frozen=True)
class User:
    name: str
    password: str
    readonly: int  # 0 read-write, 1 read-only (the analyst), 2 read-only that may set query settings (the API)


def users_from_settings(settings: Settings) -> list[User]:
    users = [User(settings.clickhouse_user or "default", settings.clickhouse_password or "", 0)]
    if settings.analyst_user and settings.analyst_user != users[0].name:
        users.append(User(settings.analyst_user, settings.analyst_password or "", 1))
    if settings.api_reader_user and settings.api_reader_user not in {u.name for u in users}:
        users.append(User(settings.api_reader_user, settings.api_reader_password or "", 2))
    return users


class Users:
    """The known users; `authenticate` finds the one a request's credentials name."""

    def __init__(self, users: Iterable[User]):
        self.users = list(users)
        self._auth_cache: dict[tuple, User] = {}

    def authenticate(self, headers: dict[str, str], params: dict[str, str]) -> User:
        """headers: lower-case names. Accepts X-ClickHouse-User/Key, Basic auth or user/password params."""
        cache_key = (
            headers.get("x-clickhouse-user"),
            headers.get("x-clickhouse-key"),
            headers.get("authorization"),
            params.get("user"),
            params.get("password"),
        )
        user = self._auth_cache.get(cache_key)
        if user is None:
            user = self._authenticate(headers, params)
            if len(self._auth_cache) > 256:
                self._auth_cache.clear()
            self._auth_cache[cache_key] = user
        return user

    def _authenticate(self, headers: dict[str, str], params: dict[str, str]) -> User:
        name = headers.get("x-clickhouse-user")
        key = headers.get("x-clickhouse-key")
        if name is None:
            auth = headers.get("authorization")
            if auth:
                scheme, _, token = auth.partition(" ")
                if scheme.lower() != "basic":
                    raise ClickHouseError(516, "AUTHENTICATION_FAILED", "Unsupported authentication scheme")
                try:
                    name, _, key = base64.b64decode(token.strip()).decode("utf-8").partition(":")
                except (ValueError, UnicodeDecodeError):
                    raise ClickHouseError(516, "AUTHENTICATION_FAILED", "Malformed Basic authorization header") from None
        if name is None:
            name = params.get("user")
            key = params.get("password", key)
        name = name or "default"
        key = (key or "").encode("utf-8")
        for user in self.users:
            if user.name == name and hmac.compare_digest(key, user.password.encode("utf-8")):
                return user
        raise ClickHouseError(
            516,
            "AUTHENTICATION_FAILED",
            f"{name}: Authentication failed: password is incorrect, or there is no user with such name",
        )
