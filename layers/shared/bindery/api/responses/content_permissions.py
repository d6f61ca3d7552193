"""Who holds which role on a space or collection, and which spaces a member holds a role on, as the
reference spec declares them: apart from api/responses/spaces.py, since they show users and teams,
whose shapes a space (and a site space, an installation on a space) does not name."""

from __future__ import annotations

from bindery.api.responses.base import ListPage, WireModel
from bindery.api.responses.common import MemberRole
from bindery.api.responses.spaces import Space
from bindery.api.responses.users import OrganizationTeam, User


class MemberContentPermission(WireModel):
    """A space a member holds a role on, as the caller sees it."""

    permission: MemberRole
    space: Space


class MemberContentPermissionList(ListPage):
    items: list[MemberContentPermission]


class UserContentPermission(WireModel):
    permission: MemberRole
    user: User


class UserContentPermissionList(ListPage):
    items: list[UserContentPermission]


class TeamContentPermission(WireModel):
    permission: MemberRole
    team: OrganizationTeam


class TeamContentPermissionList(ListPage):
    items: list[TeamContentPermission]
