"""How every response is written (a Date header; a large body in pieces), and answers served
again exactly as first sent, with their header block encoded once.

Sanic encodes and sanitizes every header of every response (`processed_headers`), which costs a
cached answer with its seven headers more than the rest of its path. An `Answer` keeps the body
and headers of a per-snapshot answer; each content coding's header block is encoded the first
time that coding is sent (`Encodings.respond`, api/compression.py) and reused after that, so a
hit leaves Sanic only the headers it adds per response (content-length, connection).
"""
from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from email.utils import formatdate
from typing import AnyStr, Iterator

from sanic.response import HTTPResponse

HeaderBlock = tuple[tuple[bytes, bytes], ...]

# bytes written at once of a larger body (ApiResponse): what a connection that reads nothing may hold.
# A body of up to a piece goes in one write. Each further piece costs a write and a loop pass: split
# at 128 kB, a 150 kB answer served 0.85-0.95 x and a 1 MB answer 0.75-0.85 x the hello-world's
# single write of the same bytes; at 256 kB, 1.1 x and 1.0 x (wrk -c16, server and wrk on a core each)
SEND_PIECE = 256 * 1024
_date: tuple[int, bytes] = (0, b"")  # (second, its HTTP-date): one formatting per second


def http_date() -> bytes:
    """Now as an HTTP-date (RFC 9110 5.6.7), the Date every response carries."""
    global _date
    second = int(time.time())
    if _date[0] != second:
        _date = (second, formatdate(second, usegmt=True).encode("ascii"))
    return _date[1]


def encode_headers(headers: dict[str, str]) -> HeaderBlock:
    """Header names and values as Sanic writes them; ours are ASCII without CR or LF, which
    a ValueError here would report at first use rather than on the wire."""
    block = []
    for name, value in headers.items():
        if any(c in name or c in value for c in "\r\n\0"):
            raise ValueError(f"header {name!r} holds a control character")
        block.append((name.encode("ascii"), value.encode("ascii")))
    return tuple(block)


class ApiResponse(HTTPResponse):
    """Every response of the API: it carries a Date (Sanic sends none), and a large body is
    written in pieces of SEND_PIECE bytes, each after the transport took the one before (Sanic
    waits while the socket's buffer is full). Written at
    once, Sanic joins the header to the body and the transport keeps what the socket did not take:
    each client that reads slowly, or not at all, held a copy of the answer (5.4 MB per connection
    in bench/slow_readers.py), and the loop was held ~2 ms per 6 MB answer."""

    async def send(self, data: AnyStr | None = None, end_stream: bool | None = None) -> None:
        body = self.body
        if data is not None or end_stream is False or body is None or len(body) <= SEND_PIECE \
                or self.stream is None or self.stream.head_only:
            return await super().send(data, end_stream)
        self.headers["content-length"] = len(body)  # Sanic then sends the pieces as they come
        view = memoryview(body)
        for start in range(0, len(body), SEND_PIECE):
            if start:
                await asyncio.sleep(0)  # the loop's other connections run between two pieces
            await super().send(view[start:start + SEND_PIECE], start + SEND_PIECE >= len(body))  # type: ignore[arg-type]

    @property
    def processed_headers(self) -> Iterator[tuple[bytes, bytes]]:
        yield from super().processed_headers
        yield b"date", http_date()


class PreparedResponse(ApiResponse):
    """A response whose headers were encoded once (`block`); `self.headers` holds only what
    Sanic's writer adds per response."""

    def __init__(self, body: bytes, status: int, block: HeaderBlock):  # noqa: D107 - no super(): see below
        # HTTPResponse's initializers build two header multidicts per response; Sanic's writer
        # only sets, tests and pops lower-case names in `headers`, which a dict does as well
        self.asgi = False
        self.body = body
        self.content_type = None
        self.stream = None
        self.status = status
        self.headers = {}  # type: ignore[assignment]
        self._cookies = None
        self.block = block

    @property
    def processed_headers(self) -> Iterator[tuple[bytes, bytes]]:
        yield from self.block
        for name, value in self.headers.items():  # content-length and connection: ints and keywords
            yield name.encode("ascii"), str(value).encode("ascii")
        yield b"date", http_date()


# What an Answer costs besides its bytes: the object, its dicts and the str objects of its
# headers (~60 B each beyond their characters), rounded up.
ANSWER_OVERHEAD = 1024


@dataclass(slots=True)
class Answer:
    """A per-snapshot answer: its identity body and headers, the header block of each content
    coding it has been sent in (None: identity), and its encoded bodies by coding, kept with it
    while it is cached (api/compression.py `Encodings.respond`)."""

    body: bytes
    headers: dict[str, str]
    blocks: dict[str | None, HeaderBlock] = field(default_factory=dict)
    variants: dict[str, bytes] = field(default_factory=dict)

    def cache_bytes(self) -> int:
        """What keeping this answer costs (api/cache.py): its bodies, headers and header blocks."""
        headers = sum(len(k) + len(v) for k, v in self.headers.items())
        blocks = sum(len(k) + len(v) + 80 for block in self.blocks.values() for k, v in block)  # 2 bytes objects + tuple
        return (ANSWER_OVERHEAD + len(self.body) + sum(map(len, self.variants.values())) + headers + blocks
                + 64 * len(self.headers))
