"""The shared half of the authorization matrices (issue 22): the route table read from docs/openapi.json,
the victim organization A's world built through the API with a real id for every path parameter, calling
one operation as someone, and Alice's snapshot of her world that shows whether anyone changed it.

tests/api/cross_cutting/test_authorization_matrix.py calls every operation as outsiders (another
organization's admin, no token, malformed tokens); tests/api/cross_cutting/test_authorization_roles.py as A's
own members in each role, a guest with one grant and a removed member.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bindery.platform import admin
from tests.api.authorization_integration import add_integration, integration_paths
from tests.api.content.test_content_reads import doc, page, publish, tree
from tests.api.git_sync_support import SIMPLE
from tests.api.members.test_members import join
from tests.api.openapi.test_openapi_specs import PETSTORE_TEXT
from tests.api.saml_idp import IdP
from tests.api.sites.test_site_publishing import ADAPTIVE
from tests.client import ApiClient, Identity
from tests.git_repos import bare_repo

SPEC = Path(__file__).resolve().parents[2] / "docs" / "openapi.json"
HTTP_METHODS = ("get", "put", "post", "patch", "delete")
WRITES = ("POST", "PUT", "PATCH")


# --- the route table ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Operation:
    method: str
    path: str  # the template, relative to the /v1 base, as docs/openapi.json names it
    required_query: tuple[str, ...] = ()

    @property
    def params(self) -> list[str]:
        return re.findall(r"{(\w+)}", self.path)

    @property
    def key(self) -> tuple[str, str]:
        return self.method, self.path

    def __str__(self) -> str:
        return f"{self.method} {self.path}"


def spec_operations() -> list[Operation]:
    """Every operation of docs/openapi.json (paths are relative to its `/v1` server)."""
    spec = json.loads(SPEC.read_text())
    assert [server["url"] for server in spec["servers"]] == ["/v1"]
    found = []
    for path, item in spec["paths"].items():
        for method in HTTP_METHODS:
            if method in item:
                query = tuple(p["name"] for p in item[method].get("parameters", [])
                              if p["in"] == "query" and p.get("required"))
                found.append(Operation(method.upper(), path, query))
    return found


OPERATIONS = spec_operations()

# Values for the query parameters the spec requires (a new required one must be added here).
QUERY_VALUES = {"query": "victim"}

# Path parameters whose id depends on where they appear: a change request's comments are not the space's.
CONTEXTUAL = {
    ("/change-requests/{changeRequestId}/comments/{commentId}", "commentId"): "crCommentId",
    ("/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}", "commentReplyId"):
        "crCommentReplyId",
    ("/requested-reviewers/{userId}", "userId"): "reviewerId",
}



# --- the victim's world ----------------------------------------------------------------------------------
@dataclass
class World:
    alice: Identity
    mallory: Identity
    alice_elsewhere: str  # another organization Alice administers (a transfer target)
    ids: dict[str, str]  # path-parameter name (and a few contextual names) → A's value
    secrets: dict[str, str] = field(default_factory=dict)  # what must never reach Mallory either
    extras: dict[str, str] = field(default_factory=dict)  # what request bodies name that is not A's

    def fill(self, operation: Operation) -> str:
        def value(name: str) -> str:
            for (context, param), key in CONTEXTUAL.items():
                if param == name and context in operation.path:
                    return self.ids[key]
            return self.ids[name]
        return re.sub(r"{(\w+)}", lambda m: value(m.group(1)), operation.path)

    def query(self, operation: Operation) -> dict[str, str]:
        return {name: QUERY_VALUES[name] for name in operation.required_query}

    def leak_targets(self) -> dict[str, str]:
        return {**self.ids, **self.secrets}


def ok(reply: Any, *statuses: int) -> Any:
    assert reply.status in (statuses or (200, 201, 204)), (reply.status, reply.body)
    return reply.json() if reply.body else None


VICTIM_CONVERSATION = {"id": "victim-ticket", "subject": "Victim export fails", "parts": [
    {"type": "message", "role": "user",
     "body": "The PDF export of the victim handbook fails with an error."}]}


def build_world(api: ApiClient, tmp_path: Path, deliver_queued: Callable[[], int]) -> World:
    """A's world, made through the API as Alice (content revisions as the content tests make them)."""
    alice = api.user("Alice", "alice@victim-a.example")
    alice.org_id = admin.create_org(alice.user_id, "Victim A")
    elsewhere = admin.create_org(alice.user_id, "Victim A's second")
    mallory = api.user("Mallory", "mallory@outsider-b.example")
    mallory.org_id = admin.create_org(mallory.user_id, "Outsider B")
    org, t = alice.org_id, alice.token
    ids = {"organizationId": org, "userId": alice.user_id, "emailDomain": "victim-a.example"}
    ok(api.patch(f"/orgs/{org}", token=t, body={"emailDomains": [ids["emailDomain"]]}))
    ids["collectionId"] = ok(api.post(f"/orgs/{org}/collections", token=t,
                                      body={"title": "Victim guides"}))["id"]
    ids["archiveCollectionId"] = ok(api.post(f"/orgs/{org}/collections", token=t,
                                             body={"title": "Victim archive"}))["id"]
    ids["spaceId"] = ok(api.post(f"/orgs/{org}/spaces", token=t,
                                 body={"title": "Victim handbook", "parent": ids["collectionId"]}))["id"]
    ids.update(pageId="pgVictimIntro0001", pagePath="victim-intro", fileId="fiVictimLogo0001",
               reusableContentId="rcVictimWarn0001")
    ids["revisionId"] = publish(
        ids["spaceId"],
        tree(page(ids["pageId"], "Victim intro", slug=ids["pagePath"]),
             files=[{"id": ids["fileId"], "name": "victim-logo.png", "contentType": "image/png"}],
             contents=[{"id": ids["reusableContentId"], "title": "Victim warning"}]),
        {ids["pageId"]: doc("Secret victim text.")}, files={ids["fileId"]: b"\x89PNG victim"},
        reusable_documents={ids["reusableContentId"]: doc("Careful, victim.")})
    ids["teamId"] = ok(api.put(f"/orgs/{org}/teams", token=t,
                               body={"title": "Victim team", "members": [alice.user_id]}))["id"]
    rae = join(api, org, "Rae", "review", email="rae@victim-a.example")
    ids["reviewerId"] = rae.user_id
    for kind, node in (("space", ids["spaceId"]), ("collection", ids["collectionId"])):
        ok(api.post(f"/{kind}s/{node}/permissions", token=t,
                    body={"role": "edit", "users": [rae.user_id, alice.user_id], "teams": [ids["teamId"]]}))
    space = f"/spaces/{ids['spaceId']}"
    ids["changeRequestId"] = ok(api.post(f"{space}/change-requests", token=t,
                                         body={"subject": "Victim edits"}))["id"]
    cr = f"{space}/change-requests/{ids['changeRequestId']}"
    ok(api.post(cr + "/requested-reviewers", token=t, body={"users": [rae.user_id]}))
    ids["reviewId"] = ok(api.post(cr + "/reviews", token=rae.token, body={"status": "approved"}))["id"]
    for prefix, base in (("", space), ("cr", cr)):
        comment = ok(api.post(f"{base}/comments", token=t, body={"body": {"markdown": "Victim comment"},
                                                                 "page": ids["pageId"]}))["id"]
        reply = ok(api.post(f"{base}/comments/{comment}/replies", token=t,
                            body={"body": {"markdown": "Victim reply"}}))["id"]
        ids[f"{prefix}commentId" if not prefix else "crCommentId"] = comment
        ids[f"{prefix}commentReplyId" if not prefix else "crCommentReplyId"] = reply
    ids["inviteId"] = ok(api.post(f"/orgs/{org}/link-invites", token=t, body={"role": "read"}))["id"]
    ids["siteId"] = ok(api.post(f"/orgs/{org}/sites", token=t,
                                body={"title": "Victim docs", "spaces": [ids["spaceId"]]}))["id"]
    site = f"/orgs/{org}/sites/{ids['siteId']}"
    section = ok(api.post(site + "/sections", token=t, body={"spaceId": ids["spaceId"], "title": "Victim"}))
    ids["siteSectionId"], ids["siteSpaceId"] = section["id"], section["siteSpaces"][0]["id"]
    ids["siteSectionGroupId"] = ok(api.post(site + "/section-groups", token=t,
                                            body={"title": "Victim"}))["id"]
    share = ok(api.post(site + "/share-links", token=t, body={"name": "Victim partners"}))
    ids["shareLinkId"] = share["id"]
    ok(api.put(site + "/adaptive-schema", token=t, body={"jsonSchema": ADAPTIVE}))
    ok(api.post(site + "/publish", token=t))
    ids["specSlug"] = ok(api.post(f"/orgs/{org}/openapi", token=t, body={
        "slug": "victim-spec", "source": {"text": PETSTORE_TEXT}}))["slug"]
    ok(api.post(f"/orgs/{org}/conversations", token=t, body=VICTIM_CONVERSATION))
    deliver_queued()  # the spec's and the conversation's processing (nothing else is queued yet)
    ids["conversationId"] = ok(api.get(f"/orgs/{org}/conversations", token=t))["items"][0]["id"]
    issue = ok(api.get(f"/orgs/{org}/conversations-issues", token=t))["items"][0]["issue"]
    ids["issueId"], ids["clusterId"] = issue["id"], issue["cluster"]
    versions = ok(api.get(f"/orgs/{org}/openapi/{ids['specSlug']}/versions", token=t))
    ids["versionId"] = versions["items"][0]["id"]
    ids["translationId"] = ok(api.post(f"/orgs/{org}/translations", token=t, body={
        "source": {"space": ids["spaceId"], "language": "en"}, "language": "fr"}))["id"]
    ok(api.put(f"/orgs/{org}/translations-glossary", token=t, body={
        "operations": [{"type": "insert", "translations": {"en": "victim", "fr": "victime"}}]}))
    ids["glossaryEntryId"] = ok(api.get(f"/orgs/{org}/translations-glossary", token=t))["items"][0]["id"]
    idp = IdP()
    ids["samlProviderId"] = ok(api.post(f"/orgs/{org}/saml", token=t, body={
        "label": "Victim IdP", "entityID": idp.entity_id, "ssoURL": idp.sso_url,
        "certificate": idp.certificate}))["id"]
    # A Git Sync run, queued and never delivered: a file:// repository, no network.
    git_url = bare_repo(tmp_path / "victim.git", SIMPLE)
    started = api.post(f"{space}/git/import", token=t, body={"url": git_url, "ref": "refs/heads/main"})
    assert started.status == 204, started.body
    ids["runId"] = started.headers["Location"].rsplit("/", 1)[1]
    integration = add_integration(api, alice, ids)
    world = World(alice, mallory, elsewhere, ids)
    world.secrets = {**integration, "aliceEmail": "alice@victim-a.example",
                     "reviewerEmail": "rae@victim-a.example", "aliceToken": alice.token,
                     "reviewerToken": rae.token,
                     "shareKey": share["urls"]["published"].split("shareKey=")[1],
                     "aliceElsewhere": elsewhere, "victimText": "Secret victim text"}
    world.extras = {"gitUrl": git_url, "malloryEmail": "mallory@outsider-b.example"}
    return world


