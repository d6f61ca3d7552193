"""The authorization matrix (issue 22), generated from the route table in docs/openapi.json: every
operation, called by another organization's admin, without a token and with malformed tokens.

One world is built through the API as the victim organization A (owner admin Alice): content, change
requests, comments, teams, invites, a published site, an OpenAPI spec, a translation, a SAML provider, a
Git Sync run and a private integration installed on A, its space and its site. Mallory, the admin of her
own organization B, then calls every operation that names one of A's ids: she must get 400/401/403/404
(never a 2xx, never a 5xx), and no response may carry an id or secret of A that she did not send herself.
Operations that are open to any signed-in user are listed in OPEN_TO_OUTSIDERS with the reason and with
what they may show. Every operation without a token or with
a malformed token is a 401 in the error shape, except the few routes template.yaml leaves without an
authorizer (UNAUTHENTICATED). Afterwards A's world reads as it did before, and Alice's own calls with
the bodies Mallory sent succeed (so Mallory's refusals came from authorization, not from validation).

A DELETE answers 204 also when there is nothing to delete, and content a caller cannot see is missing to
them (API.md, Common rules 2): a 204 to Mallory's DELETE counts as a refusal only when the same DELETE of
an unknown id answers the same and Alice still reads the resource.

An SSO-issued token calls every operation too: Mallory's, issued by her own organization B's SAML login,
while Mallory is also an admin of A: it reaches nothing of A (issue 39 F1, docs/sso.md "Tokens").

A's installation token (its read scopes) also calls every operation: it reaches what its scopes
name on its own space and installation, and nothing else (403 or 404).

Holes found are listed in KNOWN_HOLES (expected to be fixed): the test keeps asserting the correct
behaviour for every other operation, and fails when a known hole is closed, so the list stays exact.
"""

from __future__ import annotations

import secrets

import pytest

from bindery.store import table
from bindery.store import users as user_store
from bindery.store.members import Member, add_member_ops
from tests.api.authorization_bodies import OWNER_LAST, VALID_BODIES, bodies_for, outsider_bodies
from tests.api.authorization_outsiders import (
    OPEN_TO_OUTSIDERS,
    Open,
    judge_outsider,
    mallory_order,
    unchanged_but_for_the_link,
)
from tests.api.authorization_roles import UNSUCCESSFUL_FOR_EVERYONE
from tests.api.authorization_world import (
    OPERATIONS,
    QUERY_VALUES,
    SPEC,
    WRITES,
    Operation,
    bearer,
    build_world,
    call,
    difference,
    leaks,
    report,
    settle_known_holes,
    snapshot,
)
from tests.api.git_sync_support import git_settings  # noqa: F401 - a fixture
from tests.api.saml_idp import IdP
from tests.api.sso.test_sso_login import linked, logged_in
from tests.api.sso.test_sso_providers import complete, new_provider
from tests.client import Identity

# Routes template.yaml serves without an authorizer (`Auth: {Authorizer: NONE}`; docs/sso.md): a login
# page lists an organization's providers before anyone has a token, and browsers and IdPs reach the SAML
# endpoints without one. Each is called without a token, with its expected status and the ids of A it may
# show (only what a login page needs: the provider, never the organization's other data).
UNAUTHENTICATED: dict[tuple[str, str], tuple[str, int, frozenset[str]]] = {
    ("GET", "/orgs/{organizationId}/sso"): (
        "the login page lists the organization's active providers before anyone logs in", 200,
        frozenset({"samlProviderId"})),
    ("GET", "/saml/{samlProviderId}/start"): (
        "SP-initiated login: a browser without a token is redirected to the IdP", 302, frozenset()),
    ("GET", "/saml/{samlProviderId}/metadata"): (
        "the SP metadata: its URL is the SP entity ID the IdP fetches", 200, frozenset()),
    ("POST", "/saml/{samlProviderId}/acs"): (
        "the ACS receives the IdP's form posted by the browser; without a SAMLResponse it is a 400", 400,
        frozenset()),
}


