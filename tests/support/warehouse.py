"""An embedded warehouse of a test stack's own (a process on a free port, data in `data_dir`),
with the passwords of this process's settings: in-process runs resolve theirs from its environment."""
from __future__ import annotations

from pathlib import Path

from ve_analytics.cli.processes import Service, cli, free_port
from ve_analytics.core.config import Settings


def start_warehouse(data_dir: Path) -> tuple[Service, Settings, str]:
    """(the running warehouse, this process's settings, the warehouse's URL)."""
    port = free_port()
    base = Settings.from_env()
    env = {"VEA_DATA_DIR": str(data_dir), "WAREHOUSE_PORT": str(port), "WAREHOUSE_HOST": "127.0.0.1",
           "CLICKHOUSE_PASSWORD": base.clickhouse_password, "CLICKHOUSE_API_PASSWORD": base.api_reader_password}
    url = f"http://127.0.0.1:{port}"
    return Service("warehouse", cli("warehouse"), f"{url}/ping", env, data_dir / "warehouse.log").start(), base, url
