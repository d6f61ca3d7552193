"""The role half of the authorization matrix (issue 22): every operation of docs/openapi.json that names
one of A's ids, called by A's own people — a member in each organization role (an admin other than the
owner, create, review, edit, comment, read), a guest with one grant (edit on A's space, nothing else)
and a member A removed — with the outcome the role rules give (tests/api/authorization_roles.py:
the weakest role each operation needs).

Each caller gets a fresh world (tests/api/authorization_world.py) and calls, first, every operation they
may not call, with a body valid for A's owner: each must be refused with the status the rules say (403
naming the role; 404 where they have no role on the content) and A's world must read as before. Then
every operation they may call, reads first and deletes last, with the same bodies: each must succeed
(2xx, or a redirect) but for the few listed with their documented answer. Nobody below admin may see a
private space or collection of A's, an admin's share keys or invite links, and a one-page listing
counts only what it lists; a guest sees neither the other collections nor the people's emails. The
removed member is an outsider: judged as another organization's admin is, and refused with 404 only.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from bindery.domain.access.role_order import ROLES
from bindery.platform import admin
from tests.api.authorization_bodies import OWNER_LAST, bodies_for
from tests.api.authorization_outsiders import judge_outsider, mallory_order, unchanged_but_for_the_link
from tests.api.authorization_roles import NEEDS, UNSUCCESSFUL_FOR_EVERYONE, expected
from tests.api.authorization_world import (
    OPERATIONS,
    Call,
    Operation,
    World,
    bearer,
    build_world,
    call,
    difference,
    ok,
    report,
    snapshot,
)
from tests.api.git_sync_support import git_settings  # noqa: F401 - a fixture
from tests.api.members.test_members import join
from tests.client import ApiClient, Identity

TARGETED = [op for op in OPERATIONS if op.params]
Problem = tuple[str, str, int, str]


@dataclass(frozen=True)
class Kind:
    """A kind of caller: their organization role (None: a guest) and their one grant on A's space."""

    name: str
    org_role: str | None
    space_grant: str | None = None
    removed: bool = False


KINDS = [Kind(role, role) for role in ROLES] + [
    Kind("guest", None, space_grant="edit"),
    # Was an editor with a grant on the space and a team; removing a member removes both (permissions.md).
    Kind("removed", "edit", space_grant="comment", removed=True),
]


def enrol(api: ApiClient, world: World, kind: Kind) -> Identity:
    """The caller, made a member of A as `kind` says (through the store, as the member tests do), with an
    organization of their own as a transfer target. The removed member's email is outside A's domain, so
    they cannot simply join again (POST ORG/join); everyone else's is inside it."""
    org, alice = world.ids["organizationId"], world.alice
    domain = "elsewhere.example" if kind.removed else world.ids["emailDomain"]
    who = join(api, org, kind.name.title(), kind.org_role, email=f"{kind.name}@{domain}")
    world.extras["callerElsewhere"] = admin.create_org(who.user_id, f"{kind.name}'s own")
    if kind.space_grant:
        ok(api.post(f"/spaces/{world.ids['spaceId']}/permissions", token=alice.token,
                    body={"role": kind.space_grant, "users": [who.user_id]}))
    if kind.removed:
        ok(api.put(f"/orgs/{org}/teams/{world.ids['teamId']}/members", token=alice.token,
                   body={"add": [who.user_id]}))
        ok(api.delete(f"/orgs/{org}/members/{who.user_id}", token=alice.token))
    return who


def add_private_content(api: ApiClient, world: World) -> None:
    """Content only some may see: a space (with a change request) and a collection only admins see
    (`defaultLevel: null`, no grants), whose ids must reach nobody else in any listing or search, and an
    ordinary space, hidden from the guest only (they were granted another)."""
    org, token = world.ids["organizationId"], world.alice.token
    private = ok(api.post(f"/orgs/{org}/spaces", token=token, body={"title": "Private plans"}))["id"]
    ok(api.patch(f"/spaces/{private}", token=token, body={"defaultLevel": None}))
    change = ok(api.post(f"/spaces/{private}/change-requests", token=token, body={"subject": "Secret"}))
    hidden = ok(api.post(f"/orgs/{org}/collections", token=token, body={"title": "Private archive"}))["id"]
    ok(api.patch(f"/collections/{hidden}", token=token, body={"defaultLevel": None}))
    ordinary = ok(api.post(f"/orgs/{org}/spaces", token=token, body={"title": "Team notes"}))["id"]
    world.secrets.update(privateSpaceId=private, privateChangeRequestId=change["id"],
                         privateCollectionId=hidden, ungrantedSpaceId=ordinary)


