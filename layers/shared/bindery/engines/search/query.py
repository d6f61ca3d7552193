"""Querying one index (search.index): pages ranked by relevance, each with its best-matching sections.

A user's query never reaches FTS5's syntax as written (a stray quote or `AND` would be a syntax error
or an operator): `"quoted words"` become a phrase, a word ending in `*` a prefix, every other word a
quoted term, all required. When requiring every term finds nothing, any term will do (bm25 still puts
pages with more of them first). Terms with no letter or digit are dropped.

Ranking: FTS5's bm25 over whole pages, with weights 4 (title and description), 2 (headings), 1 (text),
plus twice the bm25 of the title alone; then each page's best sections (bm25 again, heading 3, text 1),
looked up for all pages shown in one statement, and their snippets in a second when a page shown has
more sections than it shows (a snippet tokenizes its section's whole text: the costly part). A page
matched by its title alone has no sections: they would say nothing about where to look.
"""

from __future__ import annotations

import json
import re
import sqlite3
from typing import Any, NamedTuple

from bindery.engines.search.index import SECTIONS

SECTIONS_PER_PAGE = 3
_TERMS = re.compile(r'"([^"]*)"?|(\S+)')
_WORDY = re.compile(r"[^\W_]")
COUNT_SQL = "SELECT COUNT(*) FROM page_fts WHERE page_fts MATCH ?"
TITLE_MATCH_SQL = "SELECT 1 FROM title_fts WHERE title_fts MATCH ? LIMIT 1"
# bm25() only works in the query that matches: the titles' scores are materialized (few rows: titles are
# short) and each matching page looks its own up by rowid, so the pages are ranked in the one pass that
# scores them, keeping only the best `LIMIT + OFFSET` (a join of two materialized score lists sorted
# every matching page: a third more CPU when most pages match). When no title matches, the lookup would
# add nothing (2.0 * 0) but its cost: the pages are ranked on their own score.
RANK_SQL = ("SELECT rowid, bm25(page_fts, 4.0, 2.0, 1.0) AS ranking FROM page_fts WHERE page_fts MATCH ?1 "
            "ORDER BY ranking, rowid LIMIT ?2 OFFSET ?3")
PAGES_SQL = ("WITH titles AS MATERIALIZED (SELECT rowid, bm25(title_fts) AS score FROM title_fts "
             "WHERE title_fts MATCH ?1) SELECT rowid, bm25(page_fts, 4.0, 2.0, 1.0) + 2.0 * COALESCE("
             "(SELECT score FROM titles WHERE titles.rowid = page_fts.rowid), 0) AS ranking "
             "FROM page_fts WHERE page_fts MATCH ?1 ORDER BY ranking, rowid LIMIT ?2 OFFSET ?3")
# One statement for the sections of every page shown: bm25() computes its IDFs once per statement (a
# full pass over each term's doclist), so a statement per page repeated that pass for every page. The
# rowid range (from the first to the last page shown) is a constraint FTS5 itself applies: it skips the
# sections of pages outside it instead of reading and testing each one.
_SHOWN_PAGES = ("FROM fts WHERE fts MATCH ?1 AND rowid >= ?4 AND rowid < ?5 "
                "AND (rowid / ?3) IN (SELECT value FROM json_each(?2))")
# What is shown of a section: its anchor, heading and snippet, read from FTS5's shadow tables (documented
# in fts5.html, "Shadow Tables") joined on the rowid: `fts_content` holds the columns (c0 heading, c1
# text, c2 anchor), `fts_docsize` one varint per column of their sizes in tokens. A row lookup each in
# the statement costs a third of FTS5 reading its columns itself (a statement of its own per row: 100
# sections 1.75 M instructions, 1.2 M of them for the three columns). The snippet is the text's best
# window of 24 tokens, or the whole text when it has no more (snippet() then starts at the first token
# and appends the rest: nothing cut, no "…"); with a one-byte heading size (below 0x80) the text's size
# is the second byte. snippet() tokenizes the whole text and grows its answer a token at a time (100
# sections of 14 tokens: 3.7 M instructions with snippet() and FTS5's own column reads, 1.4 M without).
_WHOLE = "substr(d.sz, 1, 1) < x'80' AND substr(d.sz, 2, 1) <= x'18'"  # 0x18: 24 tokens
_SECTION = f"fts.rowid, t.c2, t.c0, CASE WHEN {_WHOLE} THEN t.c1 ELSE snippet(fts, 1, '', '', '…', 24) END"
_SHOWN_SECTIONS = ("FROM fts, fts_content AS t, fts_docsize AS d WHERE fts MATCH ?1 AND fts.rowid >= ?4 "
                   "AND fts.rowid < ?5 AND (fts.rowid / ?3) IN (SELECT value FROM json_each(?2)) "
                   "AND t.id = fts.rowid AND d.id = fts.rowid")
