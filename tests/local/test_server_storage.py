"""`make run` in each storage configuration docs/local-runner.md documents, shown by what breaks first
when the bytes go to the wrong place: a Git import (the worker stores the repository's files) and the
download of an imported file through its `downloadURL`.

External engines are moto's server on loopback ports of this process, speaking the real HTTP protocols
(DynamoDB's JSON, S3's REST with presigned URLs) as DynamoDB Local, LocalStack or MinIO would. Those
servers share moto's state with each other (and this process), so each test names its own table and
bucket, as users sharing one DynamoDB Local would."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable, Iterator
from urllib.parse import parse_qs, urlsplit

import pytest
from moto.server import ThreadedMotoServer

from tests.local.runner_process import LOGO, STORAGE, download, import_repository


@pytest.fixture
def start_server() -> Iterator[Callable[[], str]]:
    """moto's server on a free loopback port, as a stand-in for an engine the user runs; its endpoint."""
    servers: list[ThreadedMotoServer] = []

    def start() -> str:
        server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
        server.start()  # listening once this returns
        servers.append(server)
        host, port = server.get_host_and_port()
        return f"http://{host}:{port}"

    yield start
    for server in servers:
        server.stop()


def _logo(files: list[dict[str, object]]) -> str:
    assert [(f["name"], f["size"]) for f in files] == [("logo.png", len(LOGO))]
    return str(files[0]["downloadURL"])


def _s3_download(url: str) -> bytes:
    """The bytes of a presigned GET, which asks S3 for the file's type (moto's server ignores that
    request and answers binary/octet-stream; S3 and MinIO honour it)."""
    assert parse_qs(urlsplit(url).query)["response-content-type"] == ["image/png"]
    return download(url)[1]


def test_an_external_dynamodb_endpoint_keeps_bytes_on_disk(start_runner, start_server, tmp_path):
    dynamodb = start_server()
    server = start_runner(BINDERY_DYNAMODB_ENDPOINT=dynamodb, BINDERY_TABLE=f"t-{uuid.uuid4().hex}",
                          BINDERY_BOOTSTRAP_TOKEN="known", BINDERY_QUIET="1")
    blobs = tmp_path / "data" / "blobs"
    assert STORAGE.search(server.text()).group(1) == dynamodb
    assert f"Blobs: files in {blobs}" in server.output

    space_id, files = import_repository(server, "known", tmp_path / "docs.git")
    url = _logo(files)
    assert url.startswith(f"http://127.0.0.1:{server.port}/_local/blobs/spaces/{space_id}/files/")
    assert download(url) == ("image/png", LOGO)
    stored = blobs / "spaces" / space_id / "files" / hashlib.sha256(LOGO).hexdigest()
    assert stored.read_bytes() == LOGO


def test_an_s3_endpoint_holds_the_bytes(start_runner, start_server, tmp_path):
    dynamodb, s3 = start_server(), start_server()
    bucket = f"b-{uuid.uuid4().hex}"
    server = start_runner(BINDERY_DYNAMODB_ENDPOINT=dynamodb, BINDERY_TABLE=f"t-{uuid.uuid4().hex}",
                          BINDERY_S3_ENDPOINT=s3, BINDERY_BUCKET=bucket, BINDERY_BOOTSTRAP_TOKEN="known",
                          BINDERY_QUIET="1")
    assert f"Blobs: bucket {bucket!r} (created), S3 at {s3}" in server.output

    space_id, files = import_repository(server, "known", tmp_path / "docs.git")
    url = _logo(files)
    parts = urlsplit(url)
    # A presigned GET of the S3 endpoint (path-style: the bucket is not a host name there).
    assert f"{parts.scheme}://{parts.netloc}" == s3
    assert parts.path == f"/{bucket}/spaces/{space_id}/files/{hashlib.sha256(LOGO).hexdigest()}"
    assert _s3_download(url) == LOGO
    assert not (tmp_path / "data" / "blobs").exists()


def test_the_moto_engine_serves_s3_too(start_runner, tmp_path):
    server = start_runner(BINDERY_ENGINE="moto", BINDERY_BOOTSTRAP_TOKEN="known", BINDERY_QUIET="1")
    engine = STORAGE.search(server.text()).group(1)
    assert f"Blobs: bucket 'bindery-blobs' (created), S3 at {engine}" in server.output

    _, files = import_repository(server, "known", tmp_path / "docs.git")
    url = _logo(files)
    assert url.startswith(f"{engine}/bindery-blobs/spaces/")
    assert _s3_download(url) == LOGO
    assert not (tmp_path / "data" / "blobs").exists()
