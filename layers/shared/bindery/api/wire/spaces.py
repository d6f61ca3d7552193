"""Space shape, with `permissions` computed from the caller's effective role, and the content permission
shapes (who holds which role on a space or collection, and which spaces a member holds a role on). The
domain's results are read through the protocols below (api.wire imports no domain)."""

from __future__ import annotations

from typing import Any, Protocol

from bindery.api.responses.spaces import (
    MemberContentPermission,
    TeamContentPermission,
    UserContentPermission,
)
from bindery.api.responses.spaces import Space as WireSpace
from bindery.api.wire.git_sync import git_state_fields
from bindery.api.wire.teams import team_fields
from bindery.api.wire.urls import api_url, app_url
from bindery.api.wire.users import user_fields
from bindery.domain.access.role_order import at_least
from bindery.store.spaces import Space
from bindery.store.teams import Team
from bindery.store.users import User


class SpaceShown(Protocol):
    """A space with the caller's role on it: what bindery.domain.spaces.records.SpaceView holds."""

    @property
    def space(self) -> Space: ...
    @property
    def role(self) -> str | None: ...


class UserGrantShown(Protocol):
    """A user's grant: what bindery.domain.access.grant_listings.UserGrantView holds (`show_email` is false
    for guests, who see users without their email everywhere)."""

    @property
    def permission(self) -> str: ...
    @property
    def user(self) -> User: ...
    @property
    def show_email(self) -> bool: ...


class TeamGrantShown(Protocol):
    """A team's grant: what bindery.domain.access.grant_listings.TeamGrantView holds (`admin` and `view`
    are the caller's on the team, see team_fields)."""

    @property
    def permission(self) -> str: ...
    @property
    def team(self) -> Team: ...
    @property
    def admin(self) -> bool: ...
    @property
    def view(self) -> bool: ...


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


def member_space_to_wire(permission: str, space: Space, role: str | None) -> MemberContentPermission:
    """A space a member was granted `permission` on, with `permissions` from the caller's `role` on it."""
    return MemberContentPermission.model_validate(
        {"permission": permission, "space": space_fields(space, role)})


def user_permission_to_wire(grant: UserGrantShown) -> UserContentPermission:
    wired = user_fields(grant.user)
    if not grant.show_email:
        wired.pop("email", None)
    return UserContentPermission.model_validate({"permission": grant.permission, "user": wired})


def team_permission_to_wire(grant: TeamGrantShown) -> TeamContentPermission:
    team = team_fields(grant.team, admin=grant.admin, view=grant.view)
    return TeamContentPermission.model_validate({"permission": grant.permission, "team": team})
