"""The one domain-error hierarchy. `bindery.api.http` maps it to HTTP in one exception handler."""

from __future__ import annotations


class BinderyError(Exception):
    """Base of every error a request may answer with; `status` is the HTTP status it maps to."""

    status = 500

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadRequest(BinderyError):
    status = 400


class Unauthorized(BinderyError):
    status = 401


class Forbidden(BinderyError):
    status = 403


class NotFound(BinderyError):
    status = 404


class Conflict(BinderyError):
    status = 409


class TransactionConflict(Conflict):
    """DynamoDB cancelled a transaction: `reasons` holds its code per operation, in order, and `names`
    the name of each operation (`bindery.store.table.Op`), so callers ask `failed("merge-pointer")`."""

    def __init__(self, reasons: list[str], names: list[str] | None = None) -> None:
        super().__init__("The request conflicts with the current state; nothing was changed.")
        self.reasons = reasons
        self.names = names or []

    def failed(self, name: str) -> bool:
        """Whether a condition of an operation called `name` was what refused the transaction."""
        return any(op == name and reason == "ConditionalCheckFailed"
                   for op, reason in zip(self.names, self.reasons, strict=False))


class PayloadTooLarge(BinderyError):
    status = 413


def error_body(status: int, message: str) -> dict[str, dict[str, int | str]]:
    """The wire shape of every error: `{"error": {"code": N, "message": "..."}}`."""
    return {"error": {"code": status, "message": message}}
