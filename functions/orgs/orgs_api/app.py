"""Organizations function: routes mounted from one router per sub-resource."""

from __future__ import annotations

from bindery.api.http import api_handler, create_app
from orgs_api.routes import agent_instructions, email_domains, organizations

app = create_app("orgs")
app.include_router(organizations.router)
app.include_router(agent_instructions.router)
app.include_router(email_domains.router)

lambda_handler = api_handler(app)
