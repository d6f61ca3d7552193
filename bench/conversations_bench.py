"""Conversations, ingest to clustered: 10,000 support conversations ingested through the API (100 to a
request), each request's messages processed by the worker (extraction, incremental clustering) before
the next request, as an SQS-triggered worker keeps up with ingest; in process.

    python -m bench.conversations_bench [--conversations 10000] [--engine moto|dynamodb-local]

moto copies its whole table in every TransactWriteItems (to roll it back), so on moto each ingest and each
processing costs more as the table grows and the run slows down quadratically; DynamoDB Local (Java 17,
`--engine dynamodb-local`, the default) has no such cost and is the engine for the 10,000-conversation
figure. The request counts are the same on both, and are what predicts cost on AWS.

Baseline from the same run: one bare PutItem per conversation of an item as large as its stored
conversation (the least storing them can cost). Reported: seconds of ingesting and of processing,
conversations per second from ingest to clustered, the whole as a ratio to the baseline, the CPU time of
this process a conversation (ingest, processing, and a bare PutItem's: on a shared machine the ratio
means more than the wall time), the clusters made, and the DynamoDB requests of one ingest (a new
conversation), of one read (GET the conversation) and of one processing (a warm worker).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for _entry in (ROOT, ROOT / "layers" / "shared"):
    if str(_entry) not in sys.path:
        sys.path.insert(0, str(_entry))

from bench.environment import ENGINES, in_process_aws, queue_url, set_environment  # noqa: E402
from bindery.domain.conversations.processing import process  # noqa: E402
from bindery.platform import aws  # noqa: E402
from bindery.platform.aws import counting_requests  # noqa: E402
from bindery.platform.config import settings  # noqa: E402
from bindery.platform.messages import ConversationMessage  # noqa: E402
from tests.client import ApiClient, Identity  # noqa: E402

# Support problems, each said three ways (what users write differs; the problem is the same).
PROBLEMS = (
    ("I cannot log in to my account, the login page says my password is wrong.",
     "Login fails: after resetting my password I still cannot log in.",
     "The login keeps rejecting my password even after a reset."),
    ("The PDF export of my space fails with an error.",
     "Exporting to PDF gives me an error and no file.",
     "PDF export is broken, it fails every time I try."),
    ("The search returns no results for pages that exist.",
     "Search does not find my pages, I get no results.",
     "Why does search show nothing when the page is there?"),
    ("Git Sync fails to import my repository with an authentication error.",
     "The GitHub sync import fails, it says authentication failed.",
     "Syncing with GitHub fails with an auth error on import."),
    ("My custom domain shows a certificate error.",
     "The SSL certificate for our custom domain is invalid.",
     "Our custom domain fails with an SSL error in the browser."),
    ("How do I invite a new member to my organization?",
     "I cannot find how to invite members to the team.",
     "Inviting a colleague does not work, the invite never arrives."),
    ("Images I upload do not appear on the page.",
     "Uploaded images are broken and show nothing.",
     "The image upload fails and the picture is missing."),
    ("The billing page charges me twice this month.",
     "I was billed twice for the same subscription.",
     "Why is there a double charge on my invoice?"),
)


def _conversation(number: int) -> dict[str, Any]:
    problem = PROBLEMS[number % len(PROBLEMS)]
    text = problem[(number // len(PROBLEMS)) % len(problem)]
    return {"id": f"ticket-{number}", "subject": text.split(",")[0][:80],
            "parts": [{"type": "message", "role": "user",
                       "body": f"Hello, {text} Thanks, customer {number}."},
                      {"type": "message", "role": "team-member", "body": "Thanks, we are looking into it."}]}


def _baseline(count: int) -> tuple[float, float]:
    """Wall seconds and this process's CPU seconds of `count` bare PutItems."""
    table = aws.dynamodb_table()
    started, cpu = time.perf_counter(), time.process_time()
    for number in range(count):
        body = json.dumps(_conversation(number))
        table.put_item(Item={"PK": f"BENCH#{number}", "SK": "BENCH", "body": body})
    return time.perf_counter() - started, time.process_time() - cpu


def _drain(queue_url: str) -> int:
    sqs, handled = aws.sqs_client(), 0
    while True:
        messages = sqs.receive_message(QueueUrl=queue_url, MaxNumberOfMessages=10).get("Messages", [])
        if not messages:
            return handled
        for message in messages:
            process(ConversationMessage.model_validate_json(message["Body"]))
            handled += 1
        sqs.delete_message_batch(QueueUrl=queue_url, Entries=[
            {"Id": str(n), "ReceiptHandle": m["ReceiptHandle"]} for n, m in enumerate(messages)])


