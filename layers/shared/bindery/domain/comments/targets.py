"""What comments are posted on: a space (its current revision; its `comments` counter) or a change request
of the space (the change request's revision; its own `comments` counter), and who may do what there.

Every comment operation opens its target first: the caller's access to the space (any role reads,
`comment` posts, replies, reacts and resolves; no role is a 404), then, for a change request, its item
(GetItem). A comment's author, or an `admin` of the space, may edit and delete it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from bindery.domain.access.auth import Caller
from bindery.domain.access.content import ContentAccess, space_access
from bindery.domain.access.roles import at_least
from bindery.domain.change_requests.records import NO_CHANGE_REQUEST
from bindery.domain.change_requests.records import find as find_change_request
from bindery.domain.people import shows_emails
from bindery.platform.errors import BadRequest, Forbidden, NotFound
from bindery.store import Op, blobs
from bindery.store import comments as store
from bindery.store import revisions as revision_store
from bindery.store.change_requests import ChangeRequest
from bindery.store.comments import OPEN, RESOLVED, Post
from bindery.store.spaces import Space


@dataclass(frozen=True)
class TargetRef:
    """The target as the path names it."""

    space_id: str
    change_request_id: str | None = None  # the path's: an id or a number


@dataclass(frozen=True)
class Target:
    access: ContentAccess
    space: Space
    change_request: ChangeRequest | None
    user_id: str

    @property
    def change_request_id(self) -> str | None:
        return self.change_request.id if self.change_request else None

    @property
    def token(self) -> str:
        return store.target_token(self.change_request_id)

    @property
    def revision(self) -> str:
        return self.change_request.revision if self.change_request else self.space.revision

    def counter_op(self, delta: int, resolved: int = 0) -> Op:
        """Moves the target's open (`delta`) and resolved comment counters."""
        if self.change_request:
            return store.change_request_counter_op(self.space.id, self.change_request.id, delta, resolved)
        return store.space_counter_op(self.space.id, delta, resolved)

    def comments_in(self, status: str | None) -> int:
        """How many comments the target holds in `status` (None: all), from its counters."""
        held = self.change_request or self.space
        return {OPEN: held.comments, RESOLVED: held.comments_resolved}.get(
            status or "", held.comments + held.comments_resolved)

    # --- who may do what ------------------------------------------------------------------------------
    @property
    def is_admin(self) -> bool:
        return at_least(self.access.role, "admin")

    @property
    def can_comment(self) -> bool:
        return at_least(self.access.role, "comment")

    @property
    def hides_emails(self) -> bool:
        """Guests see users without their email, as everywhere else."""
        return not shows_emails(self.access.member)

    def require_comment(self, action: str) -> None:
        self.access.require("comment", action)

    def can_change(self, post: Post) -> bool:
        return self.is_admin or (post.posted_by == self.user_id and self.can_comment)

    def require_change(self, post: Post, action: str) -> None:
        if not self.can_change(post):
            raise Forbidden(f"Only its author or an admin of the space may {action}")


def open_target(caller: Caller, ref: TargetRef) -> Target:
    access = space_access(caller, ref.space_id)
    assert isinstance(access.node, Space)
    change_request = None
    if ref.change_request_id is not None:
        # The path names a change request by id or by number, as every change-request route does.
        change_request = find_change_request(ref.space_id, ref.change_request_id)
        if change_request is None:
            raise NotFound(NO_CHANGE_REQUEST)
    return Target(access=access, space=access.node, change_request=change_request, user_id=caller.user_id)


# --- what a comment points at ---------------------------------------------------------------------------
def _nodes(value: Any) -> Iterator[Mapping[str, Any]]:
    """Every node of a document, depth first (children and fragments: table cells, annotations...)."""
    if isinstance(value, Mapping):
        if value.get("object") in ("block", "inline", "fragment"):
            yield value
        for name in ("nodes", "fragments"):
            for child in value.get(name) or []:
                yield from _nodes(child)
    elif isinstance(value, list):
        for child in value:
            yield from _nodes(child)


def _has_cell(table: Mapping[str, Any], cell: Mapping[str, str]) -> bool:
    data = table.get("data") or {}
    records, columns = data.get("records") or {}, data.get("definition") or {}
    return cell["record"] in records and cell["definition"] in columns


def check_target(target: Target, page: str | None, node: str | None,
                 table_cell: Mapping[str, str] | None) -> None:
    """A comment's page, node (a block or inline key of the page's document) and table cell (a record and a
    column of a table block of that page, the one named `node` if given) must exist in the target's
    current revision: otherwise 400, naming the field."""
    if page is None:
        if node is not None or table_cell is not None:
            raise BadRequest(f"page: required to comment on a {'node' if node is not None else 'table cell'}")
        return
    revision = revision_store.get_revision(target.space.id, target.revision)
    located = revision_store.load_tree(revision).page(page) if revision else None
    if located is None:
        raise BadRequest(f"page: no page {page} in the current revision")
    if node is None and table_cell is None:
        return
    digest = located.entry.get("documentId")
    document = blobs.get_value(target.space.id, digest) if digest else {}
    found = {str(item["key"]): item for item in _nodes(document.get("nodes") or []) if item.get("key")}
    if node is not None and node not in found:
        raise BadRequest(f"node: no node {node} in the page's document")
    if table_cell is not None:
        tables = [found[node]] if node is not None else [item for item in found.values()
                                                          if item.get("type") == "table"]
        if not any(item.get("type") == "table" and _has_cell(item, table_cell) for item in tables):
            raise BadRequest("tableCell: no such record and column in a table of the page")