# --- calling and judging -----------------------------------------------------------------------------------
@dataclass
class Call:
    operation: Operation
    path: str
    status: int
    body: bytes
    headers: dict[str, str]

    def text(self) -> str:
        return self.body.decode("utf-8", "replace") + "\n" + json.dumps(self.headers)

    def json(self) -> Any:
        try:
            return json.loads(self.body) if self.body else None
        except ValueError:
            return None


def call(api: ApiClient, world: World, operation: Operation, *, headers: dict[str, str] | None = None,
         body: Any = None) -> Call:
    """One request to the in-process gateway; a handler that raises is a 500, as Lambda would make it."""
    path = world.fill(operation)
    try:
        reply = api.call(operation.method, path, headers=headers, body=body, query=world.query(operation))
    except Exception as error:  # noqa: BLE001 - an unhandled error is what the matrix reports
        return Call(operation, path, 500, repr(error).encode(), {})
    return Call(operation, path, reply.status, reply.body, reply.headers)


def bearer(who: Identity) -> dict[str, str]:
    return {"Authorization": f"Bearer {who.token}"}



def leaks(world: World, made: Call, sent: Any, may_show: frozenset[str] = frozenset()) -> list[str]:
    """A's ids and secrets in the response that the caller did not send herself (path or body)."""
    own = made.path + json.dumps(sent)
    text = made.text()
    return sorted(name for name, value in world.leak_targets().items()
                  if name not in may_show and value not in own and value in text)





