"""A real embedded warehouse server on a free port with a temporary data directory.

One chDB instance per process: the server is module-scoped and every test module that needs it
gets its own and stops it at the end. `Box.restart()` reopens the same data directory.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from ve_analytics.core.config import Settings
from ve_analytics.warehouse.server import WarehouseServer

RW_USER, RW_PASSWORD = "writer", "w-secret"
ANALYST_USER, ANALYST_PASSWORD = "analyst", "a-secret"


def make_settings(data_dir: Path, url: str = "http://127.0.0.1:8123", database: str = "wh_test") -> Settings:
    return dataclasses.replace(
        Settings.from_env(),
        data_dir=data_dir,
        clickhouse_url=url,
        clickhouse_user=RW_USER,
        clickhouse_password=RW_PASSWORD,
        clickhouse_database=database,
        analyst_user=ANALYST_USER,
        analyst_password=ANALYST_PASSWORD,
        warehouse_host="127.0.0.1",
        warehouse_port=0,
    )


class Box:
    """The running server and Settings pointing at it."""

    def __init__(self, data_dir: Path):
        self.data_dir = data_dir
        self.server: WarehouseServer | None = None
        self.settings = make_settings(data_dir)
        self.start()

    def start(self, port: int = 0) -> None:
        self.server = WarehouseServer(self.settings, port=port, data_dir=self.data_dir).start()
        self.settings = dataclasses.replace(self.settings, clickhouse_url=self.server.url)

    def restart(self) -> None:
        port = self.server.port
        self.server.stop()
        self.start(port)

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server = None


@pytest.fixture(scope="module")
def wh(tmp_path_factory):
    box = Box(tmp_path_factory.mktemp("warehouse"))
    try:
        yield box
    finally:
        box.stop()
