"""The floor of bench.load: for each operation it measures, a bare Lambda handler that makes the DynamoDB
requests the operation's access pattern needs, through the same boto3 handles (`bindery.platform.aws`), and
nothing else — no Powertools, no route models, no domain — answering a small JSON body.

bench.load's runner serves them beside template.yaml's functions (`BINDERY_BENCH_FUNCTIONS=` this
module, read by local.gateway.served_template), under `/v1/floor/...`: the same HTTP server, gateway,
authorizer cache and execution environments as the operations they stand under. Bindery ÷ floor is then
what Bindery adds on this stack above its own requests. Never in template.yaml: a deployed stack has no
such routes.

Requests, with the keys and read consistency Bindery's store uses (the API's authorizer answer is cached
per environment, so neither side pays the token's GetItem under load):

- GET space: the space (GetItem), then the caller's membership and the organization (one BatchGetItem).
- GET page: the same two; the revision, the tree and the document are immutable and cached per process,
  so a warm read makes no other request.
- search: the same two, then the revision's index pointer (GetItem) the first time the environment
  searches that revision only: which index a revision has never changes, so it is remembered (as
  Bindery's search remembers it, docs/search.md); the index itself is cached per process. The floor
  runs no query: SQLite FTS over the cached index is Bindery's work above it.
- list change requests: the same two, then one Query of GSI1 (the space's open change requests) and
  one BatchGetItem of the users they name (creators, mergers), as Bindery shows them.
- merge a change request: the same two, the change request (GetItem), its revision and that revision's
  tree (GetItem each; the base's and the space's trees are cached), the merged tree (one BatchWriteItem),
  the merge revision (PutItem), the space and the change request moved together (TransactWriteItems), and
  the space's integrations (Query of GSI1) for the content-updated events: Bindery's requests too (the
  merge rules a space inherits are read from the organization its access check read). The
  search-index request Bindery queues (one SQS SendMessage) and the indexing that follows are not part
  of the floor: they run in the runner's process, not in an environment.

`bindery.platform.config` (a pydantic model, read once per environment) names the table; nothing per request.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from boto3.dynamodb.conditions import Key as KeyCondition

from bindery import keys
from bindery.keys import change_requests as cr_keys
from bindery.keys import integrations as integration_keys
from bindery.keys import search as search_keys
from bindery.platform import aws, ids
from bindery.platform.config import settings
from local.template import Function, Route

ROOT = Path(__file__).resolve().parent.parent
FUNCTION = "BenchFloorFunction"
PREFIX = "/floor"
Reply = dict[str, Any]
Response = TypeVar("Response", bound=Mapping[str, Any])


def functions() -> dict[str, Function]:
    """What local.gateway adds to the runner's routes: one function serving every floor operation."""
    paths = [("GET", "/spaces/{spaceId}"), ("GET", "/spaces/{spaceId}/content/page/{pageId}"),
             ("GET", "/spaces/{spaceId}/search"), ("GET", "/spaces/{spaceId}/change-requests"),
             ("POST", "/spaces/{spaceId}/change-requests/{changeRequestId}/merge")]
    routes = [Route(FUNCTION, PREFIX + path, method) for method, path in paths]
    return {FUNCTION: Function(FUNCTION, ROOT, "bench.floor_handlers.handler", routes)}


def _answer(status: int, body: dict[str, Any]) -> Reply:
    return {"statusCode": status, "headers": {"Content-Type": "application/json"},
            "body": json.dumps(body, separators=(",", ":"))}


