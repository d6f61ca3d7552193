"""Team shapes: OrganizationTeam, and OrganizationTeamMember (a member as seen from one team)."""

from __future__ import annotations

from typing import Any

from bindery.api.wire.users import member_to_wire
from bindery.store.members import Member
from bindery.store.teams import Team, TeamLink


def team_to_wire(team: Team, *, admin: bool, view: bool) -> dict[str, Any]:
    """`admin`: the caller may manage the team; `view`: the caller may see it and list its members."""
    return {"object": "team", "id": team.id, "title": team.title, "members": team.members,
            "spaces": team.spaces, "createdAt": team.created_at,
            "permissions": {"admin": admin, "view": view}}


def team_member_to_wire(member: Member, link: TeamLink) -> dict[str, Any]:
    # Whoever may list a team's members may see each of them.
    return {"organization": member_to_wire(member), "team": {"role": link.role},
            "permissions": {"view": True}}
