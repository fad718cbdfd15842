"""Reading one setting from the environment: the default for an unset or empty variable, and
numbers checked against their range, so a bad value stops the start with the variable's name.
Settings (core.config) and its groups (core.api_limits, core.run_limits) read through these."""
from __future__ import annotations

import os


def env_text(name: str, default: str) -> str:
    value = os.environ.get(name)
    return default if value is None or value == "" else value


def env_number(name: str, default: object, cast: type, low: float, high: float | None = None):
    """A numeric variable within [low, high]; anything else stops the start with its name."""
    raw = env_text(name, str(default))
    try:
        value = cast(raw)
    except ValueError:
        raise ValueError(f"{name} must be a {cast.__name__}, got {raw!r}") from None
    if value < low or (high is not None and value > high) or value != value:
        bound = f"between {low} and {high}" if high is not None else f"at least {low}"
        raise ValueError(f"{name} must be {bound}, got {raw!r}")
    return value
