"""Change requests: one item per change request in its space's partition (keys.change_requests).

    {PK: SPACE#{spaceId}, SK: CR#{id}, type: "change-request", id, spaceId, orgId, number, status,
     subject, description?, createdBy, createdAt, updatedAt, revision, revisionInitial,
     revisionMergedAncestor?, revisionMerged?, mergedBy?, mergedAt?, comments, reviews, agentTaskId?,
     conversationsIssuesCluster?, contributors?: {userId}, requestedReviewers?: {userId},
     latestReviews: {userId: {id, status, revision}},
     GSI1..3 (see keys.change_requests)}

`comments` (open comments) is kept by the comments area inside its own transactions, and `contributors`
and `requestedReviewers` (string sets: ADD and DELETE keep them without a read) mirror the items of
those names (store.reviews) so that listings can filter on them. Every write here therefore names the
attributes it changes (UpdateItem), never replaces the item.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bindery.keys import change_requests as cr_keys
from bindery.keys import space as space_key
from bindery.platform.aws import dynamodb_table
from bindery.store import table
from bindery.store.item_fields import ItemFields
from bindery.store.table import Item
from bindery.store.tree import named_update_op

LIVE = "attribute_exists(PK)"
# Which of the space's counters count a change request in each status (`changeRequests` counts all, so
# the archived ones are what the others leave: `Space.change_requests_in`).
STATUS_COUNTERS = {"open": "changeRequestsOpen", "draft": "changeRequestsDraft",
                   "merged": "changeRequestsMerged"}


@dataclass
class ChangeRequest:
    id: str
    space_id: str
    org_id: str
    number: int
    status: str
    subject: str
    created_by: str
    created_at: str
    updated_at: str
    revision: str
    revision_initial: str
    description: dict[str, Any] | None = None
    revision_merged_ancestor: str | None = None
    revision_merged: str | None = None
    merged_by: str | None = None
    merged_at: str | None = None
    comments: int = 0
    comments_resolved: int = 0
    reviews: int = 0  # every review submitted (store.reviews.record_review_op)
    agent_task_id: str | None = None
    conversations_issues_cluster: str | None = None
    contributors: list[str] = field(default_factory=list)
    requested_reviewers: list[str] = field(default_factory=list)
    # Each reviewer's latest review, {userId: {id, status, revision}}; a renewed review request removes
    # the reviewer's entry. Reviews not named here are outdated; merge rules read approvals from it.
    latest_reviews: dict[str, dict[str, str]] = field(default_factory=dict)

    _FIELDS = ItemFields(
        ("id", "id"), ("space_id", "spaceId"), ("org_id", "orgId"), ("number", "number"),
        ("status", "status"), ("subject", "subject"), ("created_by", "createdBy"),
        ("created_at", "createdAt"), ("updated_at", "updatedAt"), ("revision", "revision"),
        ("revision_initial", "revisionInitial"), ("description", "description"),
        ("revision_merged_ancestor", "revisionMergedAncestor"), ("revision_merged", "revisionMerged"),
        ("merged_by", "mergedBy"), ("merged_at", "mergedAt"), ("comments", "comments"),
        ("comments_resolved", "commentsResolved"), ("reviews", "reviews"), ("agent_task_id", "agentTaskId"),
        ("conversations_issues_cluster", "conversationsIssuesCluster"),
        ("contributors", "contributors"), ("requested_reviewers", "requestedReviewers"),
        ("latest_reviews", "latestReviews"),
        string_sets=("contributors", "requested_reviewers"),
    )

    @property
    def base(self) -> str:
        """The space revision the change request's content starts from (its last update, else its start)."""
        return self.revision_merged_ancestor or self.revision_initial

    def gsi(self, status: str | None = None) -> dict[str, str]:
        return cr_keys.change_request_gsi(self.space_id, self.org_id, status or self.status,
                                          number=self.number, created_at=self.created_at,
                                          change_request_id=self.id)

    def to_item(self) -> Item:
        return {**cr_keys.change_request(self.space_id, self.id), "type": "change-request", **self.gsi(),
                **self._FIELDS.attributes(self)}

    @classmethod
    def from_item(cls, item: Item) -> ChangeRequest:
        return cls(**cls._FIELDS.values(item))


def get_change_request(space_id: str, change_request_id: str) -> ChangeRequest | None:
    """One GetItem (strongly consistent)."""
    item = table.get(cr_keys.change_request(space_id, change_request_id))
    return ChangeRequest.from_item(item) if item and item.get("type") == "change-request" else None


def get_by_number(space_id: str, number: int) -> ChangeRequest | None:
    """One Query of GSI2 (the index may lag a just-created change request by a moment)."""
    # Numbers are fixed-width, so the prefix matches exactly one sort key.
    page = table.Query(partition=cr_keys.number_partition(space_id), index="GSI2", limit=1,
                       prefix=cr_keys.number_sort_key(number)).run()
    if not page.items:
        return None
    # The index holds the whole item, but read it by key so that the answer is strongly consistent.
    return get_change_request(space_id, page.items[0]["id"])


