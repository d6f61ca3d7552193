"""SITE/published: the site as its readers see it, with its structure and settings."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query

from bindery.api.responses.site_settings import PublishedContentSite
from bindery.api.route_params import Who
from bindery.api.wire.site_settings import published_site_to_wire
from bindery.api.wire.site_structure import site_space_to_wire, structure_entry_to_wire
from bindery.domain.sites import published

router = Router()


@router.get("/orgs/<organizationId>/sites/<siteId>/published")
def get_published(organizationId: str, siteId: str, who: Who,
                  shareKey: Annotated[str | None, Query(max_length=256)] = None,
                  ) -> PublishedContentSite:
    found = published.get_published(who, organizationId, siteId, shareKey)
    views = found.views
    structure = ([structure_entry_to_wire(entry) for entry in views.top] if found.has_sections
                 else [site_space_to_wire(view) for view in views.root_site_spaces()])
    scripts = [{"script": s.script, "cookies": s.cookies,
                **({"contentSecurityPolicy": s.content_security_policy} if s.content_security_policy else {})}
               for s in found.scripts]
    return published_site_to_wire(
        found.site, found.org, sections=found.has_sections, structure=structure, settings=found.settings,
        site_space_settings=found.site_space_settings, scripts=scripts)
