"""The fluentd documentation (a real GitBook Git Sync repository, in tests/corpus):
every page reads, its GitBook blocks become the right blocks, and it survives a Markdown round trip."""

from __future__ import annotations

import re
import time

import pytest

from bindery.engines.content.markdown import document_to_markdown, markdown_to_document
from tests.content import support
from tests.data_paths import FLUENTD_CORPUS

CORPUS = FLUENTD_CORPUS
_FENCE = re.compile(r"\s*(`{3,}|~{3,})")


@pytest.fixture(scope="module")
def pages():
    assert CORPUS.is_dir(), f"the corpus is missing: {CORPUS.resolve()}"
    files = sorted(p for p in CORPUS.rglob("*.md") if ".git" not in p.parts)
    assert len(files) > 150
    texts = {path: path.read_text() for path in files}
    started = time.perf_counter()
    parsed = {path: markdown_to_document(text) for path, text in texts.items()}
    elapsed = time.perf_counter() - started
    print(f"\nparsed {len(parsed)} pages ({sum(map(len, texts.values())) // 1024} KiB) in {elapsed:.2f}s")
    assert elapsed < 30, "parsing the corpus should take seconds, not minutes"
    return texts, parsed


def _blocks(value, type_):
    if isinstance(value, dict):
        found = [value] if value.get("object") == "block" and value.get("type") == type_ else []
        return found + [b for item in value.values() for b in _blocks(item, type_)]
    if isinstance(value, list):
        return [b for item in value for b in _blocks(item, type_)]
    return []


def _split_fences(text: str) -> tuple[int, str]:
    """The number of fenced code blocks, and the text outside them."""
    count, fence, outside = 0, "", []
    for line in text.splitlines():
        match = _FENCE.match(line)
        if fence:
            if match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence):
                fence = ""
        elif match:
            fence, count = match.group(1), count + 1
        else:
            outside.append(line)
    return count, "\n".join(outside)


def test_every_page_parses_without_warnings(pages):
    _texts, parsed = pages
    assert {str(path): page.warnings for path, page in parsed.items() if page.warnings} == {}
    assert all(page.title for page in parsed.values())


def test_gitbook_blocks_become_their_block_types(pages):
    texts, parsed = pages
    for path, source in texts.items():
        text = re.sub(r"^<!--.*?-->", "", source, flags=re.DOTALL | re.MULTILINE)  # commented out
        document = parsed[path].document
        fenced, text = _split_fences(text)
        assert len(_blocks(document, "hint")) == text.count("{% hint"), path
        assert len(_blocks(document, "tabs")) == text.count("{% tabs"), path  # none in this corpus
        assert len(_blocks(document, "code")) == fenced, path
        gfm = re.findall(r"^\|.*\|\s*\n\|[ :|-]+\|\s*$", text, re.MULTILINE)
        tables = len(gfm) + len(re.findall(r"^\s*<table", text, re.MULTILINE))
        assert len(_blocks(document, "table")) == tables, path
    hints = [hint for page in parsed.values() for hint in _blocks(page.document, "hint")]
    assert len(hints) == 24
    styles = [hint["data"]["style"] for hint in hints]
    assert (styles.count("info"), styles.count("danger")) == (14, 10)  # `{% hint style='…' %}` in the sources


def test_front_matter_and_images_are_read(pages):
    texts, parsed = pages
    dummy = parsed[CORPUS / "plugins/input/dummy.md"]
    assert dummy.title == "dummy Input Plugin"  # a title is plain text: `code` marks are dropped
    images = [(path, page) for path, page in parsed.items() if _blocks(page.document, "images")]
    assert len(images) > 30
    for path, page in images:
        assert len(_blocks(page.document, "image")) <= len(re.findall(r"!\[[^\]]*\]\(", texts[path]))
    assert any(".gitbook/assets/" in src for page in parsed.values() for src in page.files)


def test_pages_survive_a_markdown_round_trip(pages):
    _texts, parsed = pages
    for path, page in parsed.items():
        markdown = document_to_markdown(page.document, title=page.title, front_matter=page.front_matter)
        again = markdown_to_document(markdown)
        assert again.document == page.document, path
        assert (again.title, again.front_matter) == (page.title, page.front_matter), path
        assert (
            document_to_markdown(again.document, title=again.title, front_matter=again.front_matter)
            == markdown
        )


def test_every_page_is_a_valid_document(pages):
    _texts, parsed = pages
    errors = {str(path): support.schema_errors(page.document)[:3] for path, page in parsed.items()}
    assert {path: found for path, found in errors.items() if found} == {}
