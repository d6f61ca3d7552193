"""Who is calling. API Gateway's Lambda authorizer resolves the bearer token (see `bindery.authorizer`);
functions read the user id it put in the request context and never see the token itself."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from aws_lambda_powertools.event_handler.request import Request

from bindery.platform.errors import Forbidden, Unauthorized

# The user id an installation token's caller carries: no user id has a colon, so it never names a user.
INSTALLATION_PREFIX = "installation:"


@dataclass(frozen=True)
class InstallationGrant:
    """An installation token's caller: the installation, and the scopes its integration had when the
    token was made (docs/integrations.md, "Installation tokens")."""

    integration: str
    installation_id: str
    scopes: frozenset[str]
    # The scopes that name the route being called: the role on a space comes from these only, so a
    # write scope's role never strengthens a route another scope named
    # (bindery.domain.access.installation_scopes).
    route_scopes: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Caller:
    user_id: str
    # The organization whose SAML login issued the token (None: any other token). An organization that
    # enforces SSO lets its SSO members act only with such a token (bindery.domain.access.organization).
    sso_org: str | None = None
    installation: InstallationGrant | None = None


def hash_token(token: str) -> str:
    """Tokens carry 256 random bits, so a fast hash is enough: there is nothing to brute-force."""
    return hashlib.sha256(token.encode()).hexdigest()


def bearer_token(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, value = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


def current_caller(request: Request) -> Caller:
    """Dependency for every route: the authenticated user, from the authorizer's context."""
    event = request.resolved_event.raw_event
    context = (event.get("requestContext") or {}).get("authorizer") or {}
    user_id = context.get("userId")
    if not isinstance(user_id, str) or not user_id:
        raise Unauthorized("Authentication required: send Authorization: Bearer <API token>")
    sso_org = context.get("ssoOrg")
    installation = context.get("installation")
    if isinstance(installation, str) and installation:
        # Only an installation token's caller needs the scopes' routes: imported on first need (and
        # before a SnapStart snapshot: bindery.api.http).
        from bindery.domain.access.installation_scopes import scopes_naming

        integration, _, installation_id = installation.partition("/")
        scopes = frozenset(str(context.get("scopes", "")).split())
        named = scopes_naming(scopes, request.method, request.route)
        if named is None:
            raise Forbidden(f"This installation token's scopes do not allow {request.method} {request.route}")
        grant = InstallationGrant(integration, installation_id, scopes, named)
        return Caller(user_id=user_id, installation=grant)
    return Caller(user_id=user_id, sso_org=sso_org if isinstance(sso_org, str) and sso_org else None)