# Holes this matrix found, to be fixed in production code: (method, path) → (what happens, the problem
# the matrix reports for it). Only that exact problem is let through; each known hole must still show,
# so that a fixed one is taken off the list.
KNOWN_HOLES: dict[tuple[str, str], tuple[str, str]] = {}
# Holes of the no-token / malformed-token matrix (none found).
KNOWN_TOKEN_HOLES: dict[tuple[str, str], tuple[str, str]] = {}


@pytest.fixture
def world(api, tmp_path, deliver_queued, git_settings):  # noqa: F811 - git_settings is the fixture
    return build_world(api, tmp_path, deliver_queued)


# --- the tests ---------------------------------------------------------------------------------------------
def test_the_matrix_is_generated_from_the_whole_route_table(world):
    assert len(OPERATIONS) > 190, f"only {len(OPERATIONS)} operations read from {SPEC}"
    assert len({op.key for op in OPERATIONS}) == len(OPERATIONS)
    params = {param for op in OPERATIONS for param in op.params}
    unfilled = sorted(params - set(world.ids))
    assert not unfilled, (f"docs/openapi.json has path parameters this matrix cannot fill: {unfilled}; "
                          "build the resource in build_world and add its id to world.ids")
    queries = {name for op in OPERATIONS for name in op.required_query}
    assert queries <= set(QUERY_VALUES), f"required query parameters without a value: {queries}"
    writes = {op.key for op in OPERATIONS if op.method in WRITES and any(
        p in world.ids for p in op.params)}
    missing = sorted(writes - set(VALID_BODIES))
    assert not missing, f"writes without an entry in VALID_BODIES (a valid body, or None): {missing}"
    stale = sorted(set(VALID_BODIES) - {op.key for op in OPERATIONS})
    stale += sorted(set(OPEN_TO_OUTSIDERS) - {op.key for op in OPERATIONS})
    stale += sorted(set(UNAUTHENTICATED) - {op.key for op in OPERATIONS})
    assert not stale, f"entries for operations the spec no longer has: {stale}"


def test_another_organizations_admin_gets_nothing_and_changes_nothing(api, world):
    mallory = world.mallory
    before = snapshot(api, world)
    assert not [path for path, seen in before.items() if isinstance(seen, int)], before
    problems: list[tuple[str, str, int, str]] = []
    # Mallory has her own organization and nothing of A: the operations that name no id show none of A's.
    for operation in (op for op in OPERATIONS if not op.params):
        body = {} if operation.method in WRITES else None
        made = call(api, world, operation, headers=bearer(mallory), body=body)
        shown = leaks(world, made, None)
        if made.status >= 500 or shown:
            problems.append((operation.method, operation.path, made.status, f"fails or shows A's {shown}"))
    targeted = sorted((op for op in OPERATIONS if op.params), key=mallory_order)
    assert len(targeted) > 180
    for operation in targeted:
        for body in outsider_bodies(world, operation, mallory, mallory.org_id):
            made = call(api, world, operation, headers=bearer(mallory), body=body)
            problems += [(operation.method, operation.path, made.status, issue)
                         for issue in judge_outsider(api, world, made, body, mallory)]

    problems += unchanged_but_for_the_link(before, snapshot(api, world), world, mallory)
    left = settle_known_holes(problems, KNOWN_HOLES)
    assert not left, report(left)


# What an SSO token of another organization may still call on A's ids: the profiles and the (empty)
# email-domain listing any signed-in user reads, and the routes without an authorizer. Not A's published
# site through the API, not A's invite link: nothing of another organization (docs/sso.md, "Tokens").
OPEN_TO_SSO_TOKENS: dict[tuple[str, str], Open] = {
    key: open_ for key, open_ in OPEN_TO_OUTSIDERS.items()
    if key in {("GET", "/users/{userId}"), ("GET", "/email-domains/{emailDomain}/orgs"), *UNAUTHENTICATED}}


AT = "2026-01-01T00:00:00.000Z"


