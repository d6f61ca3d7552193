"""Incremental clustering of issues (docs/conversations.md, "Clustering").

An issue's signature is its text as a sparse term vector: scikit-learn's HashingVectorizer (words and
word pairs, English stop words out) hashes terms to columns, so no global vocabulary has to be kept or
agreed on between workers, and the vector is L2-normalised. A cluster's profile is the sum of its
members' signatures (its centroid's direction) kept to its TOP_TERMS heaviest columns, so a profile stays
a few kilobytes however many issues join. A new issue joins the cluster whose profile is the most similar
(cosine, scikit-learn) if that similarity reaches THRESHOLD, otherwise it starts a cluster."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bindery.insights.model import ExtractedIssue

if TYPE_CHECKING:
    from scipy.sparse import csr_matrix

N_FEATURES = 2**20
SIGNATURE_TERMS = 64
TOP_TERMS = 300
THRESHOLD = 0.3
# Words every support conversation uses: they say a problem exists, not which one.
SUPPORT_WORDS = frozenset({
    "issue", "issues", "problem", "problems", "error", "errors", "help", "please", "thanks", "thank", "hi",
    "hello", "trying", "try", "tried", "using", "use", "used", "want", "need", "way", "possible", "able",
    "work", "works", "working", "worked", "doesn", "don", "didn", "isn", "won", "can", "cannot", "just",
    "like", "know", "get", "gets", "getting", "got", "does", "did", "make", "thing", "question", "questions",
    "anyone", "someone", "also", "still", "now", "new", "seems", "really", "ve", "ll", "im", "fine",
})

Terms = tuple[tuple[int, float], ...]  # (hashed column, weight), columns ascending


def _vectorizer() -> Any:
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS, HashingVectorizer

    return HashingVectorizer(n_features=N_FEATURES, alternate_sign=False, norm="l2", ngram_range=(1, 2),
                             stop_words=sorted(ENGLISH_STOP_WORDS | SUPPORT_WORDS),
                             token_pattern=r"(?u)\b[^\W\d_][\w.+#-]*[\w+#]|\b[^\W\d_]\w\b")  # noqa: S106 - a regex


def _top(weights: Iterable[tuple[int, float]], limit: int) -> Terms:
    """The `limit` heaviest columns (ties: the lower column), in column order."""
    kept = sorted(weights, key=lambda item: (-item[1], item[0]))[:limit]
    return tuple(sorted((column, round(weight, 6)) for column, weight in kept if weight > 0))


def _terms_json(terms: Terms) -> list[list[float]]:
    return [[column, weight] for column, weight in terms]


def _terms_from(raw: Any) -> Terms:
    if not isinstance(raw, list):
        raise ValueError("terms must be a list of [column, weight] pairs")
    out: list[tuple[int, float]] = []
    for item in raw:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], int)
                and isinstance(item[1], int | float) and 0 <= item[0] < N_FEATURES):
            raise ValueError("terms must be a list of [column, weight] pairs")
        out.append((item[0], float(item[1])))
    return tuple(sorted(out))


@dataclass(frozen=True)
class Signature:
    """An issue's text as hashed term weights (at most SIGNATURE_TERMS of them)."""

    terms: Terms

    def to_json(self) -> str:
        return json.dumps({"t": _terms_json(self.terms)}, separators=(",", ":"))

    @classmethod
    def from_json(cls, raw: str) -> Signature:
        value = json.loads(raw)
        if not isinstance(value, dict):
            raise ValueError("a signature is a JSON object")
        return cls(_terms_from(value.get("t"))[:SIGNATURE_TERMS])


@dataclass(frozen=True)
class ClusterProfile:
    """What a cluster's issues say, summed: `size` issues, their TOP_TERMS heaviest hashed terms."""

    size: int
    terms: Terms

    def to_json(self) -> str:
        return json.dumps({"n": self.size, "t": _terms_json(self.terms)}, separators=(",", ":"))

    @classmethod
    def from_json(cls, raw: str) -> ClusterProfile:
        value = json.loads(raw)
        if not isinstance(value, dict) or not isinstance(value.get("n"), int) or value["n"] < 0:
            raise ValueError("a cluster profile is a JSON object with a size")
        return cls(value["n"], _top(_terms_from(value.get("t")), TOP_TERMS))


def issue_text(issue: ExtractedIssue) -> str:
    # The title is the problem in brief: it counts twice against the summary's detail.
    return f"{issue.title}\n{issue.title}\n{issue.summary}"


def signature(issue: ExtractedIssue) -> Signature:
    matrix = _vectorizer().transform([issue_text(issue)])
    row = matrix.getrow(0)
    return Signature(_top(zip(row.indices.tolist(), row.data.tolist(), strict=True), SIGNATURE_TERMS))


def _matrix(rows: Sequence[Terms]) -> csr_matrix:
    from scipy.sparse import csr_matrix

    data = [weight for terms in rows for _, weight in terms]
    columns = [column for terms in rows for column, _ in terms]
    pointers = [0]
    for terms in rows:
        pointers.append(pointers[-1] + len(terms))
    return csr_matrix((data, columns, pointers), shape=(len(rows), N_FEATURES))


def similarities(sig: Signature, profiles: Mapping[str, ClusterProfile]) -> dict[str, float]:
    """Cosine similarity of the signature to each profile."""
    if not profiles:
        return {}
    from sklearn.metrics.pairwise import cosine_similarity

    ids = list(profiles)
    scores = cosine_similarity(_matrix([sig.terms]), _matrix([profiles[i].terms for i in ids]))[0]
    return {cluster: float(score) for cluster, score in zip(ids, scores.tolist(), strict=True)}


def nearest(sig: Signature, profiles: Mapping[str, ClusterProfile], *,
            threshold: float = THRESHOLD) -> str | None:
    """The id of the most similar cluster if it is at least `threshold` similar; on a tie, the smallest id."""
    best: tuple[float, str] | None = None
    for cluster, score in similarities(sig, profiles).items():
        if score >= threshold and (best is None or (-score, cluster) < (-best[0], best[1])):
            best = (score, cluster)
    return None if best is None else best[1]


def absorb(profile: ClusterProfile | None, sig: Signature) -> ClusterProfile:
    """The profile once the issue of `sig` has joined (None: the profile of a new cluster)."""
    weights = dict(profile.terms) if profile else {}
    for column, weight in sig.terms:
        weights[column] = weights.get(column, 0.0) + weight
    return ClusterProfile((profile.size if profile else 0) + 1, _top(weights.items(), TOP_TERMS))


# describe() lives beside the text it reads, and is part of the clustering interface.
from bindery.insights.description import ClusterDescription, describe  # noqa: E402

__all__ = ["ClusterDescription", "ClusterProfile", "Signature", "absorb", "describe", "nearest", "signature",
           "similarities"]
