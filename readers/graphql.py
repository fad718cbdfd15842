"""Subgraph client: GraphQL over HTTP with timeouts, retries and keyset paging.

    client = SubgraphClient(settings.chain(56).subgraph_url)
    head = client.meta()                                   # indexed head block + indexing errors
    pools = client.paginate("pools", "type totalValueLockedUSD", block=head.block_number)

Retries (exponential backoff with full jitter) cover what goes away by itself: transport errors,
timeouts, HTTP 429 and 5xx, and GraphQL errors that say the store is still indexing, lagging or
busy. A GraphQL validation error (unknown field, bad argument) is a bug and fails at once.
Every failure surfaces as `SubgraphError`, carrying the endpoint and the upstream message. With a
circuit breaker (readers.breaker), a request that gives up on a timeout, a transport error, 429 or
5xx trips it, and the client's requests after that fail at once with `SubgraphDown`.
"""
from __future__ import annotations

import json
import logging
import random
import re
import time
from dataclasses import dataclass
from typing import Any, Iterator, Mapping, Sequence

import httpx

from .breaker import CircuitBreaker, UpstreamDown, timed_out

log = logging.getLogger("readers.graphql")

MAX_PAGE_SIZE = 1000  # graph-node caps `first` at 1000

# Lower-cased fragments of GraphQL error messages that describe a transient upstream state.
_TRANSIENT_MARKERS = (
    "indexing",
    "indexed up to",
    "not yet available",
    "not yet indexed",
    "block not found",
    "timeout",
    "timed out",
    "temporarily",
    "unavailable",
    "too many",
    "rate limit",
    "busy",
    "try again",
    "connection",
    "store error",
    "database unavailable",
)
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class SubgraphError(RuntimeError):
    """A subgraph request that failed (after retries when the failure was transient)."""

    def __init__(self, endpoint: str, message: str, *, retryable: bool = False, errors: Any = None,
                 unavailable: bool = False):
        super().__init__(f"subgraph {endpoint}: {message}")
        self.endpoint = endpoint
        self.message = message
        self.retryable = retryable
        self.errors = errors
        self.unavailable = unavailable  # no usable answer: timeout, transport error, 429 or 5xx


class SubgraphDown(SubgraphError, UpstreamDown):
    """The subgraph is down for this run (its circuit breaker is open): the breaker's line."""

    def __init__(self, endpoint: str, line: str):
        super().__init__(endpoint, line, unavailable=True)
        self.args = (line,)


@dataclass(frozen=True)
class Page:
    """A `paginate` read for `SubgraphClient.batch`: every row of `entity` matching `where`."""

    entity: str
    fields: str | Sequence[str]
    where: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class One:
    """A `one` read for `SubgraphClient.batch`: a single entity by id (None if absent)."""

    entity: str
    id: str
    fields: str


@dataclass(frozen=True)
class SubgraphMeta:
    block_number: int
    block_timestamp: int
    block_hash: str | None
    deployment: str | None
    has_indexing_errors: bool


class SubgraphTimeout(SubgraphError):
    """One request that timed out (retried at most `timeout_attempts` times in all)."""


def _is_transient(message: str) -> bool:
    lowered = message.lower()
    return any(marker in lowered for marker in _TRANSIENT_MARKERS)


