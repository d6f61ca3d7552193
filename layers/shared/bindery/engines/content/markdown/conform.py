"""Keep every block where the spec allows it.

Markdown nests anything anywhere (a code block in a hint, an embed in a list item); the spec does not.
A container is split around a child it may not hold, and the child moves up to the container's parent,
which does the same if it may not hold it either: `hint[p, code, p]` becomes `hint[p], code, hint[p]`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bindery.engines.content.markdown import model
from bindery.engines.content.markdown.model import Node
from bindery.engines.content.markdown.rules import ALLOWED, CHILD_TYPE


def allowed(container: str, child: Node) -> bool:
    if container in CHILD_TYPE:
        return bool(child["type"] == CHILD_TYPE[container])
    return child["type"] in ALLOWED[container]


def split(
    container: str,
    children: list[Node],
    make: Callable[[list[Node], int], Node],
    *,
    empty: Callable[[], list[Node]] | None = None,
) -> list[Node]:
    """`make(children, index)` builds the container around a run of allowed children (`index` counts
    the runs); children it may not hold come out between the runs. With no children at all, the
    container is built around `empty()` (default: one empty paragraph)."""
    if not children:
        return [make(empty() if empty is not None else [model.paragraph()], 0)]
    out: list[Node] = []
    run: list[Node] = []
    runs = 0
    for child in children:
        if allowed(container, child):
            run.append(child)
            continue
        if run:
            out.append(make(run, runs))
            runs += 1
            run = []
        out.append(child)
    if run:
        out.append(make(run, runs))
    return out


def maker(type_: str, data: dict[str, Any]) -> Callable[[list[Node], int], Node]:
    """A `make` for `split`: the container with a copy of `data` around each run."""

    def make(run: list[Node], _index: int) -> Node:
        return model.block(type_, run, dict(data))

    return make


def keep_allowed(container: str, children: list[Node], warn: Callable[[str], None]) -> list[Node]:
    """Where nothing can move out (table cells, annotations, the document): drop what does not fit."""
    kept = []
    for child in children:
        if allowed(container, child):
            kept.append(child)
        else:
            warn(f"a {child['type']} block cannot be placed in a {container}; it was left out")
    return kept
