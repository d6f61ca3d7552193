"""SnapStart hooks (bindery.platform.snapstart): registered with the runtime once per process when it offers
them; clients exist before the snapshot and every restored environment makes its own."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap
import types
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bindery.platform import aws, snapstart
from local.lambda_runtime import load_handler
from local.template import load

ROOT = Path(__file__).resolve().parent.parent


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


def test_before_the_snapshot_every_route_validation_and_deferred_model_is_built():
    """Response models and request bodies defer their build, Powertools builds a route's validation and
    Bindery settles its annotations on its first request: under SnapStart the ContentFunction builds all
    of them before the snapshot, not after each restore. In a new interpreter: models are built once per
    process."""
    function = load().functions["ContentFunction"]
    script = textwrap.dedent("""
        import json, sys, types
        hooks = []
        runtime = types.ModuleType("snapshot_restore_py")
        runtime.register_before_snapshot, runtime.register_after_restore = hooks.append, lambda hook: None
        sys.modules["snapshot_restore_py"] = runtime
        from content_api.app import app
        from bindery.api import snapshot
        from bindery.api.responses.content import RevisionPage

        def routes():
            return (*app._static_routes, *app._dynamic_routes)

        def state():
            return {"models": len(list(snapshot.deferred_models())),
                    "page": RevisionPage.__pydantic_complete__,
                    "unbuilt routes": sum(route._dependant is None for route in routes()),
                    "unsettled routes": sum(any(isinstance(hint, str)
                                                for hint in route.func.__annotations__.values())
                                            for route in routes()),
                    "git routes": any(route.path.endswith("/git/runs") for route in routes())}

        before = state()
        for hook in hooks:
            hook()
        print(json.dumps({"before": before, "after": state()}))
    """)
    paths = os.pathsep.join([str(ROOT / "layers" / "shared"), str(function.code_uri)])
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": paths, "AWS_DEFAULT_REGION": "us-east-1"})
    states = json.loads(done.stdout)
    before = states["before"]  # what a cold start without SnapStart leaves to first requests
    assert before["models"] > 0
    assert before["unbuilt routes"] > 0
    assert before["unsettled routes"] > 0  # annotations still strings (bindery.api.route_signatures)
    assert not before["page"]
    assert not before["git routes"]
    assert states["after"] == {"models": 0, "page": True, "unbuilt routes": 0, "unsettled routes": 0,
                               "git routes": True}


def test_retry_jitter_differs_between_environments_restored_from_one_snapshot():
    """Restored environments share the snapshot's `random` state; the jitter of a conflicted write must
    not, or every restored copy would retry in lockstep."""
    conflict = ({}, {"Error": {"Code": "TransactionConflictException"}})
    delays = set()
    for _ in range(3):
        random.seed(1234)  # the state each restored copy starts from
        delays.add(aws._retry_item_conflict(2, conflict))
    assert len(delays) == 3


# Every function with routes is a Resolver (bindery.api.http) but the published site's, which serves
# pages itself.
RESOLVER_FUNCTIONS = sorted(name for name, function in load().functions.items()
                            if function.routes and name != "PublishedSiteFunction")


@pytest.mark.parametrize("function_name", RESOLVER_FUNCTIONS)
def test_every_api_function_builds_all_it_defers_before_the_snapshot(function_name):
    """A model that could not be built, or a route whose validation could not, would fail the version's
    init under SnapStart (the hook runs in it): each API function builds everything, in a new interpreter."""
    function = load().functions[function_name]
    script = textwrap.dedent(f"""
        from {function.handler.rpartition(".")[0]} import app
        from bindery.api import snapshot
        app.build_for_snapshot()
        print(len(list(snapshot.deferred_models())))
    """)
    paths = os.pathsep.join([str(ROOT / "layers" / "shared"), str(function.code_uri)])
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": paths, "AWS_DEFAULT_REGION": "us-east-1"})
    assert done.stdout.strip() == "0"
