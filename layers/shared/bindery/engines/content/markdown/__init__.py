"""GitBook-flavoured Markdown <-> GitBook JSON documents (the `JSONDocument` of GitBook's API).

    page = markdown_to_document(text, resolve_link=..., resolve_file=...)
    page.document, page.title, page.front_matter, page.links, page.files, page.warnings
    text = document_to_markdown(page.document, title=page.title, front_matter=page.front_matter,
                                page_path=..., file_path=...)

`document_to_markdown` then `markdown_to_document` gives back the document in its canonical form
(`canonicalize`): Markdown has no room for node keys or table ids, which are derived again from the
content. docs/markdown.md describes the syntax, the mapping to blocks, and what does not round-trip.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bindery.engines.content.markdown.block_keys import assign_keys, canonicalize, strip_keys
    from bindery.engines.content.markdown.convert import document_to_markdown
    from bindery.engines.content.markdown.parse import ParsedPage, markdown_to_document

__all__ = [
    "ParsedPage",
    "assign_keys",
    "canonicalize",
    "document_to_markdown",
    "markdown_to_document",
    "strip_keys",
]

# Loaded on first use (PEP 562): markdown-it and its plugins cost ~100 ms of a cold start, which the
# routes that never convert Markdown (most of them) should not pay for importing a submodule.
_HOMES = {"ParsedPage": "parse", "markdown_to_document": "parse", "document_to_markdown": "convert",
          "assign_keys": "block_keys", "canonicalize": "block_keys", "strip_keys": "block_keys"}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)