SECTIONS_SQL = "SELECT bm25(fts, 3.0, 1.0), " + _SECTION + " " + _SHOWN_SECTIONS
# When no page shown has two sections, there is nothing to order: no scores (bm25's pass over the doclist).
LONE_SECTIONS_SQL = "SELECT " + _SECTION + " " + _SHOWN_SECTIONS
# The same with whether the text is shown whole: such a section is shown alike by every query, and an
# IndexConnection keeps it; a warm query then reads only which sections match.
KEPT_SECTIONS_SQL = "SELECT " + _SECTION + ", " + _WHOLE + " " + _SHOWN_SECTIONS
MATCHING_SECTIONS_SQL = "SELECT rowid " + _SHOWN_PAGES
# When a page shown has more sections than it shows, their scores come first and the snippets of the
# sections shown after: `+fts.rowid` keeps the list a filter that SQLite applies before computing
# snippet() (as an FTS5 constraint it would seek each rowid, restarting the match every time).
SECTION_SCORES_SQL = "SELECT bm25(fts, 3.0, 1.0), rowid " + _SHOWN_PAGES
_CHOSEN_SECTIONS = ("FROM fts, fts_content AS t, fts_docsize AS d WHERE fts MATCH ?1 AND fts.rowid >= ?3 "
                    "AND fts.rowid <= ?4 AND +fts.rowid IN (SELECT value FROM json_each(?2)) "
                    "AND t.id = fts.rowid AND d.id = fts.rowid")
SNIPPETS_SQL = "SELECT " + _SECTION + " " + _CHOSEN_SECTIONS
# A page's sections are numbered from 0 (index.insert_page): its last section's rowid tells how many it
# has (one row read; counting them would read every one).
PAGE_INFO_SQL = ("SELECT rowid, id, title, path, (SELECT fts.rowid FROM fts "
                 "WHERE fts.rowid >= pages.rowid * ?2 AND fts.rowid < (pages.rowid + 1) * ?2 "
                 "ORDER BY fts.rowid DESC LIMIT 1) FROM pages "
                 "WHERE rowid IN (SELECT value FROM json_each(?1))")


class PageInfo(NamedTuple):
    """What a result shows of a page whatever the query, and how many sections the page has."""

    id: str
    title: str
    path: str
    sections: int


class IndexConnection(sqlite3.Connection):
    """A connection to one index file, which never changes (search.storage opens them read-only): the
    id, title, path and number of sections of each page a search has shown are kept with it, so that a
    warm query reads only what depends on the query (its ranking and sections). Pages are remembered as
    they are shown, not loaded all at once: an organization search opens many indexes to show a few pages
    of each."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.shown_pages: dict[int, PageInfo] = {}
        # Sections of one-section pages shown, by rowid: those shown whole (no snippet: every query shows
        # them alike), None for those a snippet shows.
        self.shown_sections: dict[int, SectionHit | None] = {}


# Hits are named tuples, not frozen dataclasses: a page of 100 results makes 200 of them, and a frozen
# dataclass sets each field through object.__setattr__ (twice the instructions: 6,400 against 3,400 a
# hit of three fields, callgrind).
class SectionHit(NamedTuple):
    anchor: str | None
    title: str
    body: str


class PageHit(NamedTuple):
    id: str
    title: str
    path: str
    sections: list[SectionHit]
    # The ranking's score (bm25, lower is better): how hits of several indexes are merged best first.
    score: float = 0.0


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def terms(query: str) -> list[str]:
    """The query's terms as FTS5 phrases (`"a b"`, `"prefix"*`)."""
    found: list[str] = []
    for phrase, word in _TERMS.findall(query):
        text = phrase if phrase else word
        prefix = not phrase and text.endswith("*")
        text = text.rstrip("*") if prefix else text
        if _WORDY.search(text):
            found.append(_quoted(text) + ("*" if prefix else ""))
    return found


def _pages(connection: sqlite3.Connection, match: str, limit: int,
           offset: int) -> tuple[int, dict[int, float]]:
    """The number of matching pages, and the rowids of `limit` of them from `offset`, best first, with
    their scores. The ranking comes first: a page of results that is not full tells the count (all
    of a small result set, or its last page) without counting the matches again."""
    titled = connection.execute(TITLE_MATCH_SQL, (match,)).fetchone() is not None
    rows = connection.execute(PAGES_SQL if titled else RANK_SQL, (match, limit, offset)).fetchall()
    if len(rows) < limit and (rows or offset == 0):
        total = offset + len(rows)
    else:
        total = int(connection.execute(COUNT_SQL, (match,)).fetchone()[0])
    return total, {int(row[0]): float(row[1]) for row in rows}


