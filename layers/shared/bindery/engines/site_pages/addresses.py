"""Which site a request is for: by its `Host` (a custom hostname) or by its path,
`/{organization hostname or id}/{basename or site id}/...` (docs/published-sites.md, "Addresses").

The address decides the site's base (every link of its pages starts with it) and the path below it.
Reads: one GetItem of the hostname's guard, or of the organization hostname's guard and then of the
basename's guard; the site's structure (one Query) is read by the caller.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from bindery.platform.config import settings
from bindery.platform.ids import MAX_ID_LENGTH
from bindery.store import orgs as org_store
from bindery.store import sites as site_store

# A path segment longer than any organization or site reference (an id, at most MAX_ID_LENGTH; an
# organization hostname, 32; a basename, 100), or a host longer than DNS allows, names no site: it must
# not reach a guard's key, which DynamoDB refuses over 2,048 / 1,024 bytes (issue 39, F3).
MAX_REFERENCE = MAX_ID_LENGTH
MAX_HOST = 253 + len(":65535")


@dataclass(frozen=True)
class SiteAddress:
    site_id: str
    org_id: str | None  # known from the path; a custom hostname names the site alone
    base: str  # the site's root as a URL path ("" at a custom hostname's root, "/sites/acme/docs" else)
    rest: tuple[str, ...]  # the path below the site's root, segment by segment


def _is_api_host(host: str) -> bool:
    """A host that serves every site under paths (the local runner, the API's own domain), not a site's
    custom hostname: an IP address, localhost, AWS's API domain, or the host of BINDERY_SITES_URL."""
    name = host.rsplit(":", 1)[0].strip("[]").lower() if host else ""
    if not name or name == "localhost" or name.endswith(".amazonaws.com"):
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        configured = settings().sites_url.split("://", 1)[-1].split("/", 1)[0].rsplit(":", 1)[0].lower()
        return name == configured
    return True


def locate(host: str, stage_prefix: str, segments: list[str]) -> SiteAddress | None:
    """The site a request names, or None (a 404). `stage_prefix` is the path the API serves under
    (`/sites`, or "" behind a custom domain mapping)."""
    if len(host or "") > MAX_HOST:
        return None
    if host and not _is_api_host(host):
        site_id = site_store.site_id_for_hostname(host.rsplit(":", 1)[0])
        return SiteAddress(site_id, None, "", tuple(segments)) if site_id else None
    if len(segments) < 2:
        return None
    org_ref, site_ref = segments[0], segments[1]
    if not 0 < len(org_ref) <= MAX_REFERENCE or not 0 < len(site_ref) <= MAX_REFERENCE:
        return None
    org_id = org_store.org_id_for_hostname(org_ref) or org_ref
    site_id = site_store.site_id_for_basename(org_id, site_ref) or site_ref
    return SiteAddress(site_id, org_id, f"{stage_prefix}/{org_ref}/{site_ref}", tuple(segments[2:]))
