"""Slow readers: many connections ask one worker for its largest cached answer and read none of it.

A hostile client needs no bandwidth to do this: it sends a request and leaves the answer unread.
What the worker holds for each such connection is what it has not yet written into the kernel's
socket buffer. Written at once (header joined to the body, then queued whole by the transport),
that is a copy of the whole answer per connection; written in pieces with back-pressure
(api/prepared.py `PreparedResponse.send`), the pieces in flight and a reference to the cached body.

Printed: the answer's size, the worker's resident memory before, at its peak while the
connections hold, and the growth per connection; and whether the worker kept answering meanwhile.
"""
from __future__ import annotations

import socket
import time
import urllib.parse
import urllib.request

from bench.load import rss_bytes

CONNECTIONS = 200
HOLD_SECONDS = 5.0
RECEIVE_BUFFER = 4096  # asked of the kernel for each reader: it takes a few pages, not megabytes
GOAL = 0.1  # what a connection may hold, as a fraction of the answer


def run(api_url: str, api_pid: int, path: str, connections: int = CONNECTIONS, hold: float = HOLD_SECONDS,
        check_path: str = "/api/stats/protocol") -> dict:
    """Open `connections` readers of `path` (identity coding) that read nothing for `hold` seconds,
    sampling the worker's RSS (with its descendants); then close them and ask `check_path`."""
    with urllib.request.urlopen(urllib.request.Request(api_url + path, headers={"Accept-Encoding": "identity"})) as r:  # noqa: S310 - the bench's own local API
        size = len(r.read())  # computed and cached before the readers come
    parsed = urllib.parse.urlsplit(api_url)
    request = f"GET {path} HTTP/1.1\r\nHost: {parsed.netloc}\r\nAccept-Encoding: identity\r\n\r\n".encode()
    time.sleep(0.5)
    baseline = peak = rss_bytes([api_pid])
    readers: list[socket.socket] = []
    answered = False
    try:
        for _ in range(connections):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)
            sock.connect((parsed.hostname, parsed.port))
            sock.sendall(request)
            readers.append(sock)
        deadline = time.monotonic() + hold
        while time.monotonic() < deadline:
            peak = max(peak, rss_bytes([api_pid]))
            time.sleep(0.05)
        with urllib.request.urlopen(api_url + check_path, timeout=10) as r:  # noqa: S310
            answered = r.status == 200
    finally:
        for sock in readers:
            sock.close()
    mb = 2**20
    growth = peak - baseline
    held = growth / connections / max(size, 1)
    print(f"slow readers: {connections} connections ask {path} ({size / mb:.1f} MB identity, cached) and read nothing "
          f"for {hold:.0f} s")
    print(f"  worker RSS baseline {baseline / mb:.1f} MB, peak {peak / mb:.1f} MB: {growth / mb:.1f} MB in all, "
          f"{growth / connections / 1024:.0f} KiB per connection ({held:.2f} of the answer; goal <= {GOAL}: "
          f"{'met' if held <= GOAL else 'not met'}); "
          f"a cached answer meanwhile: {'200' if answered else 'not answered'}", flush=True)
    return {"size": size, "baseline": baseline, "peak": peak, "per_connection": growth / connections, "answered": answered}
