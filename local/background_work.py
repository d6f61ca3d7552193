"""The runner's background work: the template's SQS queues with a delivery thread per event source (Git
Sync, search indexing, OpenAPI processing, translations, integration events, conversations), and DynamoDB's
TTL process with the table stream's deliveries (the deleted-space purge)."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from local import engine as engines

WORKER_CPU_FILE = "BINDERY_BENCH_WORKER_CPU"  # set by bench.load only


def start(engine: engines.Engine, dispatch_lock: threading.Lock) -> Callable[[], None]:
    """The template's queues on moto's SQS (the engine's own when it is moto), their URLs in the
    environment, and a delivery thread per SQS event source, then the TTL sweeper; the function that
    stops them. Deliveries and the sweeper take `dispatch_lock` around each invocation (they run in this
    process, beside requests that may run there too)."""
    from bindery.platform import aws
    from local import queue_delivery, ttl_stream

    stop_server: Callable[[], None] = lambda: None  # noqa: E731
    if not os.environ.get("BINDERY_SQS_ENDPOINT"):
        if engine.kind == "moto":
            os.environ["BINDERY_SQS_ENDPOINT"] = engine.endpoint
        else:
            try:
                os.environ["BINDERY_SQS_ENDPOINT"], stop_server = queue_delivery.start_sqs_server()
            except ImportError as error:
                print(f"WARNING: no background work (Git Sync, search indexing): moto's server is needed "
                      f"for in-process SQS: {error}", file=sys.stderr)
                return stop_server
    aws.reset()
    # bench.load names a file where the deliveries keep their workers' CPU (the runner's process also
    # runs the SQS emulation: only the workers' share is what a deployed stack would run).
    usage = os.environ.get(WORKER_CPU_FILE)
    environment, deliveries = queue_delivery.start_local(aws.sqs_client(), dispatch_lock,
                                                         usage_file=Path(usage) if usage else None)
    os.environ.update(environment)
    aws.reset()
    deliveries.start()
    workers = ", ".join(sorted({delivery.source.function for delivery in deliveries.wired}))
    print(f"Background work: SQS at {os.environ['BINDERY_SQS_ENDPOINT']}, delivered in process to {workers}")
    backend = os.environ.get("BINDERY_TRANSLATION_BACKEND")
    where = os.environ.get("BINDERY_TRANSLATION_URL") or "(no URL)"
    print(f"Translation runs: {backend} at {where}" if backend
          else "Translation runs: no backend (set BINDERY_TRANSLATION_BACKEND and BINDERY_TRANSLATION_URL; "
               "docs/translations.md): runs fail with BACKEND_NOT_CONFIGURED")
    # Neither moto nor DynamoDB Local expires items or has streams: the runner plays DynamoDB's TTL
    # process and delivers its REMOVE records to the stream's functions (the deleted-space purge).
    sweeper = ttl_stream.Sweeper(dispatch_lock)
    sweeper.start()
    print(f"TTL: expired items removed every {ttl_stream.SWEEP_SECONDS} s, stream delivered in process")

    def stop() -> None:
        sweeper.stop()
        deliveries.stop()
        stop_server()

    return stop
