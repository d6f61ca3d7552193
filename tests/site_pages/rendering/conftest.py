"""The document renderer is a pure function: no table for these tests (overrides the suite's autouse one)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def table() -> None:
    """No DynamoDB table for these tests."""
