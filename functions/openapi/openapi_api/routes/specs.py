"""ORG/openapi and ORG/openapi/{specSlug}: list, create, read, replace the source, change the
visibility, delete. Processing happens in the background (OpenAPIProcessingWorker)."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body

from bindery.api.dependencies import page_limit
from bindery.api.responses.openapi import OpenAPISpec, OpenAPISpecList
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.lists import list_page
from bindery.api.wire.openapi import spec_to_wire
from bindery.domain.openapi import specs as domain
from bindery.domain.openapi.specs import SpecView
from bindery.requests.openapi import CreateSpec, PutSpec, UpdateSpec

router = Router()


def _wire(view: SpecView) -> OpenAPISpec:
    return spec_to_wire(view.spec, can_edit=view.can_edit, published_url=view.published_url)


@router.get("/orgs/<organizationId>/openapi")
def list_specs(organizationId: str, who: Who, *,
               page: PageCursor = None, limit: PageLimit = None) -> OpenAPISpecList:
    found = domain.list_specs(who, organizationId, limit=page_limit(limit), page=page)
    return list_page(OpenAPISpecList, found, _wire)


@router.post("/orgs/<organizationId>/openapi", status_code=201)
def create_spec(organizationId: str, who: Who, body: Annotated[CreateSpec, Body()]) -> OpenAPISpec:
    return _wire(domain.create_spec(who, organizationId, body.slug, body.source))


@router.get("/orgs/<organizationId>/openapi/<specSlug>")
def get_spec(organizationId: str, specSlug: str, who: Who) -> OpenAPISpec:
    return _wire(domain.get_spec(who, organizationId, specSlug))


@router.put("/orgs/<organizationId>/openapi/<specSlug>",
            responses={200: {"description": "OpenAPI specification has been updated"},
                       201: {"description": "OpenAPI specification has been created"}})
def put_spec(organizationId: str, specSlug: str, who: Who,
             body: Annotated[PutSpec, Body()]) -> Response[OpenAPISpec]:
    """200 with the updated spec, or 201 when the slug named none (the spec is created)."""
    view, created = domain.put_spec(who, organizationId, specSlug, body.source)
    return Response(status_code=201 if created else 200, content_type="application/json", body=_wire(view))


@router.patch("/orgs/<organizationId>/openapi/<specSlug>")
def update_spec(organizationId: str, specSlug: str, who: Who,
                body: Annotated[UpdateSpec, Body()]) -> OpenAPISpec:
    return _wire(domain.set_visibility(who, organizationId, specSlug, body.visibility))


@router.delete("/orgs/<organizationId>/openapi/<specSlug>", status_code=204)
def delete_spec(organizationId: str, specSlug: str, who: Who) -> Response[str]:
    domain.delete_spec(who, organizationId, specSlug)
    return Response(status_code=204, body="")
