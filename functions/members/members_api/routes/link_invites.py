"""ORG/link-invites: the organization's invite links (admins only)."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body

from bindery.api.dependencies import page_limit
from bindery.api.responses.organizations import OrganizationInviteLink, OrganizationInviteLinkList
from bindery.api.route_params import MemberOf, PageCursor, PageLimit
from bindery.api.wire.invites import invite_link_item, invite_link_to_wire
from bindery.api.wire.lists import list_page
from bindery.domain import invites as domain
from bindery.requests.invites import CreateInviteLink, UpdateInviteLink

router = Router()


@router.get("/orgs/<organizationId>/link-invites")
def list_links(
    access: MemberOf,
    page: PageCursor = None,
    limit: PageLimit = None,
) -> OrganizationInviteLinkList:
    found = domain.list_links(access, page_limit(limit), page)
    return list_page(OrganizationInviteLinkList, found, invite_link_item)


@router.post("/orgs/<organizationId>/link-invites", status_code=201)
def create_link(
    access: MemberOf, body: Annotated[CreateInviteLink, Body()],
) -> OrganizationInviteLink:
    return invite_link_to_wire(domain.create_link(access, body))


@router.get("/orgs/<organizationId>/link-invites/<inviteId>")
def get_link(inviteId: str, access: MemberOf) -> OrganizationInviteLink:
    return invite_link_to_wire(domain.get_link(access, inviteId))


@router.patch("/orgs/<organizationId>/link-invites/<inviteId>")
def update_link(
    inviteId: str,
    access: MemberOf,
    body: Annotated[UpdateInviteLink, Body()],
) -> OrganizationInviteLink:
    return invite_link_to_wire(domain.update_link(access, inviteId, body))


@router.delete("/orgs/<organizationId>/link-invites/<inviteId>", status_code=204)
def delete_link(inviteId: str, access: MemberOf) -> Response[str]:
    domain.delete_link(access, inviteId)
    return Response(status_code=204, body="")
