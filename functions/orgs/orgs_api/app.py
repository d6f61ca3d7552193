"""Organizations function: routes mounted from one router per sub-resource."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from bindery.http import create_app
from orgs_api.routes import agent_instructions, email_domains, organizations

app = create_app("orgs")
app.include_router(organizations.router)
app.include_router(agent_instructions.router, prefix="/orgs/<organizationId>/agent-instructions")
app.include_router(email_domains.router, prefix="/email-domains")


def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
