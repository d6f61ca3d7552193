"""Real threads started together: each one a caller in its own execution environment.

A Lambda environment runs one request at a time, so in production concurrency is across environments,
each with its own boto3 handles; `bindery.platform.aws` gives each thread its own DynamoDB resource, so a
thread here is one such environment. The threads meet at a `threading.Barrier` (synchronisation, not a sleep)
after making their handles, then all call at once; DynamoDB Local decides who wins.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bindery.platform import aws
from bindery.platform.errors import BinderyError

JOIN_SECONDS = 300  # a bound for a hung thread to fail the test, never a wait for an outcome


@dataclass
class Outcome:
    """What one caller got: its return value, or the error it raised."""

    value: Any = None
    error: BaseException | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def status(self) -> int:
        """The HTTP status the API would answer (200 for a value; errors map as bindery.api.http does)."""
        if self.error is None:
            return 200
        assert isinstance(self.error, BinderyError), repr(self.error)  # anything else would be a 500
        return self.error.status


def race(*calls: Callable[[], Any]) -> list[Outcome]:
    """Run every call in its own thread, all released at once; their outcomes, in the calls' order."""
    barrier = threading.Barrier(len(calls))
    outcomes = [Outcome() for _ in calls]

    def run(outcome: Outcome, call: Callable[[], Any]) -> None:
        try:
            aws.dynamodb_table()  # this thread's resource, made before the start
        except BaseException:
            barrier.abort()  # the others must not wait for a thread that will never come
            raise
        barrier.wait()
        try:
            outcome.value = call()
        except BaseException as error:  # noqa: BLE001 - the test reads it
            outcome.error = error

    threads = [threading.Thread(target=run, args=(outcome, call)) for outcome, call in zip(outcomes, calls,
                                                                                        strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(JOIN_SECONDS)
    assert not any(thread.is_alive() for thread in threads), "a racing call never returned"
    return outcomes