def hidden_from(kind: Kind, world: World) -> dict[str, str]:
    """What the caller must never be shown (beyond what they sent themselves)."""
    # The integration's published signing secret and installation token reach nobody; its installation,
    # events and generated signing secret are its admins' (docs/integrations.md).
    names = {"aliceToken", "reviewerToken", "aliceElsewhere", "signingSecret", "installationToken"}
    if kind.org_role != "admin":
        names |= {"privateSpaceId", "privateChangeRequestId", "privateCollectionId", "shareKey", "inviteId",
                  "shareLinkId", "installationId", "eventId", "generatedSigningSecret"}
    if kind.org_role is None:  # docs/decisions.md, Members; docs/permissions.md, Granting access
        # A guest may see the id of the team granted on the space (its grant listing), and the Space's
        # `parent` (PARENT_SHOWN): ids only, which open nothing to them (404, 403).
        names |= {"archiveCollectionId", "aliceEmail", "reviewerEmail", "translationId", "glossaryEntryId",
                  "collectionId", "ungrantedSpaceId"}
    values = {**world.ids, **world.secrets}
    return {name: values[name] for name in names}


# Answers with a Space, whose `parent` names its collection (the wire contract's field): shown to anyone
# with a role on the space, a guest included, though the collection itself is missing to the guest.
PARENT_SHOWN = {("GET", "/spaces/{spaceId}"), ("GET", "/orgs/{organizationId}/spaces")}


def shown(made: Call, body: Any, hidden: dict[str, str]) -> list[str]:
    if made.operation.key in PARENT_SHOWN:
        hidden = {name: value for name, value in hidden.items() if name != "collectionId"}
    own = made.path + json.dumps(body)
    text = made.text()
    return sorted(name for name, value in hidden.items() if value not in own and value in text)


def allowed_order(operation: Operation) -> tuple[int, int, int, str]:
    """Reads, then writes (those that change what others act on last, as for the owner), then deletes,
    the deepest first, so that each call still finds what it names."""
    rank = {"GET": 0, "POST": 1, "PUT": 1, "PATCH": 1, "DELETE": 2}[operation.method]
    depth = -operation.path.count("/") if operation.method == "DELETE" else 0
    return rank, OWNER_LAST.get(operation.key, 0), depth, operation.path


def refusals(api: ApiClient, world: World, kind: Kind, who: Identity) -> list[Problem]:
    """Every operation the caller may not call, with a body valid for A's owner."""
    problems: list[Problem] = []
    hidden = hidden_from(kind, world)
    for operation in TARGETED:
        refusal = expected(operation, kind.org_role, kind.space_grant)
        if refusal is None:
            continue
        body = bodies_for(world, operation, who, world.extras["callerElsewhere"])[-1]
        made = call(api, world, operation, headers=bearer(who), body=body)
        where = (operation.method, operation.path, made.status)
        if made.status != refusal:
            problems.append((*where, f"needs {NEEDS[operation.key]}: expected {refusal} (body {body}): "
                                     f"{made.body[:200]!r}"))
        # A member's 403 names the role needed (a guest's may name the first they lack, or say "guests").
        elif refusal == 403 and kind.org_role and NEEDS[operation.key] not in error_message(made):
            problems.append((*where, f"the 403 does not name the role needed ({NEEDS[operation.key]}): "
                                     f"{made.body[:200]!r}"))
        problems += [(*where, f"shows {name}") for name in shown(made, body, hidden)]
    return problems


def error_message(made: Call) -> str:
    error = made.json()
    message = error.get("error", {}).get("message") if isinstance(error, dict) else None
    return message if isinstance(message, str) else ""


