"""Where the runner keeps content bytes: one decision (local.engine.blob_store), every configuration."""

from __future__ import annotations

import pytest

from local.engine import BlobStore, Engine, EngineError, blob_store

MOTO = Engine("moto", "http://127.0.0.1:5000", "moto")
DYNAMODB_LOCAL = Engine("dynamodb-local", "http://127.0.0.1:8000", "DynamoDB Local")
ENDPOINT = Engine("endpoint", "http://127.0.0.1:8001", "DynamoDB at http://127.0.0.1:8001")


@pytest.fixture(autouse=True)
def unset(monkeypatch):
    monkeypatch.delenv("BINDERY_S3_ENDPOINT", raising=False)
    monkeypatch.delenv("BINDERY_BLOB_DIR", raising=False)


@pytest.mark.parametrize("runner_engine", [DYNAMODB_LOCAL, ENDPOINT])
def test_engines_without_s3_keep_bytes_in_the_data_dir(runner_engine, tmp_path):
    # Never AWS's S3, which boto3 would pick without an endpoint: the user did not ask for it.
    assert blob_store(runner_engine, tmp_path) == BlobStore(directory=tmp_path.resolve() / "blobs")


def test_moto_keeps_bytes_in_its_own_s3(tmp_path):
    assert blob_store(MOTO, tmp_path) == BlobStore(s3_endpoint=MOTO.endpoint)


@pytest.mark.parametrize("runner_engine", [MOTO, DYNAMODB_LOCAL, ENDPOINT])
def test_an_s3_endpoint_or_a_directory_given_wins(runner_engine, tmp_path, monkeypatch):
    monkeypatch.setenv("BINDERY_S3_ENDPOINT", "http://127.0.0.1:9000")
    assert blob_store(runner_engine, tmp_path) == BlobStore(s3_endpoint="http://127.0.0.1:9000")
    monkeypatch.delenv("BINDERY_S3_ENDPOINT")
    monkeypatch.setenv("BINDERY_BLOB_DIR", str(tmp_path / "elsewhere"))
    assert blob_store(runner_engine, tmp_path) == BlobStore(directory=tmp_path.resolve() / "elsewhere")


def test_both_an_s3_endpoint_and_a_directory_are_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("BINDERY_S3_ENDPOINT", "http://127.0.0.1:9000")
    monkeypatch.setenv("BINDERY_BLOB_DIR", str(tmp_path))
    with pytest.raises(EngineError, match="unset one of them"):
        blob_store(DYNAMODB_LOCAL, tmp_path)
