"""Members function: one router per sub-resource under the organization, each writing its full paths.
Invitations (by email and by link), which an organization makes rarely, are imported on the first
request that needs one (bindery.api.http.Resolver.include_later), or before the snapshot under SnapStart."""

from __future__ import annotations

from bindery.api.http import api_handler, create_app
from members_api.routes import members, team_members, teams

app = create_app("members")
app.include_router(members.router)
app.include_router(teams.router)
app.include_router(team_members.router)
app.include_later("members_api.routes.invites", "members_api.routes.link_invites")

lambda_handler = api_handler(app)
