"""ORG/invites: invite users by email (admins), and join the organization with an invite link."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body

from bindery.api.responses.common import Empty
from bindery.api.responses.organizations import InvitedUsers
from bindery.api.route_params import MemberOf, Who
from bindery.api.wire.invites import invited_users_to_wire
from bindery.domain import invites as domain
from bindery.requests.invites import InviteUsersToOrganization

router = Router()


@router.post("/orgs/<organizationId>/invites")
def invite_users(
    access: MemberOf, body: Annotated[InviteUsersToOrganization, Body()],
) -> InvitedUsers:
    return invited_users_to_wire(domain.invite_users(access, body))


@router.post("/orgs/<organizationId>/invites/<inviteId>")
def join_with_invite(
    organizationId: str, inviteId: str, who: Who,
) -> Empty:
    # Not `organization`: callers are not members yet, and must not be turned away with a 404.
    domain.join_with_link(who, organizationId, inviteId)
    return Empty()
