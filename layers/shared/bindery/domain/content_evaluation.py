"""`evaluated=true` / `deterministic-only`: a document with its expressions evaluated (docs/content-model.md,
"evaluated").

GitBook expressions are JavaScript expressions over `space.vars.<name>` (the revision's `variables`),
`page.vars.<name>` (the page's `variables`) and `visitor.…` (the reader's claims, which an API read does
not have). Bindery evaluates the subset documents use: literals, those references (member access with
`.` and `[…]`), `!`, unary `-`, `+ - * / %`, comparisons, `== === != !==`, `&& || ??` and `?:`.

- An expression inline whose value does not depend on the visitor becomes a text node holding the value
  as JavaScript's String() writes it (`true`, `3`, `1.5`; undefined gives empty text), in both modes.
  One that does, or that cannot be evaluated, is left as written in both modes.
- An `if` block whose condition does not depend on the visitor is replaced by its children when the
  condition is truthy and dropped when it is falsy, in both modes. A visitor-dependent condition is kept
  as written by `deterministic-only`; `true` evaluates it as for a visitor without claims (`visitor.…`
  is undefined), as GitBook does for an anonymous reader. A condition that cannot be evaluated (syntax
  error, unknown name) is kept by `deterministic-only` and counts as false for `true`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bindery.engines.content.expressions import (
    UNKNOWN,
    ExpressionError,
    evaluate_expression,
    js_string,
    truthy,
)

EVALUATIONS = ("true", "deterministic-only")


@dataclass(frozen=True)
class _Context:
    deterministic: Mapping[str, Any]  # visitor: UNKNOWN
    anonymous: Mapping[str, Any] | None  # visitor: no claims (evaluated=true), or None

    def value(self, source: Any, scope: Mapping[str, Any]) -> Any:
        """The value, or UNKNOWN when it depends on the visitor or cannot be evaluated."""
        try:
            return evaluate_expression(source, scope) if isinstance(source, str) else UNKNOWN
        except (ExpressionError, RecursionError):
            return UNKNOWN

    def condition(self, source: Any) -> bool | None:
        """Whether an `if` block shows its children; None: keep the block as written."""
        value = self.value(source, self.deterministic)
        if value is not UNKNOWN:
            return truthy(value)
        if self.anonymous is None:
            return None
        value = self.value(source, self.anonymous)
        return value is not UNKNOWN and truthy(value)


def _evaluate_inline(node: dict[str, Any], context: _Context) -> Any:
    value = context.value((node.get("data") or {}).get("expression"), context.deterministic)
    if value is UNKNOWN:
        return node
    leaf = {"object": "leaf", "text": js_string(value), "marks": []}
    replaced: dict[str, Any] = {"object": "text", "leaves": [leaf]}
    if "key" in node:
        replaced["key"] = node["key"]
    return replaced


def _evaluate_list(nodes: list[Any], context: _Context) -> list[Any]:
    items: list[Any] = []
    for node in nodes:
        if isinstance(node, dict) and node.get("object") == "block" and node.get("type") == "if":
            shown = context.condition((node.get("data") or {}).get("expression"))
            if shown is not None:
                # Decided: the block gives way to its (evaluated) children, or to nothing.
                items += _evaluate_list(list(node.get("nodes") or []), context) if shown else []
                continue
        items.append(_evaluate(node, context))
    unchanged = len(items) == len(nodes) and all(new is old for new, old in zip(items, nodes, strict=True))
    return nodes if unchanged else items


def _evaluate(node: Any, context: _Context) -> Any:
    """The node evaluated; unchanged parts are the same objects (copy on write)."""
    if isinstance(node, list):
        return _evaluate_list(node, context)
    if not isinstance(node, dict):
        return node
    if node.get("object") == "inline" and node.get("type") == "expression":
        return _evaluate_inline(node, context)
    changed = {name: _evaluate(value, context) for name, value in node.items()}
    return node if all(changed[name] is node[name] for name in node) else changed


def evaluate(document: Mapping[str, Any], *, space_variables: Mapping[str, Any],
             page_variables: Mapping[str, Any] | None = None, mode: str = "deterministic-only") -> Any:
    """`mode`: "true" or "deterministic-only" (schemas.content.evaluation_mode)."""
    variables = {"space": {"vars": space_variables}, "page": {"vars": page_variables or {}}}
    anonymous = {**variables, "visitor": {"claims": {}}} if mode == "true" else None
    return _evaluate(document, _Context({**variables, "visitor": UNKNOWN}, anonymous))


def evaluate_for_reader(document: Mapping[str, Any], scope: Mapping[str, Any]) -> Any:
    """The document as one reader of a published site sees it, `scope` holding their claims
    (`{"visitor": …, "space": {"vars": …}, "page": {"vars": …}}`): every expression and `if` block decided
    as the site's HTML decides them (a condition that cannot be evaluated hides its block), for the
    readers' Markdown (bindery.engines.site_pages.markdown_pages: `.md` pages, llms-full.txt, the site's MCP
    server)."""
    return _evaluate(document, _Context(scope, scope))
