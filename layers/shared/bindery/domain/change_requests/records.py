"""Change requests: create, read (by id or by number), change subject/description/status.

A change request branches from the space's current revision (`revisionInitial`); edits move its own
`revision` (domain.change_requests.edits); update and merge are in domain.change_requests.merges. Roles
(docs/permissions.md): any role on the space reads; `edit` creates, edits and changes status; `review`
reviews and merges. docs/change-requests.md has the whole design.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from bindery.domain.access.auth import Caller
from bindery.domain.access.content import ContentAccess, space_access
from bindery.domain.access.roles import Role
from bindery.domain.change_requests import status as status_flow
from bindery.domain.people import load_users
from bindery.domain.spaces.edit_mode import require_editable
from bindery.platform.clock import now_iso
from bindery.platform.errors import BadRequest, Conflict, NotFound
from bindery.platform.ids import new_id
from bindery.store import Transaction, TransactionConflict
from bindery.store import change_requests as cr_store
from bindery.store import spaces as space_store
from bindery.store.change_requests import ChangeRequest
from bindery.store.grants import next_updated_at
from bindery.store.members import Member
from bindery.store.spaces import Space
from bindery.store.users import User

if TYPE_CHECKING:  # request bodies, built by the routes: a content read of a change request imports none
    from bindery.requests.change_requests import CreateChangeRequest, UpdateChangeRequest

NO_CHANGE_REQUEST = "No matching change request"
CREATE_ATTEMPTS = 5
MAX_DESCRIPTION_BYTES = 100_000
NUMBER_MAX_DIGITS = 12  # ids are 20 characters: anything shorter made of digits is a number


@dataclass(frozen=True)
class Opened:
    access: ContentAccess
    change_request: ChangeRequest

    @property
    def space(self) -> Space:
        assert isinstance(self.access.node, Space)
        return self.access.node


def find(space_id: str, ref: str) -> ChangeRequest | None:
    """By id (one GetItem) or, for a number, through GSI2 (one Query, then the GetItem)."""
    if ref.isdigit() and len(ref) <= NUMBER_MAX_DIGITS:
        return cr_store.get_by_number(space_id, int(ref))
    return cr_store.get_change_request(space_id, ref)


def open_change_request(caller: Caller, space_id: str, ref: str, role: Role = "read",
                        action: str = "read this change request") -> Opened:
    """The caller's access to the space (404 without a role), then the change request (404 if unknown)."""
    access = space_access(caller, space_id)
    access.require(role, action)
    change_request = find(space_id, ref)
    if change_request is None:
        raise NotFound(NO_CHANGE_REQUEST)
    space = access.node
    if change_request.org_id != space.org_id:
        # A transfer whose follow-up was cut short (domain.transfers): finish it now, once for all the
        # space's change requests, so that this one's writes file it under the right organization.
        cr_store.move_to_org(space_id, change_request.org_id, space.org_id)
        change_request = cr_store.get_change_request(space_id, change_request.id) or change_request
    return Opened(access, change_request)


def change_request_for_read(caller: Caller, space_id: str, ref: str) -> ChangeRequest:
    """For content reads, which check the caller's access themselves (content_reads): the change request
    first, and the access check here only when it is missing, so that who has no access to the space
    learns nothing from the answer."""
    change_request = find(space_id, ref)
    if change_request is None:
        space_access(caller, space_id)
        raise NotFound(NO_CHANGE_REQUEST)
    return change_request


def is_outdated(change_request: ChangeRequest, space: Space) -> bool:
    """Behind the main content: the space moved past the revision the change request is based on."""
    return change_request.status != "merged" and space.revision != change_request.base


@dataclass(frozen=True)
class ChangeRequestView:
    """A change request as its answers show it: with the users it names and whether it is outdated
    (bindery.api.wire.change_requests shapes it)."""

    change_request: ChangeRequest
    users: Mapping[str, User]
    outdated: bool


def named_users(change_request: ChangeRequest) -> list[str | None]:
    """The users a change request's answer names: its creator and who merged it."""
    return [change_request.created_by, change_request.merged_by]


