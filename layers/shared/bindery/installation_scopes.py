"""What an integration installation's token may call: its scopes, as routes (docs/integrations.md).

An installation token authenticates as the installation, never as a user. Before any route runs,
`bindery.auth.current_caller` checks the route against this table: a route no scope of the token names
is a 403, whatever the route would have answered. Behind the route, the domain's access checks decide
*which* resources (`bindery.domain.access.installations`: the installation's organization's spaces
that its `space_selection` covers), so a token needs both the scope and the selection.

Routes are Powertools' templates (`/spaces/{spaceId}/content/page/{pageId}`), matched by prefix where a
scope covers a whole subtree. Scopes not listed grant nothing on the existing endpoints yet.
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


SPACE = "/spaces/{spaceId}"
SCOPE_ROUTES: dict[str, tuple[Allowed, ...]] = {
    "space:metadata:read": (Allowed("GET", SPACE),),
    "space:content:read": (
        Allowed("GET", SPACE),
        Allowed("GET", f"{SPACE}/content", subtree=True),
        Allowed("GET", f"{SPACE}/revisions", subtree=True),
    ),
}

# Every token may read its own installation and its setups (the domain checks that they are its own).
INSTALLATION = "/integrations/{integrationName}/installations/{installationId}"
OWN_ROUTES = (Allowed("GET", INSTALLATION), Allowed("GET", f"{INSTALLATION}/spaces", subtree=True),
              Allowed("GET", f"{INSTALLATION}/sites", subtree=True))

# The role a scope gives on a space the installation's selection covers (bindery.domain.access).
SPACE_ROLES = {"space:content:read": "read", "space:metadata:read": "read"}


def may_call(scopes: frozenset[str], method: str, route: str) -> bool:
    allowed = [*OWN_ROUTES, *(rule for scope in scopes for rule in SCOPE_ROUTES.get(scope, ()))]
    return any(rule.matches(method.upper(), route) for rule in allowed)
