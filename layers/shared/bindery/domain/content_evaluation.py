"""`evaluated=true` / `deterministic-only`: a document with its variable references replaced by their values.

GitBook expressions reference variables as `space.vars.<name>` (the revision's `variables`) and
`page.vars.<name>` (the page's `variables`). Those are the expressions Bindery evaluates: an expression
inline (`{object: inline, type: expression, data: {expression}}`) that is exactly one such reference
becomes a text node holding the value as JavaScript's String() writes it (`true`, `3`, `1.5`); a
variable that is not defined gives empty text. Both modes evaluate the same set, since a variable
reference depends on the revision only (deterministic). Any other expression (visitor claims,
operators, function calls) and every `if` block's condition are left as they are, in both modes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

REFERENCE = re.compile(r"^\s*(space|page)\.vars\.([A-Za-z][A-Za-z0-9_]*)\s*$")
EVALUATIONS = ("true", "deterministic-only")


def js_string(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _value_of(expression: Any, scopes: Mapping[str, Mapping[str, Any]]) -> str | None:
    match = REFERENCE.match(expression) if isinstance(expression, str) else None
    if match is None:
        return None
    scope, name = match.groups()
    value = scopes[scope].get(name)
    return "" if value is None else js_string(value)


def _evaluate(node: Any, scopes: Mapping[str, Mapping[str, Any]]) -> Any:
    """The node with its references replaced; unchanged parts are the same objects (copy on write)."""
    if isinstance(node, list):
        items = [_evaluate(item, scopes) for item in node]
        return node if all(new is old for new, old in zip(items, node, strict=True)) else items
    if not isinstance(node, dict):
        return node
    if node.get("object") == "inline" and node.get("type") == "expression":
        text = _value_of((node.get("data") or {}).get("expression"), scopes)
        if text is None:
            return node
        leaf = {"object": "leaf", "text": text, "marks": []}
        replaced: dict[str, Any] = {"object": "text", "leaves": [leaf]}
        if "key" in node:
            replaced["key"] = node["key"]
        return replaced
    changed = {name: _evaluate(value, scopes) for name, value in node.items()}
    return node if all(changed[name] is node[name] for name in node) else changed


def evaluate(document: Mapping[str, Any], *, space_variables: Mapping[str, Any],
             page_variables: Mapping[str, Any] | None = None) -> Any:
    return _evaluate(document, {"space": space_variables, "page": page_variables or {}})
