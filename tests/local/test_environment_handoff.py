"""local.environments hands idle environments to waiting requests in arrival order, so that under load
no request is overtaken again and again by newer ones (the tail latency of `bench.load`)."""

from __future__ import annotations

import threading
from typing import Any

from local.environments import _Handoff


def test_an_idle_environment_is_taken_at_once():
    handoff = _Handoff()
    handoff.give("env-1")  # type: ignore[arg-type]
    assert handoff.take() == "env-1"


def test_released_environments_go_to_the_oldest_waiter_first():
    handoff = _Handoff()
    got: dict[str, Any] = {}
    threads = []
    for name in ("first", "second", "third"):
        thread = threading.Thread(target=lambda n=name: got.__setitem__(n, handoff.take()))
        thread.start()
        threads.append(thread)
        # The next request arrives only once this one waits (its place in line is then taken).
        while len(handoff._waiters) < len(threads):
            pass
    for env in ("env-a", "env-b", "env-c"):
        handoff.give(env)  # type: ignore[arg-type]
    for thread in threads:
        thread.join(timeout=10)
    assert got == {"first": "env-a", "second": "env-b", "third": "env-c"}


def test_a_newcomer_does_not_overtake_a_waiter():
    handoff = _Handoff()
    got: list[Any] = []
    waiter = threading.Thread(target=lambda: got.append(handoff.take()))
    waiter.start()
    while not handoff._waiters:
        pass
    handoff.give("env-a")  # type: ignore[arg-type]
    handoff.give("env-b")  # type: ignore[arg-type]
    assert handoff.take() == "env-b"  # the newcomer gets what is left, not the waiter's environment
    waiter.join(timeout=10)
    assert got == ["env-a"]
