"""Why a processing produced no version: the official `OpenAPISpecProcessingErrorCode` and the
`OpenAPIErrorObject`s the spec then carries in `lastProcessedErrors`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

ErrorCode = Literal["FETCH_TIMEOUT", "FETCH_ERROR", "PARSE_ERROR"]
MAX_ERRORS = 50  # a broken spec can have thousands: the first ones say what to fix
MAX_MESSAGE = 1000


@dataclass(frozen=True)
class SpecError:
    message: str
    code: str | None = None

    def to_wire(self) -> dict[str, str]:
        shown = {"message": self.message[:MAX_MESSAGE]}
        if self.code:
            shown["code"] = self.code
        return shown


@dataclass
class ProcessingFailed(Exception):
    """The source cannot become a version; `code` is the spec's `lastProcessErrorCode`."""

    code: ErrorCode
    errors: list[SpecError] = field(default_factory=list)

    def __str__(self) -> str:
        return f"{self.code}: " + "; ".join(error.message for error in self.errors[:3])
