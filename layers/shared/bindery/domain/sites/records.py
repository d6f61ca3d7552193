"""Finding a site for a caller, and the rules every site operation shares.

Any member of the site's organization with a role (`read` or more) reads its sites; organization
admins manage them. An installation token reaches the sites its installation's `site_selection` covers,
with its site scopes' role (bindery.domain.access.installations). A caller who is not a member of the
site's organization, or a site of another organization named under this one, gets 404 (the site does
not exist for them).
"""

from __future__ import annotations

import hmac
import re
from dataclasses import dataclass

from bindery.domain.access.auth import Caller
from bindery.domain.access.installations import installation_covers_site
from bindery.domain.access.organization import OrgAccess, org_access, require_sso_login, require_token_org
from bindery.engines.content.expressions import UNKNOWN, ExpressionError, evaluate_expression
from bindery.platform.errors import BadRequest, Conflict, NotFound
from bindery.platform.pagination import ItemT, Listing, next_page, open_page
from bindery.store import Op, Transaction, TransactionConflict, site_structure
from bindery.store import sites as site_store
from bindery.store.members import Member
from bindery.store.orgs import Organization, get_org_and_member
from bindery.store.site_structure import Structure
from bindery.store.sites import Site

NO_SITE = "No matching site"
BUSY = "The site changed while this request ran; nothing was changed, try again"
NO_SITE_SPACE = "No matching site space"
# A path is one URL path segment people type: lower-case letters, digits, `-`, `_` and `.` inside.
PATH = re.compile(r"^[a-z0-9](?:[a-z0-9._-]{0,98}[a-z0-9])?$")


@dataclass(frozen=True)
class SiteContext:
    """The caller's membership and the site, read for one request."""

    access: OrgAccess
    site: Site

    @property
    def org(self) -> Organization:
        return self.access.org

    def require_admin(self, action: str) -> None:
        self.access.require("admin", action)


def open_site(caller: Caller, org_id: str, site_id: str) -> SiteContext:
    """The site for a reading caller (GetItem of the membership and the organization, GetItem of the site)."""
    access = org_access(org_id, caller)
    access.require("read", "read the organization's sites")
    site = site_store.get_site(site_id)
    if site is None or site.org_id != org_id or not installation_covers_site(caller, site_id):
        raise NotFound(NO_SITE)
    return SiteContext(access, site)


def open_structure(caller: Caller, org_id: str, site_id: str) -> tuple[OrgAccess, Structure]:
    """The site with all its site spaces (one Query), for a reading caller."""
    access = org_access(org_id, caller)
    access.require("read", "read the organization's sites")
    found = site_structure.structure(site_id)
    if found is None or found.site.org_id != org_id or not installation_covers_site(caller, site_id):
        raise NotFound(NO_SITE)
    return access, found


def checked_path(path: str, field: str = "path") -> str:
    if not PATH.match(path):
        raise BadRequest(f"{field}: a path is one URL segment of lower-case letters, digits, '-', '_' and "
                         "'.', starting and ending with a letter or digit")
    return path


def checked_condition(condition: str, field: str = "condition") -> str:
    """A condition is a GitBook expression (bindery.engines.content.expressions) over the visitor's claims."""
    try:
        evaluate_expression(condition, {"visitor": UNKNOWN})
    except (ExpressionError, RecursionError) as error:
        raise BadRequest(f"{field}: not a valid expression ({error})") from None
    return condition


def slug(title: str) -> str:
    """A path made from a title: lower-case words joined by '-' (`space` when nothing is left)."""
    words = re.findall(r"[a-z0-9]+", title.lower())
    return "-".join(words)[:100].strip("-") or "space"


@dataclass(frozen=True)
class Reader:
    """Who reads a site's published parts: a member of its organization (`member`), or a visitor."""

    org: Organization
    member: Member | None
    structure: Structure


# Who may read a site that is published without being a member of its organization (docs/sites.md).
OPEN_TO_VISITORS = {"public", "unlisted"}


def open_for_reader(caller: Caller, org_id: str, site_id: str, share_key: str | None) -> Reader:
    """The site's structure for a member with a role, or for a visitor of a published site: any
    authenticated caller when it is public or unlisted, a holder of an active share link's key when it is
    `share-link`. Anyone else gets 404, so a site's existence does not leak. An installation token reads
    the sites of its selection as its scopes' member (`open_structure`)."""
    if caller.installation is not None:
        access, structure = open_structure(caller, org_id, site_id)
        return Reader(access.org, access.member, structure)
    # An SSO login's token reads nothing of another organization, not even what it publishes.
    require_token_org(caller, org_id, NO_SITE)
    org, member = get_org_and_member(org_id, caller.user_id)
    if org is None:
        raise NotFound(NO_SITE)
    found = site_structure.structure(site_id)
    if found is None or found.site.org_id != org_id:
        raise NotFound(NO_SITE)
    if member is not None and not member.disabled and member.role is not None:
        require_sso_login(org, member, caller)
        return Reader(org, member, found)
    site = found.site
    if site.published and (site.visibility in OPEN_TO_VISITORS
                           or (site.visibility == "share-link" and _valid_key(found, share_key))):
        return Reader(org, None, found)
    raise NotFound(NO_SITE)


def _valid_key(structure: Structure, share_key: str | None) -> bool:
    if not share_key:
        return False
    return any(link.active and hmac.compare_digest(link.key.encode(), share_key.encode())
               for link in structure.share_links)


def commit_change(*ops: Op | list[Op], taken: tuple[str, str] | None = None) -> None:
    """Commits a change of a site's parts, each operation conditioned on what was read: when DynamoDB
    refuses it, a 400 with `taken`'s message if its guard (an operation name: `path`, `basename`) was the
    one refused, else a 409 (someone changed the site meanwhile; nothing was written)."""
    try:
        Transaction(*ops).commit()
    except TransactionConflict as conflict:
        if taken is not None and conflict.failed(taken[0]):
            raise BadRequest(taken[1]) from None
        raise Conflict(BUSY) from None


def page_in_order(items: list[ItemT], scope: str, page: str | None, limit: int) -> Listing[ItemT]:
    """A page of a listing computed whole from the site's structure (one Query): its count is exact; the
    cursor carries the offset, sealed and bound to `scope`."""
    start = open_page(scope, page)
    skip = int((start.start or {}).get("offset", 0))
    shown = items[skip:skip + limit]
    cursor = next_page(scope, {"offset": skip + limit} if len(items) > skip + limit else None)
    return Listing(shown, cursor, len(items))
