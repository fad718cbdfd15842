"""Users and Settings of the API suite's warehouse (a module of its own: test modules import it,
and `from conftest import ...` would be ambiguous next to other suites' conftest files)."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from ve_analytics.core.config import Settings

ANALYST_USER, ANALYST_PASSWORD = "analyst", "analyst-secret"
WRITER_USER, WRITER_PASSWORD = "writer", "writer-secret"


def settings_for(url: str, database: str, data_dir: Path | None, chains: dict | None = None) -> Settings:
    """Settings naming everything the API reads explicitly (the caller's environment cannot leak in);
    `chains` is a chain book (support.chains) when the routes need one."""
    return dataclasses.replace(
        Settings.from_env(),
        data_dir=data_dir,
        clickhouse_url=url,
        clickhouse_user=WRITER_USER,
        clickhouse_password=WRITER_PASSWORD,
        clickhouse_database=database,
        analyst_user=ANALYST_USER,
        analyst_password=ANALYST_PASSWORD,
        stale_after_minutes=45,
        production_host="https://api.example.org",
        api_workers=1,
        chains=dict(chains or {}),
    )
