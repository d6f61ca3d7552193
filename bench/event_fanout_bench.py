"""Integration event fan-out: one content update of a space on which 1,000 integrations are installed,
against the same update of a space with none, in the same run (moto, in process).

    python -m bench.event_fanout_bench [--installations 1000] [--repeat 5]

The update is what every edit, merge and import does: `commit_revision` of a one-page change, then the
space's move to it (`advance_space`), which records `space_content_updated` for every installation set
up on the space (bindery.domain.integrations.content_events) and queues one message per event. Reported:
DynamoDB and SQS requests of one update, by operation, and the median time, each as a ratio to the
update of the space with no installation. Delivery (the worker's POSTs) is not included.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for _entry in (ROOT, ROOT / "layers" / "shared"):
    if str(_entry) not in sys.path:
        sys.path.insert(0, str(_entry))

from bench.environment import in_process_aws, queue_url, set_environment  # noqa: E402
from bench.timing import median_ms  # noqa: E402
from bindery.domain.revisions import advance_space, commit_revision  # noqa: E402
from bindery.platform import aws, clock  # noqa: E402
from bindery.platform.aws import counting_requests, dynamodb_table  # noqa: E402
from bindery.platform.config import settings  # noqa: E402
from bindery.platform.ids import new_id  # noqa: E402
from bindery.store import spaces as space_store  # noqa: E402
from bindery.store.integration_installations import ContentInstallation  # noqa: E402
from tests.client import ApiClient, Identity  # noqa: E402


@dataclass
class Update:
    requests: dict[str, int]  # DynamoDB requests of one update, by operation
    queue_requests: dict[str, int]  # SQS requests of one update
    median_ms: float


def _space(api: ApiClient, who: Identity, title: str) -> str:
    reply = api.post(f"/orgs/{who.org_id}/spaces", body={"title": title}, token=who.token)
    if reply.status != 201:
        raise RuntimeError(f"could not create the bench space: {reply.status} {reply.body!r}")
    space_id: str = reply.json()["id"]
    _update(space_id, "Intro")
    return space_id


def _update(space_id: str, title: str) -> None:
    """One content update: a one-page revision committed, and the space moved to it."""
    space = space_store.get_space(space_id)
    assert space is not None
    tree = {"pages": [{"id": "p1", "type": "document", "title": title, "slug": "intro", "pages": []}],
            "files": [], "reusableContents": [], "variables": {}}
    document = {"object": "document", "data": {}, "nodes": []}
    parents = [space.revision] if space.revision else []
    revision = commit_revision(space_id, parents, tree, {"p1": document})
    advance_space(space, space.revision or "", revision)


def install_many(space_id: str, org_id: str, count: int) -> None:
    """`count` integrations' setups on the space, written directly (BatchWriteItem): the fan-out reads
    only these (GSI1 of the space), so the bench does not publish and install each through the API."""
    now = clock.now_iso()
    with dynamodb_table().batch_writer() as batch:
        for number in range(count):
            setup = ContentInstallation(kind="space", integration=f"bench-{number:04d}",
                                        installation_id=new_id(), content_id=space_id, org_id=org_id,
                                        status="active", created_at=now, updated_at=now)
            batch.put_item(Item=setup.to_item())


def _empty_queue() -> None:
    """moto's SQS scans every message of a queue on each send, so a queue left to fill would make each
    update slower than the last: emptied between updates (untimed), as the worker would."""
    url = settings().integration_events_queue_url
    if url:
        aws.sqs_client().purge_queue(QueueUrl=url)


def measure_update(space_id: str, repeat: int) -> Update:
    with counting_requests() as requests, counting_requests("sqs") as queue_requests:
        _update(space_id, "Edit")
    once = (dict(requests), dict(queue_requests))
    timings = []
    for number in range(repeat):
        _empty_queue()
        timings.append(median_ms(functools.partial(_update, space_id, f"Edit {number}"), 1))
    _empty_queue()
    return Update(once[0], once[1], statistics.median(timings) if timings else 0.0)


def run(api: ApiClient, installations: int, repeat: int) -> dict[str, Any]:
    """The update of a space with no installation (the baseline) and of one with `installations`."""
    who = api.org_admin("Bench", "Bench")
    assert who.org_id is not None
    quiet, busy = _space(api, who, "No integrations"), _space(api, who, "Many integrations")
    install_many(busy, who.org_id, installations)
    baseline, fanned = measure_update(quiet, repeat), measure_update(busy, repeat)
    base_total = sum(baseline.requests.values()) + sum(baseline.queue_requests.values())
    fanned_total = sum(fanned.requests.values()) + sum(fanned.queue_requests.values())
    time_ratio = fanned.median_ms / baseline.median_ms if repeat else 0.0  # repeat 0: requests only
    return {"installations": installations, "baseline": baseline, "fanned": fanned,
            "requests_ratio": fanned_total / base_total, "time_ratio": time_ratio}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.event_fanout_bench",
                                     description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--installations", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    set_environment()
    with in_process_aws():
        queue_url("BINDERY_INTEGRATION_EVENTS_QUEUE_URL", "bench-integration-events")
        result = run(ApiClient(), args.installations, args.repeat)
    for label in ("baseline", "fanned"):
        update: Update = result[label]
        print(f"{label:9} DynamoDB {update.requests}  SQS {update.queue_requests}"
              f"  {update.median_ms:8.1f} ms")
    print(f"{result['installations']} installations: x{result['requests_ratio']:.1f} requests, "
          f"x{result['time_ratio']:.1f} time against the update of a space with none")
    return 0


if __name__ == "__main__":
    sys.exit(main())
