"""The request body: read lazily from the socket (Content-Length or chunked) and decompressed
as a stream (Content-Encoding lz4, zstd, gzip, deflate or br), so an INSERT never holds it whole.
"""
from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .errors import ClickHouseError

READ_CHUNK = 1 << 20


class RequestBody:
    """The raw request body (Content-Length or chunked), read lazily from the socket."""

    def __init__(self, rfile, length: int | None, chunked: bool):
        self._rfile = rfile
        self._remaining = length or 0
        self._chunked = chunked
        self._chunk_left = 0
        self.done = not chunked and not length
        self.started = False

    def read(self, size: int = READ_CHUNK) -> bytes:
        """The next piece of the body, b'' at its end."""
        self.started = True
        if self.done:
            return b""
        if not self._chunked:
            data = self._rfile.read(min(size, self._remaining))
            if not data:
                raise ClickHouseError(33, "CANNOT_READ_ALL_DATA", "Unexpected end of request body")
            self._remaining -= len(data)
            self.done = self._remaining <= 0
            return data
        if self._chunk_left == 0:
            line = self._rfile.readline(65537)
            if not line:
                raise ClickHouseError(33, "CANNOT_READ_ALL_DATA", "Unexpected end of chunked request body")
            try:
                self._chunk_left = int(line.split(b";", 1)[0].strip(), 16)
            except ValueError:
                raise ClickHouseError(27, "CANNOT_PARSE_INPUT_ASSERTION_FAILED", "Malformed chunk in request body") from None
            if self._chunk_left == 0:
                while True:  # trailer section, up to the empty line
                    trailer = self._rfile.readline(65537)
                    if trailer in (b"\r\n", b"\n", b""):
                        break
                self.done = True
                return b""
        data = self._rfile.read(min(size, self._chunk_left))
        if not data:
            raise ClickHouseError(33, "CANNOT_READ_ALL_DATA", "Unexpected end of chunked request body")
        self._chunk_left -= len(data)
        if self._chunk_left == 0:
            self._rfile.readline(3)  # CRLF closing the chunk
        return data

    def __iter__(self) -> Iterator[bytes]:
        while True:
            data = self.read()
            if not data:
                return
            yield data

    def drain(self) -> None:
        while not self.done:
            self.read()


def _decompressor_factory(encoding: str) -> Callable[[], Any] | None:
    enc = encoding.strip().lower()
    if enc in ("", "identity"):
        return None
    if enc in ("gzip", "x-gzip"):
        return lambda: zlib.decompressobj(wbits=47)  # gzip or zlib, auto-detected
    if enc == "deflate":
        return lambda: zlib.decompressobj(wbits=15)
    if enc == "lz4":
        import lz4.frame

        return lz4.frame.LZ4FrameDecompressor
    if enc == "zstd":
        from backports import zstd

        return zstd.ZstdDecompressor
    if enc == "br":
        try:
            import brotli
        except ImportError:
            pass
        else:
            return brotli.Decompressor
    raise ClickHouseError(48, "NOT_IMPLEMENTED", f"Unsupported Content-Encoding: {encoding}")


def _decompressed(chunks: Iterable[bytes], factory: Callable[[], Any]) -> Iterator[bytes]:
    """Decompress a stream that may hold several concatenated frames/members."""
    decoder = factory()
    fed = False
    try:
        for chunk in chunks:
            data = chunk
            while data:
                fed = True
                out = decoder.decompress(data)
                if out:
                    yield out
                if getattr(decoder, "eof", False):
                    data = decoder.unused_data
                    decoder = factory()
                    fed = False
                else:
                    data = b""
    except ClickHouseError:
        raise
    except Exception as exc:  # corrupt or truncated input in any codec
        raise ClickHouseError(271, "CANNOT_DECOMPRESS", f"Cannot decompress request body: {exc}") from None
    if fed and hasattr(decoder, "eof") and not decoder.eof:
        raise ClickHouseError(271, "CANNOT_DECOMPRESS", "Truncated compressed request body")


def decoded(body: RequestBody, content_encoding: str) -> Iterable[bytes]:
    """The body's pieces with its Content-Encoding undone; an unsupported encoding raises now,
    before any of the body is read."""
    factory = _decompressor_factory(content_encoding)
    return body if factory is None else _decompressed(body, factory)
