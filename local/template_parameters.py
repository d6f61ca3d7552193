"""template.yaml with its parameters in place, as `sam build --parameter-overrides` resolves them.

Only `!Ref` to a parameter and `!Sub` over parameters are resolved; every other intrinsic (a resource's
Ref, GetAtt, pseudo parameters) stays as written. What the static checks need: the architecture every
function, the shared layer and the conversations image are built for is a parameter (`Architecture`,
arm64 deployed, x86_64 for local runs on an x86_64 host), and each of its values must build.
"""

from __future__ import annotations

import re
from typing import Any

ARCHITECTURE = "Architecture"


def defaults(raw: dict[str, Any]) -> dict[str, str]:
    """Each parameter's default value (a parameter without one is left out)."""
    return {name: str(spec["Default"]) for name, spec in (raw.get("Parameters") or {}).items()
            if "Default" in spec}


def resolve(value: Any, parameters: dict[str, str]) -> Any:
    if isinstance(value, list):
        return [resolve(item, parameters) for item in value]
    if not isinstance(value, dict):
        return value
    if set(value) == {"Ref"} and value["Ref"] in parameters:
        return parameters[value["Ref"]]
    if set(value) == {"Fn::Sub"} and isinstance(value["Fn::Sub"], str):
        text = re.sub(r"\$\{(\w+)\}", lambda m: parameters.get(m[1], m[0]), value["Fn::Sub"])
        return text if "${" not in text else {"Fn::Sub": text}
    return {key: resolve(item, parameters) for key, item in value.items()}


def architecture_variants(raw: dict[str, Any]) -> list[dict[str, Any]]:
    """The template resolved once per allowed value of its Architecture parameter (the other parameters
    at their defaults): every build `sam build --parameter-overrides Architecture=…` can make. A template
    without that parameter is resolved once, at its defaults."""
    values = defaults(raw)
    spec = (raw.get("Parameters") or {}).get(ARCHITECTURE)
    if spec is None:
        return [resolve(raw, values)]
    return [resolve(raw, {**values, ARCHITECTURE: str(choice)})
            for choice in spec.get("AllowedValues", [spec.get("Default")])]
