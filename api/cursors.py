"""Signed keyset cursors: opaque to clients, verified before anything in them is trusted.

Wire format, all URL-safe base64 without padding:

    <key id>.<base64url(orjson payload)>.<base64url(HMAC-SHA256(key, context + key id + "." + payload))>

The key id is a short digest of the signing secret, so verification picks the secret directly;
rotation is a new secret put first (it signs) with the old ones kept after it (they still verify)
until their cursors have expired (24 hours). The caller owns the payload's content (format
version, route, filters digest, curation digest, snapshot vector, evidence digest, the last row's
sort key); the codec adds the issue time `iat` and checks route, filters and age itself, because
those three checks are the same on every route. Everything else (curation, snapshots, policy) is
the handler's to compare, answering `expired(reason)` on a mismatch.

Every failure of `decode` is an `ApiError` 400 (`invalid_cursor` or `cursor_expired`), whatever
the input string: a cursor is user input, and a bad one must never become a 500.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import re
import time
from typing import Callable, Iterable

import orjson

from .errors import ApiError

MAX_CURSOR_CHARS = 8192
CURSOR_TTL_SECONDS = 86400
# a cursor issued this far "in the future" is accepted: workers' clocks differ by a little
CLOCK_SKEW_SECONDS = 60
INVALID_CURSOR = "invalid_cursor"
CURSOR_EXPIRED = "cursor_expired"

# payload keys the codec reads; the caller writes ROUTE and FILTERS, the codec writes ISSUED_AT
ROUTE = "route"
FILTERS = "filters"
ISSUED_AT = "iat"

# domain separation: the same secret may one day sign something else, never interchangeably
_CONTEXT = b"ve-analytics keyset cursor v1\n"
_KEY_ID_BYTES = 6  # 8 base64 characters; only selects a secret, the HMAC does the verifying
_SEGMENT = re.compile(r"[A-Za-z0-9_-]+")
_RESTART = "restart the traversal without the cursor"
_MALFORMED = f"the cursor is malformed or was altered; {_RESTART}"
_UNKNOWN_KEY = f"the cursor was not signed by a key this server accepts; {_RESTART}"
_OTHER_QUERY = f"the cursor belongs to another query (route or filters differ); {_RESTART}"


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes | None:
    """Bytes of a canonical unpadded base64url segment, else None. Canonical matters: the last
    character of an unpadded segment carries unused bits, and a decoder that ignored them would
    let two different strings verify as the same cursor."""
    if not _SEGMENT.fullmatch(text) or len(text) % 4 == 1:
        return None
    raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    return raw if _b64(raw) == text else None


def key_id(secret: bytes) -> str:
    """Short public name of a secret (a digest, so it reveals nothing usable about the secret)."""
    return _b64(hashlib.sha256(b"cursor key id\n" + secret).digest()[:_KEY_ID_BYTES])


def invalid(message: str = _MALFORMED) -> ApiError:
    return ApiError(400, INVALID_CURSOR, message)


def expired(reason: str) -> ApiError:
    """The answer for a cursor whose traversal can no longer continue consistently, e.g.
    expired("the curation publication changed since this traversal started")."""
    return ApiError(400, CURSOR_EXPIRED, f"{reason}; {_RESTART}")


def filters_digest(normalized: dict) -> str:
    """Stable short digest of the normalized filters: the same query, in any key order, gives the
    same digest; any change of a value gives another (128 bits: collisions are not a concern)."""
    blob = orjson.dumps(normalized, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
    return _b64(hashlib.sha256(blob).digest()[:16])


def _check_finite(value) -> None:
    """orjson writes NaN and infinities as null: a sort key holding one would come back changed
    and resume the traversal at the wrong row, so such a payload is refused when encoded."""
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError("a cursor payload cannot carry NaN or infinity (JSON has neither)")
    elif isinstance(value, dict):
        for item in value.values():
            _check_finite(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _check_finite(item)


class CursorCodec:
    """Signs cursors with the first secret, verifies with any of them."""

    def __init__(self, secrets: Iterable[bytes], clock: Callable[[], float] = time.time):
        secrets = tuple(secrets)
        if not secrets or not all(isinstance(s, bytes) and s for s in secrets):
            raise ValueError("a cursor codec needs at least one non-empty secret (bytes); the first signs")
        self._clock = clock
        self._signing = (key_id(secrets[0]), secrets[0])
        # a key id collision (2**-48) must not lock a secret out: each id keeps every secret
        self._by_id: dict[str, list[bytes]] = {}
        for secret in secrets:
            self._by_id.setdefault(key_id(secret), []).append(secret)

    @staticmethod
    def _mac(secret: bytes, signed: str) -> bytes:
        return hmac.new(secret, _CONTEXT + signed.encode("ascii"), hashlib.sha256).digest()

    def encode(self, payload: dict) -> str:
        if not isinstance(payload, dict):
            raise TypeError("a cursor payload is a dict")
        _check_finite(payload)
        body = {**payload, ISSUED_AT: int(self._clock())}
        kid, secret = self._signing
        signed = f"{kid}.{_b64(orjson.dumps(body))}"
        token = f"{signed}.{_b64(self._mac(secret, signed))}"
        if len(token) > MAX_CURSOR_CHARS:
            raise ValueError(f"cursor of {len(token)} characters exceeds {MAX_CURSOR_CHARS}")
        return token

    def decode(self, token: str, route: str, filters: str) -> dict:
        """The verified payload of `token` for this route and these filters, else ApiError 400."""
        try:
            payload = self._verified(token)
        except (ValueError, TypeError):  # orjson, base64 and ascii errors: a bad string, not a 500
            raise invalid() from None
        if payload.get(ROUTE) != route or payload.get(FILTERS) != filters:
            raise invalid(_OTHER_QUERY)
        issued = payload.get(ISSUED_AT)
        if type(issued) is not int:
            raise invalid()
        age = self._clock() - issued
        if age >= CURSOR_TTL_SECONDS:
            raise expired("the cursor is older than 24 hours")
        if age < -CLOCK_SKEW_SECONDS:
            raise expired("the cursor's issue time is in the future (server clocks disagree)")
        return payload

    def _verified(self, token: str) -> dict:
        if not isinstance(token, str) or len(token) > MAX_CURSOR_CHARS:
            raise invalid()
        parts = token.split(".")
        if len(parts) != 3:
            raise invalid()
        kid, body, mac = parts
        raw_mac = _unb64(mac)
        if raw_mac is None or len(raw_mac) != hashlib.sha256().digest_size:
            raise invalid()
        secrets = self._by_id.get(kid)
        if secrets is None:
            raise invalid(_UNKNOWN_KEY)
        signed = f"{kid}.{body}"
        if not _SEGMENT.fullmatch(body):  # before .encode("ascii") in _mac
            raise invalid()
        if not any(hmac.compare_digest(self._mac(s, signed), raw_mac) for s in secrets):
            raise invalid()
        # only now is the content ours: a signed body is one `encode` produced
        raw = _unb64(body)
        if raw is None:
            raise invalid()
        payload = orjson.loads(raw)
        if not isinstance(payload, dict):
            raise invalid()
        return payload


def codec_for(secrets: Iterable[str], clock: Callable[[], float] = time.time) -> CursorCodec:
    """The codec of configured secrets (Settings.cursor_secrets); refuses to run without one,
    since cursors signed by a per-process secret would fail on every other worker."""
    secrets = tuple(secrets)
    if not secrets:
        raise ValueError("no cursor secret: set CURSOR_SECRETS or CURSOR_SECRETS_FILE, or let the API "
                         "write cursor-secret in its data folder (VEA_DATA_DIR)")
    return CursorCodec(tuple(s.encode("utf-8") for s in secrets), clock)