# --- listings ---------------------------------------------------------------------------------------------
def space_page(space_id: str, status: str, limit: int, start_key: dict[str, Any] | None,
               narrow: Any = None) -> table.QueryPage:
    """GSI1: one page of a space's change requests in `status`, newest first."""
    return table.Query(partition=cr_keys.space_status_partition(space_id, status), index="GSI1",
                       forward=False, limit=limit, start_key=start_key, filter=narrow).run()


def space_count(space_id: str, status: str, narrow: Any) -> int:
    """How many change requests `space_page` lists over all its pages with the filter `narrow`: one
    `Select=COUNT` Query (an unfiltered listing reads the space's counters instead)."""
    return table.Query(partition=cr_keys.space_status_partition(space_id, status), index="GSI1",
                       filter=narrow).count()


def org_page(org_id: str, status: str, limit: int, start_key: dict[str, Any] | None,
             narrow: Any = None) -> table.QueryPage:
    """GSI3: one page of an organization's change requests in `status`, newest first."""
    return table.Query(partition=cr_keys.org_status_partition(org_id, status), index="GSI3",
                       forward=False, limit=limit, start_key=start_key, filter=narrow).run()


# --- writes -----------------------------------------------------------------------------------------------
def counters_op(space_id: str, deltas: dict[str, int], condition: str | None = None,
                values: dict[str, Any] | None = None) -> table.Op:
    """ADD to the space's change-request counters (a live space only)."""
    names = {f"#c{i}": name for i, name in enumerate(deltas)}
    adds = {f":c{i}": delta for i, delta in enumerate(deltas.values())}
    expression = "ADD " + ", ".join(f"#c{i} :c{i}" for i in range(len(deltas)))
    full = "attribute_exists(PK) AND attribute_not_exists(deletedAt)"
    if condition:
        full += f" AND {condition}"
    return table.update_op(space_key(space_id), expression, {**adds, **(values or {})}, full, names)


def status_deltas(old: str | None, new: str | None) -> dict[str, int]:
    deltas: dict[str, int] = {}
    if old in STATUS_COUNTERS:
        deltas[STATUS_COUNTERS[old]] = -1
    if new in STATUS_COUNTERS:
        deltas[STATUS_COUNTERS[new]] = deltas.get(STATUS_COUNTERS[new], 0) + 1
    return {name: delta for name, delta in deltas.items() if delta}


def cluster_tasks_ops(change_request: ChangeRequest, new_status: str | None) -> list[table.Op]:
    """The task counters of the conversations issues cluster the change request names (none: nothing)
    moved from its status as read (None: being created) to `new_status` (store.issue_clusters)."""
    cluster = change_request.conversations_issues_cluster
    if not cluster:
        return []
    # Imported here: few change requests name a cluster, and the clusters' module (four dataclasses) is
    # a cold-start cost of every function that reads change requests (bench/README.md, "Cold start").
    from bindery.store.issue_clusters import tasks_op
    op = tasks_op(cluster, None if new_status is None else change_request.status,
                  new_status or change_request.status)
    return [op] if op is not None else []


def create_ops(change_request: ChangeRequest, numbered: int) -> list[table.Op]:
    """The change request and the space's counters, if the space still counts `numbered` change requests
    (its `changeRequests` total numbers them: a concurrent create fails this condition and retries)."""
    seen = "changeRequests = :numbered" if numbered else \
        "(attribute_not_exists(changeRequests) OR changeRequests = :numbered)"
    # The space must still be in the organization the change request names (a transfer moves them).
    deltas = {"changeRequests": 1, **status_deltas(None, change_request.status)}
    return [table.put_op(change_request.to_item(), "attribute_not_exists(PK)"),
            counters_op(change_request.space_id, deltas, f"{seen} AND orgId = :org",
                        {":numbered": numbered, ":org": change_request.org_id}),
            *cluster_tasks_ops(change_request, None)]


def update_op(change_request: ChangeRequest, assign: dict[str, Any], condition: str = LIVE,
              seen: dict[str, Any] | None = None, remove: tuple[str, ...] = ()) -> table.Op:
    """Set some attributes of the change request if `condition` holds (with `seen`'s values)."""
    return named_update_op(cr_keys.change_request(change_request.space_id, change_request.id), assign,
                           condition, seen or {}, remove)


def _status_op(change_request: ChangeRequest, new_status: str, assign: dict[str, Any], *,
               at_revision: bool = False) -> table.Op:
    """The change request moved from its status (as read) to `new_status`, its indexes with it; fails if
    anyone changed its status (or a transfer its organization) meanwhile, and with `at_revision`, its
    revision."""
    condition = f"{LIVE} AND #st = :seenstatus AND #org = :seenorg"
    seen = {":seenstatus": change_request.status, ":seenorg": change_request.org_id}
    if at_revision:
        condition += " AND #rev = :rev"
        seen[":rev"] = change_request.revision
    op = update_op(change_request, {"status": new_status, **change_request.gsi(new_status), **assign},
                   condition, seen)
    op["Update"]["ExpressionAttributeNames"].update(
        {"#st": "status", "#org": "orgId", **({"#rev": "revision"} if at_revision else {})})
    return op


