"""What an outsider may and may not get from A's world (issue 22's authorization matrix): the operations
open to any signed-in user, and the judgement of one outsider's call. An outsider is another
organization's admin (tests/api/cross_cutting/test_authorization_matrix.py) or a member A removed
(tests/api/cross_cutting/test_authorization_roles.py): to both, A's world does not exist.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tests.api.authorization_world import OPERATIONS, Call, Operation, World, bearer, difference, leaks
from tests.client import ApiClient, Identity

REFUSED = {400, 401, 403, 404}


@dataclass(frozen=True)
class Open:
    """An operation any signed-in user may call on A's ids: why, its status, and which of A's ids (by
    path-parameter name) its body may show beyond those in the path."""

    reason: str
    status: int
    may_show: frozenset[str] = frozenset()
    check: Callable[[Any, dict[str, str]], list[str]] | None = None


def _profile_check(body: Any, world: dict[str, str]) -> list[str]:
    problems = []
    if body.get("id") != world["userId"]:
        problems.append("not Alice's profile")
    if "email" in body:
        problems.append("shows the email of another user")
    return problems


# Shown with the site's structure: the site, its sections, groups and site spaces, the spaces they show
# (with their organization and current revision). Never members, teams, share links or anything else.
PUBLISHED = frozenset({"organizationId", "siteId", "siteSectionId", "siteSectionGroupId", "siteSpaceId",
                       "spaceId", "revisionId"})

OPEN_TO_OUTSIDERS: dict[tuple[str, str], Open] = {
    ("GET", "/users/{userId}"): Open(
        "profiles are open to any authenticated user (shown beside comments and reviews; decisions.md), "
        "without the email", 200, check=_profile_check),
    ("GET", "/email-domains/{emailDomain}/orgs"): Open(
        "answers any caller, but lists organizations only to a caller whose verified email has the domain "
        "(decisions.md): an empty list for Mallory", 200,
        check=lambda body, _w: [] if body == {"organizations": []} else ["lists organizations"]),
    ("GET", "/orgs/{organizationId}/sso"): Open(
        "no authorizer: a login page lists the active providers (docs/sso.md)", 200,
        frozenset({"samlProviderId"})),
    ("GET", "/saml/{samlProviderId}/start"): Open("no authorizer: SP-initiated login (docs/sso.md)", 302),
    ("GET", "/saml/{samlProviderId}/metadata"): Open("no authorizer: the SP metadata (docs/sso.md)", 200),
    ("GET", "/orgs/{organizationId}/sites/{siteId}/published"): Open(
        "A's site is published with visibility public: any authenticated caller reads its published "
        "profile (docs/sites.md, 'Who reads a site'), whose `scripts` are the URLs of the scripts of the "
        "integrations installed on the site, named by the integration (docs/integrations.md, 'A published "
        "site's scripts'): visitors' browsers load them, so their names are public", 200,
        PUBLISHED | {"integrationName"}),
    ("GET", "/orgs/{organizationId}/sites/{siteId}/sections"): Open(
        "read by a published public site's visitors (docs/sites.md)", 200, PUBLISHED),
    ("GET", "/orgs/{organizationId}/sites/{siteId}/site-spaces"): Open(
        "read by a published public site's visitors (docs/sites.md)", 200, PUBLISHED),
    ("POST", "/orgs/{organizationId}/invites/{inviteId}"): Open(
        "joining with an invite link: the link id is the secret and whoever holds it joins (decisions.md, "
        "Invites); called last, since Mallory is a member of A afterwards", 200,
        check=lambda body, _w: [] if body == {} else ["answers more than {}"]),
}


def deleted_as_missing(api: ApiClient, world: World, operation: Operation,
                       who: Identity) -> list[str]:
    """A DELETE answers 204 also when there was nothing to delete, and what a caller cannot see is missing
    to them (API.md, Common rules 2; lifecycle.delete_space): a 204 to Mallory is a refusal if the same
    DELETE of an unknown id answers the same, and the resource is still there for Alice."""
    problems = []
    last = operation.params[-1]
    unknown = Operation("DELETE", operation.path.replace("{" + last + "}", "noSuchId0000000000"))
    made = api.call("DELETE", world.fill(unknown), headers=bearer(who))
    if made.status != 204:
        problems.append(f"204 for A's {last} but {made.status} for an unknown one: tells that it exists")
    if ("GET", operation.path) in {op.key for op in OPERATIONS}:
        still = api.get(world.fill(Operation("GET", operation.path)), token=world.alice.token)
        if still.status != 200:
            problems.append(f"deleted: Alice's GET now answers {still.status}")
    return problems



def mallory_order(operation: Operation) -> tuple[int, str, str]:
    """Reads first, then writes, then deletes (a hole there would spoil what follows); joining A with its
    invite link last of all, since Mallory is one of A's members afterwards."""
    rank = {"GET": 0, "POST": 1, "PUT": 1, "PATCH": 1, "DELETE": 2}[operation.method]
    if operation.key == ("POST", "/orgs/{organizationId}/invites/{inviteId}"):
        rank = 3
    return rank, operation.path, operation.method


def judge_outsider(api: ApiClient, world: World, made: Call, body: Any, who: Identity, *,
                   open_to: dict[tuple[str, str], Open] | None = None) -> list[str]:
    """What is wrong with an outsider's call of an operation naming A's ids (`open_to`: the operations
    open to this outsider, OPEN_TO_OUTSIDERS unless said)."""
    operation = made.operation
    allowed = (OPEN_TO_OUTSIDERS if open_to is None else open_to).get(operation.key)
    if made.status >= 500:
        return [f"server error (body {body}): {made.body[:200]!r}"]
    problems = []
    if allowed is not None:
        if made.status != allowed.status and body in (None, {}):
            problems.append(f"open to outsiders ({allowed.reason}) but not {allowed.status}")
        if allowed.check is not None and 200 <= made.status < 300:
            problems += allowed.check(made.json(), world.ids)
    elif operation.method == "DELETE" and made.status == 204:
        problems += deleted_as_missing(api, world, operation, who)
    elif made.status not in REFUSED:
        problems.append(f"not refused (body {body}): {made.body[:300]!r}")
    shown = leaks(world, made, body, allowed.may_show if allowed else frozenset())
    if shown:
        problems.append(f"shows A's {', '.join(shown)} (body sent {body})")
    return problems


def unchanged_but_for_the_link(before: dict[str, Any], after: dict[str, Any], world: World,
                               who: Identity) -> list[tuple[str, str, int, str]]:
    """Alice's reads after an outsider's calls against those before: the same, except that the outsider
    may have joined A as a reader with its invite link (open to whoever holds the link)."""
    problems = []
    members = f"/orgs/{world.ids['organizationId']}/members"
    if isinstance(after[members], dict):
        joined = [m for m in after[members]["items"] if m["id"] == who.user_id]
        if [m["role"] for m in joined] not in ([], ["read"]):
            problems.append(("POST", "/orgs/{organizationId}/invites/{inviteId}", 200,
                             f"not a reader of A after joining with its link: {joined}"))
        after[members]["items"] = [m for m in after[members]["items"] if m["id"] != who.user_id]
        after[members]["count"] -= len(joined)
    for path, seen in before.items():
        if after[path] != seen:
            problems.append(("GET", path, after[path] if isinstance(after[path], int) else 200,
                             f"changed by the outsider's calls: {difference(seen, after[path])}"))
    return problems
