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

The file is built in a temporary directory and returned as bytes: it is stored content-addressed
(search.storage) and opened read-only wherever it is queried.
"""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from bindery.search.text import Section

TOKENIZER = "porter unicode61 remove_diacritics 2"
FORMAT = "2"
SECTIONS = 4096  # sections indexed per page (beyond, their text is searched in page_fts only)
SCHEMA = f"""
CREATE TABLE meta(name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE pages(rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, title TEXT NOT NULL,
                   path TEXT NOT NULL);
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


def build(pages: Iterable[IndexedPage]) -> tuple[bytes, int]:
    """The index file's bytes, and the number of pages in it."""
    with tempfile.TemporaryDirectory(prefix="bindery-index-") as directory:
        path = Path(directory) / "index.sqlite"
        connection = sqlite3.connect(path)
        try:
            connection.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;" + SCHEMA)
            connection.execute("INSERT INTO meta VALUES ('format', ?)", (FORMAT,))
            count = 0
            for rowid, page in enumerate(pages, start=1):
                count += 1
                connection.execute("INSERT INTO pages VALUES (?, ?, ?, ?)",
                                   (rowid, page.id, page.title, page.path))
                connection.execute("INSERT INTO page_fts(rowid, title, headings, body) VALUES (?, ?, ?, ?)", (
                    rowid, f"{page.title}\n{page.description}".strip(),
                    "\n".join(s.title for s in page.sections if s.anchor is not None),
                    "\n".join(s.body for s in page.sections)))
                connection.execute("INSERT INTO title_fts(rowid, title) VALUES (?, ?)", (rowid, page.title))
                connection.executemany("INSERT INTO fts(rowid, heading, body, anchor) VALUES (?, ?, ?, ?)", [
                    (rowid * SECTIONS + ordinal, section.title if section.anchor else "", section.body,
                     section.anchor)
                    for ordinal, section in enumerate(page.sections[:SECTIONS])])
            connection.execute("INSERT INTO fts(fts) VALUES ('optimize')")
            connection.execute("INSERT INTO page_fts(page_fts) VALUES ('optimize')")
            connection.execute("INSERT INTO title_fts(title_fts) VALUES ('optimize')")
            connection.commit()
            connection.execute("VACUUM")
        finally:
            connection.close()
        return path.read_bytes(), count


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