def update_ops(change_request: ChangeRequest, changed: ChangeRequest) -> list[table.Op]:
    """Writes the fields of `changed` that differ from `change_request` (as read). A new status moves
    the indexes and the space's counters too (`status_ops`); otherwise one update, refused if the change
    request was merged meanwhile."""
    if changed.status != change_request.status:
        return status_ops(change_request, changed)
    sets, removes = ChangeRequest._FIELDS.changes(change_request, changed)
    op = update_op(change_request, sets, f"{LIVE} AND #st <> :merged", {":merged": "merged"}, removes)
    op["Update"]["ExpressionAttributeNames"]["#st"] = "status"
    return [op]


def status_ops(change_request: ChangeRequest, changed: ChangeRequest) -> list[table.Op]:
    """Move the change request from its status (as read) to `changed.status` (with `changed`'s other
    fields that differ), its indexes and the space's counters with it; fails if anyone changed its status
    (or a transfer its organization) meanwhile."""
    new_status = changed.status
    sets, _ = ChangeRequest._FIELDS.changes(change_request, changed)
    ops = [_status_op(change_request, new_status, {k: v for k, v in sets.items() if k != "status"})]
    deltas = status_deltas(change_request.status, new_status)
    if deltas:
        ops.append(counters_op(change_request.space_id, deltas))
    return [*ops, *cluster_tasks_ops(change_request, new_status)]


MARK_MERGED = "mark-merged"  # the name of `mark_merged_op` in a transaction


def mark_merged_op(change_request: ChangeRequest, new_revision: str, merged_by: str, merged_at: str,
                   updated_at: str) -> table.Op:
    """Mark the change request merged into `new_revision`, if its status and its revision are still the
    ones read. Its space's counters are not in it: they move with the space's pointer, in the one update
    of the space item a transaction allows (`revisions.advance_op(counters=status_deltas(...))`)."""
    assign = {"revisionMerged": new_revision, "mergedBy": merged_by, "mergedAt": merged_at,
              "updatedAt": updated_at}
    return table.named(MARK_MERGED, _status_op(change_request, "merged", assign, at_revision=True))


def advance_op(change_request: ChangeRequest, changed: ChangeRequest, contributor: str | None = None
               ) -> table.Op:
    """Point a draft or open change request at `changed.revision` (with `changed`'s other fields that
    differ) if it still points at the revision it was read at (and add `contributor` to its
    contributors)."""
    sets, _ = ChangeRequest._FIELDS.changes(change_request, changed)
    op = update_op(change_request, sets, f"{LIVE} AND #rev = :expected AND #st IN (:open, :draft)",
                   {":expected": change_request.revision, ":open": "open", ":draft": "draft"})
    update = op["Update"]
    update["ExpressionAttributeNames"].update({"#rev": "revision", "#st": "status"})
    if contributor:
        update["UpdateExpression"] += " ADD contributors :contributor"
        update["ExpressionAttributeValues"][":contributor"] = {contributor}
    return op


def set_member_op(change_request: ChangeRequest, attribute: str, user_ids: set[str], *,
                  add: bool) -> table.Op:
    """ADD to or DELETE from one of the change request's string sets (`requestedReviewers`)."""
    verb = "ADD" if add else "DELETE"
    return table.update_op(cr_keys.change_request(change_request.space_id, change_request.id),
                           f"{verb} #set :members", {":members": user_ids}, LIVE, {"#set": attribute})


# --- transfers --------------------------------------------------------------------------------------------
def move_to_org(space_id: str, source_org: str, target_org: str) -> int:
    """After the space moved to `target_org`: point its change requests there too (`orgId` and the GSI3
    partition of the organization listing); how many moved. One Query of the space's change-request items
    per 1,000, one conditional UpdateItem per change request still in `source_org`, so a repeated call
    moves nothing twice. A status change racing this one either lands first (the update is retried on the
    status it then reads) or fails on its own `orgId` condition."""
    from boto3.dynamodb.conditions import Attr
    from botocore.exceptions import ClientError

    moved, start = 0, None
    while True:
        page = table.Query(partition=cr_keys.space_partition(space_id), prefix="CR#", limit=1000,
                           start_key=start, filter=Attr("type").eq("change-request")).run()
        for item in page.items:
            change_request = ChangeRequest.from_item(item)
            for _ in range(3):
                if change_request.org_id != source_org:
                    break
                try:
                    dynamodb_table().update_item(
                        Key=cr_keys.change_request(space_id, change_request.id),
                        UpdateExpression="SET orgId = :to, GSI3PK = :partition",
                        ConditionExpression="orgId = :from AND #st = :status",
                        ExpressionAttributeNames={"#st": "status"},
                        ExpressionAttributeValues={
                            ":to": target_org, ":from": source_org, ":status": change_request.status,
                            ":partition": cr_keys.org_status_partition(target_org, change_request.status)})
                    moved += 1
                    break
                except ClientError as error:
                    if error.response["Error"]["Code"] != "ConditionalCheckFailedException":
                        raise
                    fresh = get_change_request(space_id, change_request.id)
                    if fresh is None:
                        break
                    change_request = fresh
        start = page.last_key
        if start is None:
            return moved
