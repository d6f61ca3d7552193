"""ORG/agent-instructions."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body

from bindery.api.route_params import MemberOf
from bindery.api.schemas.organizations import UpdateAgentInstructions
from bindery.api.wire.models.organizations import OrganizationAgentInstructions
from bindery.domain import organizations as domain

router = Router()


@router.get("")
def get_instructions(access: MemberOf) -> OrganizationAgentInstructions:
    return OrganizationAgentInstructions.model_validate(domain.agent_instructions(access))


@router.put("")
def put_instructions(
    access: MemberOf, body: Annotated[UpdateAgentInstructions, Body()],
) -> OrganizationAgentInstructions:
    instructions = body.instructions.model_dump(mode="json")
    return OrganizationAgentInstructions.model_validate(domain.set_agent_instructions(access, instructions))
