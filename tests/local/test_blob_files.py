"""Without S3 (the runner on DynamoDB Local) file URLs point at the runner, which serves the bytes."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from bindery.platform.config import settings
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


@pytest.mark.parametrize(("content_type", "served"), [
    ("text/html", "text/html"), ("image/svg+xml", "image/svg+xml"),
    ("application/xhtml+xml", "application/xhtml+xml"), ("text/javascript", "text/javascript"),
    ("", "application/octet-stream"), ("nonsense", "application/octet-stream"),
    ("text/html\r\nX-Injected: 1", "application/octet-stream"),
    ("image/png\r\nSet-Cookie: a=b", "application/octet-stream"),
])
def test_a_type_a_browser_would_run_or_a_header_break_is_served_as_a_download(blob_dir, content_type, served):
    # An attachment is never opened as a document, whatever its type; a page's <img> of an SVG still
    # needs the SVG type, so a plain type is kept and only a malformed one becomes octet-stream.
    digest = blobs.put_file("s1", b"<script>alert(1)</script>")
    url = blobs.file_url("s1", digest, name="page.html\r\nX-Injected: 1", content_type=content_type)
    parts = urlsplit(url)
    reply = blob_files.serve("GET", f"{parts.path}?{parts.query}")
    assert reply.status == 200
    assert reply.headers["Content-Type"] == served
    assert reply.headers["Content-Disposition"].startswith("attachment; filename*=UTF-8''")
    assert reply.headers["X-Content-Type-Options"] == "nosniff"
    assert all("\r" not in value and "\n" not in value for value in reply.headers.values())
    assert "X-Injected" not in reply.headers


def test_a_hand_made_query_cannot_split_the_response(blob_dir):
    digest = blobs.put_file("s1", b"bytes")
    path = urlsplit(blobs.file_url("s1", digest, name="a.png", content_type="image/png")).path
    reply = blob_files.serve("GET", f"{path}?type=text/html%0d%0aX-Injected:%201&name=x%0d%0aY:%202")
    assert reply.headers["Content-Type"] == "application/octet-stream"
    assert all("\r" not in value and "\n" not in value for value in reply.headers.values())
    assert set(reply.headers) == {"Content-Type", "Content-Disposition", "X-Content-Type-Options"}


def test_images_pdfs_and_media_stay_inline(blob_dir):
    digest = blobs.put_file("s1", b"\x89PNG")
    for content_type in ("image/png", "IMAGE/JPEG", "application/pdf", "video/mp4", "text/plain"):
        url = blobs.file_url("s1", digest, name="x", content_type=content_type)
        parts = urlsplit(url)
        reply = blob_files.serve("GET", f"{parts.path}?{parts.query}")
        assert reply.headers["Content-Type"] == content_type.lower()
        assert reply.headers["Content-Disposition"].startswith("inline;")


def test_s3_presigned_urls_follow_the_same_rule():
    settings.cache_clear()
    html = parse_qs(urlsplit(blobs.file_url("s1", "d1", name="a.html", content_type="text/html")).query)
    assert html["response-content-type"] == ["text/html"]
    assert html["response-content-disposition"] == ["attachment; filename*=UTF-8''a.html"]
    png = parse_qs(urlsplit(blobs.file_url("s1", "d1", name="a.png", content_type="image/png")).query)
    assert png["response-content-type"] == ["image/png"]
    assert png["response-content-disposition"] == ["inline; filename*=UTF-8''a.png"]
