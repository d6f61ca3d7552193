"""Incremental clustering of issues (docs/conversations.md, "Clustering").

An issue's signature is its text (the title three times, then the summary) as a sparse vector of
character 3- to 5-grams within words, stop words left out: scikit-learn's HashingVectorizer hashes them
to columns, so no vocabulary has to be kept or agreed on between workers, and n-grams match "crash" with
"crashes" and "log in" with "login". The vector is L2-normalised and kept to its SIGNATURE_TERMS heaviest
columns. A cluster's profile is the sum of its members' signatures (its centroid's direction) kept to its
TOP_TERMS heaviest columns, so a profile stays a few kilobytes however many issues join.

A new issue joins the cluster whose profile is the most similar if that similarity reaches THRESHOLD,
otherwise it starts a cluster. Similarity is the cosine (scikit-learn) after weighting every column by its
inverse cluster frequency across the profiles compared (scikit-learn's TfidfTransformer fitted on them):
n-grams every cluster has (the product's name, "version") count for little, the distinctive ones for
much, and no global statistics need to be stored. So `nearest` is given every cluster of the organization,
not a sample of them.

An issue's signature also holds its sentence embedding (bindery.engines.insights.embedding), and a profile the
sum of its members' embeddings: the score is SEMANTIC_WEIGHT of their cosine plus the rest of the lexical
one. Meaning alone cannot tell apart two problems of the same product ("the mail window crashes", "the
mail window is slow" are near in meaning), words alone miss paraphrases ("reset link not received",
"no recovery email"): together they do better than either (docs/conversations.md, "Quality"). A profile
whose vector is of another model (or that has none, stored before embeddings) is compared by its words
alone. THRESHOLD, the weights and the text weighting were chosen on the selection splits of the quality
corpora (tests/insights/quality.py; the figures are in docs/conversations.md)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any

from bindery.engines.insights.embedding import (
    Vector,
    add,
    cosines,
    embed,
    model_name,
    subtract,
    vector_and_model,
    vector_json,
)
from bindery.engines.insights.model import ExtractedIssue

if TYPE_CHECKING:
    import numpy as np
    from scipy.sparse import csr_matrix

N_FEATURES = 2**20
SIGNATURE_TERMS = 200
TOP_TERMS = 600  # ~11 KB of JSON: a profile fits a DynamoDB item with room to spare
THRESHOLD = 0.55
SEMANTIC_WEIGHT = 0.5
SEMANTIC_MARGIN = 0.15  # the meaning alone joins from THRESHOLD + SEMANTIC_MARGIN (0.70) up
RESIDUE = 1e-4  # a profile weight this small is rounding left by a released issue (see `release`)
# Words every support conversation uses: they say a problem exists, not which one.
SUPPORT_WORDS = frozenset({
    "issue", "issues", "problem", "problems", "error", "errors", "help", "please", "thanks", "thank", "hi",
    "hello", "trying", "try", "tried", "using", "use", "used", "want", "need", "way", "possible", "able",
    "work", "works", "working", "worked", "doesn", "don", "didn", "isn", "won", "can", "cannot", "just",
    "like", "know", "get", "gets", "getting", "got", "does", "did", "make", "thing", "question", "questions",
    "anyone", "someone", "also", "still", "now", "new", "seems", "really", "ve", "ll", "im", "fine",
})

Terms = tuple[tuple[int, float], ...]  # (hashed column, weight), columns ascending


_WORD = re.compile(r"(?u)\b\w\w+\b")


def _content_words(text: str) -> str:
    """The text's words lower-cased, without stop words (what the character n-grams are taken from)."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return " ".join(word for word in _WORD.findall(text.lower())
                    if word not in ENGLISH_STOP_WORDS and word not in SUPPORT_WORDS)


@cache
def _vectorizer() -> Any:
    # Stateless (hashing, no vocabulary), so one serves every call: building it costs more than hashing
    # one issue's text.
    from sklearn.feature_extraction.text import HashingVectorizer

    return HashingVectorizer(n_features=N_FEATURES, alternate_sign=False, norm="l2", analyzer="char_wb",
                             ngram_range=(3, 5), preprocessor=_content_words)


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
        # A positive weight (NaN is not) under a column the vectorizer can produce.
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], int)
                and isinstance(item[1], (int, float)) and 0 <= item[0] < N_FEATURES
                and 0 < item[1] < float("inf")):
            raise ValueError("terms must be a list of [column, weight] pairs")
        out.append((item[0], float(item[1])))
    return tuple(sorted(out))


