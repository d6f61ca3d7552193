"""A revision's index made from its parent's: copy the parent's file, forget the pages that changed,
index them again, and nothing else.

A page is unchanged when its title, description and document digest are (its body is content-addressed,
so an equal digest is an equal body); a page only renamed in its path keeps its rows, its `path` updated.
Rowids must stay in tree order for ties in ranking to break as a full build's do, so the unchanged pages
kept in place are the longest run of them whose old rowids already increase in the new tree order (a
moved page is then one delete and one insert, not a renumbering of the pages after it); pages inserted
between two kept ones take rowids just after the one before them (`STEP` apart), or share those left
between the two. Only when no integer is left between two neighbours (after 255 pages added one after
another at one place, or some 8 more added again and again right after one page) is a full build
needed: `plan` answers None.

The contentless tables forget a page only given the very values they indexed: these are computed again
from the page's old body (read by its digest, which the `pages` row keeps) with the same code, which the
file's format number pins.
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
from bisect import bisect_left
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from bindery.engines.content.links import anchors, references, report_of
from bindery.engines.content.tree import Tree
from bindery.engines.search import index
from bindery.engines.search.index import GAP, MAX_ROWID, IndexedPage, LinkFacts
from bindery.engines.search.text import sections

# An inserted page's distance from the page before it, when there is room: pages added one by one at one
# place (most often a group's end) then fit 255 times before a full build respaces the rowids.
STEP = GAP // 256


class Head(NamedTuple):
    """What decides whether a page's index rows change: all of an IndexedPage but its sections (a tuple:
    5,000 of them are made and compared on each build)."""

    id: str
    title: str
    path: str
    description: str
    document: str

    @property
    def content(self) -> tuple[str, str, str]:
        return self.title, self.description, self.document


@dataclass(frozen=True)
class Built:
    data: bytes  # the index file
    pages: int
    report: dict[str, Any]  # the link report of the same revision


@dataclass
class Plan:
    deleted: dict[int, Head] = field(default_factory=dict)  # by old rowid
    inserted: dict[int, Head] = field(default_factory=dict)  # by new rowid
    moved: dict[int, str] = field(default_factory=dict)  # kept rowid: its new path

    def digests(self) -> list[str]:
        """The document bodies the plan reads: the old bodies of deleted pages, the new of inserted."""
        heads = [*self.deleted.values(), *self.inserted.values()]
        return list(dict.fromkeys(head.document for head in heads if head.document))


def heads(tree: Tree) -> list[Head]:
    """The document pages of a tree, in tree order (parents before their children)."""
    return [Head(entry["id"], entry["title"], located.path or "", str(entry.get("description") or ""),
                 str(entry.get("documentId") or ""))
            for located in tree.located_pages() if (entry := located.entry)["type"] == "document"]


def read_heads(connection: sqlite3.Connection) -> dict[str, tuple[int, Head]]:
    return {row[1]: (row[0], Head(*row[1:])) for row in connection.execute(
        "SELECT rowid, id, title, path, description, document FROM pages")}


def _longest_increasing(rowids: list[int]) -> set[int]:
    """The positions of a longest strictly increasing subsequence (patience sorting)."""
    tails: list[int] = []  # rowid ending the best run of each length
    tail_at: list[int] = []  # its position
    before = [-1] * len(rowids)
    for position, rowid in enumerate(rowids):
        length = bisect_left(tails, rowid)
        before[position] = tail_at[length - 1] if length else -1
        if length == len(tails):
            tails.append(rowid)
            tail_at.append(position)
        else:
            tails[length], tail_at[length] = rowid, position
    kept, position = set(), tail_at[-1] if tail_at else -1
    while position >= 0:
        kept.add(position)
        position = before[position]
    return kept


def _same_content(old: Head, new: Head) -> bool:
    # Field by field: Head.content would make two tuples per page, 5,000 times a build.
    return old.document == new.document and old.title == new.title and old.description == new.description


def plan(old: Mapping[str, tuple[int, Head]], new: list[Head]) -> Plan | None:
    """What to delete, insert and re-path to turn the index of `old` into that of `new`; None when
    rowids run out between two neighbours (then only a full build will do)."""
    candidates = []
    for position, head in enumerate(new):
        found = old.get(head.id)
        if found is not None and _same_content(found[1], head):
            candidates.append((position, found[0]))
    kept_positions = {candidates[i][0] for i in _longest_increasing([rowid for _, rowid in candidates])}
    kept = {new[position].id: old[new[position].id][0] for position in kept_positions}
    result = Plan(deleted={rowid: head for page_id, (rowid, head) in old.items() if page_id not in kept})
    previous, position = 0, 0
    while position < len(new):
        head = new[position]
        if head.id in kept:
            previous = kept[head.id]
            if old[head.id][1].path != head.path:
                result.moved[previous] = head.path
            position += 1
            continue
        run = position
        while run < len(new) and new[run].id not in kept:
            run += 1
        room = None if run == len(new) else (kept[new[run].id] - previous) // (run - position + 1)
        step = STEP if room is None else min(STEP, room)
        if step < 1 or previous + step * (run - position) > MAX_ROWID:
            return None
        for offset, inserted in enumerate(new[position:run], start=1):
            result.inserted[previous + step * offset] = inserted
        position = run
    return result


def facts(document: Any) -> LinkFacts:
    return LinkFacts(list(references(document)), sorted(anchors(document)))


def apply(connection: sqlite3.Connection, changes: Plan, documents: Mapping[str, Any]) -> None:
    """Carry out the plan; `documents`: the bodies it reads (Plan.digests), by digest."""
    for rowid, head in changes.deleted.items():
        body = documents.get(head.document) if head.document else None
        index.delete_page(connection, rowid, IndexedPage(head.id, head.title, head.path, head.description,
                                                         sections(head.title, body), head.document))
        connection.execute("DELETE FROM links WHERE owner = ?", (head.id,))
    for rowid, path in changes.moved.items():
        connection.execute("UPDATE pages SET path = ? WHERE rowid = ?", (path, rowid))
    for rowid, head in changes.inserted.items():
        body = documents.get(head.document) if head.document else None
        index.insert_page(connection, rowid, IndexedPage(head.id, head.title, head.path, head.description,
                                                         sections(head.title, body), head.document))
        if head.document:
            index.put_links(connection, head.id, facts(body))


def changed_contents(connection: sqlite3.Connection, tree: Tree) -> tuple[list[str], dict[str, str]]:
    """Reusable contents gone from the tree, and those new or changed (content id: document digest)."""
    old = dict(connection.execute("SELECT id, document FROM contents").fetchall())
    new = tree.content_documents()
    return ([content_id for content_id in old if content_id not in new],
            {content_id: digest for content_id, digest in new.items() if old.get(content_id) != digest})


def apply_contents(connection: sqlite3.Connection, gone: list[str], changed: Mapping[str, str],
                   documents: Mapping[str, Any]) -> None:
    connection.executemany("DELETE FROM contents WHERE id = ?", [(content_id,) for content_id in gone])
    for content_id, digest in changed.items():
        index.put_content(connection, content_id, digest, facts(documents[digest]))


class _Anchors(Mapping[str, Collection[str]]):
    """Heading anchors of the pages, read from the index only for the pages a link points into."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection
        self._read: dict[str, frozenset[str]] = {}

    def __getitem__(self, page_id: str) -> frozenset[str]:
        if page_id not in self._read:
            row = self._connection.execute("SELECT anchors FROM links WHERE owner = ?", (page_id,)).fetchone()
            if row is None:
                raise KeyError(page_id)
            self._read[page_id] = frozenset(json.loads(row[0]))
        return self._read[page_id]

    def __iter__(self) -> Iterator[str]:
        return iter([row[0] for row in self._connection.execute("SELECT owner FROM links")])

    def __len__(self) -> int:
        return int(self._connection.execute("SELECT COUNT(*) FROM links").fetchone()[0])


