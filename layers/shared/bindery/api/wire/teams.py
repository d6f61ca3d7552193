"""Team shapes: OrganizationTeam, OrganizationTeamMember (a member as seen from one team) and MemberTeam
(a team as seen from one member)."""

from __future__ import annotations

from typing import Any

from bindery.api.responses.users import MemberTeam, OrganizationTeam, OrganizationTeamMember
from bindery.api.wire.users import member_fields
from bindery.store.members import Member
from bindery.store.teams import Team, TeamLink


def team_fields(team: Team, *, admin: bool, view: bool) -> dict[str, Any]:
    """`admin`: the caller may manage the team; `view`: the caller may see it and list its members."""
    return {"object": "team", "id": team.id, "title": team.title, "members": team.members,
            "spaces": team.spaces, "createdAt": team.created_at,
            "permissions": {"admin": admin, "view": view}}


def team_model(team: Team, *, admin: bool, view: bool) -> OrganizationTeam:
    return OrganizationTeam.model_validate(team_fields(team, admin=admin, view=view))


def member_team_to_wire(team: Team, *, admin: bool, view: bool, role: str) -> MemberTeam:
    """One of a member's teams, with that member's `role` in it."""
    return MemberTeam.model_validate({"team": team_model(team, admin=admin, view=view),
                                      "member": {"role": role}})


def team_member_to_wire(member: Member, link: TeamLink) -> OrganizationTeamMember:
    # Whoever may list a team's members may see each of them.
    return OrganizationTeamMember.model_validate({"organization": member_fields(member),
                                                  "team": {"role": link.role}, "permissions": {"view": True}})