def graphql_literal(value: Any) -> str:
    """Render a Python value as a GraphQL input literal (ints, strings, bools, lists, dicts).

    Used for `where`/`block` arguments so the reader needs no schema type names (`Pool_filter`);
    strings are JSON-escaped, which is valid GraphQL string syntax, and keys must be names.
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, Mapping):
        parts = []
        for key, item in value.items():
            if not _NAME.match(str(key)):
                raise ValueError(f"not a GraphQL argument name: {key!r}")
            parts.append(f"{key}: {graphql_literal(item)}")
        return "{" + ", ".join(parts) + "}"
    if isinstance(value, (list, tuple, set, frozenset)):
        return "[" + ", ".join(graphql_literal(v) for v in value) + "]"
    raise TypeError(f"cannot render {type(value).__name__} as a GraphQL literal")


class SubgraphClient:
    """Synchronous client for one subgraph endpoint; keeps one `httpx.Client` (thread-safe)."""

    def __init__(
        self,
        url: str,
        timeout: float = 30.0,
        retries: int = 4,
        backoff: float = 0.5,
        *,
        max_backoff: float = 10.0,
        transport: httpx.BaseTransport | None = None,
        timeout_attempts: int | None = None,
        breaker: CircuitBreaker | None = None,
    ):
        self.url = url
        self.timeout = timeout
        self.retries = max(0, retries)
        # attempts that may time out (default: every attempt); see readers.breaker for `breaker`
        self.timeout_attempts = max(1, timeout_attempts or self.retries + 1)
        self.breaker = breaker
        self.backoff = backoff
        self.max_backoff = max_backoff
        self._http = httpx.Client(
            timeout=httpx.Timeout(timeout, connect=min(timeout, 10.0)),
            transport=transport,
            headers={"Content-Type": "application/json", "Accept": "application/json"},
        )

    # -- lifecycle ---------------------------------------------------------------------------
    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> "SubgraphClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- core request ------------------------------------------------------------------------
    def _sleep_before(self, attempt: int, retry_after: float | None = None) -> None:
        cap = min(self.max_backoff, self.backoff * (2**attempt))
        delay = random.uniform(0.0, cap)  # full jitter
        if retry_after is not None:
            delay = max(delay, min(retry_after, self.max_backoff))
        time.sleep(delay)

    def _post_once(self, payload: dict) -> dict:
        """One HTTP round trip; raises SubgraphError with `retryable` set appropriately."""
        try:
            resp = self._http.post(self.url, content=json.dumps(payload))
        except httpx.TimeoutException as exc:
            raise SubgraphTimeout(self.url, f"timeout: {exc!r}", retryable=True, unavailable=True) from exc
        except httpx.TransportError as exc:
            raise SubgraphError(self.url, f"transport error: {exc!r}", retryable=True, unavailable=True) from exc
        if resp.status_code == 429 or resp.status_code >= 500:
            err = SubgraphError(
                self.url, f"HTTP {resp.status_code}: {resp.text[:300]}", retryable=True, unavailable=True
            )
            retry_after = resp.headers.get("Retry-After")
            err.retry_after = float(retry_after) if retry_after and retry_after.isdigit() else None  # type: ignore[attr-defined]
            raise err
        try:
            body = resp.json()
        except ValueError as exc:
            # A 2xx with a broken body is most likely a truncated response: retry it.
            raise SubgraphError(
                self.url, f"HTTP {resp.status_code}, body is not JSON: {resp.text[:200]!r}",
                retryable=resp.is_success,
            ) from exc
        errors = body.get("errors") if isinstance(body, dict) else None
        if errors:
            messages = "; ".join(
                str(e.get("message", e)) if isinstance(e, dict) else str(e) for e in errors
            )
            raise SubgraphError(self.url, messages, retryable=_is_transient(messages), errors=errors)
        if not resp.is_success:
            raise SubgraphError(self.url, f"HTTP {resp.status_code}: {resp.text[:300]}")
        data = body.get("data") if isinstance(body, dict) else None
        if data is None:
            raise SubgraphError(self.url, "response has neither data nor errors", retryable=True)
        return data

    def query(self, q: str, variables: Mapping[str, Any] | None = None, block: int | None = None) -> dict:
        """Run a query; `block` is passed as the variable `$block: Block_height` ({number: N})."""
        variables = dict(variables or {})
        if block is not None:
            variables["block"] = {"number": int(block)}
        payload = {"query": q, "variables": variables}
        attempt = timeouts = 0
        while True:
            self._refuse_if_down()
            try:
                return self._post_once(payload)
            except SubgraphError as err:
                # a timeout that repeats is a hung endpoint: it gets fewer attempts than the rest
                timeouts += isinstance(err, SubgraphTimeout)
                if not err.retryable or attempt >= self.retries or timeouts >= self.timeout_attempts:
                    if err.retryable:
                        err.message = f"{err.message} (gave up after {attempt + 1} attempts)"
                        err.args = (f"subgraph {err.endpoint}: {err.message}",)
                    if err.unavailable and self.breaker is not None:
                        cause = (timed_out(timeouts, self.timeout) if isinstance(err, SubgraphTimeout)
                                 else f"failed: {err.message}")
                        raise SubgraphDown(self.url, self.breaker.trip(cause)) from err
                    raise
                log.warning("subgraph %s: %s; retry %d/%d", self.url, err.message, attempt + 1, self.retries)
                self._sleep_before(attempt, getattr(err, "retry_after", None))
                attempt += 1

    def _refuse_if_down(self) -> None:
        if self.breaker is not None:
            self.breaker.refuse_if_open(lambda line: SubgraphDown(self.url, line))

    # -- helpers -----------------------------------------------------------------------------
    def meta(self, block: int | None = None) -> SubgraphMeta:
        """Indexed head (or the given block): number, timestamp, hash, hasIndexingErrors."""
        arg = f"(block: {graphql_literal({'number': int(block)})})" if block is not None else ""
        data = self.query(
            f"{{ _meta{arg} {{ block {{ number timestamp hash }} deployment hasIndexingErrors }} }}"
        )
        meta = data.get("_meta") or {}
        blk = meta.get("block") or {}
        if blk.get("number") is None or blk.get("timestamp") is None:
            raise SubgraphError(self.url, f"_meta without block number/timestamp: {meta!r}")
        return SubgraphMeta(
            block_number=int(blk["number"]),
            block_timestamp=int(blk["timestamp"]),
            block_hash=blk.get("hash"),
            deployment=meta.get("deployment"),
            has_indexing_errors=bool(meta.get("hasIndexingErrors")),
        )

    def _page_selection(
        self, entity: str, field_text: str, base_where: Mapping[str, Any], last_id: str, page_size: int, block_arg: str,
    ) -> str:
        """`entity(first, orderBy id, where id_gt, block) { fields }`: one keyset page, no alias."""
        where_arg = graphql_literal({**base_where, "id_gt": last_id})
        return (
            f"{entity}(first: {page_size}, orderBy: id, orderDirection: asc, "
            f"where: {where_arg}{block_arg}) {{ {field_text} }}"
        )

    @staticmethod
    def _page_args(entity: str, fields: str | Sequence[str], where: Mapping[str, Any] | None,
                   block: int | None, page_size: int) -> tuple[str, dict, str, int]:
        if not _NAME.match(entity):
            raise ValueError(f"not a GraphQL field name: {entity!r}")
        page_size = max(1, min(int(page_size), MAX_PAGE_SIZE))
        field_text = fields if isinstance(fields, str) else " ".join(fields)
        field_text = "id " + field_text  # keyset paging needs it; a repeated field is merged
        base_where = dict(where or {})
        if "id_gt" in base_where:
            raise ValueError("paginate sets id_gt itself")
        block_arg = f", block: {graphql_literal({'number': int(block)})}" if block is not None else ""
        return field_text, base_where, block_arg, page_size

    def iter_pages(
        self,
        entity: str,
        fields: str | Sequence[str],
        where: Mapping[str, Any] | None = None,
        block: int | None = None,
        page_size: int = MAX_PAGE_SIZE,
        *,
        after: str = "",
    ) -> Iterator[list[dict]]:
        """Yield pages of `entity` (a collection field, e.g. "pools") ordered by id.

        Keyset paging on `id_gt` rather than `skip`: graph-node makes large skips slow and caps
        them, while `id_gt` costs the same on every page and is stable under time travel.
        `after` starts past that id (a continuation of a page read elsewhere).
        """
        field_text, base_where, block_arg, page_size = self._page_args(entity, fields, where, block, page_size)
        last_id = after
        while True:
            q = f"{{ page: {self._page_selection(entity, field_text, base_where, last_id, page_size, block_arg)} }}"
            rows = self.query(q).get("page")
            if rows is None:
                raise SubgraphError(self.url, f"{entity}: missing from the response")
            if rows:
                yield rows
            if len(rows) < page_size:
                return
            next_id = rows[-1]["id"]
            if next_id <= last_id:
                raise SubgraphError(self.url, f"{entity}: ids not increasing at {next_id!r}")
            last_id = next_id

    def paginate(
        self,
        entity: str,
        fields: str | Sequence[str],
        where: Mapping[str, Any] | None = None,
        block: int | None = None,
        page_size: int = MAX_PAGE_SIZE,
    ) -> list[dict]:
        """All rows of `entity` matching `where` at `block` (head when None), ordered by id."""
        out: list[dict] = []
        for page in self.iter_pages(entity, fields, where, block, page_size):
            out.extend(page)
        return out

    def batch(self, reads: Mapping[str, Page | One], block: int | None = None,
              page_size: int = MAX_PAGE_SIZE) -> dict[str, Any]:
        """Several reads at the same block in one request, by name: a `Page` gives what
        `paginate` gives, a `One` what `one` gives.

        The request carries the first page of every `Page` (each under its name as an alias)
        and every `One`; a `Page` whose first page is full continues with keyset paging after
        its last id, exactly as `paginate` would have.
        """
        parts: list[str] = []
        pages: dict[str, tuple[Page, int]] = {}
        block_arg = f", block: {graphql_literal({'number': int(block)})}" if block is not None else ""
        for name, read in reads.items():
            if not _NAME.match(name):
                raise ValueError(f"not a GraphQL alias: {name!r}")
            if isinstance(read, Page):
                field_text, base_where, _, size = self._page_args(read.entity, read.fields, read.where, block, page_size)
                pages[name] = (read, size)
                parts.append(f"{name}: {self._page_selection(read.entity, field_text, base_where, '', size, block_arg)}")
            elif isinstance(read, One):
                if not _NAME.match(read.entity):
                    raise ValueError(f"not a GraphQL field name: {read.entity!r}")
                parts.append(f"{name}: {read.entity}(id: {graphql_literal(read.id)}{block_arg}) {{ {read.fields} }}")
            else:
                raise TypeError(f"not a batch read: {read!r}")
        if not parts:
            return {}
        data = self.query("{ " + " ".join(parts) + " }")
        out: dict[str, Any] = {}
        for name, read in reads.items():
            if name not in pages:
                out[name] = data.get(name)
                continue
            page, size = pages[name]
            rows = data.get(name)
            if rows is None:
                raise SubgraphError(self.url, f"{page.entity}: missing from the response")
            rows = list(rows)
            if len(rows) >= size:
                rows.extend(row for more in self.iter_pages(page.entity, page.fields, page.where, block, size,
                                                            after=rows[-1]["id"]) for row in more)
            out[name] = rows
        return out

    def one(self, entity: str, id_: str, fields: str, block: int | None = None) -> dict | None:
        """A single entity by id (e.g. `one("factory", "0x…", "poolCount")`), None if absent."""
        if not _NAME.match(entity):
            raise ValueError(f"not a GraphQL field name: {entity!r}")
        block_arg = f", block: {graphql_literal({'number': int(block)})}" if block is not None else ""
        q = f"{{ row: {entity}(id: {graphql_literal(id_)}{block_arg}) {{ {fields} }} }}"
        return self.query(q).get("row")

