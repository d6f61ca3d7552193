"""ORG/translations and ORG/translations/{translationId}: list, create, read, change the instructions,
delete, run."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Body

from bindery.api.dependencies import page_limit
from bindery.api.responses.translations import Translation, TranslationList
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.lists import list_page
from bindery.api.wire.translations import translation_to_wire
from bindery.domain.translations import records as domain
from bindery.domain.translations.records import TranslationView
from bindery.requests.translations import CreateTranslation, UpdateTranslation

router = Router()


def _wire(view: TranslationView) -> Translation:
    return translation_to_wire(view.translation, can_edit=view.can_edit)


@router.get("/orgs/<organizationId>/translations")
def list_translations(organizationId: str, who: Who, *,
                      page: PageCursor = None, limit: PageLimit = None) -> TranslationList:
    found = domain.list_translations(who, organizationId, limit=page_limit(limit), page=page)
    return list_page(TranslationList, found, _wire)


@router.post("/orgs/<organizationId>/translations", status_code=201)
def create_translation(organizationId: str, who: Who,
                       body: Annotated[CreateTranslation, Body()]) -> Translation:
    return _wire(domain.create_translation(who, organizationId, body))


@router.get("/orgs/<organizationId>/translations/<translationId>")
def get_translation(organizationId: str, translationId: str, who: Who) -> Translation:
    return _wire(domain.get_translation(who, organizationId, translationId))


@router.put("/orgs/<organizationId>/translations/<translationId>")
def update_translation(organizationId: str, translationId: str, who: Who,
                       body: Annotated[UpdateTranslation, Body()]) -> Translation:
    instructions = body.instructions.model_dump()
    return _wire(domain.update_instructions(who, organizationId, translationId, instructions))


@router.delete("/orgs/<organizationId>/translations/<translationId>", status_code=204)
def delete_translation(organizationId: str, translationId: str, who: Who) -> Response[str]:
    domain.delete_translation(who, organizationId, translationId)
    return Response(status_code=204, body="")


@router.post("/orgs/<organizationId>/translations/<translationId>/run", status_code=204)
def run_translation(organizationId: str, translationId: str, who: Who) -> Response[str]:
    domain.run_translation(who, organizationId, translationId)
    return Response(status_code=204, body="")
