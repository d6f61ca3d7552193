"""Keys of docs sites (docs/sites.md, docs/data-model.md).

A site and everything it is made of share the site's partition, so its whole structure is one Query:
the site item, its site spaces, and the guards that keep site-space paths unique among siblings. The
organization's sites are listed through GSI1; the sites a space is published on through GSI2 (on the
site-space items). A basename is unique in its organization through a guard item there.
"""

from __future__ import annotations

from bindery.keys import Key, org_partition

SITE_SPACE_PREFIX = "SITESPACE#"
PATH_PREFIX = "PATH#"
ROOT = "ROOT"  # the parent of the site spaces of a site without sections


def partition(site_id: str) -> str:
    return f"SITE#{site_id}"


def site(site_id: str) -> Key:
    return {"PK": partition(site_id), "SK": "SITE"}


def site_space(site_id: str, site_space_id: str) -> Key:
    return {"PK": partition(site_id), "SK": f"{SITE_SPACE_PREFIX}{site_space_id}"}


def path_guard(site_id: str, parent: str | None, path: str) -> Key:
    """One item per used path among the children of `parent` (a section id, or None: the site's root)."""
    return {"PK": partition(site_id), "SK": f"{PATH_PREFIX}{parent or ROOT}#{path}"}


def basename_guard(org_id: str, basename: str) -> Key:
    return {"PK": org_partition(org_id), "SK": f"SITEBASENAME#{basename}"}


def org_sites_partition(org_id: str) -> str:
    """GSI1 of site items: the organization's sites, by id (creation order)."""
    return f"ORG#{org_id}#SITES"


def org_sites_gsi(org_id: str, site_id: str) -> dict[str, str]:
    return {"GSI1PK": org_sites_partition(org_id), "GSI1SK": site_id}


def space_sites_partition(space_id: str) -> str:
    """GSI2 of site-space items: where a space is published, by site then site space."""
    return f"SPACE#{space_id}#SITES"


def space_sites_gsi(space_id: str, site_id: str, site_space_id: str) -> dict[str, str]:
    return {"GSI2PK": space_sites_partition(space_id), "GSI2SK": f"{site_id}#{site_space_id}"}


SECTION_PREFIX = "SECTION#"
GROUP_PREFIX = "GROUP#"
SECTIONS = "SECTIONS"  # the parent of section paths in path guards: unique among the site's sections


def section(site_id: str, section_id: str) -> Key:
    return {"PK": partition(site_id), "SK": f"{SECTION_PREFIX}{section_id}"}


def section_group(site_id: str, group_id: str) -> Key:
    return {"PK": partition(site_id), "SK": f"{GROUP_PREFIX}{group_id}"}


def adaptive_schema(site_id: str) -> Key:
    """The visitor-claims schema of an adaptive site (outside `structure`'s types, read on its own)."""
    return {"PK": partition(site_id), "SK": "ADAPTIVESCHEMA"}


def customization(site_id: str) -> Key:
    """The site's customization settings (read with the structure: a published profile is one Query)."""
    return {"PK": partition(site_id), "SK": "CUSTOMIZATION"}


def site_space_customization(site_id: str, site_space_id: str) -> Key:
    """A site space's overrides of the site's customization."""
    return {"PK": partition(site_id), "SK": f"CUSTOMIZATION#{site_space_id}"}


def share_link(site_id: str, share_link_id: str) -> Key:
    """A share link of the site: its key lets non-members read the published site (docs/sites.md)."""
    return {"PK": partition(site_id), "SK": f"SHARELINK#{share_link_id}"}


def publishing_auth(site_id: str) -> Key:
    """The site's publishing-auth settings: the key visitor tokens are signed with (read with the
    structure, so a page view of a `visitor-auth` site costs nothing more)."""
    return {"PK": partition(site_id), "SK": "PUBLISHINGAUTH"}


def hostname_guard(hostname: str) -> Key:
    """A custom hostname, unique among all sites: the item names the site served there."""
    return {"PK": f"SITEHOSTNAME#{hostname.lower()}", "SK": "SITEHOSTNAME"}
