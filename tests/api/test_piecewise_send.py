"""Large bodies written in pieces (api/prepared.py `ApiResponse`), over real HTTP on the
`fresh` scenario: a cached answer and a discovery document larger than a piece arrive whole and
byte-identical on one keep-alive connection, a HEAD between them sends the length and no body,
and clients that ask for a large answer and read none of it hold a piece each in the server, not
a copy of the answer, while the server keeps answering others.
"""
from __future__ import annotations

import gzip
import re
import socket
from pathlib import Path

import httpx
import pytest

from support.api_server import ApiServer
from ve_analytics.api.prepared import SEND_PIECE

LARGE = ("/v1/protocol/daily?chainIds=56&days=3660", "/openapi.json")  # a cached answer, a document
READERS = 40


@pytest.fixture(scope="module")
def server(fresh_settings, fresh_data):
    with ApiServer(fresh_settings, log_path=fresh_settings.data_dir / "api-piecewise.log", families=("stats", "v1")) as api:
        yield api


def identity(server, path: str) -> bytes:
    """The body as httpx reads it (identity coding), asked just before it is compared: within its
    cache TTL, the server sends these very bytes again."""
    with httpx.Client(timeout=60, headers={"Accept-Encoding": "identity"}) as client:
        body = client.get(server.url + path).raise_for_status().content
    assert len(body) > SEND_PIECE, (path, len(body))
    return body


class Connection:
    """One raw keep-alive connection: a response is read exactly as framed by its Content-Length,
    so bytes sent beyond it would corrupt the next response read."""

    def __init__(self, url: str, slow: bool = False):
        host, port = re.match(r"http://([^:]+):(\d+)", url).groups()
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if slow:  # a small window, and small segments: the server's kernel then buffers kilobytes, not megabytes
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, 536)
        self.sock.settimeout(60)
        self.sock.connect((host, int(port)))
        self.host, self.pending = f"{host}:{port}", b""

    def ask(self, method: str, path: str, coding: str = "identity") -> None:
        self.sock.sendall(f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nAccept-Encoding: {coding}\r\n\r\n".encode())

    def read(self, head_only: bool = False) -> tuple[int, dict[str, str], bytes]:
        while b"\r\n\r\n" not in self.pending:
            self._more()
        head, self.pending = self.pending.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        headers = {k.lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
        length = 0 if head_only else int(headers["content-length"])
        while len(self.pending) < length:
            self._more()
        body, self.pending = self.pending[:length], self.pending[length:]
        return int(lines[0].split()[1]), headers, body

    def _more(self) -> None:
        chunk = self.sock.recv(1 << 16)
        assert chunk, "the server closed the connection"
        self.pending += chunk

    def close(self) -> None:
        self.sock.close()


def resident_bytes(pid: int) -> int:
    found = re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
    return int(found.group(1)) * 1024


def test_large_bodies_arrive_whole_on_one_keep_alive_connection(server):
    conn = Connection(server.url)
    try:
        for path in LARGE:
            expected = identity(server, path)
            conn.ask("GET", path)
            status, headers, body = conn.read()
            assert status == 200 and int(headers["content-length"]) == len(expected) and body == expected
            conn.ask("HEAD", path)
            status, headers, _ = conn.read(head_only=True)
            assert status == 200 and int(headers["content-length"]) == len(expected)
            conn.ask("GET", path, "gzip")
            status, headers, body = conn.read()
            assert status == 200 and headers["content-encoding"] == "gzip" and gzip.decompress(body) == expected
        assert conn.pending == b""  # nothing beyond the last response's length
    finally:
        conn.close()


def test_clients_that_read_nothing_hold_a_piece_each_not_the_answer(server):
    path = LARGE[0]
    expected = identity(server, path)  # now kept: the readers ask a cached answer
    pid = server.proc.pid  # the worker that sends (its compute child, which is still warming up, is not counted)
    before = resident_bytes(pid)
    readers = [Connection(server.url, slow=True) for _ in range(READERS)]
    try:
        for reader in readers:
            reader.ask("GET", path)
        for reader in readers:  # each answer has begun: written at once, its whole copy is held by now
            assert reader.sock.recv(1, socket.MSG_PEEK) == b"H"
        held = resident_bytes(pid) - before
        # written at once, each connection held a copy of the answer: READERS x its size
        assert held < READERS * len(expected) / 4, (held, len(expected))
        with httpx.Client(timeout=10) as client:  # the server answers others meanwhile
            assert client.get(server.url + "/api/stats/protocol").json()["ok"] is True
        status, headers, body = readers[0].read()  # a slow reader still gets the whole answer
        assert status == 200 and body == expected
    finally:
        for reader in readers:
            reader.close()
