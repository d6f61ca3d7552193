"""What an integration installation's token may call: its scopes, as routes (docs/integrations.md).

An installation token authenticates as the installation, never as a user. Before any route runs,
`bindery.domain.access.auth.current_caller` checks the route against this table: a route no scope of the token
names is a 403, whatever the route would have answered. Behind the route, the domain's access checks decide
*which* resources (`bindery.domain.access.installations`: the installation's organization's spaces
that its `space_selection` covers, and the sites its `site_selection` covers), so a token needs both the
scope and the selection.

Routes are Powertools' templates (`/spaces/{spaceId}/content/page/{pageId}`), matched by prefix where a
scope covers a whole subtree. The role on a space comes from the scopes that name the route called
(`scopes_naming`), so `space:metadata:write`'s admin role serves `PATCH /spaces/{spaceId}` and nothing
that `space:content:write` names. Organization-level scopes (sites, OpenAPI, conversations) give a role
in the installation's own organization (`ORG_ROLES`), on the routes they name only.

Scopes that name no route: `site:script:inject` and `site:script:cookies` put the integration's script
on the published site (bindery.domain.integrations.site_scripts); `site:views:read` and
`page:feedback:read` would name site analytics and page feedback routes, which Bindery does not
serve. `conversations:ingest` names `POST ORG/conversations`, whose domain checks the capability
(`bindery.domain.access.installations.require_installation_scope`): no organization role comes with it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Allowed:
    method: str
    route: str
    subtree: bool = False  # the route and every route below it

    def matches(self, method: str, route: str) -> bool:
        if method != self.method:
            return False
        return route == self.route or (self.subtree and route.startswith(self.route + "/"))


# A capability the ingest route also checks itself (as the installation's own source), named once here.
CONVERSATIONS_INGEST = "conversations:ingest"

SPACE = "/spaces/{spaceId}"
CHANGE_REQUEST = f"{SPACE}/change-requests/{{changeRequestId}}"
SITE = "/orgs/{organizationId}/sites/{siteId}"
OPENAPI = "/orgs/{organizationId}/openapi"
SCOPE_ROUTES: dict[str, tuple[Allowed, ...]] = {
    "space:metadata:read": (Allowed("GET", SPACE),),
    "space:content:read": (
        Allowed("GET", SPACE),
        Allowed("GET", f"{SPACE}/content", subtree=True),
        Allowed("GET", f"{SPACE}/revisions", subtree=True),
    ),
    "space:metadata:write": (Allowed("PATCH", SPACE),),
    # Edit content, create change requests, edit, update and merge them: the writes, not the reads
    # (a token that reads too has space:content:read).
    "space:content:write": (
        Allowed("POST", f"{SPACE}/content/template"),
        Allowed("POST", f"{SPACE}/change-requests"),
        Allowed("POST", f"{CHANGE_REQUEST}/content"),
        Allowed("POST", f"{CHANGE_REQUEST}/update"),
        Allowed("POST", f"{CHANGE_REQUEST}/merge"),
    ),
    # Start imports and exports of selected spaces, and read their runs and Git info.
    "space:git:sync": (
        Allowed("POST", f"{SPACE}/git/import"),
        Allowed("POST", f"{SPACE}/git/export"),
        Allowed("GET", f"{SPACE}/git", subtree=True),
    ),
    # A selected site's settings and structure (not its share links: they are secrets of the site).
    "site:metadata:read": (
        Allowed("GET", SITE),
        Allowed("GET", f"{SITE}/published"),
        Allowed("GET", f"{SITE}/customization"),
        Allowed("GET", f"{SITE}/site-spaces"),
        Allowed("GET", f"{SITE}/site-spaces/{{siteSpaceId}}/customization"),
        Allowed("GET", f"{SITE}/sections"),
        Allowed("GET", f"{SITE}/section-groups"),
    ),
    "site:adaptive:read": (
        Allowed("GET", f"{SITE}/adaptive-schema", subtree=True),
    ),
    "site:adaptive:write": (Allowed("PUT", f"{SITE}/adaptive-schema"),),
    # An integration that authenticates a site's visitors signs their tokens with the site's key: it
    # reads the key, it never changes the site's visibility, backend or key.
    "site:visitor:auth": (Allowed("GET", f"{SITE}/publishing/auth"),),
    # The installation's organization's OpenAPI specifications (no selection applies to them).
    "openapi:read": (Allowed("GET", OPENAPI, subtree=True),),
    "openapi:write": (
        Allowed("POST", OPENAPI),
        Allowed("PUT", f"{OPENAPI}/{{specSlug}}"),
        Allowed("PATCH", f"{OPENAPI}/{{specSlug}}"),
        Allowed("DELETE", f"{OPENAPI}/{{specSlug}}"),
    ),
    # Ingest the organization's conversations (its source is the installation: docs/conversations.md).
    CONVERSATIONS_INGEST: (Allowed("POST", "/orgs/{organizationId}/conversations"),),
}

# Every token may read its own installation and its setups (the domain checks that they are its own).
INSTALLATION = "/integrations/{integrationName}/installations/{installationId}"
OWN_ROUTES = (Allowed("GET", INSTALLATION), Allowed("GET", f"{INSTALLATION}/spaces", subtree=True),
              Allowed("GET", f"{INSTALLATION}/sites", subtree=True))

# The role a scope gives on a space the installation's selection covers (bindery.domain.access).
# Merging needs `review`; a space's settings need `admin`.
SPACE_ROLES = {"space:content:read": "read", "space:metadata:read": "read", "space:content:write": "review",
               "space:metadata:write": "admin", "space:git:sync": "edit"}

# The role an organization-level scope gives in the installation's organization, on the routes it
# names (bindery.domain.access.organization.org_access); sites also need the site selection. The
# adaptive schema and the publishing-auth key are an admin's settings; OpenAPI writes need `create`, as
# for members.
ORG_ROLES = {"site:metadata:read": "read", "site:adaptive:read": "read", "site:adaptive:write": "admin",
             "site:visitor:auth": "admin",
             "openapi:read": "read", "openapi:write": "create"}


def scopes_naming(scopes: frozenset[str], method: str, route: str) -> frozenset[str] | None:
    """The token's scopes that name the route (empty for its own installation's routes); None: no scope
    names it, so the token may not call it."""
    method = method.upper()
    named = frozenset(scope for scope in scopes
                      if any(rule.matches(method, route) for rule in SCOPE_ROUTES.get(scope, ())))
    if named or any(rule.matches(method, route) for rule in OWN_ROUTES):
        return named
    return None
