"""Where secrets come from, where generated ones live, and how they reach child processes.

- `read_secret(env, NAME)`: the value of `NAME`, or the content of the file `NAME_FILE` names (a
  mounted secret; one trailing newline stripped); both set is an error naming the variables.
- `generated_secret(data_dir, file_name)`: a random secret created once under
  `<data_dir>/secrets/` (folder 0700, file 0600). It is written completely under a temporary name
  and then hard-linked into place, which fails if the name exists: processes started together all
  end up reading the one winner.
- `SecretSources`: Settings' secrets read that way, generated where the embedded warehouse needs
  them, with the file each came from; `secret_file_env` passes them on as files.
- `child_environment(inherited, overrides)`: the environment of a process the project starts. A
  secret value never travels in an environment (other processes of the same user can read it in
  /proc/PID/environ, and crash reports and debug dumps print it): each one is written to a 0600
  file under the child's data folder and the child gets `NAME_FILE` instead.

Errors name variables and files, never a value.
"""
from __future__ import annotations

import hashlib
import os
import secrets
from collections.abc import Collection, Mapping
from pathlib import Path

# Every variable that holds a secret value; each has a NAME_FILE twin.
SECRET_VARIABLES = (
    "CLICKHOUSE_PASSWORD",
    "CLICKHOUSE_ANALYST_PASSWORD",
    "CLICKHOUSE_API_PASSWORD",
    "CRON_TOKEN",
    "CURSOR_SECRETS",
)
SECRETS_DIR = "secrets"
PASSED_DIR = "passed"  # copies of secrets given by value, made for child processes


class SecretError(ValueError):
    """A secret is configured wrongly (both NAME and NAME_FILE, an unreadable file)."""


def read_secret(env: Mapping[str, str], name: str) -> str | None:
    """NAME's value, or NAME_FILE's file content; None when neither is set (or both are empty)."""
    value, file_name = env.get(name) or "", env.get(f"{name}_FILE") or ""
    if value and file_name:
        raise SecretError(f"{name} and {name}_FILE are both set; set one of them")
    if value:
        return value
    if not file_name:
        return None
    try:
        text = Path(file_name).read_text()
    except OSError as exc:
        raise SecretError(f"{name}_FILE {file_name!r} cannot be read: {exc.strerror}") from None
    return text[:-1] if text.endswith("\n") else text


class SecretSources:
    """Reads Settings' secrets from `env` and records the file each came from (`files`), so it
    can be passed on as is. `generate`: whether a missing secret with a generated file name is
    created under `<data_dir>/secrets/` (the embedded warehouse's machine passwords)."""

    def __init__(self, env: Mapping[str, str], data_dir: Path, *, generate: bool):
        self.env, self.data_dir, self.generate = env, data_dir, generate
        self.files: dict[str, Path] = {}

    def get(self, name: str, default: str, generated: str | None = None) -> str:
        value = read_secret(self.env, name)
        if value is not None:
            if self.env.get(f"{name}_FILE"):
                self.files[name] = Path(self.env[f"{name}_FILE"]).resolve()
            return value
        if generated is None or not self.generate:
            return default
        try:
            value, self.files[name] = generated_secret(self.data_dir, generated)
        except OSError as exc:
            raise SecretError(f"{name}: {self.data_dir / SECRETS_DIR / generated} cannot be created "
                              f"({exc.strerror}); set {name} or {name}_FILE") from None
        return value


def secret_file_env(data_dir: Path, values: Mapping[str, str], sources: Mapping[str, Path]) -> dict[str, str]:
    """`NAME_FILE` for each secret with a value: the file it came from when that still holds it,
    else a private copy under `<data_dir>/secrets/passed/`."""
    env = {}
    for name, value in values.items():
        if not value:
            continue
        source = sources.get(name)
        try:
            if source is not None and read_secret({f"{name}_FILE": str(source)}, name) == value:
                env[f"{name}_FILE"] = str(source)
                continue
        except SecretError:
            pass  # gone or unreadable: pass a copy
        env[f"{name}_FILE"] = str(passed_secret_file(data_dir, name, value))
    return env


def secrets_dir(data_dir: Path) -> Path:
    """`<data_dir>/secrets`, created private (0700) if missing."""
    path = Path(data_dir) / SECRETS_DIR
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def write_once(path: Path, text: str) -> str:
    """Create `path` (0600) holding `text` unless it exists; return what the file holds then."""
    try:
        return path.read_text()
    except FileNotFoundError:
        pass
    temp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        try:
            os.link(temp, path)
        except FileExistsError:
            pass  # another process created it first: its content is the one
    finally:
        temp.unlink(missing_ok=True)
    return path.read_text()


def generated_secret(data_dir: Path, file_name: str) -> tuple[str, Path]:
    """A random secret kept in `<data_dir>/secrets/<file_name>` (created on first use) and its file."""
    path = secrets_dir(data_dir) / file_name
    return write_once(path, secrets.token_urlsafe(24) + "\n").rstrip("\n"), path


def passed_secret_file(data_dir: Path, name: str, value: str) -> Path:
    """A 0600 file holding `value` for a child process, under `<data_dir>/secrets/passed/`.

    Named by the variable and a digest of the value, so two values never share a file and a
    process reading one never sees it rewritten (the folder is private: the name tells no one
    more than the file)."""
    folder = secrets_dir(data_dir) / PASSED_DIR
    folder.mkdir(mode=0o700, exist_ok=True)
    digest = hashlib.sha256(value.encode()).hexdigest()[:16]
    path = folder / f"{name.lower().replace('_', '-')}-{digest}"
    write_once(path, value + "\n")
    return path


def child_environment(inherited: Mapping[str, str], overrides: Mapping[str, str],
                      allowed: Collection[str] | None = None) -> dict[str, str]:
    """`inherited` updated by `overrides`, with every secret value replaced by a NAME_FILE path.

    A secret named in `overrides` (by value or file) replaces the inherited one entirely.
    `allowed`: the secret variables the child may get at all (None: every one); the others are
    dropped, by value and by file. Files are written under the child's VEA_DATA_DIR (default
    `.data`, as Settings reads it)."""
    env = dict(inherited)
    for name in SECRET_VARIABLES:
        if name in overrides or f"{name}_FILE" in overrides:
            env.pop(name, None)
            env.pop(f"{name}_FILE", None)
    env.update(overrides)
    data_dir = Path(env.get("VEA_DATA_DIR") or ".data").resolve()
    for name in SECRET_VARIABLES:
        value = env.pop(name, "")
        if allowed is not None and name not in allowed:
            env.pop(f"{name}_FILE", None)
            continue
        if value:
            if env.get(f"{name}_FILE"):
                raise SecretError(f"{name} and {name}_FILE are both set; set one of them")
            if name == "CURSOR_SECRETS":  # comma-separated by value, one per line in a file
                value = "\n".join(part.strip() for part in value.split(","))
            env[f"{name}_FILE"] = str(passed_secret_file(data_dir, name, value))
    return env
