"""The generated bad-input corpus (issue 22): every write operation of docs/openapi.json, called by A's owner
with real ids (tests/api/authorization_world.py) and a corpus built from the body valid for her
(tests/api/authorization_bodies.py): each top-level field with a value of the wrong JSON type, `{}`, a
1 MB string and a lone surrogate (`"\\ud800"`, escaped as JSON sends it) in each string field, JSON nested
10,000 deep, bytes that are not UTF-8, a body over the gateway's limit, and each path id over-long or a
traversal; every list GET with a huge and a negative `limit`; every operation (single-resource GETs
included) with each path value longer than a DynamoDB key may be, and every GET with each query value
over-long and with hostile headers and cookies (JSON nested past the parser's stack, long values, text
that is not UTF-8). All of it against
DynamoDB's key-size limits (tests.key_limits), which the default engine does not enforce on reads. The
operations come from docs/openapi.json, so a new route is in the corpus as soon as it exists.

The rule: never a 5xx; a lone surrogate never accepted; every 4xx in the error shape `{"error": {"code":
N, "message": str}}`; and a call that is refused leaves A's world as it was (Alice's re-read of it,
`snapshot`, after each batch of operations). Some corpus values may legitimately be accepted (a 1 MB
string where no cap exists, `{}` where every field is optional): those are not judged on the world, and
the refused calls of their batch are sent again against a fresh re-read, so that every refusal is checked
against a world no accepted call moved.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import pytest

from tests import key_limits
from tests.api.authorization_bodies import VALID_BODIES, body_values
from tests.api.authorization_world import (
    OPERATIONS,
    SPEC,
    Operation,
    World,
    build_world,
    difference,
    report,
    snapshot,
)
from tests.api.git_sync_support import git_settings  # noqa: F401 - a fixture
from tests.client import ApiClient

WRITE_METHODS = ("POST", "PUT", "PATCH", "DELETE")
WRITES = [op for op in OPERATIONS if op.method in WRITE_METHODS]
LONG_ID = "x" * 2100
TRAVERSALS = ("../x", "%2e%2e")
MEGABYTE = "a" * 1_000_000
OVER_GATEWAY = b'{"title":"' + b"a" * 10_485_761 + b'"}'
Problem = tuple[str, str, int, str]
# Longer than any key DynamoDB takes (2,048 bytes), and than a sort key (1,024) but not a partition key.
OVER_LONG = ("x" * 2100, "x" * 1030)
DEEP_JSON = "[" * 100_000
HOSTILE_HEADERS = (
    {"Cookie": f"session={DEEP_JSON}; bindery-unsigned-x={DEEP_JSON}"},
    {"Cookie": "a=" + "v" * 16_000, "Accept-Language": "l" * 16_000,
     "If-None-Match": '"' + "e" * 16_000 + '"'},
    {"Cookie": "a=\udcff\xfe", "User-Agent": "\udcff\xfe\x00", "X-Forwarded-For": "\udcff"},
    {"Accept": DEEP_JSON, "X-Amzn-Trace-Id": DEEP_JSON, "Content-Type": "application/json; charset=\udcff"},
)


@pytest.fixture(autouse=True)
def dynamodb_key_limits():
    with key_limits.enforced():
        yield


@dataclass(frozen=True)
class Case:
    """One corpus request: what it is, the path (ids filled in) and the raw body."""

    kind: str
    path: str
    body: bytes | None
    # An id no object can have writes nothing whatever the answer (deleting it is a 204, API.md).
    writes_nothing: bool = False
    # Text that is not Unicode is refused wherever it is sent (the one rule for text), never stored.
    refused: bool = False


def wrong_type(value: Any) -> Any:
    """A value of another JSON type than `value`'s."""
    if isinstance(value, str):
        return 12345
    if isinstance(value, (bool, int, float)):
        return "not a number"
    if isinstance(value, list):
        return {"not": "a list"}
    return ["not", "an object"] if isinstance(value, dict) else 7


