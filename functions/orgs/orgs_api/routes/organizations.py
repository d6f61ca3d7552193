"""/orgs and /orgs/{organizationId}: list, create, read, update, join and ping."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body

from bindery.api.dependencies import page_limit
from bindery.api.responses.organizations import Organization, OrganizationList, Ping
from bindery.api.route_params import MemberOf, PageCursor, PageLimit, Who
from bindery.api.wire.lists import list_page
from bindery.api.wire.organizations import org_model
from bindery.domain import organizations as domain
from bindery.domain.organizations import OrgView
from bindery.requests.organizations import CreateOrganization, UpdateOrganization

router = Router()


def _wire(view: OrgView) -> Organization:
    return org_model(view.org, view.role)


@router.get("/orgs")
def list_orgs(
    who: Who,
    page: PageCursor = None,
    limit: PageLimit = None,
) -> OrganizationList:
    found = domain.list_orgs(who, page_limit(limit), page)
    return list_page(OrganizationList, found, _wire)


@router.post("/orgs", status_code=201)
def create_org(
    who: Who, body: Annotated[CreateOrganization, Body()],
) -> Organization:
    return _wire(domain.create_org(who, body))


@router.get("/orgs/<organizationId>")
def get_org(access: MemberOf) -> Organization:
    return org_model(access.org, access.role)


@router.patch("/orgs/<organizationId>")
def update_org(
    access: MemberOf, body: Annotated[UpdateOrganization, Body()],
) -> Organization:
    return _wire(domain.update_org(access, body))


@router.post("/orgs/<organizationId>/join", status_code=204)
def join_org(organizationId: str, who: Who) -> Response[str]:
    domain.join_org(who, organizationId)
    return Response(status_code=204, body="")


@router.post("/orgs/<organizationId>/ping")
def ping(access: MemberOf) -> Ping:
    domain.ping(access)
    return Ping()
