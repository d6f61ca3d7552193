"""Every page of a real Git Sync repository (the fluentd documentation in tests/corpus, imported by
`bindery.engines.gitsync.importer` through the Markdown converter, as a Git Sync import stores it) renders
without error, safely, with one element per block: hints, code blocks, tables, images, headings."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

import pytest

from bindery.engines.content.links import anchors, nodes
from bindery.engines.content.tree import Tree
from bindery.engines.gitsync.importer import import_repository
from bindery.engines.site_pages.document_html import RenderedDocument, render_document
from tests.data_paths import FLUENTD_CORPUS
from tests.site_pages.rendering.test_document_html_safety import assert_safe

SITE = "/fluentd/"


class CorpusLinks:
    """The site's URLs as a published site would give them: pages by path, files by name."""

    def __init__(self, tree: Tree, reusable: Mapping[str, Any]) -> None:
        self.tree = tree
        self.reusable = reusable

    def page_url(self, *, space_id: str | None, page_id: str, anchor: str | None) -> str | None:
        path = self.tree.path_of(page_id)
        return None if path is None or space_id else SITE + path + (f"#{anchor}" if anchor else "")

    def file_url(self, *, space_id: str | None, file_id: str) -> str | None:
        file = self.tree.file(file_id)
        return None if file is None or space_id else "/files/" + quote(str(file["name"]))

    def space_url(self, *, space_id: str) -> str | None:
        return None

    def reusable_content(self, *, reusable_content_id: str) -> Mapping[str, Any] | None:
        return self.reusable.get(reusable_content_id)

    def page_title(self, *, space_id: str | None, page_id: str) -> str | None:
        page = self.tree.page(page_id)
        return str(page.entry["title"]) if page is not None else None


@pytest.fixture(scope="module")
def corpus() -> tuple[Tree, dict[str, Any], dict[str, RenderedDocument]]:
    assert FLUENTD_CORPUS.is_dir(), f"the corpus is missing: {FLUENTD_CORPUS}"
    files = {
        path.relative_to(FLUENTD_CORPUS).as_posix(): path.read_bytes()
        for path in FLUENTD_CORPUS.rglob("*")
        if path.is_file()
    }
    imported = import_repository(files)
    tree = Tree(imported.tree)
    links = CorpusLinks(tree, imported.reusable_documents)
    rendered = {
        page_id: render_document(document, links=links) for page_id, document in imported.documents.items()
    }
    return tree, imported.documents, rendered


def _count(document: Any, *types: str) -> int:
    return sum(1 for node in nodes(document) if node.get("type") in types)


def test_every_page_renders_safely_with_one_element_per_block(corpus):
    tree, documents, rendered = corpus
    assert (
        len(rendered) == 194
    )  # 191 linked SUMMARY entries, 3 plain ones (tests/content/test_gitsync_corpus.py)
    for page_id, page in rendered.items():
        document, where = documents[page_id], tree.path_of(page_id)
        body = assert_safe(str(page.html))
        assert len(body.find_class("bd-hint")) == _count(document, "hint"), where
        assert len(body.find_class("bd-code")) == _count(document, "code"), where
        assert len(body.findall(".//table")) == _count(document, "table"), where
        assert len(body.find_class("bd-image")) == _count(document, "image"), where
        headings = body.xpath(".//h2|.//h3|.//h4")
        assert (
            len(headings) == len(page.headings) == _count(document, "heading-1", "heading-2", "heading-3")
        )
        assert [h.get("id") for h in headings] == [h.id for h in page.headings]
        assert len({h.id for h in page.headings}) == len(page.headings), where


def test_the_corpus_totals(corpus):
    _tree, _documents, rendered = corpus
    bodies = [assert_safe(str(page.html)) for page in rendered.values()]
    hints = [element.get("class") for body in bodies for element in body.find_class("bd-hint")]
    assert (hints.count("bd-hint bd-hint-info"), hints.count("bd-hint bd-hint-danger")) == (14, 10)
    highlighted = sum(
        len(body.xpath(".//div[contains(@class, 'bd-code')]//span[@class='k']")) for body in bodies
    )
    assert highlighted > 500  # keywords coloured by Pygments across the corpus's Ruby, shell and config
    images = [img.get("src") for body in bodies for img in body.iter("img")]
    assert len(images) > 50
    assert all(src.startswith(("/files/", "https://", "http://")) for src in images), images


def test_heading_anchors_are_those_links_point_at(corpus):
    """The anchors the renderer gives headings are the ones `bindery.engines.content.links` checks links
    against,
    so an anchor link between corpus pages lands on its heading unless the link report calls it broken."""
    tree, documents, rendered = corpus
    ids = {tree.path_of(page_id): {h.id for h in page.headings} for page_id, page in rendered.items()}
    checked = {tree.path_of(page_id): anchors(document) for page_id, document in documents.items()}
    landed = broken = 0
    for page in rendered.values():
        for link in assert_safe(str(page.html)).iter("a"):
            path, _, anchor = (link.get("href") or "").removeprefix(SITE).partition("#")
            if not anchor or not (link.get("href") or "").startswith(SITE):
                continue
            assert (anchor in ids[path]) == (anchor in checked[path]), link.get("href")
            landed, broken = landed + (anchor in ids[path]), broken + (anchor not in ids[path])
    assert landed > 50
    assert broken < landed / 10  # the few stale anchors the upstream docs have
