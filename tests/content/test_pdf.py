"""PDF export (bindery.engines.content.pdf.export.render_pdf), read back with a real PDF parser (pypdf): the
text of every construct in order, one outline entry and at least one sheet per page, images embedded."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from bindery.engines.content.pdf.export import render_pdf

GOLDEN = Path(__file__).with_name("golden")


def text(value, *marks):
    return {"object": "text", "leaves": [{"object": "leaf", "text": value,
                                          "marks": [{"object": "mark", "type": mark} for mark in marks]}]}


def block(kind, *nodes, **data):
    return {"object": "block", "type": kind, "data": data, "nodes": list(nodes)}


def para(*parts):
    return block("paragraph", *[text(part) if isinstance(part, str) else part for part in parts])


def item(*nodes, **data):
    return block("list-item", *nodes, **data)


def link(label, url):
    return {"object": "inline", "type": "link", "data": {"ref": {"kind": "url", "url": url}},
            "nodes": [text(label)]}


def image(file_id, caption):
    return {"object": "block", "type": "image", "isVoid": True,
            "data": {"ref": {"kind": "file", "file": file_id}},
            "fragments": [{"object": "fragment", "fragment": "caption", "nodes": [para(caption)]}]}


def table():
    records = {"r1": {"orderIndex": "b", "values": {"c1": "r1c1", "c2": 42}},
               "r0": {"orderIndex": "a", "values": {"c1": "r0c1", "c2": True}}}
    definition = {"c1": {"id": "c1", "title": "Name", "type": "text", "textAlignment": "left"},
                  "c2": {"id": "c2", "title": "Value", "type": "number"}}
    return {"object": "block", "type": "table", "isVoid": True,
            "data": {"view": {"type": "grid", "columns": ["c1", "c2"], "hideHeader": False},
                     "records": records, "definition": definition},
            "fragments": [{"object": "fragment", "fragment": "r1c1", "nodes": [para("Second row cell")]},
                          {"object": "fragment", "fragment": "r0c1", "nodes": [para("First row cell")]}]}


EVERYTHING = {"object": "document", "data": {}, "nodes": [
    block("heading-1", text("Heading One")),
    para("Plain, ", text("bold", "bold"), ", ", text("italic", "italic"), ", ", text("inline_code", "code"),
         " and ", link("a link", "https://example.com/docs"), "."),
    block("heading-2", text("Heading Two")),
    block("list-unordered", item(para("Bullet A"), block("list-ordered", item(para("Nested one")),
                                                         item(para("Nested two")), start=3)),
          item(para("Bullet B"))),
    block("list-tasks", item(para("Task done"), checked=True), item(para("Task open"), checked=False)),
    block("heading-3", text("Heading Three")),
    block("code", block("code-line", text("def hello():")), block("code-line", text("    return 42")),
          syntax="python", title="hello.py"),
    table(),
    block("images", image("pic", "Red square caption"), image("missing", "Missing image caption")),
    block("hint", para("Hint body"), style="warning"),
    block("blockquote", para("Quoted words")),
    {"object": "block", "type": "divider", "isVoid": True, "data": {}},
    block("tabs", block("tabs-item", para("Tab body"), title="First tab")),
    block("stepper", block("stepper-step", para("Step body"))),
    {"object": "block", "type": "expandable", "isVoid": True, "data": {}, "fragments": [
        {"object": "fragment", "fragment": "expandable-title", "type": "expandable-title",
         "nodes": [para("Expandable title")]},
        {"object": "fragment", "fragment": "expandable-body", "type": "expandable-body",
         "nodes": [para("Expandable body")]}]},
    block("future-block", para("Unknown block text")),
]}


def png(color=(200, 0, 0), size=(120, 60), kind="PNG"):
    buffer = io.BytesIO()
    Image.new("RGB", size, color).save(buffer, kind)
    return buffer.getvalue()


def files(file_id):
    return {"pic": (png(), "image/png"), "jpeg": (png(kind="JPEG"), "image/jpeg"),
            "gif": (png(kind="GIF"), "image/gif"), "text": (b"not an image", "image/png")}.get(file_id)


def read(data):
    reader = PdfReader(io.BytesIO(data))
    return reader, "\n".join(page.extract_text() for page in reader.pages)


def image_count(reader):
    count = 0
    for page in reader.pages:
        xobjects = page["/Resources"].get("/XObject") or {}
        count += sum(1 for ref in xobjects.values() if ref.get_object()["/Subtype"] == "/Image")
    return count


def test_every_construct_prints_in_order():
    data = render_pdf("Handbook", [("Everything", EVERYTHING)], files)
    assert data.startswith(b"%PDF-")
    reader, content = read(data)
    expected = ["Handbook", "Everything", "Heading One", "bold", "italic", "inline_code", "a link",
                "Heading Two", "Bullet A", "3.", "Nested one", "4.", "Nested two", "Bullet B", "[x]",
                "Task done", "[ ]", "Task open", "Heading Three", "hello.py", "def hello():", "return 42",
                "Name", "Value", "First row cell", "Second row cell", "42", "Red square caption",
                "Missing image caption", "Warning", "Hint body", "Quoted words", "First tab", "Tab body",
                "Step 1", "Step body", "Expandable title", "Expandable body", "Unknown block text"]
    position = 0
    for expected_text in expected:
        found = content.find(expected_text, position)
        assert found >= 0, f"{expected_text!r} missing (or out of order) after {content[position:][:80]!r}"
        position = found + len(expected_text)
    assert 2 <= len(reader.pages) <= 4  # the title page, then the page (perhaps on two sheets)
    assert image_count(reader) == 1  # the missing file printed its caption instead


def test_links_are_clickable():
    reader, _ = read(render_pdf("T", [("P", EVERYTHING)], files))
    uris = [annotation.get_object()["/A"].get("/URI") for page in reader.pages
            for annotation in page.get("/Annots") or [] if "/A" in annotation.get_object()]
    assert "https://example.com/docs" in uris


def test_one_outline_entry_and_sheet_per_page_in_tree_order():
    pages = [(f"Page {n}", {"object": "document", "data": {}, "nodes": [para(f"Body {n}")]})
             for n in range(5)]
    reader, content = read(render_pdf("Book", pages, files))
    assert [entry["/Title"] for entry in reader.outline] == [title for title, _ in pages]
    assert len(reader.pages) == 6
    assert [reader.get_destination_page_number(entry) for entry in reader.outline] == [1, 2, 3, 4, 5]
    assert content.index("Body 0") < content.index("Body 4")


def test_long_pages_flow_onto_more_sheets():
    long = {"object": "document", "data": {}, "nodes": [para(f"Paragraph {n} " + "words " * 60)
                                                         for n in range(60)]}
    reader, content = read(render_pdf("Long", [("Long page", long)], files))
    assert len(reader.pages) > 4
    assert "Paragraph 59" in content


@pytest.mark.parametrize("file_id", ["pic", "jpeg", "gif"])
def test_png_jpeg_and_gif_files_are_embedded(file_id):
    document = {"object": "document", "data": {}, "nodes": [block("images", image(file_id, "Caption"))]}
    reader, _ = read(render_pdf("Images", [("Images", document)], files))
    assert image_count(reader) == 1


def test_images_that_cannot_be_drawn_print_their_caption():
    url_image = {"object": "block", "type": "image", "isVoid": True, "fragments": [],
                 "data": {"ref": {"kind": "url", "url": "https://example.com/x.png"}, "alt": "Remote logo"}}
    document = {"object": "document", "data": {}, "nodes": [
        block("images", image("text", "Not really an image"), url_image, image("missing", "Gone"))]}
    reader, content = read(render_pdf("Images", [("Images", document)], files))
    assert image_count(reader) == 0
    for caption in ("Not really an image", "Remote logo", "Gone"):
        assert caption in content


def test_typographic_and_latin1_text_survives():
    title = "naïve \u2013 \u201cquotes\u201d \u2018single\u2019 \u2026 \u20ac5 Ærø"
    document = {"object": "document", "data": {}, "nodes": [para(title)]}
    reader, content = read(render_pdf(title, [(title, document)], files))
    assert content.count(title) == 5  # title page, table of contents, page title, body, footer
    assert reader.outline[0]["/Title"] == title
    assert reader.metadata.title == title


def test_characters_beyond_the_core_fonts_become_question_marks():
    """A documented limit (bindery/engines/content/pdf/text.py): no Unicode font is embedded."""
    document = {"object": "document", "data": {}, "nodes": [para("日本 and 😀 stay readable around")]}
    _, content = read(render_pdf("CJK", [("CJK", document)], files))
    assert "?? and ? stay readable around" in content


def test_every_golden_document_renders():
    pages = [(path.stem, json.loads(path.read_text())["document"]) for path in sorted(GOLDEN.glob("*.json"))]
    reader, content = read(render_pdf("Golden", pages, files))
    assert len(reader.outline) == len(pages)
    for snippet in ('puts "Hello"', "Content 1", "Nested item 1", "Info hints", "Integration: mermaid"):
        assert snippet in content


def test_an_empty_space_is_a_title_page():
    reader, content = read(render_pdf("Empty", [], files))
    assert len(reader.pages) == 1
    assert "Empty" in content


def test_importing_the_module_does_not_load_fpdf():
    """Functions that never render a PDF do not pay for fpdf2 and Pillow at cold start."""
    probe = ("import sys, bindery.engines.content.pdf.export; "
             "print('fpdf' in sys.modules, 'PIL' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert result.stdout.split() == ["False", "False"]