def change_request_view(change_request: ChangeRequest, space: Space, viewer: Member) -> ChangeRequestView:
    """One BatchGetItem for the users it names (as `viewer` may see them)."""
    users = load_users(named_users(change_request), viewer=viewer)
    return ChangeRequestView(change_request, users, is_outdated(change_request, space))


def get_change_request(caller: Caller, space_id: str, ref: str) -> ChangeRequestView:
    opened = open_change_request(caller, space_id, ref)
    return change_request_view(opened.change_request, opened.space, opened.access.member)


def description_value(document: Any, field: str = "description") -> dict[str, Any]:
    """A request's document as stored on an item (which holds at most 400 KB)."""
    value: dict[str, Any] = document.model_dump(mode="json")
    if len(json.dumps(value)) > MAX_DESCRIPTION_BYTES:
        raise BadRequest(f"{field}: the document is larger than {MAX_DESCRIPTION_BYTES} bytes")
    return value


# --- create -------------------------------------------------------------------------------------------------
def _cluster_in_org(cluster_id: str, org_id: str) -> bool:
    # Imported on first need: few change requests name a cluster (bench/README.md, "Cold start").
    from bindery.store.issue_clusters import cluster_in_org
    return cluster_in_org(cluster_id, org_id)


def create_change_request(caller: Caller, space_id: str, body: CreateChangeRequest) -> ChangeRequestView:
    """Numbered by the space's `changeRequests` total, which the same transaction increments on the
    condition that it is still the value read: of two concurrent creates one retries with the next
    number, so numbers are unique and gapless."""
    access = space_access(caller, space_id)
    access.require("edit", "create change requests")
    space = access.node
    assert isinstance(space, Space)
    require_editable(space)
    cluster = body.conversationsIssuesCluster
    if cluster is not None and not _cluster_in_org(cluster, space.org_id):
        raise BadRequest("conversationsIssuesCluster: no matching conversations issues cluster")
    for _ in range(CREATE_ATTEMPTS):
        now = now_iso()
        change_request = ChangeRequest(
            id=new_id(), space_id=space.id, org_id=space.org_id, number=space.change_requests + 1,
            status="open", subject=body.subject or "", created_by=caller.user_id, created_at=now,
            updated_at=now, revision=space.revision, revision_initial=space.revision,
            agent_task_id=body.agentTaskId, conversations_issues_cluster=cluster)
        try:
            Transaction(cr_store.create_ops(change_request, space.change_requests)).commit()
        except TransactionConflict:
            fresh = space_store.get_space(space_id)
            if fresh is None or fresh.deleted_at is not None:
                raise NotFound("No matching space") from None
            if fresh.org_id != space.org_id:  # transferred meanwhile: the caller's rights are the new org's
                access = space_access(caller, space_id)
                access.require("edit", "create change requests")
                assert isinstance(access.node, Space)
                fresh = access.node
            space = fresh
            continue
        return change_request_view(change_request, space, access.member)
    raise Conflict("Too many change requests were created in this space at once; try again")


# --- update -------------------------------------------------------------------------------------------------
def update_change_request(caller: Caller, space_id: str, ref: str,
                          body: UpdateChangeRequest) -> ChangeRequestView:
    """Subject, description and status (draft, open, archived: merging is its own operation), in one
    write; a status change moves the space's counters in the same transaction."""
    opened = open_change_request(caller, space_id, ref, "edit", "change this change request")
    change_request = opened.change_request
    if change_request.status == "merged":
        raise Conflict("This change request is merged: it can no longer be changed")
    changed = replace(change_request, updated_at=next_updated_at(change_request.updated_at))
    if body.subject is not None:
        changed.subject = body.subject
    if body.description is not None:
        changed.description = description_value(body.description)
    if body.status is not None and body.status != change_request.status:
        status_flow.check_transition(change_request.status, body.status)
        changed.status = body.status
    try:
        Transaction(cr_store.update_ops(change_request, changed)).commit()
    except TransactionConflict:
        raise Conflict("The change request changed meanwhile (its status moved): nothing was changed; "
                       "read it again and retry") from None
    fresh = cr_store.get_change_request(space_id, change_request.id)
    if fresh is None:
        raise NotFound(NO_CHANGE_REQUEST)
    return change_request_view(fresh, opened.space, opened.access.member)
