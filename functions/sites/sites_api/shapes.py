"""The site's parts as the domain found them (bindery.domain.sites.views), turned into wire bodies."""

from __future__ import annotations

from typing import Any

from bindery.api.wire.sites import section_group_to_wire, section_to_wire, site_space_to_wire
from bindery.domain.sites.views import GroupView, SectionView, SiteSpaceView


def site_space(view: SiteSpaceView) -> dict[str, Any]:
    return site_space_to_wire(view.site_space, view.space, view.role, view.site, org=view.org,
                              default=view.default, published_path=view.published_path)


def section(view: SectionView) -> dict[str, Any]:
    return section_to_wire(view.section, view.site, org=view.org, default=view.default,
                           published_path=view.published_path,
                           site_spaces=[site_space(ss) for ss in view.site_spaces])


def group(view: GroupView) -> dict[str, Any]:
    return section_group_to_wire(view.group, children=[entry(child) for child in view.children],
                                 sections=[section(s) for s in view.sections()])


def entry(view: SectionView | GroupView) -> dict[str, Any]:
    return section(view) if isinstance(view, SectionView) else group(view)
