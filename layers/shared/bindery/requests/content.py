"""Query parameters of the content reads (the reference spec's `documentFormat`, `documentEvaluated`)."""

from __future__ import annotations

from typing import Literal

DocumentFormat = Literal["document", "markdown"]
# `evaluated`: a boolean, or "deterministic-only" (see domain.content_evaluation).
Evaluated = bool | Literal["deterministic-only"]


def evaluation_mode(evaluated: Evaluated) -> str | None:
    """None (as stored), "true" or "deterministic-only"."""
    if evaluated is True:
        return "true"
    return evaluated or None