def _ingest(api: ApiClient, who: Identity, body: Any) -> None:
    reply = api.post(f"/orgs/{who.org_id}/conversations", token=who.token, body=body)
    if reply.status != 204:
        raise RuntimeError(f"ingest failed: {reply.status} {reply.body!r}")


def run(api: ApiClient, conversations: int) -> dict[str, Any]:
    queue_url = settings().conversations_queue_url
    who = api.org_admin("Bench", "Bench conversations")
    baseline, baseline_cpu = _baseline(conversations)
    ingest_seconds = process_seconds = ingest_cpu = process_cpu = 0.0
    processed = 0
    for start in range(0, conversations, 100):
        began, began_cpu = time.perf_counter(), time.process_time()
        _ingest(api, who, [_conversation(n) for n in range(start, min(start + 100, conversations))])
        ingested, ingested_cpu = time.perf_counter(), time.process_time()
        # The worker keeps up with ingest, as SQS-triggered workers do: its queue never holds more than
        # one request's messages. (Draining 10,000 queued messages at the end would measure moto instead:
        # its ReceiveMessage looks at every message in the queue.)
        processed += _drain(queue_url)
        ingest_seconds += ingested - began
        process_seconds += time.perf_counter() - ingested
        ingest_cpu += ingested_cpu - began_cpu
        process_cpu += time.process_time() - ingested_cpu
    # One more conversation, alone: the requests of its ingest, of reading it and of processing it.
    with counting_requests() as ingest_requests:
        _ingest(api, who, _conversation(conversations))
    (message,) = aws.sqs_client().receive_message(QueueUrl=queue_url).get("Messages", [])
    with counting_requests() as process_requests:
        process(ConversationMessage.model_validate_json(message["Body"]))
    listed = api.get(f"/orgs/{who.org_id}/conversations", token=who.token, query={"limit": 1}).json()
    with counting_requests() as read_requests:
        api.get(f"/orgs/{who.org_id}/conversations/{listed['items'][0]['id']}", token=who.token)
    clusters = api.get(f"/orgs/{who.org_id}/conversations-clusters", token=who.token).json()
    total = ingest_seconds + process_seconds
    return {"conversations": conversations, "processed": processed, "clusters": clusters["count"],
            "ingest_seconds": ingest_seconds, "process_seconds": process_seconds,
            "per_second": conversations / total if total else 0.0,
            "ratio": total / baseline if baseline else 0.0,
            # CPU of this process only (the API, the worker, the AWS clients; not DynamoDB Local's JVM):
            # what the machine's other load does not inflate as it inflates wall time.
            "ingest_cpu_ms": 1000 * ingest_cpu / conversations,
            "process_cpu_ms": 1000 * process_cpu / conversations,
            "baseline_cpu_ms": 1000 * baseline_cpu / conversations, "ingest_requests": dict(ingest_requests),
            "read_requests": dict(read_requests), "process_requests": dict(process_requests)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.conversations_bench",
                                     description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--conversations", type=int, default=10_000)
    parser.add_argument("--engine", choices=ENGINES, default="dynamodb-local")
    args = parser.parse_args(argv)
    set_environment()
    with in_process_aws(args.engine):
        queue_url("BINDERY_CONVERSATIONS_QUEUE_URL", "bench-conversations")
        result = run(ApiClient(), args.conversations)
    print(f"engine: {args.engine}")
    print(f"{result['conversations']} conversations → {result['clusters']} clusters: "
          f"ingest {result['ingest_seconds']:.1f} s, processing {result['process_seconds']:.1f} s, "
          f"{result['per_second']:.1f} conversations/s, x{result['ratio']:.1f} the baseline (bare PutItems)")
    print(f"CPU of this process a conversation: ingest {result['ingest_cpu_ms']:.1f} ms, processing "
          f"{result['process_cpu_ms']:.1f} ms; a bare PutItem {result['baseline_cpu_ms']:.2f} ms "
          f"(processing x{result['process_cpu_ms'] / max(result['baseline_cpu_ms'], 1e-9):.0f})")
    for label in ("ingest", "read", "process"):
        print(f"{label:8} one conversation: DynamoDB {result[label + '_requests']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
