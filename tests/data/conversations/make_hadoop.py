"""Builds hadoop.json from the GitBugs dataset's Hadoop files (README.md beside this file).

    python tests/data/conversations/make_hadoop.py hadoop_bugs.csv hadoop_bugs-combined.csv > hadoop.json

Every report of a duplicate group (JIRA's own "duplicate of" links, both reports in the file) is kept,
with as many reports that are in no group, taken evenly by id. Descriptions are cut at MAX_CHARS (the
size of the repository matters more than the tail of a stack trace)."""

from __future__ import annotations

import csv
import json
import sys
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from make_seamonkey import _components

MAX_CHARS = 1200


def main(bugs_csv: str, duplicates_csv: str) -> None:
    with Path(bugs_csv).open(newline="") as handle:
        rows = {row["Issue id"].strip(): row for row in csv.DictReader(handle)}
    with Path(duplicates_csv).open(newline="") as handle:
        links = [(row["Issue id"].strip(), row["Duplicate id"].strip()) for row in csv.DictReader(handle)]
    group = _components(links, set(rows))
    linked = {x for pair in links for x in pair}
    others = sorted((i for i in rows if i not in linked and rows[i]["Description"].strip()), key=int)
    step = len(others) / len(group)
    chosen = [others[int(k * step)] for k in range(len(group))]
    out = []
    for issue in sorted([*group, *chosen], key=int):
        row = rows[issue]
        # JIRA's export names no zone; only the order of the reports matters here.
        created = datetime.strptime(row["Created"].strip(), "%d/%b/%y %H:%M").strftime(  # noqa: DTZ007
            "%Y-%m-%d %H:%M")
        out.append({"id": issue, "group": group.get(issue, issue), "created": created,
                    "subject": row["Summary"].strip(), "text": row["Description"].strip()[:MAX_CHARS]})
    print(json.dumps({"conversations": out}, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
