"""A Python client generated from a served contract by openapi-python-client, as an integrator
generates one: the generator's report must hold no warning (a warning there means an operation,
a response or a model was left out of the client), and the generated package is imported for
the test to call the API through it."""
from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import httpx

# no post hooks: the generator would otherwise format its output with ruff from PATH, and
# report a warning where ruff is not on it (a virtual environment's bin is not)
CONFIG = "post_hooks: []\n"


def generate(contract_url: str, package: str, folder: Path) -> ModuleType:
    """The client package generated from the contract at `contract_url`, imported as `package`."""
    contract = folder / f"{package}.json"
    contract.write_bytes(httpx.get(contract_url, timeout=60).raise_for_status().content)
    config = folder / "generator.yaml"
    config.write_text(CONFIG)
    report = subprocess.run(
        [sys.executable, "-m", "openapi_python_client", "generate", "--path", str(contract), "--output-path",
         str(folder / package), "--meta", "none", "--config", str(config), "--overwrite"],
        capture_output=True, text=True, timeout=300)
    assert report.returncode == 0, report.stdout + report.stderr
    assert "warning" not in (report.stdout + report.stderr).lower(), report.stdout + report.stderr
    sys.path.insert(0, str(folder))
    try:
        return importlib.import_module(package)
    finally:
        sys.path.remove(str(folder))


def operation(client_package: ModuleType, tag: str, name: str) -> ModuleType:
    """The generated module of one operation (`api/<tag>/<operation>.py`)."""
    return importlib.import_module(f"{client_package.__name__}.api.{tag}.{name}")


def as_sent(value):
    """A model's `to_dict()` as the API writes it: the client writes a parsed UTC date-time back
    with `+00:00`, the API with `Z`."""
    if isinstance(value, dict):
        return {k: as_sent(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_sent(v) for v in value]
    if isinstance(value, str) and value.endswith("+00:00") and value[:4].isdigit():
        return value[:-6] + "Z"
    return value


def body(url: str) -> dict:
    """The JSON of a 200 answer, read without the generated client."""
    r = httpx.get(url, timeout=60)
    assert r.status_code == 200, r.text
    return r.json()
