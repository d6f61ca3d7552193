"""The fluentd documentation (a real GitBook Git Sync repository, in tests/corpus) read
as a space's content, written back, and read again."""

from __future__ import annotations

import re

import pytest

from bindery.engines.content.markdown import document_to_markdown
from bindery.engines.content.tree import Tree, validate
from bindery.engines.gitsync.exporter import export_repository
from bindery.engines.gitsync.importer import import_repository
from tests.content import support
from tests.data_paths import FLUENTD_CORPUS

CORPUS = FLUENTD_CORPUS
# `* [Title](target)` and `* Title` items of SUMMARY.md, counted without the importer's parser.
LINKED_ITEM = re.compile(r"^\s*\* \[.*\]\((?P<target>[^)]+)\)\s*$", re.MULTILINE)
PLAIN_ITEM = re.compile(r"^\s*\* [^\[].*$", re.MULTILINE)


def _strip_git(value):
    if isinstance(value, dict):
        return {k: _strip_git(v) for k, v in value.items() if k != "git"}
    if isinstance(value, list):
        return [_strip_git(v) for v in value]
    return value


@pytest.fixture(scope="module")
def corpus():
    assert CORPUS.is_dir(), f"the corpus is missing: {CORPUS.resolve()}"
    files = {
        path.relative_to(CORPUS).as_posix(): path.read_bytes()
        for path in CORPUS.rglob("*")
        if path.is_file() and path.relative_to(CORPUS).parts[0] != ".git"
    }
    imported = import_repository(files)
    exported = export_repository(Tree(imported.tree), imported.documents, imported.reusable_documents,
                                 imported.files)
    again = import_repository(exported, previous=Tree(imported.tree))
    return files, imported, exported, again


def _documents(tree):
    index = Tree(tree)
    return [index.page(pid).entry for pid in index._pages if index.page(pid).entry["type"] == "document"]


def test_every_summary_entry_is_a_page_at_its_file(corpus):
    files, imported, _, _ = corpus
    summary = files["SUMMARY.md"].decode()
    targets = [m["target"] for m in LINKED_ITEM.finditer(summary)]
    plain = PLAIN_ITEM.findall(summary)
    assert (len(targets), len(plain)) == (191, 3)
    pages = _documents(imported.tree)
    assert len(pages) == len(targets) + len(plain)
    assert sorted(p["git"]["path"] for p in pages if "git" in p) == sorted(targets)
    assert imported.warnings == []
    validate(imported.tree, new_files=imported.files)
    index = Tree(imported.tree)
    tail = index.page_by_path("input/tail").entry
    assert (tail["title"], tail["git"]["path"]) == ("tail", "input/tail.md")
    nested = index.page_by_path("installation/obsolete-installation/treasure-agent-v4-installation/"
                                "install-by-rpm-td-agent-v4")
    assert nested.entry["title"] == "Install by RPM Package v4 (Red Hat Linux)"
    assert index.page_by_path("readme").entry["title"] == "Introduction"


def test_every_asset_is_a_file_and_redirects_are_kept(corpus):
    files, imported, _, _ = corpus
    assets = sorted(path for path in files if path.startswith(".gitbook/assets/"))
    assert len(assets) == 207
    assert sorted(f["git"]["path"] for f in imported.tree["files"]) == assets
    assert {f["id"]: len(data) for f, data in zip(imported.tree["files"], imported.files.values(),
                                                   strict=True)} == {
        f["id"]: len(files[f["git"]["path"]]) for f in imported.tree["files"]}
    redirects = imported.tree["gitSync"]["redirects"]
    assert redirects["v1.0/articles/quickstart"] == "README.md"
    assert redirects["v1.0/articles/in_tail"] == "plugins/input/tail.md"
    assert redirects["v1.0/articles/out_null"] == "plugins/output/null.md"
    section = files[".gitbook.yaml"].decode().split("redirects:", 1)[1]
    assert len(redirects) == len(re.findall(r"^  [^#\s][^:]*: \S", section, re.MULTILINE)) == 172


@pytest.mark.parametrize(
    ("path", "sentence"),
    [
        ("input/tail.md", "The `in_tail` Input plugin allows Fluentd to read events from the tail of text"),
        ("buffer/file.md", "The `file` buffer plugin provides a persistent buffer implementation."),
        ("quickstart/life-of-a-fluentd-event.md", "It covers the complete lifecycle including **Setup**"),
        ("how-to-guides/stream-analytics-with-materialize.md", "the new streaming database, Materialize."),
    ],
)
def test_page_text_matches_the_source(corpus, path, sentence):
    files, imported, exported, _ = corpus
    assert sentence in files[path].decode()
    page = next(p for p in _documents(imported.tree) if p.get("git", {}).get("path") == path)
    markdown = document_to_markdown(imported.documents[page["id"]])
    assert sentence in markdown
    assert sentence in exported[path].decode()
    assert not markdown.startswith("# ")  # the title is the page's, not the document's


def test_links_and_images_are_references(corpus):
    _, imported, _, _ = corpus
    tail = next(p for p in _documents(imported.tree) if p.get("git", {}).get("path") == "input/tail.md")
    text = str(imported.documents[tail["id"]])
    config_file = Tree(imported.tree).page_by_path("configuration/config-file").entry
    assert str({"kind": "page", "page": config_file["id"]}) in text
    logo = next(f for f in imported.tree["files"] if f["name"] == "tail.png")
    assert str({"kind": "file", "file": logo["id"]}) in text


def test_export_then_import_gives_the_same_content(corpus):
    _, imported, exported, again = corpus
    assert _strip_git(again.tree) == _strip_git(imported.tree)
    assert again.documents == imported.documents
    assert again.reusable_documents == imported.reusable_documents
    assert again.files == imported.files
    assert again.warnings == []
    second = export_repository(Tree(again.tree), again.documents, again.reusable_documents, again.files)
    assert second == exported


def test_imported_documents_are_valid(corpus):
    _, imported, _, _ = corpus
    errors = {pid: support.schema_errors(doc)[:3] for pid, doc in imported.documents.items()}
    assert {pid: found for pid, found in errors.items() if found} == {}
