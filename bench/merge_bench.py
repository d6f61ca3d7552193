"""Three-way merges of a 5,000-page tree (the change-request update and merge path), timed against a
baseline from the same run: indexing the same tree (`content.tree.Tree`), which every read does.

    python -m bench.merge_bench [--repeat 10]

Cases: one page edited on each side (the common change request), a page moved on one side and a group
reordered on the other, and both sides adding pages to the same group. Each case's median over
`--repeat` runs is reported in milliseconds and as a ratio to the baseline. No AWS, no documents: page
bodies that both sides changed are the only ones a merge reads, and these cases change none.
"""

from __future__ import annotations

import argparse
import copy
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for path in (ROOT, ROOT / "layers" / "shared"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from bench.timing import median_ms  # noqa: E402
from bindery.engines.content.merge.trees import merge_trees  # noqa: E402
from bindery.engines.content.tree import Tree  # noqa: E402

GROUPS, PAGES_PER_GROUP = 50, 100
Value = dict[str, Any]


def tree() -> Value:
    groups = [{"id": f"g{g}", "type": "group", "title": f"Group {g}", "slug": f"group-{g}", "pages": [
        {"id": f"p{g}-{i}", "type": "document", "title": f"Page {i}", "slug": f"page-{i}",
         "documentId": f"{g * 1000 + i:064x}", "pages": []} for i in range(PAGES_PER_GROUP)]}
        for g in range(GROUPS)]
    return {"pages": groups, "files": [], "reusableContents": [], "variables": {}}


def _page(value: Value, group: int, index: int) -> Value:
    page: Value = value["pages"][group]["pages"][index]
    return page


def cases(base: Value) -> dict[str, tuple[Value, Value]]:
    ours, theirs = copy.deepcopy(base), copy.deepcopy(base)
    _page(ours, 0, 0)["title"] = "Edited here"
    _page(theirs, 10, 5)["title"] = "Edited there"
    edits = (ours, theirs)

    ours, theirs = copy.deepcopy(base), copy.deepcopy(base)
    moved = ours["pages"][2]["pages"].pop(7)
    ours["pages"][3]["pages"].append({**moved, "slug": "moved-page-7"})
    theirs["pages"][20]["pages"].reverse()
    moves = (ours, theirs)

    ours, theirs = copy.deepcopy(base), copy.deepcopy(base)
    for side, name in ((ours, "a"), (theirs, "b")):
        side["pages"][0]["pages"].insert(50, {"id": f"new-{name}", "type": "document", "title": f"New {name}",
                                              "slug": f"new-{name}", "pages": []})
    inserts = (ours, theirs)
    return {"one edit each side": edits, "move + reorder": moves, "inserts in one group": inserts}



def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args(argv)
    base = tree()

    def no_document(digest: str) -> Any:
        raise AssertionError(f"these merges read no document ({digest})")

    baseline = median_ms(lambda: Tree(base), args.repeat)
    print(f"{'baseline (index the tree)':26} {baseline:8.2f} ms")
    results = {"baseline": baseline}
    def merging(ours: Value, theirs: Value) -> Callable[[], Any]:
        return lambda: merge_trees(base, ours, theirs, no_document)

    for name, (ours, theirs) in cases(base).items():
        median = median_ms(merging(ours, theirs), args.repeat)
        results[name] = median
        print(f"{name:26} {median:8.2f} ms  ({median / baseline:6.1f}x baseline)")
    return results


if __name__ == "__main__":
    main()
