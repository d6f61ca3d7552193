"""The index format pins what its rows were made of.

An incremental build deletes a changed page from the contentless FTS tables by recomputing the exact
values a build inserted (search.text.sections) and keeps the other pages' link facts
(search.incremental.facts). If that extraction changes while `search.index.FORMAT` stays, the deletes miss
the old rows: stale words stay searchable and the link report drifts from a full build, silently. So the
extraction's output over the golden documents is pinned beside the format: a change to it fails here
until FORMAT is bumped (older files then get a full build) and the new digest recorded."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from pathlib import Path

from bindery.engines.search import index
from bindery.engines.search.incremental import facts
from bindery.engines.search.text import sections

GOLDEN = Path(__file__).resolve().parents[1] / "content" / "golden"

# (FORMAT, digest of the extraction over the golden documents): record both together.
PINNED = ("3", "4a92e07cbb82c6c227d4895834a00f841ad05e7ae60221262f46b1bf77a85488")


def _extraction() -> str:
    rows = []
    for path in sorted(GOLDEN.glob("*.json")):
        stored = json.loads(path.read_text())
        document = stored.get("document", stored)
        rows.append([path.name, [asdict(section) for section in sections(path.stem, document)],
                     asdict(facts(document))])
    return hashlib.sha256(json.dumps(rows, sort_keys=True, default=str).encode()).hexdigest()


def test_the_index_format_changes_with_what_its_rows_are_made_of() -> None:
    assert (index.FORMAT, _extraction()) == PINNED, (
        "the search index's text or link facts changed: bump search.index.FORMAT and record both in PINNED"
    )


def test_the_pin_covers_headings_text_and_links() -> None:
    """The golden documents exercise what the extraction reads (a pin over empty input would pin nothing)."""
    documents = [json.loads(path.read_text()) for path in sorted(GOLDEN.glob("*.json"))]
    found = [(sections(d.get("title", ""), d.get("document", d)), facts(d.get("document", d)))
             for d in documents]
    assert any(section.anchor for parts, _ in found for section in parts)
    assert any(fact.refs for _, fact in found)
    assert sum(len(section.body) for parts, _ in found for section in parts) > 1000
