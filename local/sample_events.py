"""Sample events for `sam local invoke -e events/<file>`: one per function of template.yaml.

API functions get a REST proxy event; SQS workers an SQS event of one message, built by
local.queue_delivery.sqs_event (the in-process delivery's builder) around a sample body; functions on the
table's stream a TTL removal of a space item (local.ttl_stream.removal_record, the emulated stream's).

    python -m local.sample_events            # (re)write events/
    python -m local.sample_events --check    # fail if events/ differs from what template.yaml gives

The proxy events come from local.gateway.build_event, the builder the local runner uses, for a route the
function really has, and carry the authorizer context the TOKEN authorizer would add. To invoke against
your own data, write them elsewhere with real ids:

    python -m local.sample_events --out /tmp/events --user USER_ID --param organizationId=ORG_ID
"""

from __future__ import annotations

import sys
from pathlib import Path

# The layer is what Lambda mounts at /opt/python: the sample SQS bodies are the workers' own message models.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "layers" / "shared"))

import argparse
import json
import re
from typing import Any

from bindery.platform.messages import (
    ConversationMessage,
    GitRunMessage,
    IndexMessage,
    IntegrationEventMessage,
    Message,
    OpenAPIProcessMessage,
    TranslationRunMessage,
)
from local.gateway import STAGE, build_event
from local.queue_delivery import event_sources, sqs_event
from local.stream_records import removal_record, stream_subscriptions
from local.template import ROOT, V1_API, Function, Route, Template, load

EVENTS = ROOT / "events"
SAMPLE_USER = "sample-user-id"
SAMPLE_TOKEN = "gb_api_sample-token"  # noqa: S105 - a placeholder, not a credential
# Fixed, so that regenerating gives identical files.
REQUEST_ID = "c6af9ac6-7b61-11e6-9a41-93e8deadbeef"
# Which route stands for each function, and the file name's suffix; functions not listed get their first
# GET (or ANY) route, literal routes before {proxy+} ones.
CHOSEN = {
    "OrgsFunction": ("GET", "/orgs/{organizationId}", "get-org"),
    "MembersFunction": ("GET", "/orgs/{organizationId}/members", "list-members"),
    "UsersFunction": ("GET", "/user", "get-user"),
}
SAMPLE_VALUES = {"emailDomain": "example.com", "proxy": "sample-id"}
# The message each worker's queue carries (bindery.platform.messages).
SQS_BODIES: dict[str, Message] = {
    "GitSyncWorker": GitRunMessage(spaceId="sample-space-id", runId="sample-run-id",
                                   url="https://github.com/example/docs.git"),
    "SearchIndexWorker": IndexMessage(spaceId="sample-space-id", revisionId="sample-revision-id"),
    "OpenAPIProcessingWorker": OpenAPIProcessMessage(organizationId="sample-organization-id", slug="petstore",
                                                     specId="sample-spec-id", job="sample-job-id"),
    "TranslationRunWorker": TranslationRunMessage(organizationId="sample-organization-id",
                                                  translationId="sample-translation-id", job="sample-job-id"),
    "IntegrationEventWorker": IntegrationEventMessage(integration="sample-integration",
                                                      eventId="sample-event-id"),
    "ConversationsWorker": ConversationMessage(organizationId="sample-organization-id",
                                               conversationId="sample-conversation-id", rev="sample-rev"),
}


def _kebab(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "-", name).lower()


def _prefix(function: Function) -> str:
    return _kebab(function.name.removesuffix("Function"))


def _choose(function: Function) -> tuple[Route, str, str] | None:
    """The route, the method to send and the file-name suffix for a function's sample."""
    if function.name in CHOSEN:
        method, path, suffix = CHOSEN[function.name]
        route = next((r for r in function.routes if r.path == path and r.method in (method, "ANY")), None)
        if route is None:
            raise SystemExit(f"{function.name} has no {method} {path} in template.yaml: update CHOSEN "
                             f"in {__file__}")
        return route, method, suffix
    readable = [r for r in function.routes if r.method in ("GET", "ANY")]
    readable.sort(key=lambda r: r.path.endswith("+}"))  # stable: template order otherwise
    if not readable:
        return None
    route = readable[0]
    literal = [seg for seg in route.segments if not seg.startswith("{")]
    return route, "GET", f"get-{_kebab(literal[-1]) if literal else 'root'}"


