"""An index made from the parent revision's (search.incremental) answers every query exactly as a full
build of the same revision does, and its link report is the full build's, along chains of revisions
that edit, add, remove, move and retitle pages, rename groups and change reusable contents."""

from __future__ import annotations

import copy
import hashlib
import json
import random
import sqlite3
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bindery.engines.content.links import build_report
from bindery.engines.content.tree import Tree
from bindery.engines.search import incremental
from bindery.engines.search.incremental import Built
from bindery.engines.search.index import GAP
from bindery.engines.search.indexing import full_build
from bindery.engines.search.query import search
from bindery.platform import stack_urls
from bindery.store.revisions import RevisionDocuments

SPACE = "space1"
WORDS = ["install", "configure", "buffer", "output", "plugin", "rotate", "log", "server", "client", "retry"]
QUERIES = ["install", "configure buffer", "log*", '"rotate log"', "server OR client", "plugin retry output",
           "missing", "step", "buf*", "Part"]


def _text(value: str) -> dict[str, Any]:
    return {"object": "text", "leaves": [{"object": "leaf", "text": value, "marks": []}]}


class Space:
    """A tree value and the documents it names (by digest), changed step by step."""

    def __init__(self, rng: random.Random, groups: int = 3, pages: int = 6) -> None:
        self.rng, self.documents, self.counter = rng, {}, 0
        image = {"id": "f1", "name": "a.png", "digest": "d", "size": 1, "contentType": "image/png"}
        self.value: dict[str, Any] = {"pages": [], "files": [image], "reusableContents": [], "variables": {}}
        for g in range(groups):
            children = [self.new_page() for _ in range(pages)]
            self.value["pages"].append({"id": f"g{g}", "type": "group", "title": f"Part {g}",
                                        "slug": f"part-{g}", "pages": children})
        self.value["reusableContents"].append({"id": "rc1", "title": "Shared",
                                               "document": self.store(self.document())})

    def words(self, count: int) -> str:
        return " ".join(self.rng.choice(WORDS) for _ in range(count))

    def store(self, document: dict[str, Any]) -> str:
        digest = hashlib.sha256(json.dumps(document, sort_keys=True).encode()).hexdigest()
        self.documents[digest] = document
        return digest

    def page_ids(self) -> list[str]:
        return [p["id"] for g in self.value["pages"] for p in g["pages"]]

    def document(self) -> dict[str, Any]:
        nodes: list[dict[str, Any]] = []
        for _ in range(self.rng.randint(0, 3)):
            if self.rng.random() < 0.6:
                heading = self.words(2).title()
                data = {"id": heading.lower().replace(" ", "-")} if self.rng.random() < 0.3 else {}
                nodes.append({"object": "block", "type": "heading-2", "key": f"k{self.rng.random()}",
                              "data": data, "nodes": [_text(heading)]})
            targets = [*self.page_ids(), "gone"]
            ref = self.rng.choice([{"kind": "page", "page": self.rng.choice(targets)},
                                   {"kind": "anchor", "page": self.rng.choice(targets),
                                    "anchor": "log-server"},
                                   {"kind": "url", "url": "https://example.com/" + self.rng.choice(WORDS)},
                                   {"kind": "file", "file": self.rng.choice(["f1", "f2"])}])
            nodes.append({"object": "block", "type": "paragraph", "key": f"p{self.rng.random()}", "nodes": [
                _text(self.words(self.rng.randint(1, 12))),
                {"object": "inline", "type": "link", "data": {"ref": ref}, "nodes": [_text(self.words(1))]}]})
        return {"object": "document", "data": {}, "nodes": nodes}

    def new_page(self) -> dict[str, Any]:
        self.counter += 1
        page: dict[str, Any] = {"id": f"p{self.counter}", "type": "document", "title": self.words(2),
                                "slug": f"page-{self.counter}", "pages": []}
        if self.rng.random() < 0.8:
            page["documentId"] = self.store(self.document())
        if self.rng.random() < 0.3:
            page["description"] = self.words(3)
        return page

    def group(self) -> list[dict[str, Any]]:
        pages: list[dict[str, Any]] = self.rng.choice(self.value["pages"])["pages"]
        return pages

    def step(self, change: str) -> None:
        pages = self.group()
        if not pages and change not in ("add", "content", "slug"):
            change = "add"
        if change == "edit":
            self.rng.choice(pages)["documentId"] = self.store(self.document())
        elif change == "retitle":
            self.rng.choice(pages)["title"] = self.words(2)
        elif change == "describe":
            self.rng.choice(pages)["description"] = self.words(3)
        elif change == "add":
            pages.insert(self.rng.randint(0, len(pages)), self.new_page())
        elif change == "remove":
            pages.pop(self.rng.randrange(len(pages)))
        elif change == "move":
            moved = pages.pop(self.rng.randrange(len(pages)))
            target = self.group()
            target.insert(self.rng.randint(0, len(target)), moved)
        elif change == "reorder":
            self.rng.shuffle(pages)
        elif change == "slug":
            group = self.rng.choice(self.value["pages"])
            group["slug"] = f"{group['slug']}-x"
        elif change == "content":
            self.value["reusableContents"][0]["document"] = self.store(self.document())

    def revision(self) -> tuple[Tree, RevisionDocuments]:
        tree = Tree(copy.deepcopy(self.value))
        return tree, RevisionDocuments(
            {page_id: self.documents[digest] for page_id, digest in tree.page_documents().items()},
            {content_id: self.documents[digest] for content_id, digest in tree.content_documents().items()})