def _page_info(connection: sqlite3.Connection, rowids: list[int], shown: str) -> dict[int, PageInfo]:
    """What is shown of each page of `rowids` (`shown`: them as a JSON list); an IndexConnection reads
    each page's once."""
    known = connection.shown_pages if isinstance(connection, IndexConnection) else {}
    missing = [rowid for rowid in rowids if rowid not in known]
    if missing:
        listed = shown if len(missing) == len(rowids) else json.dumps(missing)
        rows = connection.execute(PAGE_INFO_SQL, (listed, SECTIONS))
        for rowid, page_id, title, path, last in rows:
            known[rowid] = PageInfo(page_id, title, path, 0 if last is None else last + 1 - rowid * SECTIONS)
    return known


def search(connection: sqlite3.Connection, query: str, *, limit: int,
           offset: int = 0) -> tuple[int, list[PageHit]]:
    """The number of matching pages, and `limit` of them from `offset`, best first."""
    phrases = terms(query)
    if not phrases:
        return 0, []
    match = " AND ".join(phrases)
    total, scores = _pages(connection, match, limit, offset)
    if total == 0 and len(phrases) > 1:
        match = " OR ".join(phrases)
        total, scores = _pages(connection, match, limit, offset)
    rowids = list(scores)
    if not rowids:
        return total, []
    shown = json.dumps(rowids)
    info = _page_info(connection, rowids, shown)
    sections = _sections(connection, match, rowids, shown,
                         most=max(info[rowid].sections for rowid in rowids))
    return total, [PageHit(info[rowid].id, info[rowid].title, info[rowid].path, sections[rowid],
                           scores[rowid]) for rowid in rowids]


def _sections(connection: sqlite3.Connection, match: str, rowids: list[int], shown: str, *,
              most: int) -> dict[int, list[SectionHit]]:
    """The best `SECTIONS_PER_PAGE` matching sections of each page of `rowids`, best first; `most`: the
    number of sections of the page of them that has the most (the matching sections of pages with no
    more than shown are all shown, and those of pages with one need no ordering)."""
    pages = (match, shown, SECTIONS, min(rowids) * SECTIONS, (max(rowids) + 1) * SECTIONS)
    found: dict[int, list[SectionHit]] = {rowid: [] for rowid in rowids}
    if most <= 1:
        if isinstance(connection, IndexConnection):
            return _kept_sections(connection, pages, rowids, found)
        for rowid, anchor, heading, body in connection.execute(LONE_SECTIONS_SQL, pages):
            found[rowid // SECTIONS].append(SectionHit(anchor, heading, body))
        return found
    if most <= SECTIONS_PER_PAGE:
        for _score, rowid, anchor, heading, body in sorted(connection.execute(SECTIONS_SQL, pages)):
            found[rowid // SECTIONS].append(SectionHit(anchor, heading, body))
        return found
    best: dict[int, list[int]] = {rowid: [] for rowid in rowids}
    for _score, section in sorted(connection.execute(SECTION_SCORES_SQL, pages)):
        chosen = best[section // SECTIONS]
        if len(chosen) < SECTIONS_PER_PAGE:
            chosen.append(section)
    picked = [section for chosen in best.values() for section in chosen]
    if not picked:
        return found
    snippets = {row[0]: SectionHit(*row[1:]) for row in connection.execute(
        SNIPPETS_SQL, (match, json.dumps(picked), min(picked), max(picked)))}
    for rowid, chosen in best.items():
        found[rowid] = [snippets[section] for section in chosen]
    return found


def _kept_sections(connection: IndexConnection, pages: tuple[Any, ...], rowids: list[int],
                   found: dict[int, list[SectionHit]]) -> dict[int, list[SectionHit]]:
    """LONE_SECTIONS_SQL's sections of the pages of `rowids` (one section at most each, its rowid the
    page's times SECTIONS), those shown whole kept with the connection: when every matching section is
    kept, only their rowids are read (100 sections: 0.07 ms against 0.18 with their columns, read and
    made into strings again). When a page shown has a section a snippet shows, the columns are read
    at once (the rowids would be a statement more)."""
    kept = connection.shown_sections
    if all(kept.get(rowid * SECTIONS, True) is not None for rowid in rowids):
        matching = [rowid for (rowid,) in connection.execute(MATCHING_SECTIONS_SQL, pages)]
        known = [(rowid, hit) for rowid in matching if (hit := kept.get(rowid)) is not None]
        if len(known) == len(matching):
            for rowid, hit in known:
                found[rowid // SECTIONS].append(hit)
            return found
    for rowid, anchor, heading, body, whole in connection.execute(KEPT_SECTIONS_SQL, pages):
        hit = SectionHit(anchor, heading, body)
        kept[rowid] = hit if whole else None
        found[rowid // SECTIONS].append(hit)
    return found
