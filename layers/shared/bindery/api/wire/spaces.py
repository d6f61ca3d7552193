"""Space shape, with `permissions` computed from the caller's effective role."""

from __future__ import annotations

from typing import Any

from bindery.api.wire.git_sync import git_state_to_wire
from bindery.api.wire.urls import api_url, app_url
from bindery.role_order import at_least
from bindery.store.spaces import Space


def space_permissions(role: str | None, edit_mode: str) -> dict[str, bool]:
    """The Flags table of docs/permissions.md. Editors submit change requests and reviewers merge them
    (GitBook's split), so `merge` needs `review`; invite links and integrations are the space admin's.
    A locked space refuses every content change and merge, whoever asks (git sync writes content)."""
    editable = edit_mode != "locked"
    return {
        "view": at_least(role, "read"), "access": at_least(role, "read"),
        "admin": at_least(role, "admin"), "viewInviteLinks": at_least(role, "admin"),
        "edit": editable and at_least(role, "edit"), "triggerGitSync": editable and at_least(role, "edit"),
        "comment": at_least(role, "comment"), "merge": editable and at_least(role, "review"),
        "review": at_least(role, "review"), "installIntegration": at_least(role, "admin"),
    }


def space_to_wire(space: Space, role: str | None) -> dict[str, Any]:
    body: dict[str, Any] = {
        "object": "space", "id": space.id, "title": space.title, "emoji": space.emoji or "",
        "visibility": space.visibility, "createdAt": space.created_at, "updatedAt": space.updated_at,
        "editMode": space.edit_mode, "mergeRules": space.merge_rules,
        "urls": {"location": api_url(f"/spaces/{space.id}"), "app": app_url(f"/s/{space.id}")},
        "organization": space.org_id, "revision": space.revision, "defaultLevel": space.default_level,
        "comments": space.comments, "changeRequests": space.change_requests,
        "changeRequestsOpen": space.change_requests_open,
        "changeRequestsDraft": space.change_requests_draft,
        "permissions": space_permissions(role, space.edit_mode),
    }
    if space.icon:
        body["urls"]["icon"] = space.icon
    if space.git_sync:
        body["gitSync"] = git_state_to_wire(space.git_sync)
    for key, value in (("parent", space.parent), ("language", space.language),
                       ("deletedAt", space.deleted_at)):
        if value is not None:
            body[key] = value
    return body