# Reads of A's world as Alice, before and after Mallory's calls: (path, fields that may move).
def snapshot_paths(world: World) -> list[str]:
    i = world.ids
    org, space, site = f"/orgs/{i['organizationId']}", f"/spaces/{i['spaceId']}", \
        f"/orgs/{i['organizationId']}/sites/{i['siteId']}"
    cr = f"{space}/change-requests/{i['changeRequestId']}"
    return [
        org, f"{org}/members", f"{org}/teams/{i['teamId']}", f"{org}/teams/{i['teamId']}/members",
        f"{org}/link-invites", f"{org}/spaces", f"{org}/collections", f"{org}/agent-instructions",
        f"{org}/openapi/{i['specSlug']}", f"{org}/translations/{i['translationId']}",
        f"{org}/translations-glossary", f"{org}/saml/{i['samlProviderId']}", f"{org}/sites",
        f"{org}/conversations/{i['conversationId']}", f"{org}/conversations-issues",
        f"{org}/conversations-clusters/{i['clusterId']}",
        f"/collections/{i['collectionId']}", f"/collections/{i['collectionId']}/permissions/users",
        space, f"{space}/content", f"{space}/content/page/{i['pageId']}", f"{space}/permissions/users",
        f"{space}/permissions/teams", f"{space}/comments/{i['commentId']}",
        f"{space}/comments/{i['commentId']}/replies", f"{space}/git/runs", f"{space}/change-requests",
        cr, f"{cr}/content", f"{cr}/comments", f"{cr}/reviews", f"{cr}/requested-reviewers",
        site, f"{site}/sections", f"{site}/site-spaces", f"{site}/section-groups", f"{site}/share-links",
        f"{site}/customization", f"{site}/published", f"{site}/integrations", f"{org}/installations",
        f"{org}/integrations", f"{space}/integrations", *integration_paths(i),
    ]


