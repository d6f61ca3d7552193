"""Members function: one router per sub-resource, mounted under the organization."""

from __future__ import annotations

from bindery.api.http import api_handler, create_app
from members_api.routes import invites, link_invites, members, team_members, teams

app = create_app("members")
app.include_router(members.router, prefix="/orgs/<organizationId>/members")
app.include_router(teams.router, prefix="/orgs/<organizationId>/teams")
app.include_router(team_members.router, prefix="/orgs/<organizationId>/teams/<teamId>/members")
app.include_router(invites.router, prefix="/orgs/<organizationId>/invites")
app.include_router(link_invites.router, prefix="/orgs/<organizationId>/link-invites")

lambda_handler = api_handler(app)
