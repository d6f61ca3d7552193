"""Concurrency tests run against DynamoDB Local only (tests/conftest.py deselects them on moto)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def blob_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bytes go to files (store.objects' local store), not to moto's in-process S3, which is not
    thread-safe: the race is DynamoDB's to decide, nothing else shares state between the threads."""
    monkeypatch.setenv("BINDERY_BLOB_DIR", str(tmp_path / "blobs"))