MOVING_FIELDS = {"lastSeenAt"}


def without_moving(value: Any) -> Any:
    """A read without what moves by itself: `lastSeenAt`, and the signatures of presigned URLs."""
    if isinstance(value, dict):
        return {k: without_moving(v) for k, v in value.items() if k not in MOVING_FIELDS}
    if isinstance(value, list):
        return [without_moving(v) for v in value]
    if isinstance(value, str) and value.startswith("http") and "Signature=" in value:
        return value.split("?", 1)[0]
    return value


def snapshot(api: ApiClient, world: World) -> dict[str, Any]:
    """Alice's reads of her world (each a 200 with its body, else the status)."""
    taken = {}
    for path in snapshot_paths(world):
        reply = api.get(path, token=world.alice.token)
        taken[path] = without_moving(reply.json()) if reply.status == 200 else reply.status
    return taken


def difference(before: Any, after: Any) -> str:
    if isinstance(before, dict) and isinstance(after, dict):
        keys = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
        return "; ".join(f"{k}: {str(before.get(k))[:80]} -> {str(after.get(k))[:80]}" for k in keys)
    return f"{str(before)[:120]} -> {str(after)[:120]}"


def report(problems: list[tuple[str, str, int, str]]) -> str:
    lines = [f"{len(problems)} problem(s):"]
    lines += [f"  {method} {path} -> {status}: {reason}" for method, path, status, reason in problems]
    return "\n".join(lines)


def settle_known_holes(problems: list[tuple[str, str, int, str]],
                       known: dict[tuple[str, str], tuple[str, str]]) -> list[tuple[str, str, int, str]]:
    """The problems that are not known holes, plus every known hole that no longer shows (so that a
    fixed hole is taken off its list)."""
    def is_known(problem: tuple[str, str, int, str]) -> bool:
        hole = known.get((problem[0], problem[1]))
        return hole is not None and problem[3].startswith(hole[1])

    left = [problem for problem in problems if not is_known(problem)]
    shown = {(problem[0], problem[1]) for problem in problems if is_known(problem)}
    left += [(method, path, 0, f"listed as a known hole ({what[:60]}…) but it no longer shows: take it off")
             for (method, path), (what, _) in known.items() if (method, path) not in shown]
    return left

