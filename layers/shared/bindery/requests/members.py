"""Request bodies of the member, team and team-member endpoints."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from bindery.requests.common import Body, RoleOrGuest

TeamTitle = Annotated[str, Field(min_length=1, max_length=64)]
TeamMemberRole = Literal["owner", "member"]
UserRef = Annotated[str, Field(min_length=1, max_length=320)]
# One membership change costs two writes of a transaction's 100 (see store.teams): past 49 changes a
# request could no longer be all-or-nothing, so it is refused rather than half applied.
MAX_MEMBER_CHANGES = 49


class UpdateMember(Body):
    role: RoleOrGuest


class CreateTeam(Body):
    title: TeamTitle
    members: list[UserRef] = Field(default_factory=list, max_length=MAX_MEMBER_CHANGES)


class UpdateTeam(Body):
    title: TeamTitle


class TeamMembership(Body):
    role: TeamMemberRole


class UpdateTeamMembers(Body):
    """`add` and `remove` take user ids or emails; `memberships` sets the team role of user ids."""

    add: list[UserRef] = Field(default_factory=list, max_length=MAX_MEMBER_CHANGES)
    remove: list[UserRef] = Field(default_factory=list, max_length=MAX_MEMBER_CHANGES)
    memberships: dict[str, TeamMembership] = Field(default_factory=dict, max_length=MAX_MEMBER_CHANGES)


class AddTeamMember(Body):
    role: TeamMemberRole | None = None
