"""A non-editable install is a working product: build the wheel, install it into a fresh
environment outside the checkout, and run the warehouse, migrations, API and Dagster code location
from it. The fresh environment borrows only the third-party dependencies of this one (a path line
in a .pth file: the editable install's own finder is not activated there)."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path

import httpx
import pytest

from support.chains import write_example_book
from ve_analytics.cli.processes import Service, free_port

REPO = Path(__file__).resolve().parents[2]
SQL_FOLDERS = ("migrations", "queries/common", "queries/stats", "queries/vaults", "transforms/backfill", "transforms/checks",
               "transforms/curation", "transforms/history", "transforms/rollups",
               "transforms/snapshots")


def test_every_package_folder_is_declared():
    """pyproject lists the subpackages explicitly (package-dir maps folders to ve_analytics.*):
    a new folder with an __init__.py must be listed, or the wheel silently lacks it."""
    declared = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    roots = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    found = {
        package + "".join("." + part for part in init.parent.relative_to(REPO / folder).parts)
        for package, folder in roots.items()
        for init in (REPO / folder).rglob("__init__.py")
    }
    assert found == declared


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel built from the checkout's files (a copy, so the checkout gets no build output)."""
    root = tmp_path_factory.mktemp("wheel")
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=REPO,
                           check=True, capture_output=True, text=True).stdout.split()
    src = root / "src"
    for name in files:
        if (REPO / name).is_file():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, src / name)
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(root / "dist"), str(src)],
                   check=True, capture_output=True)
    (built,) = (root / "dist").glob("ve_analytics-*.whl")
    return built


@pytest.fixture(scope="module")
def env(wheel, tmp_path_factory) -> Path:
    """A fresh virtual environment with the wheel installed (not editable), outside the checkout."""
    home = tmp_path_factory.mktemp("installed")
    venv = home / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True).stdout.strip()
    (Path(purelib) / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps",
                    "--no-index", str(wheel)], check=True, capture_output=True)
    return venv


def run(venv: Path, code: str, cwd: Path, **env: str) -> str:
    done = subprocess.run([str(venv / "bin" / "python"), "-c", code], cwd=cwd, capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(cwd), **env})
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_wheel_holds_one_package_with_its_sql_and_no_devnet(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"ve_analytics"}
    for folder in SQL_FOLDERS:
        shipped = {n.rsplit("/", 1)[1] for n in names if n.startswith(f"ve_analytics/warehouse_sql/{folder}/") and n.endswith(".sql")}
        assert shipped == {p.name for p in (REPO / "warehouse_sql" / folder).glob("*.sql")}, folder
    assert "ve_analytics/api/docs/index.html" in names


def test_installed_package_loads_from_site_packages_without_the_devnet(env, tmp_path):
    out = json.loads(run(env, """
import json, importlib.util
import ve_analytics.api.app, ve_analytics.orchestration.definitions as d
from ve_analytics.warehouse import sqlbook
print(json.dumps({
    "paths": [str(p) for p in __import__("ve_analytics").__path__],
    "devnet": importlib.util.find_spec("devnet") is not None,
    "jobs": sorted(j.name for j in d.defs.resolve_all_job_defs() if not j.name.startswith("__")),
    "checks": len(list(d.defs.asset_checks or [])),
    "sql": {f: len(sqlbook.files_in(f)) for f in %r},
}))
""" % (SQL_FOLDERS,), tmp_path, CHAIN_BOOK=str(write_example_book(tmp_path))))
    assert all("site-packages" in p and str(REPO) not in p for p in out["paths"]), out["paths"]
    assert out["devnet"] is False
    assert out["jobs"] == ["curation_job", "history_job_56", "snapshot_job_56"] and out["checks"] > 0
    assert out["sql"] == {f: len(list((REPO / "warehouse_sql" / f).glob("*.sql"))) for f in SQL_FOLDERS}


def test_installed_commands_serve_migrate_and_answer(env, tmp_path):
    port_wh, port_api = free_port(), free_port()
    book = write_example_book(tmp_path)
    base = {"PATH": f"{env / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path), "VEA_DATA_DIR": str(tmp_path),
            "WAREHOUSE_PORT": str(port_wh), "API_PORT": str(port_api), "CHAIN_BOOK": str(book)}
    command = str(env / "bin" / "ve-analytics")
    warehouse = Service("warehouse", [command, "warehouse"], f"http://127.0.0.1:{port_wh}/ping", base,
                        tmp_path / "warehouse.log")
    api = Service("api", [command, "api"], f"http://127.0.0.1:{port_api}/api/stats/openapi.json", base, tmp_path / "api.log")
    try:
        warehouse.start(120)
        migrate = subprocess.run([command, "migrate"], cwd=tmp_path, env=base, capture_output=True, text=True)
        assert migrate.returncode == 0 and "migrations up to date" in migrate.stderr + migrate.stdout, migrate.stderr
        api.start(120)
        health = httpx.get(f"http://127.0.0.1:{port_api}/api/stats/health", timeout=30)
        # the health query ran against the migrated tables: no snapshot yet, not an unreachable warehouse
        assert health.status_code == 503 and health.json()["error"]["details"]["reason"] == "no_successful_snapshot"
        vault = httpx.get(f"http://127.0.0.1:{port_api}/api/v1/openapi.json", timeout=30).json()
        assert vault["components"]["schemas"]["ApiMeta"]["properties"]["network"] == {"const": "bsc"}
    finally:
        api.stop()
        warehouse.stop()
