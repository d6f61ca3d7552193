"""How well the engine groups real conversations: extraction and incremental clustering over the
SeaMonkey bug reports of tests/data/conversations (README there), scored by pairwise precision and recall
against Bugzilla's own duplicate links.

    python -m tests.insights.quality        # prints the figures docs/conversations.md quotes
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

from bindery.insights.clustering import THRESHOLD, ClusterProfile, absorb, nearest, signature
from bindery.insights.extraction import extract_issues
from bindery.insights.model import Message

DATA = Path(__file__).resolve().parents[1] / "data" / "conversations" / "seamonkey.json"


@dataclass(frozen=True)
class Thread:
    id: str
    group: str  # the same for reports the source links as duplicates
    created: str
    subject: str
    text: str


@dataclass(frozen=True)
class Score:
    precision: float
    recall: float
    clusters: int

    @property
    def f1(self) -> float:
        total = self.precision + self.recall
        return 0.0 if total == 0 else 2 * self.precision * self.recall / total


def threads() -> list[Thread]:
    raw = json.loads(DATA.read_text())["conversations"]
    # In the order they were reported, as a worker would meet them.
    return sorted((Thread(**item) for item in raw), key=lambda t: (t.created, t.id))


def cluster(items: Sequence[Thread], *, threshold: float = THRESHOLD) -> dict[str, frozenset[str]]:
    """Each thread's clusters, extracting and clustering one thread at a time (the worker's way)."""
    profiles: dict[str, ClusterProfile] = {}
    out: dict[str, frozenset[str]] = {}
    for thread in items:
        found: set[str] = set()
        for issue in extract_issues(subject=thread.subject, messages=[Message("user", thread.text)]):
            sig = signature(issue)
            target = nearest(sig, profiles, threshold=threshold) or f"c{len(profiles)}"
            profiles[target] = absorb(profiles.get(target), sig)
            found.add(target)
        out[thread.id] = frozenset(found)
    return out


def score(items: Sequence[Thread], assigned: Mapping[str, frozenset[str]]) -> Score:
    """Pairwise: of the pairs put together, how many the source links (precision); of the pairs the source
    links, how many were put together (recall). A thread without issues is together with none."""
    together = same = both = 0
    for a, b in combinations(items, 2):
        predicted = bool(assigned[a.id] & assigned[b.id])
        actual = a.group == b.group
        together += predicted
        same += actual
        both += predicted and actual
    clusters = len(set().union(*assigned.values()))
    return Score(both / together if together else 0.0, both / same if same else 0.0, clusters)


def baseline(items: Sequence[Thread], pick: Callable[[Thread], str]) -> Score:
    return score(items, {t.id: frozenset({pick(t)}) for t in items})


def main() -> None:
    items = threads()
    groups = {t.group for t in items}
    print(f"{len(items)} threads, {len(groups)} problems ({len(items) - len(groups)} duplicates)")
    rows = [("engine", score(items, cluster(items))),
            ("one cluster", baseline(items, lambda t: "all")),
            ("each alone", baseline(items, lambda t: t.id))]
    for name, found in rows:
        print(f"{name:12} precision {found.precision:.3f}  recall {found.recall:.3f}  F1 {found.f1:.3f}  "
              f"clusters {found.clusters}")


if __name__ == "__main__":
    main()
