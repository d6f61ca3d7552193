"""A site's published profile: what a reader's browser needs to show it (docs/sites.md).

One Query of the site's partition (site, site spaces, sections, groups, customization, overrides, share
links), one BatchGetItem of the organization and the reader's membership, and one of the spaces; the
integration scripts: one Query of the site's installations and one BatchGetItem of their integrations.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bindery.domain.access.auth import Caller
from bindery.domain.integrations.site_scripts import site_scripts
from bindery.domain.sites.customization import site_settings, site_space_settings
from bindery.domain.sites.records import open_for_reader
from bindery.domain.sites.views import SiteViews, site_views
from bindery.store.orgs import Organization
from bindery.store.sites import Site


@dataclass(frozen=True)
class Script:
    """A script an integration installed on the site injects (bindery.domain.integrations.site_scripts)."""

    script: str
    cookies: bool
    content_security_policy: str | None = None


@dataclass(frozen=True)
class PublishedSite:
    site: Site
    org: Organization
    views: SiteViews
    settings: dict[str, Any]
    site_space_settings: dict[str, dict[str, Any]]
    scripts: list[Script]

    @property
    def has_sections(self) -> bool:
        return bool(self.views.structure.sections)


def get_published(caller: Caller, org_id: str, site_id: str, share_key: str | None) -> PublishedSite:
    reader = open_for_reader(caller, org_id, site_id, share_key)
    structure = reader.structure
    views = site_views(structure, reader.org, reader.member)
    per_site_space = {site_space_id: site_space_settings(structure, site_space_id)
                      for site_space_id in views.site_spaces}
    scripts = [Script(found.script, found.cookies, found.content_security_policy)
               for found in site_scripts(structure.site.id)]
    return PublishedSite(structure.site, reader.org, views, site_settings(structure), per_site_space, scripts)