def _sso_token_of_her_own_organization(api, mallory):
    idp = IdP(entity_id="https://idp.outsider-b.example", sso_url="https://idp.outsider-b.example/sso")
    provider = new_provider(api, mallory, **complete(idp, label="Outsider IdP"))
    fragment = logged_in(linked(api, idp, provider, mallory, "mallory@outsider-b.example"))
    return Identity(mallory.user_id, fragment["token"], mallory.org_id)


def test_an_sso_token_of_another_organization_reaches_nothing_of_a_even_for_an_admin_of_a(api, world):
    mallory = world.mallory
    sso = _sso_token_of_her_own_organization(api, mallory)
    org = world.ids["organizationId"]
    # Mallory is an admin of A too (added as the store adds a member): only her SSO token is B's alone.
    table.transact(add_member_ops(Member.joining(org, user_store.get_user(mallory.user_id), "admin", AT)))
    assert api.get(f"/orgs/{org}", token=mallory.token).json()["permissions"]["admin"]
    assert api.get(f"/orgs/{org}", token=sso.token).status == 404
    before = snapshot(api, world)
    problems: list[tuple[str, str, int, str]] = []
    for operation in (op for op in OPERATIONS if not op.params):
        body = {} if operation.method in WRITES else None
        made = call(api, world, operation, headers=bearer(sso), body=body)
        shown = leaks(world, made, None)
        if made.status >= 500 or shown:
            problems.append((operation.method, operation.path, made.status, f"fails or shows A's {shown}"))
    for operation in sorted((op for op in OPERATIONS if op.params), key=mallory_order):
        for body in outsider_bodies(world, operation, sso, mallory.org_id):
            made = call(api, world, operation, headers=bearer(sso), body=body)
            problems += [(operation.method, operation.path, made.status, issue)
                         for issue in judge_outsider(api, world, made, body, sso, open_to=OPEN_TO_SSO_TOKENS)]
    after = snapshot(api, world)
    problems += [("GET", path, 0, f"changed by the SSO token's calls: {difference(seen, after[path])}")
                 for path, seen in before.items() if after[path] != seen]
    assert not problems, report(problems)


def test_every_operation_needs_a_valid_token(api, world):
    garbage = "gb_api_" + secrets.token_urlsafe(32)  # shaped as a token, issued to nobody
    problems: list[tuple[str, str, int, str]] = []
    for operation in OPERATIONS:
        # No token, a malformed one, a token-shaped one nobody was issued, a real one altered, and a real
        # one without its "Bearer" scheme.
        for authorization in (None, "Bearer not-a-token", f"Bearer {garbage}",
                              f"Bearer {world.alice.token}x", world.alice.token):
            headers = {"Authorization": authorization} if authorization else None
            body = {} if operation.method in WRITES else None
            made = call(api, world, operation, headers=headers, body=body)
            where = (operation.method, operation.path, made.status)
            unauthenticated = UNAUTHENTICATED.get(operation.key)
            if unauthenticated is not None:
                reason, status, may_show = unauthenticated
                if made.status != status:
                    problems.append((*where, f"expected {status}: {reason}"))
                shown = leaks(world, made, body, may_show)
                if shown:
                    problems.append((*where, f"shows A's {', '.join(shown)} without a token"))
                continue
            error = made.json()
            if made.status != 401 or not (isinstance(error, dict) and set(error) == {"error"}
                                          and error["error"].get("code") == 401
                                          and isinstance(error["error"].get("message"), str)):
                problems.append((*where, f"Authorization {authorization!r}: {made.body[:200]!r}"))
    left = settle_known_holes(problems, KNOWN_TOKEN_HOLES)
    assert not left, report(left)



def test_the_bodies_mallory_sends_are_valid_for_the_owner(api, world):
    """Alice's own calls with the valid bodies succeed (or answer what UNSUCCESSFUL_FOR_EVERYONE documents:
    installing what is installed is a 409, after every check): Mallory's refusals came from
    authorization, not from validating a body that could never pass."""
    alice = world.alice
    problems = []
    writes = sorted((op for op in OPERATIONS if VALID_BODIES.get(op.key) is not None),
                    key=lambda op: (OWNER_LAST.get(op.key, 0), op.path, op.method))
    for operation in writes:
        body = bodies_for(world, operation, alice, world.alice_elsewhere)[-1]
        made = call(api, world, operation, headers=bearer(alice), body=body)
        documented = UNSUCCESSFUL_FOR_EVERYONE.get(operation.key)
        if made.status != documented[0] if documented else not 200 <= made.status < 300:
            problems.append((operation.method, operation.path, made.status, f"{body}: {made.body[:300]!r}"))
    assert not problems, report(problems)


