"""Where the API's cursor-signing secrets come from (the first signs, every one verifies).

CURSOR_SECRETS (comma-separated) or CURSOR_SECRETS_FILE (one per line, for mounted secrets;
blank and `#` lines ignored; both set is an error), else a secret generated once into `<data_dir>/cursor-secret`.
The generated file is created once (core.secrets.write_once): API workers started together all
end up reading the one winner.
Error messages name the source, never a secret's value.
"""
from __future__ import annotations

import logging
import secrets
from pathlib import Path
from typing import Mapping

from .secrets import SecretError, write_once

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
    path.parent.mkdir(parents=True, exist_ok=True)
    return _parse(write_once(path, secrets.token_urlsafe(32) + "\n"), None)


def load_cursor_secrets(env: Mapping[str, str], data_dir: Path) -> tuple[str, ...]:
    """The cursor secrets, first signing. Empty only when none is configured and the data folder
    cannot hold a generated one: the API refuses to start then (api.cursors.codec_for)."""
    if env.get("CURSOR_SECRETS") and env.get("CURSOR_SECRETS_FILE"):
        raise SecretError("CURSOR_SECRETS and CURSOR_SECRETS_FILE are both set; set one of them")
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
