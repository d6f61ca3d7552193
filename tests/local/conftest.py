"""The runner's own process for the tests that start `make run` (tests/local/runner_process.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.local.runner_process import Runner


@pytest.fixture
def start_runner(tmp_path: Path) -> Iterator[Any]:
    runners: list[Runner] = []

    def start(**env: str) -> Runner:
        runners.append(Runner(tmp_path, env))
        return runners[-1]

    yield start
    for runner in runners:
        runner.kill_group()
