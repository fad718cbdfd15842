"""The embedded warehouse as `ve-analytics warehouse` starts it with the defaults: it listens on the
loopback address only, and its read-write user needs the password generated into the data folder."""
from __future__ import annotations

import base64
import os
import socket

import urllib3

from ve_analytics.cli.processes import Service, cli, free_port

LISTEN = "0A"  # TCP state in /proc/net/tcp


def listening(port: int) -> list[str]:
    """Local addresses (hex, as the kernel writes them) of the sockets listening on `port`."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not os.path.exists(table):
            continue
        with open(table) as f:
            for line in f.readlines()[1:]:
                fields = line.split()
                address, _, hex_port = fields[1].partition(":")
                if int(hex_port, 16) == port and fields[3] == LISTEN:
                    found.append(address)
    return found


def test_default_warehouse_listens_on_loopback_and_asks_a_password(tmp_path, monkeypatch):
    for name in ("WAREHOUSE_HOST", "CLICKHOUSE_URL", "CLICKHOUSE_PASSWORD", "CLICKHOUSE_PASSWORD_FILE"):
        monkeypatch.delenv(name, raising=False)
    port = free_port()
    env = {"VEA_DATA_DIR": str(tmp_path), "WAREHOUSE_PORT": str(port), "LOG_LEVEL": "WARNING"}
    service = Service("warehouse", cli("warehouse"), f"http://127.0.0.1:{port}/ping", env, tmp_path / "warehouse.log")
    service.start(120)
    try:
        assert listening(port) == ["0100007F"]  # 127.0.0.1, and no wildcard (0.0.0.0 or ::) socket
        outside = [a for a in {i[4][0] for i in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)}
                   if not a.startswith("127.")]
        for address in outside:  # the machine's other addresses get no answer
            with socket.socket() as s:
                s.settimeout(2)
                assert s.connect_ex((address, port)) != 0, address

        http = urllib3.PoolManager(retries=False)

        def select_as(password: str) -> urllib3.BaseHTTPResponse:
            auth = base64.b64encode(f"default:{password}".encode()).decode()
            return http.request("POST", f"http://127.0.0.1:{port}/", body=b"SELECT 1",
                                headers={"Authorization": f"Basic {auth}"})

        r = select_as("")
        assert r.status == 403 and r.headers["X-ClickHouse-Exception-Code"] == "516"
        generated = (tmp_path / "secrets" / "clickhouse-password").read_text().strip()
        r = select_as(generated)
        assert r.status == 200 and r.data == b"1\n"
    finally:
        service.stop()
    assert generated not in (tmp_path / "warehouse.log").read_text()
