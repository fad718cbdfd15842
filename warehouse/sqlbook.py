"""The one SQL book: every `.sql` file of the warehouse, read from the installed package.

`warehouse_sql/` ships as package data of `ve_analytics.warehouse_sql`, so an installed wheel
and a checkout read the same files the same way. Paths are relative to that folder:
`migrations/001_snapshot_runs.sql`, `transforms/rollups/protocol_daily.sql`,
`queries/stats/protocol.sql`. Each file declares its values as ClickHouse server-side
parameters (`{name:Type}`); `SqlFile.bind` passes exactly those, so user text never enters SQL.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

ROOT: Traversable = files("ve_analytics.warehouse_sql")
_PARAMETER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*):[^{}]+\}")


@dataclass(frozen=True)
class SqlFile:
    path: str  # relative to warehouse_sql/
    text: str
    parameters: frozenset[str]  # the {name:Type} names the file declares

    @property
    def name(self) -> str:
        """The file's name without `.sql` (a query's handler name)."""
        return self.path.rsplit("/", 1)[-1].removesuffix(".sql")

    def bind(self, values: dict[str, Any]) -> dict[str, Any]:
        missing = self.parameters.difference(values)
        if missing:
            raise KeyError(f"{self.path} needs parameters {sorted(missing)}")
        return {name: values[name] for name in self.parameters}


def _node(path: str) -> Traversable:
    parts = [p for p in path.split("/") if p]
    if not parts or any(p in (".", "..") for p in parts):
        raise ValueError(f"not a path inside warehouse_sql/: {path!r}")
    node = ROOT
    for part in parts:
        node = node.joinpath(part)
    return node


def folder(path: str) -> Traversable:
    """A folder of the book (e.g. "migrations"), for code that walks its files itself."""
    return _node(path)


@lru_cache(maxsize=None)
def sql(path: str) -> SqlFile:
    """One file of the book, read once per process."""
    node = _node(path)
    if not path.endswith(".sql") or not node.is_file():
        raise FileNotFoundError(f"no SQL file warehouse_sql/{path}")
    text = node.read_text(encoding="utf-8")
    return SqlFile(path, text, frozenset(_PARAMETER.findall(text)))


def files_in(path: str) -> list[SqlFile]:
    """The `.sql` files directly in a folder of the book, by name."""
    names = sorted(n.name for n in _node(path).iterdir() if n.name.endswith(".sql") and n.is_file())
    return [sql(f"{path.rstrip('/')}/{name}") for name in names]


__all__ = ["SqlFile", "sql", "files_in", "folder", "ROOT"]
