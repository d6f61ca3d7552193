"""Which blocks the reference spec allows where (the `nodes` of each container schema).

The parser follows these when it builds a document (a block that a container does not allow is moved
out of it, see `conform.py`), and the property tests generate documents from the same table.
"""

from __future__ import annotations

HEADINGS = frozenset({"heading-1", "heading-2", "heading-3"})
LISTS = frozenset({"list-ordered", "list-unordered", "list-tasks"})
ESSENTIALS = frozenset({"paragraph", "divider"}) | HEADINGS | LISTS

TOP_LEVEL = ESSENTIALS | frozenset(
    {
        "blockquote",
        "hint",
        "images",
        "file",
        "drawing",
        "embed",
        "code",
        "math",
        "expandable",
        "tabs",
        "table",
        "swagger",
        "openapi-operation",
        "openapi-schemas",
        "openapi-webhook",
        "content-ref",
        "integration",
        "reusable-content",
        "stepper",
        # Not in the spec's `DocumentBlocksTopLevels` (0.146.0) although GitBook places them at the top
        # level of pages; the tests validate these two against `DocumentBlock` instead.
        "if",
        "columns",
    }
)

_TAB_OR_STEP = ESSENTIALS | frozenset(
    {
        "content-ref",
        "code",
        "embed",
        "file",
        "images",
        "drawing",
        "hint",
        "blockquote",
        "math",
        "integration",
    }
)

ALLOWED: dict[str, frozenset[str]] = {
    "document": TOP_LEVEL,
    "blockquote": ESSENTIALS | {"blockquote"},
    "hint": ESSENTIALS,
    "if": TOP_LEVEL - {"if", "columns"},
    "list-item": ESSENTIALS | {"code", "hint", "blockquote", "math", "table"},
    "tabs-item": _TAB_OR_STEP,
    "stepper-step": _TAB_OR_STEP,
    "column": ESSENTIALS
    | {
        "images",
        "code",
        "hint",
        "content-ref",
        "drawing",
        "embed",
        "file",
        "integration",
        "math",
        "blockquote",
        "table",
    },
    "expandable-body": ESSENTIALS | {"images", "code", "table", "hint", "blockquote", "reusable-content"},
    "annotation-body": ESSENTIALS | {"code"},
    # Table cells may hold any block in the spec; GitBook's HTML tables hold text blocks only.
    "table-cell": ESSENTIALS,
}

# Containers whose only children are of one type.
CHILD_TYPE = {
    "list-ordered": "list-item",
    "list-unordered": "list-item",
    "list-tasks": "list-item",
    "tabs": "tabs-item",
    "stepper": "stepper-step",
    "columns": "column",
    "images": "image",
    "code": "code-line",
}
