"""AWS faults at each AWS call of the main write operations (issue 22; docs/reliability.md).

For an operation and a kind of fault, a clean run first records the operation's AWS calls (the
authorizer's included); then, for each call the fault can hit, a fresh world of its own meets it there:
- as a blip (the first attempt of that call fails): botocore's standard retry mode (or the store's
  resending of a transaction DynamoDB cancelled for contention) absorbs it, and the operation answers as
  the clean run did;
- as an outage from that call on (every attempt of every later call the fault can hit fails): the caller
  gets the clean run's answer or a 503 with `Retry-After` and the error body, never a 500; what a user
  then reads is either the operation done or exactly what it was before; and after a 503 that changed
  nothing, sending the request again succeeds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from botocore.exceptions import ClientError
from botocore.retries import standard

from bindery.domain.translations.result import run
from bindery.domain.translations.runs import end_run
from bindery.platform import aws, clock
from bindery.store import table
from bindery.store import translations as translation_store
from tests.api.fault_operations import OPERATIONS, Operation
from tests.api.git_sync_support import git_settings  # noqa: F401 - a fixture the Git import case uses
from tests.api.translations.test_translation_runs import handbook, translation_of, translator  # noqa: F401 - a fixture
from tests.api.translations.test_translations import create, translations_path
from tests.aws_faults import FAULTS, Fault, Injector, injecting
from tests.client import ApiClient


@pytest.fixture(autouse=True)
def no_backoff(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """botocore's backoff (and the transaction's) computed as zero: the same retries, without waiting
    them out. New clients for each test: botocore's retry quota is per client and drains as a real outage
    drains it (5 units a retry out of 500): an operation's cases spend well under that, but together the
    tests would spend it and stop retrying."""
    monkeypatch.setattr(standard.ExponentialBackoff, "delay_amount", lambda self, context: 0)
    monkeypatch.setattr(table, "TRANSACTION_BACKOFF_SECONDS", 0)
    aws.reset()
    yield
    aws.reset()


def _calls(api: ApiClient, operation: Operation) -> tuple[list[tuple[str, str]], int]:
    """The AWS calls of a clean run, and the status it answers (set up as every case is: the reads of
    `observe` leave revisions cached in the process, which spares the operation some reads)."""
    world, _ = _fresh(api, operation)
    with injecting(Injector()) as watched:
        reply = operation.act(api, world)
    assert reply.status < 300, reply.body
    return watched.calls, reply.status


DYNAMODB_ROTATION = [FAULTS["ddb-throughput"], FAULTS["ddb-throttling"], FAULTS["ddb-internal"],
                     FAULTS["ddb-dropped"]]
S3_ROTATION = [FAULTS["s3-slowdown"], FAULTS["s3-internal"]]


def _faults_at(number: int, service: str, operation: str) -> list[Fault]:
    """The kinds of fault call `number` meets: one of the service's, in turn from call to call (every
    kind meets calls of every operation, and the suite stays short), and for a transaction, its
    cancellation too."""
    if service == "dynamodb":
        chosen = [DYNAMODB_ROTATION[number % len(DYNAMODB_ROTATION)]]
        return [*chosen, FAULTS["ddb-cancelled"]] if operation == "TransactWriteItems" else chosen
    if service == "s3":
        return [S3_ROTATION[number % len(S3_ROTATION)]]
    return [FAULTS["sqs-internal"]]


def _cases(api: ApiClient, operation: Operation) -> tuple[list[tuple[int, Fault]], int]:
    """(call number, fault) for every call of a clean run, and the status that run answered."""
    calls, status = _calls(api, operation)
    return [(number, fault) for number, (service, name) in enumerate(calls, 1)
            for fault in _faults_at(number, service, name)], status


def _fresh(api: ApiClient, operation: Operation) -> tuple[dict[str, object], object]:
    world = operation.setup(api)
    return world, operation.observe(api, world)


def _queues(request: pytest.FixtureRequest, operation: Operation) -> None:
    if operation.queues:
        request.getfixturevalue("sqs_queues")
        request.getfixturevalue("git_settings")


def _unavailable(reply, where: str) -> None:
    assert reply.status == 503, f"{where}: {reply.status} {reply.body!r}"
    assert int(reply.headers["Retry-After"]) >= 1, where
    body = reply.json()
    assert set(body) == {"error"}, where
    assert body["error"]["code"] == 503, where
    assert body["error"]["message"], where


@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda operation: operation.name)
def test_an_outage_from_any_call_on_is_a_503_and_no_partial_write(
        api: ApiClient, operation: Operation, request: pytest.FixtureRequest) -> None:
    _queues(request, operation)
    cases, status = _cases(api, operation)
    for number, fault in cases:
        where = f"{operation.name}: {fault.name} from call {number}"
        world, before = _fresh(api, operation)
        with injecting(Injector(fault, number)) as watched:
            reply = operation.act(api, world)
        assert watched.injected, where
        if fault.code != "TransactionCanceledException":
            # botocore's standard mode tried the call MAX_ATTEMPTS times before giving up.
            assert watched.attempts[number - 1] == aws.MAX_ATTEMPTS, where
        after = operation.observe(api, world)
        if reply.status == status:
            assert operation.done(before, after), where
            continue
        _unavailable(reply, where)
        if operation.done(before, after):
            continue
        assert operation.failed(before, after), f"{where}: partial write {before} -> {after}"
        again = operation.act(api, world)
        assert again.status == status, f"{where}: sent again: {again.status} {again.body!r}"
        assert operation.done(after, operation.observe(api, world)), where


@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda operation: operation.name)
def test_a_blip_at_any_call_is_retried_and_the_operation_completes(
        api: ApiClient, operation: Operation, request: pytest.FixtureRequest) -> None:
    _queues(request, operation)
    cases, status = _cases(api, operation)
    for number, fault in cases:
        where = f"{operation.name}: {fault.name} once at call {number}"
        world, before = _fresh(api, operation)
        with injecting(Injector(fault, number, persistent=False)) as watched:
            reply = operation.act(api, world)
        if fault.code == "TransactionCanceledException":  # sent again by the store, as a new call
            assert (watched.injected, watched.retried) == (1, 0), where
        else:  # attempted again by botocore
            assert (watched.injected, watched.retried) == (1, 1), where
        assert reply.status == status, f"{where}: {reply.status} {reply.body!r}"
        assert operation.done(before, operation.observe(api, world)), where



# --- what is not a fault of AWS stays a 500 ---------------------------------------------------------------
def test_a_bug_is_still_a_500_and_not_a_retryable_503(api: ApiClient,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Only AWS's passing faults are 503s: a KeyError in our code, or a request AWS refuses as malformed
    (a ValidationException: sending it again cannot help), is a 500 without Retry-After."""
    operation = OPERATIONS[0]
    world, before = _fresh(api, operation)

    def broken(operations: object) -> None:
        raise KeyError("revision")

    with monkeypatch.context() as patched:
        patched.setattr(table, "transact", broken)
        reply = operation.act(api, world)
    assert (reply.status, reply.json(), "Retry-After" in reply.headers) == (
        500, {"error": {"code": 500, "message": "Internal error"}}, False)
    refused = Fault("ddb-invalid", "dynamodb", "ValidationException", 400, frozenset({"TransactWriteItems"}))
    with injecting(Injector(refused, 1)) as watched:
        reply = operation.act(api, world)
    assert watched.injected == 1  # not retried: botocore knows it would fail again
    assert (reply.status, "Retry-After" in reply.headers) == (500, False)
    assert operation.observe(api, world) == before


