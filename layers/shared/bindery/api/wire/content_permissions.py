"""The content permission shapes: who holds which role on a space or collection, and which spaces a
member holds a role on (bindery.api.responses.content_permissions). The domain's results are read
through the protocols below (api.wire imports no domain)."""

from __future__ import annotations

from typing import Protocol

from bindery.api.responses.content_permissions import (
    MemberContentPermission,
    TeamContentPermission,
    UserContentPermission,
)
from bindery.api.wire.spaces import space_fields
from bindery.api.wire.teams import team_fields
from bindery.api.wire.users import user_fields
from bindery.store.spaces import Space
from bindery.store.teams import Team
from bindery.store.users import User


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