@dataclass(frozen=True)
class Signature:
    """An issue's text as hashed term weights (at most SIGNATURE_TERMS of them), and its meaning as the
    embedding `vector` of the model `model` (empty: none)."""

    terms: Terms
    vector: Vector = ()
    model: str = ""

    @cached_property
    def arrays(self) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        return _arrays(self.terms)

    def to_json(self) -> str:
        return json.dumps({"t": _terms_json(self.terms), **vector_json(self.vector, self.model)},
                          separators=(",", ":"))

    @classmethod
    def from_json(cls, raw: str) -> Signature:
        value = json.loads(raw)
        if not isinstance(value, dict):
            raise ValueError("a signature is a JSON object")
        terms = _terms_from(value.get("t"))
        vector, model = vector_and_model(value)
        return cls(terms if len(terms) <= SIGNATURE_TERMS else _top(terms, SIGNATURE_TERMS), vector, model)


@dataclass(frozen=True)
class ClusterProfile:
    """What a cluster's issues say, summed: `size` issues, their TOP_TERMS heaviest hashed terms, and the
    sum of their embeddings of the model `model` (the direction of the cluster's meaning)."""

    size: int
    terms: Terms
    vector: Vector = ()
    model: str = ""

    @cached_property
    def arrays(self) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        # Built once per profile: a warm worker compares every new issue with the same profiles.
        return _arrays(self.terms)

    def to_json(self) -> str:
        return json.dumps({"n": self.size, "t": _terms_json(self.terms),
                           **vector_json(self.vector, self.model)}, separators=(",", ":"))

    @classmethod
    def from_json(cls, raw: str) -> ClusterProfile:
        value = json.loads(raw)
        if not isinstance(value, dict) or not isinstance(value.get("n"), int) or value["n"] < 0:
            raise ValueError("a cluster profile is a JSON object with a size")
        terms = _terms_from(value.get("t"))
        vector, model = vector_and_model(value)
        return cls(value["n"], terms if len(terms) <= TOP_TERMS else _top(terms, TOP_TERMS), vector, model)


def issue_text(issue: ExtractedIssue) -> str:
    # The title is the problem in brief: it counts three times against the summary's detail.
    return f"{issue.title}\n{issue.title}\n{issue.title}\n{issue.summary}"


def meaning_text(issue: ExtractedIssue) -> str:
    """What is embedded: the title, then the summary (the model reads at most MAX_TOKENS word pieces)."""
    return f"{issue.title}. {issue.summary}"


def signature(issue: ExtractedIssue) -> Signature:
    (found,) = signatures([issue])
    return found


def signatures(issues: Sequence[ExtractedIssue], *, meaning: bool = True) -> list[Signature]:
    """The issues' signatures, hashed in one pass; embedded too unless `meaning` is False (their words
    only: what `describe` compares, so that describing a cluster embeds nothing)."""
    if not issues:
        return []  # scikit-learn refuses an empty batch
    matrix = _vectorizer().transform([issue_text(issue) for issue in issues])
    vectors: list[Vector] = [()] * len(issues)
    model = ""
    if meaning:
        vectors, model = embed([meaning_text(issue) for issue in issues]), model_name()
    rows = []
    bounds = zip(matrix.indptr[:-1].tolist(), matrix.indptr[1:].tolist(), strict=True)
    for (start, end), vector in zip(bounds, vectors, strict=True):
        columns, weights = matrix.indices[start:end].tolist(), matrix.data[start:end].tolist()
        rows.append(Signature(_top(zip(columns, weights, strict=True), SIGNATURE_TERMS), vector, model))
    return rows


def _arrays(terms: Terms) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """The terms as (columns, weights) arrays, the pieces of a sparse matrix row."""
    import numpy as np

    return (np.fromiter((column for column, _ in terms), dtype=np.int32, count=len(terms)),
            np.fromiter((weight for _, weight in terms), dtype=np.float64, count=len(terms)))


