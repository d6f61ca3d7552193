"""Building a revision's search index: one SQLite database file with two FTS5 tables.

    pages(rowid, id, title, path)            document pages, in tree order
    page_fts(title, headings, body)          one row per page (rowid = the page's): its title and
                                             description, its headings, its text; contentless (ranking
                                             and counting need only the index)
    title_fts(title)                         the page titles alone: FTS5's bm25 normalizes by the whole
                                             row's length, so a title match in a long page would count
                                             for little without a score of its own
    fts(heading, body, anchor UNINDEXED)     one row per section (search.text), rowid = page rowid *
                                             SECTIONS + the section's ordinal, so that a page's sections
                                             are one rowid range (no column read to find them)

Pages are ranked on page_fts and their best sections picked from fts, within each page's range. The
tokenizer is `porter unicode61 remove_diacritics 2`: Unicode word splitting, case and accent folding,
English stemming ("configuring" finds "configuration"). Ranking is FTS5's `bm25()`, the page title
weighing most, then headings, then text (query.py).

Page rowids follow tree order, `GAP` apart in a full build, so that the index of the next revision can be
made from this one (search.incremental): a changed page is deleted and inserted again, a new or moved one
takes a rowid between its neighbours', and ties in ranking (broken by rowid) still fall in tree order.
Deleting from a contentless table needs the values inserted: `pages` keeps each page's description and
document digest, from which they are computed again. `links` keeps each document's references and
heading anchors, `contents` the reusable contents' documents: the link report is assembled from them
without reading every document again.

The file is built in a temporary directory and returned as bytes: it is stored content-addressed
(search.storage) and opened read-only wherever it is queried.
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bindery.engines.search.text import Section

TOKENIZER = "porter unicode61 remove_diacritics 2"
FORMAT = "3"
SECTIONS = 4096  # sections indexed per page (beyond, their text is searched in page_fts only)
GAP = 1 << 16  # between the page rowids of a full build: room for 16 insertions at one place
MAX_ROWID = (1 << 62) // SECTIONS  # section rowids stay within SQLite's 64 bits
SCHEMA = f"""
CREATE TABLE meta(name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE pages(rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, title TEXT NOT NULL,
                   path TEXT NOT NULL, description TEXT NOT NULL, document TEXT NOT NULL);
CREATE TABLE links(owner TEXT PRIMARY KEY, refs TEXT NOT NULL, anchors TEXT NOT NULL);
CREATE TABLE contents(id TEXT PRIMARY KEY, document TEXT NOT NULL, refs TEXT NOT NULL);
CREATE VIRTUAL TABLE page_fts USING fts5(title, headings, body, content='',
                                         tokenize='{TOKENIZER}');
CREATE VIRTUAL TABLE title_fts USING fts5(title, content='', tokenize='{TOKENIZER}');
CREATE VIRTUAL TABLE fts USING fts5(heading, body, anchor UNINDEXED, tokenize='{TOKENIZER}');
"""


@dataclass(frozen=True)
class IndexedPage:
    id: str
    title: str
    path: str
    description: str
    sections: list[Section]
    document: str = ""  # the digest of the page's body ("" without one)


@dataclass(frozen=True)
class LinkFacts:
    """What the link report needs of one document: its references (reference, relation, node key), in
    document order, and its heading anchors."""

    refs: list[tuple[Any, str, str | None]] = field(default_factory=list)
    anchors: list[str] = field(default_factory=list)


def create(connection: sqlite3.Connection) -> None:
    connection.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;" + SCHEMA)
    connection.execute("INSERT INTO meta VALUES ('format', ?)", (FORMAT,))


def _page_row(page: IndexedPage) -> tuple[str, str, str]:
    return (f"{page.title}\n{page.description}".strip(),
            "\n".join(s.title for s in page.sections if s.anchor is not None),
            "\n".join(s.body for s in page.sections))


def insert_page(connection: sqlite3.Connection, rowid: int, page: IndexedPage) -> None:
    connection.execute("INSERT INTO pages VALUES (?, ?, ?, ?, ?, ?)",
                       (rowid, page.id, page.title, page.path, page.description, page.document))
    connection.execute("INSERT INTO page_fts(rowid, title, headings, body) VALUES (?, ?, ?, ?)",
                       (rowid, *_page_row(page)))
    connection.execute("INSERT INTO title_fts(rowid, title) VALUES (?, ?)", (rowid, page.title))
    connection.executemany("INSERT INTO fts(rowid, heading, body, anchor) VALUES (?, ?, ?, ?)", [
        (rowid * SECTIONS + ordinal, section.title if section.anchor else "", section.body, section.anchor)
        for ordinal, section in enumerate(page.sections[:SECTIONS])])


def delete_page(connection: sqlite3.Connection, rowid: int, page: IndexedPage) -> None:
    """Remove a page `insert_page` inserted: `page` must be what was inserted (the contentless tables
    can only forget the very values they indexed)."""
    connection.execute("DELETE FROM pages WHERE rowid = ?", (rowid,))
    connection.execute("INSERT INTO page_fts(page_fts, rowid, title, headings, body) "
                       "VALUES ('delete', ?, ?, ?, ?)", (rowid, *_page_row(page)))
    connection.execute("INSERT INTO title_fts(title_fts, rowid, title) VALUES ('delete', ?, ?)",
                       (rowid, page.title))
    connection.execute("DELETE FROM fts WHERE rowid BETWEEN ? AND ?",
                       (rowid * SECTIONS, rowid * SECTIONS + SECTIONS - 1))


def put_links(connection: sqlite3.Connection, owner: str, facts: LinkFacts) -> None:
    connection.execute("INSERT OR REPLACE INTO links VALUES (?, ?, ?)",
                       (owner, json.dumps(facts.refs), json.dumps(facts.anchors)))


def put_content(connection: sqlite3.Connection, content_id: str, document: str, facts: LinkFacts) -> None:
    connection.execute("INSERT OR REPLACE INTO contents VALUES (?, ?, ?)",
                       (content_id, document, json.dumps(facts.refs)))


def finish(connection: sqlite3.Connection, path: Path, *, optimize: bool) -> bytes:
    """Commit and compact the file; its bytes. A full build merges each FTS5 table into one segment; an
    incremental one leaves that to FTS5's automerge and vacuums only when a quarter of the file is free."""
    if optimize:
        connection.execute("INSERT INTO fts(fts) VALUES ('optimize')")
        connection.execute("INSERT INTO page_fts(page_fts) VALUES ('optimize')")
        connection.execute("INSERT INTO title_fts(title_fts) VALUES ('optimize')")
    connection.commit()
    free = connection.execute("PRAGMA freelist_count").fetchone()[0]
    total = connection.execute("PRAGMA page_count").fetchone()[0]
    if optimize or free * 4 > total:
        connection.execute("VACUUM")
    connection.close()
    return path.read_bytes()


def build(pages: Iterable[IndexedPage], links: Mapping[str, LinkFacts] | None = None,
          contents: Mapping[str, tuple[str, LinkFacts]] | None = None) -> tuple[bytes, int]:
    """The index file's bytes, and the number of pages in it. `links`: the link facts of the pages' and
    `contents` (digest, facts) of the reusable contents' documents, by page / content id."""
    with tempfile.TemporaryDirectory(prefix="bindery-index-") as directory:
        path = Path(directory) / "index.sqlite"
        connection = sqlite3.connect(path)
        try:
            create(connection)
            count = 0
            for count, page in enumerate(pages, start=1):
                insert_page(connection, count * GAP, page)
            for owner, facts in (links or {}).items():
                put_links(connection, owner, facts)
            for content_id, (document, facts) in (contents or {}).items():
                put_content(connection, content_id, document, facts)
            return finish(connection, path, optimize=True), count
        finally:
            connection.close()


def engine_support(connection: sqlite3.Connection) -> list[str]:
    """What search needs that this SQLite lacks (empty: all there): FTS5, the porter tokenizer, bm25(),
    snippet(), prefix and phrase queries, json_each() (query.py passes page lists as JSON). The python3.11
    Lambda runtime's SQLite 3.7.17 has no FTS5."""
    missing: list[str] = []
    try:
        connection.execute(f"CREATE VIRTUAL TABLE temp.probe USING fts5(body, tokenize='{TOKENIZER}')")
    except sqlite3.OperationalError as error:
        return [f"FTS5 with the porter tokenizer ({error})"]
    try:
        connection.execute("INSERT INTO probe VALUES ('Configuring buffered outputs')")
        checks = {"stemming": '"configured"', "prefix queries": '"buff"*',
                  "phrase queries": '"buffered output"'}
        for need, query in checks.items():
            if not connection.execute("SELECT 1 FROM probe WHERE probe MATCH ?", (query,)).fetchall():
                missing.append(need)
        row = connection.execute("SELECT bm25(probe), snippet(probe, 0, '', '', '…', 4) FROM probe "
                                 "WHERE probe MATCH 'outputs'").fetchone()
        if row is None or not isinstance(row[0], float) or "output" not in row[1]:
            missing.append("bm25() and snippet()")
        if connection.execute("SELECT COUNT(*) FROM json_each('[1,2]')").fetchone() != (2,):
            missing.append("json_each()")
    except sqlite3.OperationalError as error:
        missing.append(str(error))
    finally:
        connection.execute("DROP TABLE temp.probe")
    return missing
