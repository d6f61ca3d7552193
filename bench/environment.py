"""The environment every in-process benchmark runs in, set up in one place: fake credentials and the
bench's own table and bucket names (never a real account, never a real table), moto for AWS, or DynamoDB
Local for the table with moto's S3 and SQS beside it, and the table created from template.yaml as the
runner and the tests create theirs (local.engine.create_table).

    set_environment()                # before anything reads bindery.platform.config.settings
    with in_process_aws():           # or in_process_aws("dynamodb-local")
        queue_url("BINDERY_CONVERSATIONS_QUEUE_URL", "bench-conversations")  # when the bench sends
        ...
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from bindery.platform import aws
from bindery.platform.config import settings
from local import engine as engines

ENGINES = ("moto", "dynamodb-local")
TABLE, BUCKET = "bindery-bench", "bindery-bench-blobs"

_FIXED = {"AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench", "AWS_SESSION_TOKEN": "bench",
          "AWS_DEFAULT_REGION": "us-east-1", "AWS_REGION": "us-east-1",
          "BINDERY_TABLE": TABLE, "BINDERY_BUCKET": BUCKET}
# Defaults a caller may override from the shell (POWERTOOLS_METRICS_DISABLED=false shows the EMF lines).
_DEFAULTS = {"BINDERY_CURSOR_SECRET": "bench-cursor-secret-0123456789abcdef",
             "POWERTOOLS_SERVICE_NAME": "bindery-bench", "POWERTOOLS_LOG_LEVEL": "CRITICAL",
             # The timings include the handlers' logs/trace/metrics wrapper, not EMF lines on stdout.
             "POWERTOOLS_METRICS_DISABLED": "true", "POWERTOOLS_TRACE_DISABLED": "true"}
# What would send the bench's requests elsewhere: a profile, other endpoints, a shifted clock, bytes on
# disk instead of (moto's) S3.
_CLEARED = ("AWS_PROFILE", "BINDERY_DYNAMODB_ENDPOINT", "BINDERY_S3_ENDPOINT", "BINDERY_BLOB_DIR",
            "BINDERY_CLOCK_OFFSET_SECONDS")


def set_environment(**extra: str) -> None:
    """The bench's environment variables, then `extra` (a bench's own settings). Queue URLs are cleared
    too: a bench sends messages only to the queues it creates (`queue_url`)."""
    os.environ.update(_FIXED)
    for name, value in _DEFAULTS.items():
        os.environ.setdefault(name, value)
    for name in [*_CLEARED, *(name for name in os.environ
                              if name.startswith("BINDERY_") and name.endswith("_QUEUE_URL"))]:
        os.environ.pop(name, None)
    os.environ.update(extra)
    settings.cache_clear()


@contextmanager
def in_process_aws(engine: str = "moto") -> Iterator[None]:
    """AWS in this process for the duration: the table (moto's, or a DynamoDB Local started for the run
    and stopped after it) and the blob bucket created, fresh boto3 clients in and out."""
    from moto import mock_aws

    from local import dynamodb_local

    server = dynamodb_local.start() if engine == "dynamodb-local" else None
    config: Any = None
    if server is not None:
        os.environ["BINDERY_DYNAMODB_ENDPOINT"] = server.endpoint
        config = server.moto_beside()
    try:
        with mock_aws(config=config):
            aws.reset()
            settings.cache_clear()
            try:
                engines.create_table(settings().table_name, poll_seconds=0.05 if server is None else 0.2)
                aws.s3_client().create_bucket(Bucket=settings().blob_bucket)
                yield
            finally:
                aws.reset()
                settings.cache_clear()
    finally:
        if server is not None:
            server.stop()
            os.environ.pop("BINDERY_DYNAMODB_ENDPOINT", None)


def queue_url(variable: str, name: str) -> str:
    """A queue on moto's SQS, its URL in the environment variable the template sets for it (what the
    functions send to), settings re-read."""
    url: str = aws.sqs_client().create_queue(QueueName=name)["QueueUrl"]
    os.environ[variable] = url
    settings.cache_clear()
    return url
