"""Where the passwords and the cron token come from (core.secrets, Settings.from_env), that the
embedded warehouse's generated passwords are the same for every process of a data folder, and that
a child process gets files, never values (core.secrets.child_environment)."""
from __future__ import annotations

import multiprocessing
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from ve_analytics.core.config import Settings
from ve_analytics.core.secrets import SECRET_VARIABLES, SecretError, child_environment, read_secret

ADMIN, API, ANALYST, CRON = "adm-Zq81-pass", "api-Xw27-pass", "ana-Lp55-pass", "cron-Rt09-token"


@pytest.fixture
def env(tmp_path, monkeypatch):
    """A clean configuration environment on a temporary data folder."""
    for name in list(os.environ):
        if name in SECRET_VARIABLES or name.removesuffix("_FILE") in SECRET_VARIABLES or name == "CLICKHOUSE_URL":
            monkeypatch.delenv(name)
    monkeypatch.setenv("VEA_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("CHAIN_BOOK", str(tmp_path / "no-book.json"))
    return monkeypatch


def test_a_secret_comes_from_its_variable_or_its_file(tmp_path, env):
    mounted = tmp_path / "admin"
    mounted.write_text(ADMIN + "\n")  # a mounted secret ends with a newline; it is not part of it
    (tmp_path / "cron").write_text(CRON)
    env.setenv("CLICKHOUSE_PASSWORD_FILE", str(mounted))
    env.setenv("CLICKHOUSE_API_PASSWORD", API)
    env.setenv("CLICKHOUSE_ANALYST_PASSWORD_FILE", str(mounted))
    env.setenv("CRON_TOKEN_FILE", str(tmp_path / "cron"))
    settings = Settings.from_env()
    assert (settings.clickhouse_password, settings.api_reader_password) == (ADMIN, API)
    assert (settings.analyst_password, settings.cron_token) == (ADMIN, CRON)
    assert not any(secret in repr(settings) for secret in (ADMIN, API, CRON))
    assert not any(secret in value for value in settings.to_env().values() for secret in (ADMIN, API, CRON))


def test_both_forms_of_one_secret_stop_the_start_naming_them_not_the_value(tmp_path, env):
    (tmp_path / "token").write_text(CRON)
    env.setenv("CRON_TOKEN", "other-token-value")
    env.setenv("CRON_TOKEN_FILE", str(tmp_path / "token"))
    with pytest.raises(SecretError, match="CRON_TOKEN and CRON_TOKEN_FILE are both set") as caught:
        Settings.from_env()
    assert "other-token-value" not in str(caught.value) and CRON not in str(caught.value)
    env.delenv("CRON_TOKEN")
    env.setenv("CRON_TOKEN_FILE", str(tmp_path / "missing"))
    with pytest.raises(SecretError, match=r"CRON_TOKEN_FILE '.*missing' cannot be read"):
        Settings.from_env()


def test_the_embedded_warehouse_gets_generated_private_passwords(tmp_path, env):
    settings = Settings.from_env()
    folder = tmp_path / "data" / "secrets"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    for name, value in (("clickhouse-password", settings.clickhouse_password),
                        ("clickhouse-api-password", settings.api_reader_password)):
        assert len(value) >= 32 and (folder / name).read_text() == value + "\n"
        assert stat.S_IMODE((folder / name).stat().st_mode) == 0o600
    assert settings.analyst_password == "analyst"  # the humans' user keeps its documented default
    assert Settings.from_env().clickhouse_password == settings.clickhouse_password
    # another process of the same data folder (a child started with Settings.to_env) agrees
    child_env = {**os.environ, **settings.to_env(), **settings.secret_env()}
    code = "from ve_analytics.core.config import Settings; s = Settings.from_env(); print(s.clickhouse_password)"
    out = subprocess.run([sys.executable, "-c", code], env=child_env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == settings.clickhouse_password
    # a ClickHouse elsewhere (CLICKHOUSE_URL) gets no generated password: it has its own users
    env.setenv("CLICKHOUSE_URL", "http://clickhouse.internal:8123")
    elsewhere = Settings.from_env()
    assert (elsewhere.clickhouse_password, elsewhere.api_reader_password) == ("", "api")


def _password(data_dir: str, queue) -> None:
    os.environ["VEA_DATA_DIR"] = data_dir
    queue.put(Settings.from_env().clickhouse_password)


def test_processes_started_together_generate_one_password(tmp_path, env):
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    data = str(tmp_path / "together")
    workers = [ctx.Process(target=_password, args=(data, queue)) for _ in range(6)]
    for w in workers:
        w.start()
    got = {queue.get(timeout=60) for _ in workers}
    for w in workers:
        w.join(timeout=60)
    assert len(got) == 1
    # no temporary file left behind
    assert sorted(p.name for p in (Path(data) / "secrets").iterdir()) == ["clickhouse-api-password", "clickhouse-password"]


def test_a_child_gets_files_not_values(tmp_path):
    given = tmp_path / "given"
    given.write_text(API + "\n")
    inherited = {"PATH": "/bin", "VEA_DATA_DIR": str(tmp_path / "data"), "CLICKHOUSE_PASSWORD": ADMIN,
                 "CRON_TOKEN": CRON, "CURSOR_SECRETS": "k" * 20 + "," + "j" * 20}
    env = child_environment(inherited, {"CLICKHOUSE_API_PASSWORD_FILE": str(given)})
    assert not set(SECRET_VARIABLES) & set(env)
    assert env["CLICKHOUSE_API_PASSWORD_FILE"] == str(given)  # a file given is passed on as it is
    assert read_secret(env, "CLICKHOUSE_PASSWORD") == ADMIN and read_secret(env, "CRON_TOKEN") == CRON
    assert Path(env["CURSOR_SECRETS_FILE"]).read_text() == "k" * 20 + "\n" + "j" * 20 + "\n"  # one per line
    path = Path(env["CLICKHOUSE_PASSWORD_FILE"])
    assert path.parent == tmp_path / "data" / "secrets" / "passed" and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert ADMIN not in path.name and ADMIN not in " ".join(env.values())
    # the caller's own value replaces an inherited one; a child may be given only some secrets
    override = child_environment(inherited, {"CLICKHOUSE_PASSWORD": "another-pass"}, allowed=("CLICKHOUSE_PASSWORD",))
    assert read_secret(override, "CLICKHOUSE_PASSWORD") == "another-pass"
    assert not [name for name in override if name.removesuffix("_FILE") in SECRET_VARIABLES[1:]]
    assert child_environment(inherited, {}, allowed=())["PATH"] == "/bin"
