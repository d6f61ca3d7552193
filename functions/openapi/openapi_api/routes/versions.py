"""ORG/openapi/{specSlug}/versions: the versions processing made, newest first, and their content.
`latest` names the newest wherever a version id goes."""

from __future__ import annotations

from aws_lambda_powertools.event_handler.api_gateway import Router

from bindery.api.dependencies import page_limit
from bindery.api.responses.openapi import OpenAPISpecContent, OpenAPISpecVersion, OpenAPISpecVersionList
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.lists import list_page
from bindery.api.wire.openapi import version_to_wire
from bindery.domain.openapi import versions as domain
from bindery.domain.openapi.versions import VersionView

router = Router()


def _wire(view: VersionView) -> OpenAPISpecVersion:
    return version_to_wire(view.spec, view.version, view.url)


@router.get("/orgs/<organizationId>/openapi/<specSlug>/versions")
def list_versions(organizationId: str, specSlug: str, who: Who, *,
                  page: PageCursor = None, limit: PageLimit = None) -> OpenAPISpecVersionList:
    found = domain.list_versions(who, organizationId, specSlug, limit=page_limit(limit), page=page)
    return list_page(OpenAPISpecVersionList, found, _wire)


@router.get("/orgs/<organizationId>/openapi/<specSlug>/versions/<versionId>")
def get_version(organizationId: str, specSlug: str, versionId: str, who: Who) -> OpenAPISpecVersion:
    return _wire(domain.get_version(who, organizationId, specSlug, versionId))


@router.get("/orgs/<organizationId>/openapi/<specSlug>/versions/<versionId>/content")
def get_version_content(organizationId: str, specSlug: str, versionId: str,
                        who: Who) -> OpenAPISpecContent:
    content = domain.get_content(who, organizationId, specSlug, versionId)
    return OpenAPISpecContent(filesystem=content.filesystem, url=content.view.url)
