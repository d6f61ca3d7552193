"""An installation's configuration against the schema the integration published for it
(`configurations.account`, `.space` or `.site`): the values must be of the declared types (and among
`enum`), unknown names are refused, and a configuration missing a `required` value is accepted but
leaves the installation `pending` until it is completed (then `active`)."""

from __future__ import annotations

from typing import Any

from bindery.platform.errors import BadRequest

_TYPES: dict[str, tuple[type, ...]] = {"string": (str,), "number": (int, float), "boolean": (bool,)}


def status_for(schema: dict[str, Any] | None, configuration: dict[str, Any], field: str) -> str:
    """`active` or `pending` for a configuration under `schema`; a 400 naming `field.<name>` when a
    value does not fit. A ContentKit component (`componentId`) declares no properties: anything goes."""
    if not schema or "properties" not in schema:
        return "active"
    properties: dict[str, Any] = schema.get("properties") or {}
    for name, value in configuration.items():
        declared = properties.get(name)
        if declared is None:
            raise BadRequest(f"{field}.{name}: not a property of this integration's configuration")
        kind = declared.get("type")
        if kind == "button":
            raise BadRequest(f"{field}.{name}: a button takes no value")
        if value is None:
            continue
        allowed = _TYPES.get(str(kind), ())
        if not isinstance(value, allowed) or (kind == "number" and isinstance(value, bool)):
            raise BadRequest(f"{field}.{name}: must be a {kind}")
        choices = declared.get("enum")
        if choices is not None and value not in choices:
            raise BadRequest(f"{field}.{name}: must be one of {', '.join(map(str, choices))}")
    missing = [name for name in schema.get("required") or [] if configuration.get(name) is None]
    return "pending" if missing else "active"


def with_defaults(schema: dict[str, Any] | None, configuration: dict[str, Any]) -> dict[str, Any]:
    """The configuration with the schema's defaults for the values it does not give."""
    filled = dict(configuration)
    for name, declared in ((schema or {}).get("properties") or {}).items():
        if name not in filled and declared.get("default") is not None:
            filled[name] = declared["default"]
    return filled