def report(connection: sqlite3.Connection, space_id: str, tree: Tree, app_base: str) -> dict[str, Any]:
    """The revision's link report from the link facts its index keeps (content.links.report_of)."""
    def refs(sql: str) -> dict[str, list[tuple[Any, str, str | None]]]:
        return {owner: [(ref, relation, key) for ref, relation, key in json.loads(found)]
                for owner, found in connection.execute(sql)}

    return report_of(space_id, tree, refs("SELECT owner, refs FROM links WHERE refs <> '[]'"),
                     _Anchors(connection), app_base,
                     refs("SELECT id, refs FROM contents WHERE refs <> '[]'"))


def rebuild(data: bytes, space_id: str, tree: Tree, app_base: str,
            read_documents: Callable[[list[str]], Mapping[str, Any]]) -> Built | None:
    """The index of `tree` and its link report, made from `data`, the index file of an earlier revision of
    the space; `read_documents(digests)` reads the bodies it needs. None when only a full build will do."""
    with tempfile.TemporaryDirectory(prefix="bindery-index-") as directory:
        path = Path(directory) / "index.sqlite"
        connection = open_copy(data, path)
        if connection is None:
            return None
        try:
            new = heads(tree)
            changes = plan(read_heads(connection), new)
            if changes is None:
                return None
            gone, contents = changed_contents(connection, tree)
            documents = read_documents(list(dict.fromkeys([*changes.digests(), *contents.values()])))
            apply(connection, changes, documents)
            apply_contents(connection, gone, contents, documents)
            built_report = report(connection, space_id, tree, app_base)
            return Built(index.finish(connection, path, optimize=False), len(new), built_report)
        finally:
            connection.close()


def open_copy(data: bytes, path: Path) -> sqlite3.Connection | None:
    """A writable copy of an index file at `path`; None when it is of another format (built by other code,
    whose values a delete could not reproduce)."""
    path.write_bytes(data)
    connection = sqlite3.connect(path)
    try:
        found = connection.execute("SELECT value FROM meta WHERE name = 'format'").fetchone()
    except sqlite3.DatabaseError:
        found = None
    if found is None or found[0] != index.FORMAT:
        connection.close()
        return None
    connection.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;")
    return connection
