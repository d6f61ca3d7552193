"""Links of a revision: every content reference its documents and pages hold, and whether it resolves.

A reference (`ContentRef`: `{"kind": "page", "page": id}`, `{"kind": "anchor", "anchor": "install",
"page": id}`, `{"kind": "file", "file": id}`, `{"kind": "url", "url": …}`…) sits in a node's `data`: an
inline link, mention or button, a content-ref block, an image, a file or drawing block, a reusable
content block, a table record, an embed's `url`. Pages hold them too: a link page's `target`, a page
cover's `ref`/`refDark`.

`build_report` turns a revision (tree + the documents of its pages and reusable contents) into its link
report, a JSON value stored once per revision: one entry per distinct (target, relation), in the order
the targets first appear, with its status and the places that use it:

    {"targets": [{"ref": {...}, "relation": "reference" | "dependsOn", "status": "ok" | "broken" | "in-app",
                  "locations": [{"page": pageId, "node": blockKey?}
                                | {"reusableContent": contentId, "node": blockKey?}, ...]}, ...]}

Status (the spec's `ContentReferenceStatus`):
- a page, anchor, file or reusable content of this space is `broken` unless the revision has it (an
  anchor: a heading of the target page whose `data.id`, or slug of its text, is the anchor);
- a URL into the app (`settings().app_url`) is `in-app`; a URL without a scheme (`../missing.md`,
  `broken-reference`) is `broken`: it is what import leaves where a path named no page or file;
- anything else (other URLs, other spaces, users, collections, OpenAPI specs) is `ok`: it lies outside
  the revision and is not checked.
No I/O here: callers load the tree and the documents.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from bindery.engines.content.tree import Tree

Ref = Mapping[str, Any]
Reference = tuple[Ref, str, str | None]  # (reference, relation, key of the node holding it)
REF_ID_FIELD = {"url": "url", "page": "page", "anchor": "anchor", "file": "file", "user": "user",
                "collection": "collection", "space": "space", "reusable-content": "reusableContent",
                "openapi": "spec"}
REFERENCE_NODES = frozenset({"link", "mention", "button", "content-ref"})  # the rest depends on its target
HEADINGS = frozenset({"heading-1", "heading-2", "heading-3"})
STATUSES = ("ok", "broken", "in-app")
_NOT_IN_ANCHOR = re.compile(r"[^\w\s.-]")
_SPACE = re.compile(r"\s")


# --- walking documents ------------------------------------------------------------------------------------
def nodes(value: Any) -> Iterator[Mapping[str, Any]]:
    """Every block and inline of a document (or node), table fragments included, in document order."""
    if not isinstance(value, Mapping):
        return
    if value.get("object") in ("block", "inline"):
        yield value
    for child in [*(value.get("nodes") or []), *(value.get("fragments") or [])]:
        yield from nodes(child)


def plain_text(value: Any) -> str:
    """The text of a node: its leaves, in order (no separators between inlines)."""
    if not isinstance(value, Mapping):
        return ""
    if value.get("object") == "text":
        return "".join(str(leaf.get("text", "")) for leaf in value.get("leaves") or [])
    return "".join(plain_text(child) for child in value.get("nodes") or [])


def anchor_of(text: str) -> str:
    """The anchor GitBook gives a heading without an explicit id, as the links of the fluentd corpus
    show: lower case, `/` as `-`, other punctuation than `.`, `_` and `-` dropped, each space a `-`
    ("TLS/SSL enabled server?" → `tls-ssl-enabled-server`, "removes '+' from" → `removes--from`)."""
    return _SPACE.sub("-", _NOT_IN_ANCHOR.sub("", text.lower().replace("/", "-")).strip())


def heading_anchor(block: Mapping[str, Any]) -> str:
    explicit = (block.get("data") or {}).get("id")
    return str(explicit) if explicit else anchor_of(plain_text(block))


def anchors(document: Any) -> set[str]:
    return {heading_anchor(node) for node in nodes(document) if node.get("type") in HEADINGS}


def _is_ref(value: Any) -> bool:
    field = REF_ID_FIELD.get(str(value.get("kind"))) if isinstance(value, Mapping) else None
    return field is not None and isinstance(value.get(field), str)


def _refs_in(value: Any) -> Iterator[Ref]:
    if _is_ref(value):
        yield value
    elif isinstance(value, Mapping):
        for child in value.values():
            yield from _refs_in(child)
    elif isinstance(value, list):
        for child in value:
            yield from _refs_in(child)


def references(document: Any) -> Iterator[tuple[Ref, str, str | None]]:
    """(reference, relation, key of the node holding it) for every reference in a document."""
    for node in nodes(document):
        data = node.get("data") or {}
        relation = "reference" if node.get("type") in REFERENCE_NODES else "dependsOn"
        for ref in _refs_in(data):
            yield ref, relation, node.get("key")
        if node.get("type") == "embed" and isinstance(data.get("url"), str):
            yield {"kind": "url", "url": data["url"]}, "dependsOn", node.get("key")


# --- status ---------------------------------------------------------------------------------------------
def normalized(ref: Ref, space_id: str, page_id: str | None) -> dict[str, Any]:
    """The reference as an absolute target: an anchor names its page, this space's id is left out. An
    anchor without a page inside a reusable content (page_id None) keeps none: it points into whichever
    page includes the content."""
    out = {name: value for name, value in ref.items() if isinstance(value, str)}
    if out.get("space") == space_id and out["kind"] in ("page", "anchor", "reusable-content"):
        del out["space"]
    if out["kind"] == "anchor" and "space" not in out and "page" not in out and page_id is not None:
        out["page"] = page_id
    return out


def status_of(ref: Mapping[str, Any], tree: Tree, page_anchors: Mapping[str, Collection[str]],  # noqa: PLR0911
              app_base: str) -> str:
    """The status of a normalized reference in the revision (see the module's docstring)."""
    kind = ref["kind"]
    if kind == "url":
        url = str(ref["url"])
        if app_base and url.startswith(app_base):
            return "in-app"
        return "ok" if urlsplit(url).scheme or url.startswith("//") else "broken"
    if "space" in ref:
        return "ok"
    if kind == "page":
        return "ok" if tree.page(ref["page"]) is not None else "broken"
    if kind == "anchor":
        if "page" not in ref:  # in a reusable content: relative to each page including it, not checked
            return "ok"
        return "ok" if ref["anchor"] in page_anchors.get(ref["page"], ()) else "broken"
    if kind == "file":
        return "ok" if tree.file(ref["file"]) is not None else "broken"
    if kind == "reusable-content":
        return "ok" if tree.reusable_content(ref["reusableContent"]) is not None else "broken"
    return "ok"


# --- the report -----------------------------------------------------------------------------------------
def all_pages(pages: list[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    """Every page entry of a tree, parents before their children, in tree order."""
    for entry in pages:
        yield entry
        yield from all_pages(list(entry.get("pages") or []))


def _page_references(entry: Mapping[str, Any], in_document: Iterable[Reference]) -> Iterator[Reference]:
    if entry["type"] == "link" and _is_ref(entry.get("target")):
        yield entry["target"], "reference", None
    cover = entry.get("cover")
    if isinstance(cover, Mapping):
        for name in ("ref", "refDark"):
            if _is_ref(cover.get(name)):
                yield cover[name], "dependsOn", None
    yield from in_document


def build_report(space_id: str, tree: Tree, documents: Mapping[str, Any], app_base: str, *,
                 contents: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The link report of a revision; `documents` holds each document page's body by page id, `contents`
    each reusable content's document by its id (their locations name `reusableContent`, not `page`)."""
    return report_of(space_id, tree, {page_id: list(references(document)) for page_id, document
                                      in documents.items()},
                     {page_id: anchors(document) for page_id, document in documents.items()}, app_base,
                     {content_id: list(references(document)) for content_id, document
                      in (contents or {}).items()})


def report_of(space_id: str, tree: Tree, page_refs: Mapping[str, Sequence[Reference]],  # noqa: PLR0917
              page_anchors: Mapping[str, Collection[str]], app_base: str,
              content_refs: Mapping[str, Sequence[Reference]]) -> dict[str, Any]:
    """The link report from what each document holds (`references` and `anchors` of every page's body by
    page id, `references` of every reusable content's document by content id), without the documents:
    an index keeps these (search.index), so a revision's report needs no document read again."""
    targets: dict[str, dict[str, Any]] = {}
    seen: set[str] = set()

    def use(ref: Ref, relation: str, where: dict[str, str], page_id: str | None) -> None:
        target = normalized(ref, space_id, page_id)
        name = json.dumps([target, relation], sort_keys=True)
        usage = targets.get(name)
        if usage is None:
            usage = targets[name] = {"ref": target, "relation": relation,
                                     "status": status_of(target, tree, page_anchors, app_base),
                                     "locations": []}
        if (location := json.dumps([name, where], sort_keys=True)) not in seen:
            seen.add(location)
            usage["locations"].append(where)

    for entry in all_pages(tree.pages):
        for ref, relation, key in _page_references(entry, page_refs.get(entry["id"], ())):
            use(ref, relation, {"page": entry["id"], **({"node": key} if key else {})}, entry["id"])
    for content in tree.reusable_contents:
        for ref, relation, key in content_refs.get(content["id"], ()):
            use(ref, relation, {"reusableContent": content["id"], **({"node": key} if key else {})}, None)
    return {"targets": list(targets.values())}


def broken_targets(report: Mapping[str, Any]) -> set[str]:
    """An identity for each broken target of a report (to compare two revisions' reports)."""
    return {json.dumps([t["ref"], t["relation"]], sort_keys=True)
            for t in report["targets"] if t["status"] == "broken"}
