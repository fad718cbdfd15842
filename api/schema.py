"""Building blocks of the JSON Schemas published in the OpenAPI contracts."""
from __future__ import annotations

ISO_TIME = {"type": "string", "format": "date-time", "pattern": r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$"}
DATE = {"type": "string", "format": "date", "pattern": r"^\d{4}-\d{2}-\d{2}$"}
RAW_INTEGER = {"type": ["string", "null"], "pattern": r"^[0-9]+$", "description": "raw on-chain integer as a decimal string"}
ADDRESS = {"type": "string", "pattern": "^0x[0-9a-fA-F]{40}$"}


def nullable(kind: str, description: str = "") -> dict:
    schema: dict = {"type": [kind, "null"]}
    if description:
        schema["description"] = description
    return schema


def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def array_of(name: str) -> dict:
    return {"type": "array", "items": ref(name)}


def nullable_ref(name: str, description: str = "") -> dict:
    schema: dict = {"oneOf": [ref(name), {"type": "null"}]}
    if description:
        schema["description"] = description
    return schema


def obj(properties: dict, description: str = "") -> dict:
    """A closed object whose properties are all required (nullable ones say so in their type)."""
    schema = {
        "type": "object",
        "required": list(properties),
        "additionalProperties": False,
        "properties": properties,
    }
    if description:
        schema["description"] = description
    return schema


def components(*parts: dict[str, dict]) -> dict[str, dict]:
    """Schema components gathered from several modules; a name two of them define is an error
    (merged with `{**a, **b}`, the second would silently win)."""
    out: dict[str, dict] = {}
    for part in parts:
        twice = sorted(set(out) & set(part))
        if twice:
            raise ValueError(f"schema components defined twice: {twice}")
        out.update(part)
    return out
