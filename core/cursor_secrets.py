"""Where the API's cursor-signing secrets come from (the first signs, every one verifies).

In order: CURSOR_SECRETS (comma-separated), CURSOR_SECRETS_FILE (one per line, for mounted
secrets; blank and `#` lines ignored), else a secret generated once into `<data_dir>/cursor-secret`.
The generated file is written completely under a temporary name and then hard-linked into place,
which fails if the name exists: API workers started together all end up reading the one winner.
Error messages name the source, never a secret's value.
"""
from __future__ import annotations

import logging
import os
import secrets
from pathlib import Path
from typing import Mapping

log = logging.getLogger(__name__)

GENERATED_NAME = "cursor-secret"
MIN_SECRET_CHARS = 16  # a short secret would make forging a cursor a matter of guessing it


def _parse(text: str, separator: str | None) -> tuple[str, ...]:
    items = text.split(separator) if separator else text.splitlines()
    return tuple(s for s in (item.strip() for item in items) if s and not s.startswith("#"))


def _checked(found: tuple[str, ...], source: str) -> tuple[str, ...]:
    if not found:
        raise ValueError(f"{source} holds no cursor secret")
    for position, secret in enumerate(found, 1):
        if len(secret) < MIN_SECRET_CHARS:
            raise ValueError(f"{source}: cursor secret {position} is shorter than {MIN_SECRET_CHARS} characters")
    return found


def _generated(path: Path) -> tuple[str, ...]:
    try:
        return _parse(path.read_text(), None)
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_urlsafe(32) + "\n")
            out.flush()
            os.fsync(out.fileno())
        try:
            os.link(temp, path)
        except FileExistsError:
            pass  # another process created it first: its secret is the one
    finally:
        temp.unlink(missing_ok=True)
    return _parse(path.read_text(), None)


def load_cursor_secrets(env: Mapping[str, str], data_dir: Path) -> tuple[str, ...]:
    """The cursor secrets, first signing. Empty only when none is configured and the data folder
    cannot hold a generated one: the API refuses to start then (api.cursors.codec_for)."""
    if env.get("CURSOR_SECRETS"):
        return _checked(_parse(env["CURSOR_SECRETS"], ","), "CURSOR_SECRETS")
    if env.get("CURSOR_SECRETS_FILE"):
        name = env["CURSOR_SECRETS_FILE"]
        try:
            text = Path(name).read_text()
        except OSError as exc:
            raise ValueError(f"CURSOR_SECRETS_FILE {name!r} cannot be read: {exc.strerror}") from None
        return _checked(_parse(text, None), f"CURSOR_SECRETS_FILE {name!r}")
    path = data_dir / GENERATED_NAME
    try:
        return _checked(_generated(path), str(path))
    except OSError as exc:
        # only the API needs a secret; other commands must still start on a read-only folder
        log.warning("no cursor secret: %s cannot be created (%s); set CURSOR_SECRETS or CURSOR_SECRETS_FILE",
                    path, exc.strerror)
        return ()
