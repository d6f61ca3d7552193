"""Space shape, with `permissions` computed from the caller's effective role (the content permission
shapes, which show users and teams, are api/wire/content_permissions.py). The domain's results are read
through the protocol below (api.wire imports no domain)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from bindery.api.responses.spaces import Space as WireSpace
from bindery.api.wire.urls import api_url, app_url
from bindery.domain.access.role_order import at_least
from bindery.store.spaces import Space


class SpaceShown(Protocol):
    """A space with the caller's role on it: what bindery.domain.spaces.records.SpaceView holds."""

    @property
    def space(self) -> Space: ...
    @property
    def role(self) -> str | None: ...


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


def git_state_fields(state: Mapping[str, Any]) -> dict[str, Any]:
    """GitSyncState, from the space item's `gitSync` attribute (stored in that shape)."""
    return {name: state[name] for name in ("repoName", "installationProvider", "integration", "url",
                                            "updatedAt") if state.get(name) is not None}


def space_fields(space: Space, role: str | None) -> dict[str, Any]:
    """The body, for shapes that embed a space in their own body (site spaces, link usages);
    `space_model` is the same space as its response model."""
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
        body["gitSync"] = git_state_fields(space.git_sync)
    for key, value in (("parent", space.parent), ("language", space.language),
                       ("deletedAt", space.deleted_at)):
        if value is not None:
            body[key] = value
    return body


def space_model(view: SpaceShown) -> WireSpace:
    return WireSpace.model_validate(space_fields(view.space, view.role))
