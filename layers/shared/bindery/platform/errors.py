"""The one domain-error hierarchy. `bindery.api.http` maps it to HTTP in one exception handler, and
`unavailable` says which errors of AWS (once botocore's retries gave up) join it as `ServiceUnavailable`."""

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


class ServiceUnavailable(BinderyError):
    """AWS kept failing (throttling, 5xx, a dropped connection) after botocore's retries, or cancelled a
    transaction for contention or throughput: nothing the caller did wrong, and worth sending again after
    `retry_after` seconds (the `Retry-After` header)."""

    status = 503

    def __init__(self, message: str = "The service is briefly unavailable: try again in a moment", *,
                 retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after


# DynamoDB's and S3's codes for "too many requests now" and "failed on our side", as botocore's standard
# retry mode knows them (botocore.retries.standard), and the reasons a cancelled transaction gives for
# contention or throughput: each passes if sent again later. Anything else from AWS (a validation error,
# an access denial, a missing table) is a bug or a misconfiguration, and stays a 500.
TRANSIENT_CODES = frozenset({
    "Throttling", "ThrottlingException", "ThrottledException", "RequestThrottledException",
    "TooManyRequestsException", "ProvisionedThroughputExceededException", "RequestLimitExceeded",
    "TransactionInProgressException", "TransactionConflictException", "SlowDown", "RequestTimeout",
    "RequestTimeoutException", "PriorRequestNotComplete", "InternalServerError", "InternalError",
    "ServiceUnavailable", "LimitExceededException", "BandwidthLimitExceeded",
})
TRANSIENT_CANCELLATION_REASONS = frozenset({"TransactionConflict", "ThrottlingError",
                                            "ProvisionedThroughputExceeded", "RequestLimitExceeded"})


def unavailable(error: BaseException) -> ServiceUnavailable | None:
    """The `ServiceUnavailable` an error of botocore amounts to, or None when it is not a passing fault
    of AWS (then it is a bug, answered 500)."""
    from botocore.exceptions import ClientError, HTTPClientError
    from botocore.exceptions import ConnectionError as ConnectionFailed

    if isinstance(error, ClientError):
        details = error.response.get("Error", {})
        status = int(error.response.get("ResponseMetadata", {}).get("HTTPStatusCode") or 0)
        if details.get("Code") in TRANSIENT_CODES or status >= 500:
            return ServiceUnavailable()
        return None
    if isinstance(error, ConnectionFailed | HTTPClientError):  # timeouts, refused or dropped connections
        return ServiceUnavailable()
    return None


def transient_cancellation(reasons: list[str]) -> bool:
    """Did DynamoDB cancel a transaction only for contention or throughput (no condition failed)? Then
    nothing was written and the same transaction may succeed if sent again."""
    return bool(TRANSIENT_CANCELLATION_REASONS.intersection(reasons)) \
        and all(reason in TRANSIENT_CANCELLATION_REASONS or reason == "None" for reason in reasons)


def error_body(status: int, message: str) -> dict[str, dict[str, int | str]]:
    """The wire shape of every error: `{"error": {"code": N, "message": "..."}}`."""
    return {"error": {"code": status, "message": message}}