# What A's installation token may call (docs/integrations.md, "Installation tokens"): with
# `space:content:read`, GET of the space and of everything under its content and revisions; with
# `site:metadata:read`, GET of its site (installed on it), its published profile, customizations and
# structure (not its share links or integrations); with `site:adaptive:read`, its adaptive schema; with
# `openapi:read`, A's OpenAPI specs; with any scope, GET of its own installation and of its space and
# site setups. `site:script:inject` grants no endpoint. Written from the document, not from
# bindery.domain.access.installation_scopes, so that the two are checked against each other.
TOKEN_SPACE = "/spaces/{spaceId}"
TOKEN_INSTALLATION = "/integrations/{integrationName}/installations/{installationId}"
TOKEN_SITE = "/orgs/{organizationId}/sites/{siteId}"
TOKEN_SITE_READS = ("", "/published", "/customization", "/site-spaces",
                    "/site-spaces/{siteSpaceId}/customization", "/sections", "/section-groups",
                    "/adaptive-schema", "/adaptive-schema/template-conditions")
# Valid bodies of the writes that name no id (with `{}` a 400 would answer before the token's scopes).
NO_ID_BODIES = {("POST", "/orgs"): {"title": "Made by a token"},
                # the organization's MCP server (docs/agents.md "MCP"): a JSON-RPC request
                ("POST", "/mcp"): {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}}


def token_may_call(operation: Operation) -> bool:
    if operation.method != "GET":
        return False
    path = operation.path
    exact = (TOKEN_SPACE, TOKEN_INSTALLATION, *(TOKEN_SITE + rest for rest in TOKEN_SITE_READS))
    return path in exact or path.startswith((
        TOKEN_SPACE + "/content", TOKEN_SPACE + "/revisions", "/orgs/{organizationId}/openapi",
        TOKEN_INSTALLATION + "/spaces", TOKEN_INSTALLATION + "/sites"))


def test_an_installation_token_reaches_its_scopes_on_its_space_and_nothing_else(api, world):
    """A's installation token (`space:content:read`, installed on A's space) calls every operation: what
    its scopes name succeeds on its own space, installation and setups; everything else is a 403 (a route
    outside its scopes) or a 404 (a resource outside its installation), never a 2xx or a 5xx, and A's
    world reads as before."""
    token = {"Authorization": f"Bearer {world.secrets['installationToken']}"}
    before = snapshot(api, world)
    problems: list[tuple[str, str, int, str]] = []
    allowed = [op for op in OPERATIONS if token_may_call(op)]
    assert len(allowed) > 20, [str(op) for op in allowed]
    for operation in sorted(OPERATIONS, key=mallory_order):
        if operation.key in UNAUTHENTICATED:
            continue  # no authorizer: the token is not even read (the tokenless matrix covers them)
        body = None
        if operation.method in WRITES:
            body = (bodies_for(world, operation, world.alice, world.alice_elsewhere)[-1]
                    if operation.params else NO_ID_BODIES[operation.key])
        made = call(api, world, operation, headers=token, body=body)
        where = (operation.method, operation.path, made.status)
        if token_may_call(operation):
            if not 200 <= made.status < 300:
                problems.append((*where, f"in the token's scopes: {made.body[:200]!r}"))
        elif made.status not in (403, 404):
            problems.append((*where, f"outside the token's scopes (body {body}): {made.body[:200]!r}"))
    after = snapshot(api, world)
    problems += [("GET", path, 0, f"changed by the token's calls: {difference(seen, after[path])}")
                 for path, seen in before.items() if after[path] != seen]
    assert not problems, report(problems)
