"""SnapStart hooks (bindery.platform.snapstart): registered with the runtime once per process when it offers
them; clients exist before the snapshot and every restored environment makes its own."""

from __future__ import annotations

import random
import sys
import types
from collections.abc import Callable, Iterator

import pytest

from bindery.platform import aws, snapstart
from local.lambda_runtime import load_handler
from local.template import load


@pytest.fixture
def runtime(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, list[Callable[[], None]]]]:
    """The module the Python SnapStart runtime provides, recording what is registered."""
    hooks: dict[str, list[Callable[[], None]]] = {"before": [], "after": []}
    module = types.ModuleType("snapshot_restore_py")
    module.register_before_snapshot = hooks["before"].append  # type: ignore[attr-defined]
    module.register_after_restore = hooks["after"].append  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "snapshot_restore_py", module)
    snapstart._runtime_hooks.cache_clear()
    yield hooks
    snapstart._runtime_hooks.cache_clear()


def test_without_the_runtime_nothing_is_registered(monkeypatch):
    monkeypatch.setitem(sys.modules, "snapshot_restore_py", None)  # import fails, as off Lambda
    snapstart._runtime_hooks.cache_clear()
    assert snapstart.register() is False
    snapstart._runtime_hooks.cache_clear()


def test_hooks_are_registered_once_and_restored_environments_make_new_clients(runtime):
    assert snapstart.register() is True
    assert snapstart.register() is True
    assert runtime == {"before": [snapstart.before_snapshot], "after": [snapstart.after_restore]}

    aws.reset()
    runtime["before"][0]()
    assert aws.made() == {"dynamodb", "s3", "sqs"}
    before = aws.dynamodb_table()
    runtime["after"][0]()
    assert aws.made() == set()
    assert aws.dynamodb_table() is not before


def test_every_function_handler_registers_the_hooks(runtime):
    from bindery.platform import observability

    observability.observed("test", lambda event, context, invocation: None)
    assert runtime["after"] == [snapstart.after_restore]


def test_before_the_snapshot_a_handler_builds_its_tracer_and_includes_its_deferred_routes(runtime):
    """What a handler leaves to its first invocations where there is no snapshot is done before the
    snapshot where there is one, so that restored environments do not pay for it after restore."""
    from bindery.api.http import api_handler, create_app
    from bindery.platform import observability

    load_handler(load().functions["ContentFunction"])  # content_api on sys.path
    app = create_app("snapstart-test")
    app.include_later("content_api.routes.git")
    api_handler(app)

    for hook in runtime["before"]:
        hook()

    hits = observability.tracer.cache_info().hits
    observability.tracer("snapstart-test")  # what the first invocation asks for: built already
    assert observability.tracer.cache_info().hits == hits + 1
    assert "/spaces/<spaceId>/git/runs" in {route.path for route in app._dynamic_routes}
    assert app.include_deferred() is False  # nothing left for a first request to import


def test_retry_jitter_differs_between_environments_restored_from_one_snapshot():
    """Restored environments share the snapshot's `random` state; the jitter of a conflicted write must
    not, or every restored copy would retry in lockstep."""
    conflict = ({}, {"Error": {"Code": "TransactionConflictException"}})
    delays = set()
    for _ in range(3):
        random.seed(1234)  # the state each restored copy starts from
        delays.add(aws._retry_item_conflict(2, conflict))
    assert len(delays) == 3
