"""Site operations for the micro-benchmark: a published site of 50 sections x 5 site spaces (issue 15),
written with the store's own operations (the API would take 250 calls to build it), then its published
profile read through the API as a docs front end would."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from bindery.engines.content.positions import between
from bindery.store import Transaction
from bindery.store import site_sections as section_store
from bindery.store import site_spaces as site_space_store
from bindery.store import sites as site_store
from bindery.store.site_sections import Section
from bindery.store.site_spaces import SiteSpace
from bindery.store.sites import Site
from tests.client import ApiClient, Identity

SECTIONS, SITE_SPACES_PER_SECTION = 50, 5
AT = "2026-01-01T00:00:00.000Z"


@dataclass(frozen=True)
class SiteFixture:
    org_id: str
    site_id: str


def seed_site(api: ApiClient, who: Identity, org_id: str) -> SiteFixture:
    spaces = []
    for number in range(SITE_SPACES_PER_SECTION):
        reply = api.post(f"/orgs/{org_id}/spaces", body={"title": f"Variant {number}"}, token=who.token)
        if reply.status != 201:
            raise RuntimeError(f"creating a space answered {reply.status}: {reply.body[:200]!r}")
        spaces.append(reply.json()["id"])
    site = Site(id="bench-site", org_id=org_id, title="Bench site", created_at=AT, updated_at=AT,
                published=True, site_spaces=SECTIONS * SITE_SPACES_PER_SECTION)
    Transaction(site_store.put_site_op(site)).commit()
    section_position: str | None = None
    for number in range(SECTIONS):
        section_position = between(section_position, None)
        section = Section(id=f"section-{number:02}", site_id=site.id, title=f"Product {number}",
                          path=f"product-{number}", position=section_position, created_at=AT)
        ops = [section_store.put_section_op(section), section_store.section_path_guard_op(section)]
        for site_space in _site_spaces(site, section.id, spaces):
            ops += [site_space_store.put_site_space_op(site_space),
                    site_space_store.path_guard_op(site_space)]
        Transaction(ops).commit()
    return SiteFixture(org_id, site.id)


def _site_spaces(site: Site, section_id: str, spaces: list[str]) -> Iterator[SiteSpace]:
    position: str | None = None
    for number, space_id in enumerate(spaces):
        position = between(position, None)
        yield SiteSpace(id=f"{section_id}-{number}", site_id=site.id, org_id=site.org_id, space_id=space_id,
                        path=f"v{number}", position=position, created_at=AT, section=section_id)


def site_operations(fixture: SiteFixture, api_call: Callable[[str], Callable[[], Any]]
                    ) -> list[tuple[str, Callable[[], Any]]]:
    shape = f"{SECTIONS} sections x {SITE_SPACES_PER_SECTION} site spaces"
    return [(f"GET /orgs/{{organizationId}}/sites/{{siteId}}/published ({shape})",
             api_call(f"/orgs/{fixture.org_id}/sites/{fixture.site_id}/published"))]
