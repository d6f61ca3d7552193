"""Which AWS errors are passing faults (503, worth sending again) and which are bugs (500):
`bindery.platform.errors.unavailable` and `transient_cancellation`, the one place that decides
(docs/reliability.md)."""

from __future__ import annotations

import pytest
from botocore.exceptions import ClientError, EndpointConnectionError, ParamValidationError, ReadTimeoutError

from bindery.platform.errors import ServiceUnavailable, transient_cancellation, unavailable


def _client_error(code: str, status: int) -> ClientError:
    response = {"Error": {"Code": code, "Message": "m"}, "ResponseMetadata": {"HTTPStatusCode": status}}
    return ClientError(response, "PutItem")


@pytest.mark.parametrize(("error", "retryable"), [
    (_client_error("ProvisionedThroughputExceededException", 400), True),
    (_client_error("ThrottlingException", 400), True),
    (_client_error("SlowDown", 503), True),
    (_client_error("SomethingNew", 502), True),  # any 5xx: AWS failed on its side
    (_client_error("ValidationException", 400), False),  # our request is wrong: a bug
    (_client_error("AccessDenied", 403), False),  # misconfigured permissions
    (_client_error("ResourceNotFoundException", 400), False),  # a missing table
    (EndpointConnectionError(endpoint_url="https://dynamodb"), True),
    (ReadTimeoutError(endpoint_url="https://dynamodb"), True),
    (ParamValidationError(report="bad"), False),
    (KeyError("id"), False),
])
def test_passing_faults_of_aws_are_503s_and_everything_else_is_not(error: Exception, retryable: bool) -> None:
    found = unavailable(error)
    assert isinstance(found, ServiceUnavailable) if retryable else found is None
    if found is not None:
        assert (found.status, found.retry_after) == (503, 1)


@pytest.mark.parametrize(("reasons", "transient"), [
    (["None", "TransactionConflict"], True),
    (["ThrottlingError", "None", "ProvisionedThroughputExceeded"], True),
    (["ConditionalCheckFailed", "TransactionConflict"], False),  # a condition failed: the caller decides
    (["ConditionalCheckFailed", "None"], False),
    (["ValidationError"], False),
    (["None", "None"], False),
])
def test_a_cancelled_transaction_is_sent_again_only_when_no_condition_failed(reasons: list[str],
                                                                              transient: bool) -> None:
    assert transient_cancellation(reasons) is transient
