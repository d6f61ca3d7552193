"""ORG/agent-instructions."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body

from bindery.api.responses.organizations import OrganizationAgentInstructions
from bindery.api.route_params import MemberOf
from bindery.api.wire.organizations import agent_instructions_to_wire
from bindery.domain import organizations as domain
from bindery.domain.organizations import AgentInstructions
from bindery.requests.organizations import UpdateAgentInstructions

router = Router()


def _wire(found: AgentInstructions) -> OrganizationAgentInstructions:
    return agent_instructions_to_wire(found.org_id, instructions=found.instructions,
                                      updated_at=found.updated_at, updated_by=found.updated_by)


@router.get("/orgs/<organizationId>/agent-instructions")
def get_instructions(access: MemberOf) -> OrganizationAgentInstructions:
    return _wire(domain.agent_instructions(access))


@router.put("/orgs/<organizationId>/agent-instructions")
def put_instructions(
    access: MemberOf, body: Annotated[UpdateAgentInstructions, Body()],
) -> OrganizationAgentInstructions:
    instructions = body.instructions.model_dump(mode="json")
    return _wire(domain.set_agent_instructions(access, instructions))
