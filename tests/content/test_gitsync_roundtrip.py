"""Export then import gives the same content back (bindery.engines.gitsync): ids (with the tree as
`previous`),
titles, slugs, nesting, groups, link pages, page fields, files, reusable contents and documents; and a
second export is identical to the first."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bindery.engines.content.markdown import markdown_to_document
from bindery.engines.content.tree import Tree, validate
from bindery.engines.gitsync.exporter import export_repository
from bindery.engines.gitsync.importer import import_repository

WORD = st.text(st.sampled_from(list("abcxyz-_09")), min_size=1, max_size=6).filter(lambda w: w.strip("-_"))
TITLE = st.text(st.sampled_from([*"abcXY 019", *"()[]*_`#&<!-.é"]), min_size=1, max_size=14).map(
    lambda t: " ".join(t.split())).filter(bool)
FILE_NAMES = ["logo.png", "a b (1).png", "guide.pdf", "logo (1).png", "x.svg"]


def strip_git(value: Any) -> Any:
    """A tree as compared across a round trip: `git` (blob ids of the exported files) aside."""
    if isinstance(value, dict):
        return {k: strip_git(v) for k, v in value.items() if k != "git"}
    if isinstance(value, list):
        return [strip_git(v) for v in value]
    return value


class _Ids:
    def __init__(self) -> None:
        self.count = 0

    def __call__(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count:04d}"


@st.composite
def contents(draw):
    """A small tree (groups, nested document pages, link pages to URLs and to earlier pages, page
    fields, files, reusable contents) with documents that reference its pages, anchors and files."""
    ids = _Ids()
    files = [{"id": ids("f"), "name": name, "contentType": "application/octet-stream"}
             for name in draw(st.lists(st.sampled_from(FILE_NAMES), unique=True, max_size=3))]
    reusable = [{"id": ids("r"), "title": draw(TITLE)} for _ in range(draw(st.integers(0, 2)))]
    pages_so_far: list[str] = []
    texts: dict[str, str] = {}

    def document_page(depth: int) -> dict[str, Any]:
        page: dict[str, Any] = {"id": ids("p"), "type": "document", "title": draw(TITLE), "slug": ""}
        pages_so_far.append(page["id"])
        fields = draw(st.sets(st.sampled_from(["description", "hidden", "icon", "layout", "cover"])))
        if "description" in fields:
            page["description"] = draw(TITLE)
        if "hidden" in fields:
            page["hidden"] = draw(st.booleans())
        if "icon" in fields:
            page["icon"] = draw(WORD)
        if "layout" in fields:
            page["layout"] = {"width": "wide", "outline": draw(st.booleans())}
        if "cover" in fields and files:
            ref = {"kind": "file", "file": files[0]["id"]}
            page["cover"] = {"ref": ref, "yPos": draw(st.integers(0, 90))}
        texts[page["id"]] = draw(st.sampled_from(["Text with *style*.", "Two\n\nparagraphs", "`code`"]))
        page["pages"] = children(depth + 1) if depth < 2 else []
        return page

    def link_page() -> dict[str, Any]:
        if pages_so_far and draw(st.booleans()):
            target = {"kind": "page", "page": draw(st.sampled_from(pages_so_far))}
            if draw(st.booleans()):
                target = {**target, "kind": "anchor", "anchor": draw(WORD)}
        else:
            target = {"kind": "url", "url": f"https://example.com/{draw(WORD)}"}
        return {"id": ids("l"), "type": "link", "title": draw(TITLE), "target": target}

    def children(depth: int) -> list[dict[str, Any]]:
        out = [document_page(depth) if draw(st.integers(0, 3)) else link_page()
               for _ in range(draw(st.integers(0, 3 - depth)))]
        slugs = draw(st.lists(WORD, min_size=len(out), max_size=len(out), unique=True))
        for page, slug in zip(out, slugs, strict=True):
            if page["type"] == "document":
                page["slug"] = slug
        return out

    top = children(0) or [{**document_page(1), "slug": "home"}]
    groups = []
    for _ in range(draw(st.integers(0, 2))):
        group = {"id": ids("g"), "type": "group", "title": draw(TITLE), "slug": "", "pages": children(1)}
        groups.append(group)
    used = {p["slug"] for p in top if p["type"] == "document"}
    for group in groups:
        group["slug"] = draw(WORD.filter(lambda w: w not in used))
        used.add(group["slug"])
    tree = {"pages": top + groups, "files": files, "reusableContents": reusable, "variables": {}}

    def body(text: str) -> dict[str, Any]:
        extra = []
        if pages_so_far:
            extra.append(f"See [this]({draw(st.sampled_from(pages_so_far))}.md#{draw(WORD)}).")
        if files:
            extra.append(f"![pic]({draw(st.sampled_from([f['id'] for f in files]))})")
        if reusable:
            extra.append(f'{{% include "{draw(st.sampled_from([r["id"] for r in reusable]))}.md" %}}')
        text = "\n\n".join([text, *extra])
        return markdown_to_document(text, resolve_link=resolve, resolve_file=resolve).document

    def resolve(url: str) -> dict[str, Any] | None:
        name, _, anchor = url.partition("#")
        name = name.removesuffix(".md")
        if name.startswith("f"):
            return {"kind": "file", "file": name}
        if name.startswith("r"):
            return {"kind": "reusable-content", "reusableContent": name}
        if anchor:
            return {"kind": "anchor", "anchor": anchor, "page": name}
        return {"kind": "page", "page": name}

    documents = {page_id: body(text) for page_id, text in texts.items()}
    reusable_documents = {r["id"]: body("Reusable") for r in reusable}
    data = {f["id"]: f"bytes of {f['name']}".encode() for f in files}
    return tree, documents, reusable_documents, data


def round_trip(tree, documents, reusable_documents, files):
    exported = export_repository(Tree(tree), documents, reusable_documents, files)
    imported = import_repository(exported, previous=Tree(tree))
    validate(imported.tree, new_files=imported.files)
    return exported, imported


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(contents())
def test_export_then_import_gives_the_same_content(content):
    tree, documents, reusable_documents, files = content
    validate(tree, new_files=files)
    exported, imported = round_trip(tree, documents, reusable_documents, files)
    assert strip_git(imported.tree) == tree, exported.get("SUMMARY.md", b"").decode()
    assert imported.documents == documents
    assert imported.reusable_documents == reusable_documents
    assert imported.files == files
    assert imported.warnings == []
    again = export_repository(Tree(imported.tree), imported.documents, imported.reusable_documents,
                              imported.files)
    assert again == exported


def test_pages_moved_in_bindery_are_written_at_their_new_place_and_redirects_follow():
    files = {
        "README.md": b"# Home\n", "SUMMARY.md": b"* [Home](README.md)\n* [Old](old.md)\n",
        "old.md": b"# Old\n", ".gitbook.yaml": b"redirects:\n  legacy: old.md\n",
    }
    first = import_repository(files)
    renamed = {**first.tree, "pages": [first.tree["pages"][0], {**first.tree["pages"][1], "slug": "new"}]}
    exported, imported = round_trip(renamed, first.documents, {}, {})
    assert "new.md" in exported
    assert "old.md" not in exported
    assert b"legacy: new.md" in exported[".gitbook.yaml"]
    assert strip_git(imported.tree) == {**strip_git(renamed), "gitSync": {"redirects": {"legacy": "new.md"}}}


def test_an_empty_page_without_a_file_stays_one():
    files = {"SUMMARY.md": b"* [Home](README.md)\n* Section\n  * [Child](child.md)\n",
             "README.md": b"# Home\n", "child.md": b"# Child\n"}
    first = import_repository(files)
    exported, imported = round_trip(first.tree, first.documents, {}, {})
    assert b"* Section\n  * [Child](child.md)\n" in exported["SUMMARY.md"]
    assert set(exported) == {"SUMMARY.md", ".gitbook.yaml", "README.md", "child.md"}
    assert imported.tree == first.tree