class _Refused(Exception):
    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class _Capacity:
    """The read and write capacity units the requests consumed, as the engine reports them, when the call
    asks (`?capacity=total`: bench.load's sizing call, once per operation after the measurements)."""

    def __init__(self, event: dict[str, Any]) -> None:
        self.asked = (event.get("queryStringParameters") or {}).get("capacity") == "total"
        self.read = self.write = 0.0

    def ask(self) -> dict[str, Any]:
        return {"ReturnConsumedCapacity": "TOTAL"} if self.asked else {}

    def add(self, response: Response, *, write: bool = False) -> Response:
        consumed = response.get("ConsumedCapacity") or []
        listed = consumed if isinstance(consumed, list) else [consumed]
        units = sum(float(c["CapacityUnits"]) for c in listed)
        if write:
            self.write += units
        else:
            self.read += units
        return response

    def answer(self, body: dict[str, Any]) -> Reply:
        if self.asked:
            body["capacity"] = {"read": self.read, "write": self.write}
        return _answer(200, body)


def _space_and_access(event: dict[str, Any], used: _Capacity) -> dict[str, Any]:
    """The space (consistent GetItem), then the caller's member item and the organization in one
    consistent BatchGetItem (it needs the space's organization id): 404 / 403 as Bindery answers."""
    space = used.add(aws.dynamodb_table().get_item(Key=keys.space(event["pathParameters"]["spaceId"]),
                                                   ConsistentRead=True, **used.ask())).get("Item")
    if space is None or "deletedAt" in space:
        raise _Refused(404)
    org_id, user_id = str(space["orgId"]), str(event["requestContext"]["authorizer"]["principalId"])
    wanted = [keys.member(org_id, user_id), keys.org(org_id)]
    name = settings().table_name
    found = used.add(aws.dynamodb_client().batch_get_item(
        RequestItems={name: {"Keys": wanted, "ConsistentRead": True}}, **used.ask()))["Responses"][name]
    if not any(str(item["SK"]).startswith("MEMBER#") for item in found):
        raise _Refused(403)
    return space


def _get_space(event: dict[str, Any], used: _Capacity) -> Reply:
    space = _space_and_access(event, used)
    return used.answer({"id": space["id"], "revision": space.get("revision")})


def _get_page(event: dict[str, Any], used: _Capacity) -> Reply:
    space = _space_and_access(event, used)
    return used.answer({"id": event["pathParameters"]["pageId"], "revision": space.get("revision")})


class _NotIndexed(Exception):
    """The revision has no index pointer yet (raised, not returned: a missing pointer is not remembered)."""


@lru_cache(maxsize=1024)
def _index_digest(space_id: str, revision: str) -> str:
    """The digest the revision's index pointer names, read once per environment and revision (a pointer
    is written once and never changes: Bindery's search remembers it the same way). Capacity is not
    asked: a remembered pointer is no request to size."""
    pointer = aws.dynamodb_table().get_item(Key=search_keys.search_index(space_id, revision),
                                            ConsistentRead=False).get("Item")
    if pointer is None:
        raise _NotIndexed(revision)
    return str(pointer["digest"])


def _search(event: dict[str, Any], used: _Capacity) -> Reply:
    space = _space_and_access(event, used)
    try:
        _index_digest(str(space["id"]), str(space["revision"]))
    except _NotIndexed:
        return used.answer({"items": [], "indexed": False})
    return used.answer({"items": [], "indexed": True})


def _list_change_requests(event: dict[str, Any], used: _Capacity) -> Reply:
    space = _space_and_access(event, used)
    page = used.add(aws.dynamodb_table().query(
        IndexName="GSI1", KeyConditionExpression=KeyCondition("GSI1PK").eq(
            cr_keys.space_status_partition(str(space["id"]), "open")), ScanIndexForward=False, Limit=100,
        **used.ask()))
    named = sorted({str(item[field]) for item in page["Items"] for field in ("createdBy", "mergedBy")
                    if item.get(field)})
    if named:
        name = settings().table_name
        used.add(aws.dynamodb_client().batch_get_item(
            RequestItems={name: {"Keys": [keys.user(uid) for uid in named], "ConsistentRead": True}},
            **used.ask()))
    return used.answer({"count": len(page["Items"])})