def _api_event(route: Route, method: str, user: str, values: dict[str, str]) -> dict[str, Any]:
    params: dict[str, str] = {}
    parts = []
    for segment in route.segments:
        if segment.startswith("{"):
            name = segment.strip("{}+")
            params[name] = values.get(name) or SAMPLE_VALUES.get(name) or f"sample-{_kebab(name)}"
            parts.append(params[name])
        else:
            parts.append(segment)
    path = "/" + "/".join(parts)
    if route.api != V1_API:
        # The readers' API (published sites' pages): a browser's request, no token, no authorizer.
        headers = {"Accept": "text/html", "Host": "127.0.0.1:3000"}
        event = build_event(method, path, route, params, headers=headers, query="", body=None,
                            authorizer={}, stage=load().stages[route.api])
        event["requestContext"]["requestId"] = REQUEST_ID
        return event
    headers = {"Accept": "application/json", "Authorization": f"Bearer {SAMPLE_TOKEN}",
               "Host": "127.0.0.1:3000"}
    # What the TOKEN authorizer's policy puts in the request context (see local/gateway.py).
    authorizer = {"principalId": user, "userId": user}
    event = build_event(method, path, route, params, headers=headers, query="", body=None,
                        authorizer=authorizer)
    event["requestContext"]["requestId"] = REQUEST_ID
    return event


def _authorizer_event(token: str) -> dict[str, Any]:
    # The shape API Gateway sends a TOKEN authorizer (the runner's gateway sends the same).
    return {"type": "TOKEN", "authorizationToken": f"Bearer {token}",
            "methodArn": f"arn:aws:execute-api:us-east-1:000000000000:local/{STAGE}/GET/orgs"}


def _sqs_event(function: str, queue: str) -> dict[str, Any]:
    if function not in SQS_BODIES:
        raise SystemExit(f"{function} reads SQS but has no sample body: add one to SQS_BODIES in {__file__}")
    body = SQS_BODIES[function].model_dump_json()
    message = {"MessageId": REQUEST_ID, "ReceiptHandle": "sample-receipt-handle", "Body": body,
               "Attributes": {"ApproximateReceiveCount": "1", "SentTimestamp": "1763856000000"}}
    return sqs_event([message], f"arn:aws:sqs:us-east-1:000000000000:{queue}")


def _stream_event() -> dict[str, Any]:
    """What the table's stream hands its functions when DynamoDB's TTL removes a space item."""
    record = removal_record({"PK": "SPACE#sample-space-id", "SK": "SPACE"}, 1, at=1763856000,
                            event_id=REQUEST_ID)
    return {"Records": [record]}


def generate(user: str = SAMPLE_USER, token: str = SAMPLE_TOKEN,
             values: dict[str, str] | None = None) -> dict[str, str]:
    """File name → JSON text, for every function of template.yaml."""
    template = load()
    files: dict[str, Any] = {}
    for function in template.functions.values():
        if function.name == template.authorizer:
            files[f"{_prefix(function)}-token.json"] = _authorizer_event(token)
            continue
        chosen = _choose(function)
        if chosen is not None:
            route, method, suffix = chosen
            files[f"{_prefix(function)}-{suffix}.json"] = _api_event(route, method, user, values or {})
    for source in event_sources(template):
        files[f"{_kebab(source.function)}-sqs.json"] = _sqs_event(source.function, source.queue)
    for function_name in stream_subscriptions(template):
        files[f"{_kebab(function_name)}-stream.json"] = _stream_event()
    return {name: json.dumps(event, indent=2) + "\n" for name, event in sorted(files.items())}


def worker_events(template: Template) -> dict[str, str]:
    """Each worker (an SQS or a stream function) → the file name of its sample event."""
    files = {source.function: f"{_kebab(source.function)}-sqs.json" for source in event_sources(template)}
    return files | {name: f"{_kebab(name)}-stream.json" for name in stream_subscriptions(template)}


def check(directory: Path = EVENTS) -> list[str]:
    """What differs between `directory` and the generated events (empty when they match)."""
    expected = generate()
    present = {path.name for path in directory.glob("*.json")}
    problems = [f"missing: {name}" for name in sorted(set(expected) - present)]
    problems += [f"not generated from template.yaml: {name}" for name in sorted(present - set(expected))]
    problems += [f"differs: {name}" for name in sorted(set(expected) & present)
                 if (directory / name).read_text() != expected[name]]
    return problems


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m local.sample_events", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="fail if events/ is not up to date")
    parser.add_argument("--out", type=Path, default=EVENTS, help="directory to write (default: events/)")
    parser.add_argument("--user", default=SAMPLE_USER, help="user id in the authorizer context")
    parser.add_argument("--token", default=SAMPLE_TOKEN, help="API token in the authorizer event")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                        help="value of a path parameter, e.g. organizationId=ID (repeatable)")
    args = parser.parse_args(argv)
    if args.check:
        problems = check()
        if problems:
            print("events/ is out of date (run `python -m local.sample_events`):", file=sys.stderr)
            print("\n".join(f"  {problem}" for problem in problems), file=sys.stderr)
            raise SystemExit(1)
        print("events/ matches template.yaml")
        return
    values = dict(item.split("=", 1) for item in args.param)
    files = generate(args.user, args.token, values)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    if out.resolve() == EVENTS.resolve():
        for stale in {path.name for path in out.glob("*.json")} - set(files):
            (out / stale).unlink()  # events/ holds generated files only; a removed function loses its event
            print(f"removed {out / stale}")
    for name, text in files.items():
        (out / name).write_text(text)
        print(f"wrote {out / name}")


if __name__ == "__main__":
    main()