def permitted(api: ApiClient, world: World, kind: Kind, who: Identity) -> list[Problem]:
    """Every operation the caller may call: answered, never refused, never a server error."""
    problems: list[Problem] = []
    hidden = hidden_from(kind, world)
    for operation in sorted(TARGETED, key=allowed_order):
        if expected(operation, kind.org_role, kind.space_grant) is not None:
            continue
        body = bodies_for(world, operation, who, world.extras["callerElsewhere"])[-1]
        made = call(api, world, operation, headers=bearer(who), body=body)
        where = (operation.method, operation.path, made.status)
        documented = UNSUCCESSFUL_FOR_EVERYONE.get(operation.key)
        if made.status != (documented[0] if documented else made.status) or (
                documented is None and not 200 <= made.status < 400):
            problems.append((*where, f"{kind.name} may (needs {NEEDS[operation.key]}), body {body}: "
                                     f"{made.body[:200]!r}"))
        problems += [(*where, f"shows {name}") for name in shown(made, body, hidden)]
        problems += [(*where, issue) for issue in miscounted(made)]
    return problems


def miscounted(made: Call) -> list[str]:
    """A one-page listing counts what it lists: a larger count would tell the caller how much exists that
    they may not see (docs/decisions.md, Lists)."""
    listed = made.json() if made.operation.method == "GET" and made.status == 200 else None
    if not (isinstance(listed, dict) and isinstance(listed.get("items"), list) and "count" in listed):
        return []
    if listed.get("next") or listed["count"] == len(listed["items"]):
        return []
    return [f"counts {listed['count']} but lists {len(listed['items'])} on its only page"]


def test_every_operation_has_its_role_in_the_table():
    named, targeted = set(NEEDS), {op.key for op in TARGETED}
    assert len(targeted) > 180
    unnamed, stale = sorted(targeted - named), sorted(named - targeted)
    assert not unnamed, f"operations without a role in NEEDS_TABLE: {unnamed}"
    assert not stale, f"NEEDS_TABLE names operations the spec lacks: {stale}"
    assert set(UNSUCCESSFUL_FOR_EVERYONE) <= named


@pytest.mark.parametrize("kind", [k for k in KINDS if not k.removed], ids=lambda kind: kind.name)
def test_each_member_gets_what_their_role_allows_and_nothing_more(api, tmp_path, deliver_queued,
                                                                  git_settings, kind):  # noqa: F811
    world = build_world(api, tmp_path, deliver_queued)
    add_private_content(api, world)
    who = enrol(api, world, kind)
    before = snapshot(api, world)
    problems = refusals(api, world, kind, who)
    after = snapshot(api, world)
    problems += [("GET", path, 0, f"changed by refused calls: {difference(seen, after[path])}")
                 for path, seen in before.items() if after[path] != seen]
    problems += permitted(api, world, kind, who)
    assert not problems, report(problems)


# Refusals of an outsider that are not 404, each documented.
NOT_404_TO_OUTSIDERS = {
    ("POST", "/orgs/{organizationId}/join"): "400 for an existing organization the caller's email domain "
                                             "may not join (docs/decisions.md, Organizations)",
    ("POST", "/saml/{samlProviderId}/acs"): "no authorizer: a POST without a SAMLResponse is a 400 "
                                            "(docs/sso.md)",
}


def test_a_removed_member_is_an_outsider(api, tmp_path, deliver_queued, git_settings):  # noqa: F811
    kind = next(k for k in KINDS if k.removed)
    world = build_world(api, tmp_path, deliver_queued)
    add_private_content(api, world)
    who = enrol(api, world, kind)
    before = snapshot(api, world)
    problems: list[Problem] = []
    for operation in sorted(TARGETED, key=mallory_order):
        body = bodies_for(world, operation, who, world.extras["callerElsewhere"])[-1]
        made = call(api, world, operation, headers=bearer(who), body=body)
        problems += [(operation.method, operation.path, made.status, issue)
                     for issue in judge_outsider(api, world, made, body, who)]
        # With a valid body the only refusal is the outsider's 404: a 403 would tell that the id exists.
        if made.status in (400, 401, 403) and operation.key not in NOT_404_TO_OUTSIDERS:
            problems.append((operation.method, operation.path, made.status, "refused, but not with 404"))
    problems += unchanged_but_for_the_link(before, snapshot(api, world), world, who)
    assert not problems, report(problems)