def _merge(event: dict[str, Any], used: _Capacity) -> Reply:
    space = _space_and_access(event, used)
    space_id, user_id = str(space["id"]), str(event["requestContext"]["authorizer"]["principalId"])
    table, client, name = aws.dynamodb_table(), aws.dynamodb_client(), settings().table_name
    cr_id = event["pathParameters"]["changeRequestId"]
    change_request = used.add(table.get_item(Key=cr_keys.change_request(space_id, cr_id), ConsistentRead=True,
                                             **used.ask())).get("Item")
    if change_request is None or change_request.get("status") != "open":
        raise _Refused(404)
    revision = used.add(table.get_item(Key=keys.revision(space_id, str(change_request["revision"])),
                                       ConsistentRead=False, **used.ask()))["Item"]
    tree = used.add(table.get_item(Key=keys.blob(space_id, str(revision["tree"])), ConsistentRead=False,
                                   **used.ask()))["Item"]
    # The merged tree: the floor cannot merge, it writes the one it read (as large).
    used.add(client.batch_write_item(RequestItems={name: [{"PutRequest": {"Item": tree}}]}, **used.ask()),
             write=True)
    merged, now = ids.new_id(), datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    parents = [space["revision"], change_request["revision"]]
    used.add(table.put_item(Item={**keys.revision(space_id, merged), "type": "revision", "id": merged,
                                  "spaceId": space_id, "parents": parents, "createdAt": now,
                                  "revisionType": "merge", "tree": revision["tree"], "mergedFrom": cr_id},
                            ConditionExpression="attribute_not_exists(PK)", **used.ask()), write=True)
    org_id = str(space["orgId"])
    used.add(client.transact_write_items(TransactItems=[
        {"Update": {"TableName": name, "Key": keys.space(space_id),
                    "UpdateExpression": "SET #revision = :new, updatedAt = :now "
                                        "ADD changeRequestsOpen :minus, changeRequestsMerged :plus",
                    "ConditionExpression": "#revision = :expected AND attribute_not_exists(deletedAt)",
                    "ExpressionAttributeNames": {"#revision": "revision"},
                    "ExpressionAttributeValues": {":new": merged, ":now": now, ":minus": -1, ":plus": 1,
                                                  ":expected": space["revision"]}}},
        {"Update": {"TableName": name, "Key": cr_keys.change_request(space_id, cr_id),
                    "UpdateExpression": "SET #status = :merged, GSI1PK = :byspace, GSI3PK = :byorg, "
                                        "revisionMerged = :new, mergedBy = :user, mergedAt = :now, "
                                        "updatedAt = :now",
                    "ConditionExpression": "#status = :open AND #revision = :seen",
                    "ExpressionAttributeNames": {"#status": "status", "#revision": "revision"},
                    "ExpressionAttributeValues": {
                        ":merged": "merged", ":open": "open", ":new": merged, ":user": user_id, ":now": now,
                        ":seen": change_request["revision"],
                        ":byspace": cr_keys.space_status_partition(space_id, "merged"),
                        ":byorg": cr_keys.org_status_partition(org_id, "merged")}}},
    ], **used.ask()), write=True)
    installed = used.add(table.query(IndexName="GSI1", KeyConditionExpression=KeyCondition("GSI1PK").eq(
        integration_keys.content_integrations_partition("space", space_id)), Limit=1000, **used.ask()))
    return used.answer({"result": "merge", "revision": merged, "integrations": len(installed["Items"])})


_OPERATIONS = {
    f"{PREFIX}/spaces/{{spaceId}}": _get_space,
    f"{PREFIX}/spaces/{{spaceId}}/content/page/{{pageId}}": _get_page,
    f"{PREFIX}/spaces/{{spaceId}}/search": _search,
    f"{PREFIX}/spaces/{{spaceId}}/change-requests": _list_change_requests,
    f"{PREFIX}/spaces/{{spaceId}}/change-requests/{{changeRequestId}}/merge": _merge,
}


def handler(event: dict[str, Any], _context: Any) -> Reply:
    try:
        return _OPERATIONS[event["resource"]](event, _Capacity(event))
    except _Refused as refused:
        return _answer(refused.status, {"error": {"code": refused.status}})
