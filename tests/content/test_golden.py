"""Golden files: tests/content/golden/<construct>.md and .json, one file pair per construct.

- golden/*.md are written exactly as `document_to_markdown` writes them: Markdown → document must equal
  the .json, and the document → Markdown must give back the .md byte for byte;
- golden/variants/*.md are other forms GitBook has written (single-quoted attributes, Markdown images,
  `{% page-ref %}`, `word[^1]` footnotes, blocks nested where the spec does not allow them…): they must
  read as the .json (warnings included), and their document must survive a Markdown round trip.

Every document is validated against the spec's schemas. The .json files hold no node keys (those are
derived from content, see test_keys.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bindery.engines.content.markdown import strip_keys
from tests.content import support

GOLDEN = Path(__file__).with_name("golden")
CANONICAL = sorted(GOLDEN.glob("*.md"))
VARIANTS = sorted((GOLDEN / "variants").glob("*.md"))


def _read(path: Path) -> tuple[str, dict]:
    return path.read_text(), json.loads(path.with_suffix(".json").read_text())


def _summary(page) -> dict:
    return {"title": page.title, "front_matter": page.front_matter, "document": strip_keys(page.document)}


def test_every_block_inline_and_mark_type_has_a_golden_file():
    schemas = json.loads(support.SCHEMA_FILE.read_text())["components"]["schemas"]
    spec_types = set()
    for name in ("DocumentBlock", "DocumentInline", "DocumentTextMark"):
        for option in schemas[name]["oneOf"]:
            spec_types.update(schemas[option["$ref"].rsplit("/", 1)[-1]]["properties"]["type"]["enum"])
    seen: set[str] = set()

    def collect(value):
        if isinstance(value, dict):
            if value.get("object") in ("block", "inline", "mark") and "type" in value:
                seen.add(value["type"])
            for item in value.values():
                collect(item)
        elif isinstance(value, list):
            for item in value:
                collect(item)

    for path in CANONICAL:
        collect(_read(path)[1])
    assert spec_types - seen == set()


@pytest.mark.parametrize("path", CANONICAL, ids=lambda p: p.stem)
def test_markdown_reads_as_the_golden_document(path):
    text, expected = _read(path)
    page = support.parse(text)
    assert _summary(page) == expected
    assert page.warnings == []
    assert support.schema_errors(page.document) == []


@pytest.mark.parametrize("path", CANONICAL, ids=lambda p: p.stem)
def test_golden_document_writes_as_the_golden_markdown(path):
    text, expected = _read(path)
    assert (
        support.render(expected["document"], title=expected["title"], front_matter=expected["front_matter"])
        == text
    )


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: p.stem)
def test_gitbook_variants_read_as_their_documents(path):
    text, expected = _read(path)
    page = support.parse(text)
    assert {**_summary(page), "warnings": page.warnings} == expected
    assert support.schema_errors(page.document) == []
    assert support.parse(support.render(page)).document == page.document