def _matrix(rows: Sequence[Signature | ClusterProfile], universe: np.ndarray[Any, Any]) -> csr_matrix:
    """The rows as a sparse matrix over `universe` (the sorted hashed columns any row compared uses):
    columns no row has change no cosine and no inverse frequency, and fitting over all 2^20 of them
    would cost more than the comparison."""
    import numpy as np
    from scipy.sparse import csr_matrix

    pieces = [row.arrays for row in rows]
    pointers = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum([len(columns) for columns, _ in pieces], out=pointers[1:])
    columns = np.searchsorted(universe, np.concatenate([columns for columns, _ in pieces]))
    data = np.concatenate([weights for _, weights in pieces])
    return csr_matrix((data, columns, pointers), shape=(len(rows), len(universe)))


def similarities(sig: Signature, profiles: Mapping[str, ClusterProfile]) -> dict[str, float]:
    """Cosine similarity of the signature to each profile, columns weighted by their inverse frequency
    across the profiles."""
    if not profiles:
        return {}
    ids = list(profiles)
    (scores,) = similarity_matrix([sig], [profiles[i] for i in ids])
    return {cluster: float(score) for cluster, score in zip(ids, scores, strict=True)}


def similarity_matrix(sigs: Sequence[Signature], profiles: Sequence[ClusterProfile]) -> list[list[float]]:
    """`similarities` of many signatures at once (a row per signature, a column per profile): the words'
    score, blended with the meaning's where both have vectors of one model."""
    lexical = lexical_matrix(sigs, profiles)
    meaning = cosines([sig.vector for sig in sigs], [profile.vector for profile in profiles])
    # An issue of stop words only ("it does not work, help") names no problem: alike in nothing.
    return [[score if not sig.terms or not sig.vector or sig.model != profile.model or not profile.vector
             else max((1 - SEMANTIC_WEIGHT) * score + SEMANTIC_WEIGHT * row_meaning[column],
                      row_meaning[column] - SEMANTIC_MARGIN)
             for column, (score, profile) in enumerate(zip(row, profiles, strict=True))]
            for sig, row, row_meaning in zip(sigs, lexical, meaning, strict=True)]


def lexical_matrix(sigs: Sequence[Signature], profiles: Sequence[ClusterProfile]) -> list[list[float]]:
    """The words' score of many signatures at once: the weighting is fitted once on the profiles."""
    import numpy as np
    from sklearn.feature_extraction.text import TfidfTransformer
    from sklearn.metrics.pairwise import cosine_similarity

    rows: list[Signature | ClusterProfile] = [*sigs, *profiles]
    universe = np.unique(np.concatenate([np.zeros(0, dtype=np.int32), *(row.arrays[0] for row in rows)]))
    if not len(universe):  # nothing but empty rows (an issue of stop words only): alike in nothing
        return [[0.0] * len(profiles) for _ in sigs]
    matrix = _matrix(profiles, universe)
    weighting = TfidfTransformer(norm="l2").fit(matrix)
    scores: list[list[float]] = cosine_similarity(weighting.transform(_matrix(sigs, universe)),
                                                  weighting.transform(matrix)).tolist()
    return scores


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
    vector, model = (profile.vector, profile.model) if profile else ((), "")
    if sig.vector:
        # A vector of another model cannot be summed with this one: the cluster's meaning starts again in
        # the model that now embeds (its words still hold what came before).
        vector, model = (add(vector, sig.vector), model) if vector and model == sig.model \
            else (sig.vector, sig.model)
    return ClusterProfile((profile.size if profile else 0) + 1, _top(weights.items(), TOP_TERMS), vector,
                          model)


def release(profile: ClusterProfile, sig: Signature) -> ClusterProfile:
    """The profile once the issue of `sig` has left it (re-ingest replaced it). Approximate where the
    issue's columns were cut from the profile by TOP_TERMS: those cannot be taken back."""
    weights = dict(profile.terms)
    for column, weight in sig.terms:
        if column in weights:
            weights[column] -= weight
    # What is left of a column only the issue held is the rounding of the sums: below RESIDUE, gone.
    vector = subtract(profile.vector, sig.vector) if sig.vector and sig.model == profile.model \
        and profile.vector else profile.vector
    return ClusterProfile(max(profile.size - 1, 0),
                          _top(((column, weight) for column, weight in weights.items() if weight > RESIDUE),
                               TOP_TERMS), vector, profile.model if vector else "")


__all__ = [
    "ClusterProfile",
    "Signature",
    "absorb",
    "nearest",
    "release",
    "signature",
    "signatures",
    "similarities",
    "similarity_matrix",
]