# --- a worker's follow-up message ---------------------------------------------------------------------------
@pytest.mark.usefixtures("translator")
def test_a_run_asked_for_during_a_run_is_not_left_pending_when_it_cannot_be_queued(
        api: ApiClient, deliver_queued: Callable[[], int]) -> None:
    """A run that ends with one more asked for queues it; when SQS refuses that message, the translation
    goes back to completed (the follow-up run is dropped, visibly) rather than staying pending with no
    message, which would take every later run request in. The worker's message fails, and SQS retries it
    (it then finds its job done)."""
    ada, space = handbook(api)
    made = create(api, ada, space["id"])
    stored = translation_store.get_translation(ada.org_id, made["id"])
    assert stored is not None
    assert translation_store.claim(stored, clock.now_iso(), "2025-01-01T00:00:00.000Z")  # a worker has it
    run_path = translations_path(ada, f"/{made['id']}/run")
    assert api.post(run_path, token=ada.token).status == 204  # one more, asked for while it runs
    outcome = run(stored)
    with injecting(Injector(FAULTS["sqs-internal"], 1)) as watched, pytest.raises(ClientError):
        end_run(stored, outcome, None, clock.now())
    assert watched.injected == aws.MAX_ATTEMPTS  # the one SendMessage, retried, failed every time
    assert translation_of(api, ada, made)["status"] == "completed"
    assert api.post(run_path, token=ada.token).status == 204
    assert translation_of(api, ada, made)["status"] == "pending"
    deliver_queued()
    final = translation_of(api, ada, made)
    assert (final["status"], final["stats"]["runs"]) == ("completed", 2)
