"""What an organization, a space and a site have of integrations: ORG/integrations (the marketplace as
the organization sees it), ORG/installations, SPACE/integrations."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query

from bindery.api.dependencies import page_limit
from bindery.api.route_params import MemberOf, PageCursor, PageLimit, Who
from bindery.api.schemas.integrations import Category, Scope, Target
from bindery.api.wire.models.integrations import InstalledIntegrationList, IntegrationList
from bindery.domain.integrations import content_installs, installations, publishing
from bindery.store.integrations import IntegrationFilter
from integrations_api import shapes
from integrations_api.routes.integrations import BlockDomain

router = Router()
Search = Annotated[str | None, Query(max_length=100)]


@router.get("/orgs/<organizationId>/integrations")
def list_org_integrations(
    organizationId: str,  # noqa: N803
    access: MemberOf, who: Who, *,
    page: PageCursor = None,
    limit: PageLimit = None,
    search: Search = None,
    category: Annotated[Category | None, Query()] = None,
    blockDomain: BlockDomain = None,  # noqa: N803
    blocks: Annotated[bool | None, Query()] = None,
    contentSources: Annotated[bool | None, Query()] = None,  # noqa: N803
    owner: Annotated[str | None, Query(max_length=100)] = None,
    scope: Annotated[Scope | None, Query()] = None,
    target: Annotated[Target | None, Query()] = None,
) -> IntegrationList:
    """Public integrations with the organization's own private and unlisted ones (its members)."""
    narrow = IntegrationFilter(search=search, category=category, block_domain=blockDomain, blocks=blocks,
                               content_sources=contentSources, scope=scope, target=target)
    found = publishing.list_integrations(who, narrow, owner=owner, listed_for=access.org.id,
                                         limit=page_limit(limit), page=page)
    return IntegrationList.model_validate(found.map(shapes.integration).to_wire())


@router.get("/orgs/<organizationId>/installations")
def list_org_installations(organizationId: str, access: MemberOf, who: Who, *,  # noqa: N803
                           page: PageCursor = None, limit: PageLimit = None,
                           search: Search = None) -> InstalledIntegrationList:
    found = installations.org_installations(access, who, search, limit=page_limit(limit), page=page)
    return InstalledIntegrationList.model_validate(found.map(shapes.installed).to_wire())


@router.get("/spaces/<spaceId>/integrations")
def list_space_integrations(spaceId: str, who: Who, *, search: Search = None) -> IntegrationList:  # noqa: N803
    found = content_installs.integrations_on(who, "space", spaceId, None, search)
    return IntegrationList.model_validate(found.map(shapes.integration).to_wire())
