"""What the Lambda runtime gives a function, for the runner and the tests that invoke functions in
process: its handler, imported as Lambda imports it, and the context object passed beside the event."""

from __future__ import annotations

import importlib
import sys
import uuid
from collections.abc import Callable
from typing import Any

from local.template import Function

Handler = Callable[[dict[str, Any], Any], Any]


def load_handler(function: Function) -> Handler:
    """The function's handler, imported as Lambda would (its code directory on the path)."""
    if str(function.code_uri) not in sys.path:
        sys.path.insert(0, str(function.code_uri))
    module_name, _, attr = function.handler.rpartition(".")
    handler: Handler = getattr(importlib.import_module(module_name), attr)
    return handler


class LambdaContext:
    """The LambdaContext attributes Powertools reads, for an API function: time left as API Gateway's
    29-second integration timeout allows."""

    memory_limit_in_mb = 512
    remaining_millis = 29_000

    def __init__(self, name: str) -> None:
        self.function_name = name
        self.function_version = "$LATEST"
        self.invoked_function_arn = f"arn:aws:lambda:us-east-1:000000000000:function:{name}"
        self.aws_request_id = str(uuid.uuid4())
        self.log_group_name = f"/aws/lambda/{name}"
        self.log_stream_name = "local"

    def get_remaining_time_in_millis(self) -> int:
        return self.remaining_millis


class WorkerContext(LambdaContext):
    """The same for a worker (SQS or stream records): more memory, and minutes rather than seconds."""

    memory_limit_in_mb = 1024
    remaining_millis = 600_000
