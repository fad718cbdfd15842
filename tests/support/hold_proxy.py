"""A loopback TCP proxy in front of a real server that holds, on demand, the requests carrying a
marker: a test can keep a real warehouse query in flight for as long as it needs, and know when
it is (an event, not a sleep).

    with HoldProxy(warehouse_port) as proxy:
        proxy.hold(b"param_days=300")      # requests whose bytes contain this wait ...
        ... proxy.seen.wait(30) ...        # ... set once one has arrived
        proxy.release()                    # forwarded from then on
"""
from __future__ import annotations

import socket
import threading


class HoldProxy:
    def __init__(self, upstream_port: int, host: str = "127.0.0.1"):
        self.upstream = (host, upstream_port)
        self._listener = socket.create_server((host, 0))
        self.port = self._listener.getsockname()[1]
        self.url = f"http://{host}:{self.port}"
        self.marker: bytes | None = None
        self.seen = threading.Event()
        self._released = threading.Event()
        self._released.set()
        self._closed = False

    def hold(self, marker: bytes) -> None:
        self.marker, self.seen = marker, threading.Event()
        self._released.clear()

    def release(self) -> None:
        self._released.set()

    def __enter__(self) -> "HoldProxy":
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._closed = True
        self.release()
        self._listener.close()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.upstream)
            threading.Thread(target=self._pump, args=(client, upstream, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client, False), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket, outbound: bool) -> None:
        try:
            while True:
                chunk = src.recv(65536)
                if not chunk:
                    break
                if outbound and self.marker is not None and self.marker in chunk and not self._released.is_set():
                    self.seen.set()
                    self._released.wait(120)
                dst.sendall(chunk)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
