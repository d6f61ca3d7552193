"""ORG/translations-glossary: list the entries, apply a batch of operations, read one entry."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body

from bindery.api.dependencies import page_limit
from bindery.api.responses.translations import GlossaryEntry, GlossaryEntryList
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.lists import list_page
from bindery.api.wire.translations import entry_to_wire
from bindery.domain.translations import glossary as domain
from bindery.requests.translations import UpdateGlossary

router = Router()


@router.get("/orgs/<organizationId>/translations-glossary")
def list_entries(organizationId: str, who: Who, *,
                 page: PageCursor = None, limit: PageLimit = None) -> GlossaryEntryList:
    found = domain.list_entries(who, organizationId, limit=page_limit(limit), page=page)
    return list_page(GlossaryEntryList, found, entry_to_wire)


@router.put("/orgs/<organizationId>/translations-glossary", status_code=204)
def update_entries(organizationId: str, who: Who,
                   body: Annotated[UpdateGlossary, Body()]) -> Response[str]:
    domain.apply_operations(who, organizationId, body.operations)
    return Response(status_code=204, body="")


@router.get("/orgs/<organizationId>/translations-glossary/<glossaryEntryId>")
def get_entry(organizationId: str, glossaryEntryId: str, who: Who) -> GlossaryEntry:
    return entry_to_wire(domain.get_entry(who, organizationId, glossaryEntryId))
