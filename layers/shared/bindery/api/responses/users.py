"""User, OrganizationMember and the team shapes (OrganizationTeam, OrganizationTeamMember)."""

from __future__ import annotations

from typing import Literal

from bindery.api.responses.base import ListPage, Omitted, WireModel
from bindery.api.responses.common import Location, MemberRoleOrGuest, Timestamp


class User(WireModel):
    object: Literal["user"]
    id: str
    displayName: str
    email: Omitted[str] = None
    photoURL: Omitted[str] = None
    urls: Location


class OrganizationMember(WireModel):
    object: Literal["member"]
    id: str
    role: MemberRoleOrGuest
    user: User
    disabled: bool
    joinedAt: Timestamp
    lastSeenAt: Omitted[Timestamp] = None
    sso: bool
    spaces: int
    teams: int


class OrganizationMemberList(ListPage):
    items: list[OrganizationMember]


class TeamPermissions(WireModel):
    admin: bool
    view: bool


class OrganizationTeam(WireModel):
    object: Literal["team"]
    id: str
    title: str
    members: int
    spaces: int
    createdAt: Timestamp
    permissions: TeamPermissions


class OrganizationTeamList(ListPage):
    items: list[OrganizationTeam]


class TeamMember(WireModel):
    role: Literal["owner", "member"]


class ViewPermission(WireModel):
    view: bool


class OrganizationTeamMember(WireModel):
    organization: OrganizationMember
    team: TeamMember
    permissions: ViewPermission


class OrganizationTeamMemberList(ListPage):
    items: list[OrganizationTeamMember]


class MemberTeam(WireModel):
    team: OrganizationTeam
    member: TeamMember


class MemberTeamList(ListPage):
    items: list[MemberTeam]