def string_leaves(value: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Where the strings of a body are (each as a path of keys and indexes)."""
    if isinstance(value, str):
        yield at
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from string_leaves(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from string_leaves(item, (*at, index))


def replaced(value: Any, at: tuple[Any, ...], new: Any) -> Any:
    if not at:
        return new
    copy = list(value) if isinstance(value, list) else dict(value)
    copy[at[0]] = replaced(value[at[0]], at[1:], new)
    return copy


def encoded(body: Any) -> bytes:
    # ensure_ascii: a lone surrogate travels as the escape `\ud800`, as a client's JSON encoder sends it.
    return json.dumps(body, ensure_ascii=True).encode()


def body_cases(world: World, operation: Operation) -> Iterator[Case]:
    path = world.fill(operation)
    make = VALID_BODIES.get(operation.key)
    valid = make(body_values(world), world.alice, world.alice_elsewhere) if make is not None else {}
    yield Case("missing fields", path, b"{}")
    yield Case("nested 10,000 deep", path, b'{"title":' + b"[" * 10_000 + b"]" * 10_000 + b"}")
    yield Case("not UTF-8", path, b'{"title": "\xff\xfe"}')
    yield Case("over the gateway limit", path, OVER_GATEWAY)
    if isinstance(valid, dict):
        for name, value in valid.items():
            yield Case(f"{name}: wrong type", path, encoded({**valid, name: wrong_type(value)}))
    for at in string_leaves(valid):
        where = "/".join(map(str, at))
        yield Case(f"{where}: 1 MB string", path, encoded(replaced(valid, at, MEGABYTE)))
        yield Case(f"{where}: lone surrogate", path, encoded(replaced(valid, at, "a\ud800b")), refused=True)


def id_cases(world: World, operation: Operation) -> Iterator[Case]:
    for param in operation.params:
        for bad in (LONG_ID, *TRAVERSALS):
            path = world.fill(Operation(operation.method, operation.path.replace(f"{{{param}}}", bad)))
            yield Case(f"{param} = {bad[:8]}", path, b"{}" if operation.method != "DELETE" else None,
                       writes_nothing=True)


def send(api: ApiClient, world: World, operation: Operation, case: Case,
         **query: str) -> tuple[int, bytes]:
    """The request through the in-process gateway; a handler that raises is a 500, as on Lambda."""
    headers = {"Authorization": f"Bearer {world.alice.token}"}
    if case.body is not None:
        headers["Content-Type"] = "application/json"
    target = "/v1" + case.path + "?" + urlencode({**world.query(operation), **query})
    try:
        reply = api.gateway.dispatch(operation.method, target, headers, case.body)
    except Exception as error:  # noqa: BLE001 - an unhandled error is what the corpus reports
        return 500, repr(error).encode()
    return reply.status, reply.body


def shape_problem(status: int, body: bytes) -> str | None:
    """What is wrong with an answer to bad input (None: nothing)."""
    if status >= 500:
        return f"server error: {body[:200]!r}"
    if not 400 <= status < 500:
        return None
    try:
        error = json.loads(body)["error"]
        if error["code"] == status and isinstance(error["message"], str) and error["message"]:
            return None
    except (ValueError, KeyError, TypeError):
        pass
    return f"not in the error shape: {body[:200]!r}"


# Operations whose corpus is judged against one re-read of the world: a re-read is ~45 requests, and one
# per operation would be most of the module's time.
BATCH = 12


def cases_of(world: World, operation: Operation) -> list[Case]:
    cases = [*id_cases(world, operation)]
    return cases if operation.method == "DELETE" else [*cases, *body_cases(world, operation)]


def run_batch(api: ApiClient, world: World, batch: list[Operation],
              before: dict[str, Any]) -> tuple[list[Problem], dict[str, Any]]:
    """The corpus of a batch of operations, judged; returns its problems and the world as it now reads."""
    problems: list[Problem] = []
    refused: list[tuple[Operation, Case]] = []
    accepted = False
    for operation in batch:
        for case in cases_of(world, operation):
            status, body = send(api, world, operation, case)
            issue = shape_problem(status, body)
            if issue:
                problems.append((operation.method, operation.path, status, f"{case.kind}: {issue}"))
            elif case.refused and status < 400:
                problems.append((operation.method, operation.path, status, f"{case.kind}: accepted"))
            if status < 400 and not case.writes_nothing:
                accepted = True
            else:
                refused.append((operation, case))
    if accepted:  # the refusals again, against a world no accepted call moves meanwhile
        before = snapshot(api, world)
        for operation, case in refused:
            send(api, world, operation, case)
    after = snapshot(api, world)
    batch_names = ", ".join(str(op) for op in batch)
    problems += [("(batch)", batch_names, 0, f"a refusal changed {path}: {difference(seen, after[path])}")
                 for path, seen in before.items() if after[path] != seen]
    return problems, after


def order(operation: Operation) -> tuple[int, str]:
    """Deletes last: an accepted corpus call there (none is expected) would take what others name."""
    return (operation.method == "DELETE"), operation.path


def test_every_write_operation_refuses_bad_input_cleanly(api, tmp_path, deliver_queued,
                                                         git_settings):  # noqa: F811
    assert len(WRITES) > 100
    world = build_world(api, tmp_path, deliver_queued)
    seen = snapshot(api, world)
    problems: list[Problem] = []
    writes = sorted(WRITES, key=order)
    for first in range(0, len(writes), BATCH):
        found, seen = run_batch(api, world, writes[first:first + BATCH], seen)
        problems += found
    assert not problems, report(problems)


def list_operations() -> list[Operation]:
    spec = json.loads(SPEC.read_text())
    return [op for op in OPERATIONS if op.method == "GET" and any(
        p["name"] == "limit" for p in spec["paths"][op.path]["get"].get("parameters", []))]


def test_every_list_answers_a_huge_or_negative_limit_without_a_server_error(api, tmp_path, deliver_queued,
                                                                            git_settings):  # noqa: F811
    lists = list_operations()
    assert len(lists) > 20
    world = build_world(api, tmp_path, deliver_queued)
    problems: list[Problem] = []
    for operation in lists:
        for limit in (10**12, -1):
            status, body = send(api, world, operation, Case("limit", world.fill(operation), None),
                                limit=str(limit))
            issue = shape_problem(status, body)
            if issue:
                problems.append((operation.method, operation.path, status, f"limit={limit}: {issue}"))
    assert not problems, report(problems)


def over_long_answer(operation: Operation, param: str) -> tuple[int, ...]:
    """What an over-long path value must get: a GET, 404; a DELETE of the thing it names, 204 (deleting
    what cannot exist, API.md), above it 404; a PUT creating a spec under it, 400 naming the slug; other
    writes 404, or 400 where the (empty) body is refused first."""
    last = operation.params[-1] == param
    if operation.method == "GET":
        return (404,)
    if operation.method == "DELETE":
        return (204,) if last else (404,)
    if operation.method == "PUT" and param == "specSlug":
        return (400,)
    return (400, 404)


def test_every_operation_answers_an_over_long_path_value_with_a_404(api, tmp_path, deliver_queued,
                                                                   git_settings):  # noqa: F811
    assert len(OPERATIONS) > 200
    world = build_world(api, tmp_path, deliver_queued)
    seen = snapshot(api, world)
    problems: list[Problem] = []
    for operation in sorted(OPERATIONS, key=order):
        for param in operation.params:
            for bad in OVER_LONG:
                path = world.fill(Operation(operation.method, operation.path.replace(f"{{{param}}}", bad)))
                body = None if operation.method in ("GET", "DELETE") else b"{}"
                status, answer = send(api, world, operation, Case(f"{param} over-long", path, body))
                wanted = over_long_answer(operation, param)
                issue = shape_problem(status, answer) if status != 204 else None
                if issue or status not in wanted:
                    problems.append((operation.method, operation.path, status,
                                     f"{param} of {len(bad)}: wanted {wanted}, {issue or answer[:120]!r}"))
    assert snapshot(api, world) == seen
    assert not problems, report(problems)


def query_parameters(operation: Operation) -> list[str]:
    spec = json.loads(SPEC.read_text())
    return [p["name"] for p in spec["paths"][operation.path][operation.method.lower()].get("parameters", [])
            if p["in"] == "query"]


def test_every_read_ignores_hostile_headers_and_cookies(api, tmp_path, deliver_queued,
                                                       git_settings):  # noqa: F811
    reads = [op for op in OPERATIONS if op.method == "GET"]
    assert len(reads) > 100
    world = build_world(api, tmp_path, deliver_queued)
    problems: list[Problem] = []
    for operation in reads:
        for name in query_parameters(operation):  # each query value longer than a key may be
            case = Case(f"{name} over-long", world.fill(operation), None)
            status, answer = send(api, world, operation, case, **{name: "q" * 3000})
            issue = shape_problem(status, answer)
            if issue:
                problems.append((operation.method, operation.path, status, f"{name} of 3,000: {issue}"))
        target = "/v1" + world.fill(operation) + "?" + urlencode(world.query(operation))
        token = {"Authorization": f"Bearer {world.alice.token}"}
        clean = api.gateway.dispatch("GET", target, token, None).status
        for headers in HOSTILE_HEADERS:
            try:
                status = api.gateway.dispatch("GET", target, {**token, **headers}, None).status
            except Exception as error:  # noqa: BLE001 - an unhandled error is what the corpus reports
                status = 500
                problems.append((operation.method, operation.path, status, repr(error)[:200]))
            if status != clean:
                problems.append((operation.method, operation.path, status,
                                 f"{', '.join(headers)}: {status}, {clean} without them"))
    assert not problems, report(problems)
