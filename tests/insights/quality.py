"""How well the engine groups real conversations: extraction and incremental clustering over the bug
reports of tests/data/conversations (SeaMonkey's and Hadoop's; README there), scored by pairwise precision
and recall against the trackers' own duplicate links.

Each corpus is cut in two by duplicate group (`split`): the engine's threshold and weights were chosen on
the "select" half, its figures are reported on the "report" half, beside those of the old, words-only
engine (`meaning=False`, threshold OLD_THRESHOLD) on the same half.

    python -m tests.insights.quality           # prints the figures docs/conversations.md quotes
    python -m tests.insights.quality --sweep   # the thresholds on the select halves
    python -m tests.insights.quality --pairs   # how well each signal alone ranks same-problem pairs
"""

from __future__ import annotations

import json
import sys
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

from bindery.engines.insights.clustering import (
    THRESHOLD,
    ClusterProfile,
    absorb,
    lexical_matrix,
    nearest,
    signatures,
    similarity_matrix,
)
from bindery.engines.insights.embedding import cosines
from bindery.engines.insights.extraction import extract_issues
from bindery.engines.insights.model import ExtractedIssue, Message

DATA = Path(__file__).resolve().parents[1] / "data" / "conversations"
CORPORA = ("seamonkey", "hadoop")
TICKETS = "support-tickets"  # written here after issue 37: a behaviour check, never a quality figure
SPLITS = ("select", "report")
OLD_THRESHOLD = 0.4  # the words-only engine's (docs/conversations.md, "Quality")
TARGET_RECALL = 0.7  # issue 37's target: precision >= 0.8 at recall >= 0.7 on each corpus


@dataclass(frozen=True)
class Thread:
    id: str
    group: str  # the same for reports the source links as duplicates
    created: str
    subject: str
    text: str
    reply: str = ""  # the team's answer (extraction reads only the user's words)


@dataclass(frozen=True)
class Score:
    precision: float
    recall: float
    clusters: int

    @property
    def f1(self) -> float:
        total = self.precision + self.recall
        return 0.0 if total == 0 else 2 * self.precision * self.recall / total


def threads(corpus: str = "seamonkey", split: str | None = None) -> list[Thread]:
    """The corpus's threads (of one split: a group's reports are all in the same one)."""
    raw = json.loads((DATA / f"{corpus}.json").read_text())["conversations"]
    items = (Thread(**item) for item in raw)
    if split is not None:
        items = (t for t in items if SPLITS[zlib.crc32(t.group.encode()) % 2] == split)
    # In the order they were reported, as a worker would meet them.
    return sorted(items, key=lambda t: (t.created, t.id))


def thread_issues(thread: Thread) -> list[ExtractedIssue]:
    """What extraction takes from the thread (the user's words; the team's reply is context)."""
    messages = [Message("user", thread.text)]
    if thread.reply:
        messages.append(Message("team-member", thread.reply))
    return extract_issues(subject=thread.subject, messages=messages)


def cluster(items: Sequence[Thread], *, threshold: float = THRESHOLD,
            meaning: bool = True) -> dict[str, frozenset[str]]:
    """Each thread's clusters, extracting and clustering one thread at a time (the worker's way);
    `meaning=False` with OLD_THRESHOLD is the words-only engine."""
    profiles: dict[str, ClusterProfile] = {}
    out: dict[str, frozenset[str]] = {}
    for thread in items:
        found: set[str] = set()
        for sig in signatures(thread_issues(thread), meaning=meaning):
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


def pair_ranking(items: Sequence[Thread]) -> dict[str, tuple[float, float]]:
    """How well each signal alone ranks the pairs of issues of one problem above the others, over all
    pairs of issues (each issue as if it were a cluster of one): the meaning's cosine, the words'
    (weighted as `nearest` weighs them) and the engine's blend of the two (`similarity_matrix`). For
    each, scikit-learn's average precision (1.0: every same-problem pair first) and the best precision
    any threshold on that score reaches while keeping TARGET_RECALL of the same-problem pairs: what a
    grouping by that score alone could reach at the target's recall. It compares models without a
    threshold or a blend to tune (docs/conversations.md, "Quality")."""
    from sklearn.metrics import average_precision_score, precision_recall_curve

    found = [(thread.group, issue) for thread in items for issue in thread_issues(thread)]
    sigs = signatures([issue for _, issue in found])
    alone = [absorb(None, sig) for sig in sigs]
    vectors = [sig.vector for sig in sigs]
    scores = {"meaning": cosines(vectors, vectors), "words": lexical_matrix(sigs, alone),
              "blend": similarity_matrix(sigs, alone)}
    pairs = list(combinations(range(len(found)), 2))
    truth = [found[a][0] == found[b][0] for a, b in pairs]
    out: dict[str, tuple[float, float]] = {}
    for name, matrix in scores.items():
        ranked = [matrix[a][b] for a, b in pairs]
        precision, recall, _ = precision_recall_curve(truth, ranked)
        out[name] = (float(average_precision_score(truth, ranked)),
                     float(precision[recall >= TARGET_RECALL].max()))
    return out


def main(sweep: bool = False, pairs: bool = False) -> None:
    if pairs:
        for corpus in CORPORA:
            ranking = pair_ranking(threads(corpus, "select"))
            print(f"{corpus}/select: same-problem pairs, average precision (best precision at recall "
                  f"{TARGET_RECALL}): " + ", ".join(f"{name} {average:.3f} ({best:.3f})"
                                                    for name, (average, best) in ranking.items()))
        return
    for corpus in CORPORA:
        for split in SPLITS[:1] if sweep else SPLITS:
            items = threads(corpus, split)
            groups = {t.group for t in items}
            print(f"{corpus}/{split}: {len(items)} threads, {len(groups)} problems")
            rows = ([(f"threshold {t:.2f}", score(items, cluster(items, threshold=t)))
                     for t in (0.45, 0.5, 0.55, 0.6, 0.65)] if sweep else
                    [("engine", score(items, cluster(items))),
                     ("words only", score(items, cluster(items, threshold=OLD_THRESHOLD, meaning=False))),
                     ("one cluster", baseline(items, lambda t: "all")),
                     ("each alone", baseline(items, lambda t: t.id))])
            for name, found in rows:
                print(f"  {name:16} precision {found.precision:.3f}  recall {found.recall:.3f}  "
                      f"F1 {found.f1:.3f}  clusters {found.clusters}")
    if not sweep:
        items = threads(TICKETS)
        found = score(items, cluster(items))
        print(f"{TICKETS} (written here, not a measure): precision {found.precision:.3f}  "
              f"recall {found.recall:.3f}  clusters {found.clusters}")


if __name__ == "__main__":
    main(sweep="--sweep" in sys.argv, pairs="--pairs" in sys.argv)
