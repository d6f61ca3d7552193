"""The content tests are pure functions: they need no table (this overrides the suite's autouse one)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def table() -> None:
    """No DynamoDB table for these tests."""
