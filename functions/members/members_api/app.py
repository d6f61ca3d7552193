"""Members function: one router per sub-resource under the organization, each writing its full paths."""

from __future__ import annotations

from bindery.api.http import api_handler, create_app
from members_api.routes import invites, link_invites, members, team_members, teams

app = create_app("members")
app.include_router(members.router)
app.include_router(teams.router)
app.include_router(team_members.router)
app.include_router(invites.router)
app.include_router(link_invites.router)

lambda_handler = api_handler(app)
