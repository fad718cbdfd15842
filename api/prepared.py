"""Answers served again exactly as first sent, with their header block encoded once.

Sanic encodes and sanitizes every header of every response (`processed_headers`), which costs a
cached answer with its seven headers more than the rest of its path. An `Answer` keeps the body
and headers of a per-snapshot answer; each content coding's header block is encoded the first
time that coding is sent (`Encodings.respond`, api/compression.py) and reused after that, so a
hit leaves Sanic only the headers it adds per response (content-length, connection).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

from sanic.response import HTTPResponse

HeaderBlock = tuple[tuple[bytes, bytes], ...]


def encode_headers(headers: dict[str, str]) -> HeaderBlock:
    """Header names and values as Sanic writes them; ours are ASCII without CR or LF, which
    a ValueError here would report at first use rather than on the wire."""
    block = []
    for name, value in headers.items():
        if any(c in name or c in value for c in "\r\n\0"):
            raise ValueError(f"header {name!r} holds a control character")
        block.append((name.encode("ascii"), value.encode("ascii")))
    return tuple(block)


class PreparedResponse(HTTPResponse):
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
