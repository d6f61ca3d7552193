"""Rebuilds seamonkey.json from the GitBugs dataset's SeaMonkey files (README.md beside this file).

    python tests/data/conversations/make_seamonkey.py SeaMonkey_bugs.csv SeaMonkey_bugs-combined.csv

Every report of a duplicate group (Bugzilla's own "duplicate of" links, both reports in the file) is kept,
with as many reports that are in no group as there are grouped ones, taken evenly by id among the users'
reports (not "Port |Bug ...|" tasks, which are developers' to-do items). Descriptions are cut at
MAX_CHARS."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

MAX_CHARS = 3000


def _components(links: list[tuple[str, str]], present: set[str]) -> dict[str, str]:
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in links:
        if a in present and b in present:
            ra, rb = find(a), find(b)
            parent[max(ra, rb, key=int)] = min(ra, rb, key=int)
    return {x: find(x) for x in parent}


def main(bugs_csv: str, duplicates_csv: str) -> None:
    with Path(bugs_csv).open(newline="") as handle:
        rows = {row["Issue id"].strip(): row for row in csv.DictReader(handle)}
    links: list[tuple[str, str]] = []
    with Path(duplicates_csv).open(newline="") as handle:
        for row in csv.DictReader(handle):
            links += [(row["Issue id"].strip(), other.strip()) for other in row["Duplicate id"].split(",")
                      if other.strip()]
    group = _components(links, set(rows))
    linked = {x for pair in links for x in pair}
    others = sorted((i for i in rows if i not in linked and not rows[i]["Summary"].startswith("Port ")
                     and rows[i]["Description"].strip()), key=int)
    step = len(others) / len(group)
    chosen = [others[int(k * step)] for k in range(len(group))]
    out = []
    for issue in sorted([*group, *chosen], key=int):
        row = rows[issue]
        out.append({"id": issue, "group": group.get(issue, issue), "created": row["Created"],
                    "subject": row["Summary"].strip(), "text": row["Description"].strip()[:MAX_CHARS]})
    print(json.dumps({"conversations": out}, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
