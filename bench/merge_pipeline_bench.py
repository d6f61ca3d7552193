"""A merge of a one-page change request into a 5,000-page space and all the work it queues, in CPU time,
against the floor of the same stack measured in the same run (moto, in process; or DynamoDB Local).

    python -m bench.merge_pipeline_bench [--repeat 5] [--engine moto] [--pages 5000]

(`--pages 100`: the space of bench.load's merges, one group of 100 pages.)

Each round: a change request editing one page (title and body) is opened and edited through the API
(untimed), then merged through the API (`POST …/merge`, in-process gateway, authorizer, route, domain),
then every queued message is delivered to its worker as Lambda's event source mapping would
(local.queue_delivery: the search indexer, integration events, anything else queued). Reported: the
median `time.process_time()` of each phase, and the DynamoDB / S3 / SQS requests each made.

The floor: a bare handler making, through the same boto3 clients, the requests the operation's access
pattern needs and nothing else: for the merge, GetItem of the space, of the change request and of the
caller's role, the tree blobs of the base, the space and the change request, one BatchWriteItem of the
new tree, one PutItem of the revision, the merge's TransactWriteItems and one SendMessage; for the
indexing, GetItem of the revision, the index pointers and the tree, one BatchGetItem of the edited
page's old and new bodies, one S3 GET and one PUT of the index file (at its real size), two PutItems of
the pointers and one BatchWriteItem of the link report. CPU time includes moto's (or the engine's
client side), so bench and floor pay alike for the engine.
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for _entry in (ROOT, ROOT / "layers" / "shared"):
    if str(_entry) not in sys.path:
        sys.path.insert(0, str(_entry))

from bench.content import commit_handbook  # noqa: E402
from bench.environment import ENGINES, in_process_aws, set_environment  # noqa: E402
from bindery import keys  # noqa: E402
from bindery.keys import change_requests as cr_keys  # noqa: E402
from bindery.keys import search as search_keys  # noqa: E402
from bindery.platform import aws  # noqa: E402
from bindery.platform.aws import counting_requests, dynamodb_table  # noqa: E402
from bindery.platform.config import settings  # noqa: E402
from bindery.store import search as search_store  # noqa: E402
from bindery.store import spaces as space_store  # noqa: E402
from bindery.store.objects import object_store  # noqa: E402
from local import queue_delivery  # noqa: E402
from local.template import load as load_template  # noqa: E402
from tests.client import ApiClient, Identity  # noqa: E402

PAGES_PER_GROUP = 100


def _engine_ticks() -> int:
    """CPU clock ticks of this process's children (DynamoDB Local's JVM when it is the engine)."""
    total = 0
    for children in Path(f"/proc/{os.getpid()}/task").glob("*/children"):
        for pid in children.read_text().split():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total


def _cpu_ms(call: Callable[[], Any]) -> tuple[float, Any]:
    """CPU milliseconds of `call`: this process's, plus the engine's when it runs in a child process."""
    started, engine = time.process_time(), _engine_ticks()
    result = call()
    engine_ms = (_engine_ticks() - engine) * 1000 / os.sysconf("SC_CLK_TCK")
    return (time.process_time() - started) * 1000 + engine_ms, result


class Pipeline:
    """The space, its queues and workers, and one merge after another."""

    def __init__(self, api: ApiClient, who: Identity, pages: int) -> None:
        self.api, self.who = api, who
        self.edited = f"page{pages // 2 + 50 if pages > PAGES_PER_GROUP else pages // 2:05d}"  # in the middle
        template = load_template()
        self.sqs = aws.sqs_client()
        queues = queue_delivery.create_queues(self.sqs, template, prefix=f"bench-{uuid.uuid4().hex[:6]}-")
        for variable, ref in queue_delivery.queue_environment(template).items():
            os.environ[variable] = queues[ref].url
        settings.cache_clear()
        self.wired = queue_delivery.deliveries(template, queues)
        reply = api.post(f"/orgs/{who.org_id}/spaces", body={"title": "Bench handbook"}, token=who.token)
        self.space_id = str(reply.json()["id"])
        started = time.process_time()
        groups = max(1, pages // PAGES_PER_GROUP)
        commit_handbook(self.space_id, groups, min(pages, PAGES_PER_GROUP))
        self.deliver()
        self.full_build_ms = (time.process_time() - started) * 1000
        self.round = 0

    def deliver(self) -> dict[str, float]:
        """Every queued message handed to its worker until the queues are empty: CPU ms per function."""
        spent: dict[str, float] = {}
        for _ in range(queue_delivery.MAX_ROUNDS):
            delivered = False
            for delivery in self.wired:
                messages = delivery.receive(self.sqs)
                if messages:
                    cpu, _ = _cpu_ms(functools.partial(delivery.deliver, self.sqs, messages))
                    name = delivery.source.function
                    spent[name] = spent.get(name, 0.0) + cpu
                    delivered = True
            if not delivered:
                return spent
        raise RuntimeError("queues still not empty")

    def change_request(self) -> str:
        self.round += 1
        base = f"/spaces/{self.space_id}/change-requests"
        created = self.api.post(base, body={"subject": f"Edit {self.round}"}, token=self.who.token).json()
        leaf = {"object": "leaf", "text": f"Round {self.round} rewrote this page.", "marks": []}
        paragraph = {"object": "block", "type": "paragraph", "nodes": [{"object": "text", "leaves": [leaf]}]}
        edit = {"operation": "update_page", "page": self.edited, "title": f"Edited {self.round}",
                "document": {"document": {"object": "document", "data": {}, "nodes": [paragraph]}}}
        reply = self.api.post(f"{base}/{created['id']}/content", body={"changes": [edit]},
                              token=self.who.token)
        if reply.status >= 300:
            raise RuntimeError(f"editing the change request answered {reply.status}: {reply.body[:300]!r}")
        return str(created["id"])

    def merge(self, change_request: str) -> None:
        reply = self.api.post(f"/spaces/{self.space_id}/change-requests/{change_request}/merge",
                              token=self.who.token)
        if reply.status != 200 or reply.json().get("result") != "merge":
            raise RuntimeError(f"the merge answered {reply.status}: {reply.body[:300]!r}")


def floor(pipeline: Pipeline, change_request: str) -> dict[str, float]:
    """The bare requests of a merge and of the indexing that follows it (see the module's docstring), on
    the items of this run: CPU ms of each half."""
    table, sqs = dynamodb_table(), aws.sqs_client()
    space_id = pipeline.space_id
    space = space_store.get_space(space_id)
    assert space is not None
    space_item = keys.space(space_id)
    revision_key = {"PK": f"SPACE#{space_id}", "SK": f"REVISION#{space.revision}"}
    revision = table.get_item(Key=revision_key)["Item"]
    tree_key = keys.blob(space_id, str(revision["tree"]))
    pointer = search_store.get_index_pointer(space_id, space.revision)
    assert pointer is not None
    index_key = f"spaces/{space_id}/search/{pointer.digest}.sqlite"
    index_bytes = object_store().get(index_key)
    assert index_bytes is not None
    tree_item = table.get_item(Key=tree_key)["Item"]
    url = settings().search_index_queue_url or ""

    def merge() -> None:
        table.get_item(Key=space_item)
        table.get_item(Key=cr_keys.change_request(space_id, change_request))
        table.get_item(Key=keys.member(str(pipeline.who.org_id), pipeline.who.user_id))
        for _ in range(3):
            table.get_item(Key=tree_key)
        floor_key = {"PK": f"SPACE#{space_id}", "SK": f"FLOOR#{uuid.uuid4().hex}"}
        table.meta.client.batch_write_item(RequestItems={table.name: [{"PutRequest": {"Item": {
            **tree_item, "SK": floor_key["SK"]}}}]})
        table.put_item(Item={**revision, "SK": f"{floor_key['SK']}#R"})
        table.meta.client.transact_write_items(TransactItems=[
            {"Update": {"TableName": table.name, "Key": space_item, "UpdateExpression": "SET floorMark = :m",
                        "ExpressionAttributeValues": {":m": floor_key["SK"]}}},
            {"Update": {"TableName": table.name, "Key": floor_key, "UpdateExpression": "SET floorMark = :m",
                        "ExpressionAttributeValues": {":m": floor_key["SK"]}}}])
        if url:
            sqs.send_message(QueueUrl=url, MessageBody='{"spaceId": "floor"}')

    def index() -> None:
        table.get_item(Key=revision_key)
        table.get_item(Key=search_keys.search_index(space_id, space.revision))
        table.get_item(Key=tree_key)
        table.meta.client.batch_get_item(RequestItems={table.name: {"Keys": [tree_key]}})
        data = object_store().get(index_key)
        assert data is not None
        object_store().put(f"spaces/{space_id}/search/floor-{uuid.uuid4().hex}.sqlite", data)
        mark = uuid.uuid4().hex
        table.put_item(Item={"PK": f"SPACE#{space_id}", "SK": f"FLOOR#{mark}#I", "digest": mark})
        table.put_item(Item={"PK": f"SPACE#{space_id}", "SK": f"FLOOR#{mark}#L", "report": mark})
        table.meta.client.batch_write_item(RequestItems={table.name: [{"PutRequest": {"Item": {
            **tree_item, "SK": f"FLOOR#{mark}#B"}}}]})

    merged, _ = _cpu_ms(merge)
    indexed, _ = _cpu_ms(index)
    if url:
        sqs.purge_queue(QueueUrl=url)
    return {"merge": merged, "indexing": indexed, "index file bytes": float(len(index_bytes))}


def run(repeat: int, engine: str, pages: int = 5000) -> dict[str, Any]:
    set_environment()
    with in_process_aws(engine):
        api = ApiClient()
        who = api.org_admin("Bench", "Bench")
        pipeline = Pipeline(api, who, pages)
        phases: dict[str, list[float]] = {}
        floors: dict[str, list[float]] = {}
        requests: dict[str, dict[str, dict[str, int]]] = {}
        for number in range(repeat + 1):  # the first round warms the caches and imports, untimed
            change_request = pipeline.change_request()
            with counting_requests() as dynamo, counting_requests("s3") as s3, \
                    counting_requests("sqs") as sqs:
                merge_ms, _ = _cpu_ms(functools.partial(pipeline.merge, change_request))
                merge_requests = {"dynamodb": dict(dynamo), "s3": dict(s3), "sqs": dict(sqs)}
            with counting_requests() as dynamo, counting_requests("s3") as s3, \
                    counting_requests("sqs") as sqs:
                spent = pipeline.deliver()
                deliveries = {"dynamodb": dict(dynamo), "s3": dict(s3), "sqs": dict(sqs)}
            measured_floor = floor(pipeline, pipeline.change_request())
            if number == 0:
                continue
            requests = {"merge": merge_requests, "deliveries": deliveries}
            for name, value in {"merge": merge_ms, **spent}.items():
                phases.setdefault(name, []).append(value)
            for name, value in measured_floor.items():
                floors.setdefault(name, []).append(value)
        return {"full_build_ms": pipeline.full_build_ms,
                "phases": {name: statistics.median(values) for name, values in phases.items()},
                "floor": {name: statistics.median(values) for name, values in floors.items()},
                "requests": requests}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m bench.merge_pipeline_bench",
                                     description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--engine", choices=ENGINES, default="moto")
    parser.add_argument("--pages", type=int, default=5000,
                        help="pages of the space: up to 100 in one group, else groups of 100")
    args = parser.parse_args(argv)
    if args.pages < 2 or (args.pages > PAGES_PER_GROUP and args.pages % PAGES_PER_GROUP):
        parser.error("--pages: 2 to 100, or a multiple of 100")
    result = run(args.repeat, args.engine, args.pages)
    floor_total = result["floor"]["merge"] + result["floor"]["indexing"]
    total = sum(result["phases"].values())
    print(f"seeding: {args.pages:,} pages committed and indexed in {result['full_build_ms']:.0f} ms of CPU")
    for name, value in result["phases"].items():
        print(f"{name:26} {value:8.1f} ms CPU")
    print(f"{'total':26} {total:8.1f} ms CPU")
    print(f"{'floor: merge':26} {result['floor']['merge']:8.1f} ms CPU")
    print(f"{'floor: indexing':26} {result['floor']['indexing']:8.1f} ms CPU "
          f"(index file {result['floor']['index file bytes'] / 1e6:.1f} MB)")
    print(f"{'floor: total':26} {floor_total:8.1f} ms CPU   total ÷ floor = {total / floor_total:.2f}")
    for name, counted in result["requests"].items():
        print(f"requests, {name}: {counted}")
    return result


if __name__ == "__main__":
    main()
