"""Without S3 (the runner on DynamoDB Local) file URLs point at the runner, which serves the bytes."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from bindery.config import settings
from bindery.store import blobs, objects
from local import blob_files


@pytest.fixture
def blob_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("BINDERY_BLOB_DIR", str(tmp_path))
    monkeypatch.setenv("BINDERY_PUBLIC_URL", "http://127.0.0.1:3000/v1")
    settings.cache_clear()
    yield tmp_path
    settings.cache_clear()


def test_file_urls_are_served_by_the_runner_with_their_type_and_name(blob_dir):
    digest = blobs.put_file("s1", b"%PDF-1.4 bytes")
    url = blobs.file_url("s1", digest, name="Change request #1.pdf", content_type="application/pdf")
    parts = urlsplit(url)
    assert (parts.scheme, parts.netloc) == ("http", "127.0.0.1:3000")
    reply = blob_files.serve("GET", f"{parts.path}?{parts.query}")
    assert reply.status == 200
    assert reply.body == b"%PDF-1.4 bytes"
    assert reply.headers["Content-Type"] == "application/pdf"
    assert "Change%20request%20%231.pdf" in reply.headers["Content-Disposition"]


def test_nothing_outside_the_blob_directory_is_served(blob_dir):
    (blob_dir.parent / "secret.txt").write_text("no")
    assert blob_files.serve("GET", f"{objects.LOCAL_BLOB_PATH}../secret.txt").status == 404
    assert blob_files.serve("GET", f"{objects.LOCAL_BLOB_PATH}%2E%2E/secret.txt").status == 404
    assert blob_files.serve("GET", f"{objects.LOCAL_BLOB_PATH}spaces/s1/files/nope").status == 404
    assert blob_files.serve("PUT", f"{objects.LOCAL_BLOB_PATH}x").status == 405