def _answers(data: bytes, path: Path) -> list[Any]:
    path.write_bytes(data)
    connection = sqlite3.connect(path)
    try:
        return [(query, search(connection, query, limit=1000), search(connection, query, limit=3, offset=2))
                for query in QUERIES]
    finally:
        connection.close()


def _check_chain(space: Space, changes: list[str], tmp_path: Path) -> None:
    tree, documents = space.revision()
    built: Built | None = full_build(SPACE, tree, documents)
    for number, change in enumerate(changes):
        space.step(change)
        tree, documents = space.revision()
        assert built is not None
        built = incremental.rebuild(built.data, SPACE, tree, stack_urls.app_base() + "/",
                                    lambda digests: {d: space.documents[d] for d in digests})
        assert built is not None, change
        expected = full_build(SPACE, tree, documents)
        assert built.pages == expected.pages
        answers = _answers(built.data, tmp_path / f"i{number}")
        assert answers == _answers(expected.data, tmp_path / f"f{number}"), (number, change)
        assert built.report == expected.report == build_report(
            SPACE, tree, documents.pages, stack_urls.app_base() + "/", contents=documents.contents), change


CHANGES = ["edit", "retitle", "describe", "add", "remove", "move", "reorder", "slug", "content"]


def test_each_kind_of_change_answers_as_a_full_build(tmp_path):
    _check_chain(Space(random.Random(7)), CHANGES, tmp_path)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), changes=st.lists(st.sampled_from(CHANGES), min_size=1, max_size=8))
def test_any_chain_of_revisions_answers_as_full_builds(tmp_path_factory, seed, changes):
    _check_chain(Space(random.Random(seed)), changes, tmp_path_factory.mktemp("chain"))


def test_only_the_changed_pages_are_read():
    space = Space(random.Random(3))
    tree, documents = space.revision()
    data = full_build(SPACE, tree, documents).data
    edited = space.value["pages"][1]["pages"][2]
    old = edited.get("documentId")
    edited["documentId"] = space.store(space.document())
    read: list[list[str]] = []
    tree, _ = space.revision()
    incremental.rebuild(data, SPACE, tree, "", lambda digests: read.append(digests) or  # type: ignore[func-returns-value]
                        {d: space.documents[d] for d in digests})
    assert read == [[d for d in (old, edited["documentId"]) if d]]


def test_rowids_keep_tree_order_until_none_is_left_between_two_pages():
    old = {f"p{i}": (i * GAP, incremental.Head(f"p{i}", "t", "x", "", "")) for i in (1, 2)}
    new = [old["p1"][1], incremental.Head("n", "t", "x", "", ""), old["p2"][1]]
    changes = incremental.plan(old, new)
    assert changes is not None
    assert list(changes.inserted) == [GAP + incremental.STEP]
    crowded = {"p1": (1, old["p1"][1]), "p2": (2, old["p2"][1])}
    assert incremental.plan(crowded, new) is None


def test_pages_added_one_by_one_at_a_groups_end_keep_being_built_upon():
    def head(page_id: str) -> incremental.Head:
        return incremental.Head(page_id, "t", "x", "", "")

    order = ["a", "z"]
    rows = {"a": (GAP, head("a")), "z": (2 * GAP, head("z"))}
    for number in range(255):  # each revision adds one page after the last one added
        order.insert(len(order) - 1, f"n{number}")
        changes = incremental.plan(rows, [head(page_id) for page_id in order])
        assert changes is not None, number
        assert not changes.deleted
        [(rowid, added)] = changes.inserted.items()
        rows[added.id] = (rowid, added)
    assert [page_id for page_id, _ in sorted(rows.items(), key=lambda item: item[1][0])] == order
