"""The authorization matrix (issue 22), generated from the route table in docs/openapi.json: every
operation, called by another organization's admin, without a token and with malformed tokens.

One world is built through the API as the victim organization A (owner admin Alice): content, change
requests, comments, teams, invites, a published site, an OpenAPI spec, a translation, a SAML provider and
a Git Sync run. Mallory, the admin of her own organization B, then calls every operation that names one
of A's ids: she must get 400/401/403/404 (never a 2xx, never a 5xx), and no response may carry an id or
secret of A that she did not send herself. Operations that are open to any signed-in user are listed in
OPEN_TO_OUTSIDERS with the reason and with what they may show. Every operation without a token or with
a malformed token is a 401 in the error shape, except the few routes template.yaml leaves without an
authorizer (UNAUTHENTICATED). Afterwards A's world reads as it did before, and Alice's own calls with
the bodies Mallory sent succeed (so Mallory's refusals came from authorization, not from validation).

A DELETE answers 204 also when there is nothing to delete, and content a caller cannot see is missing to
them (API.md, Common rules 2): a 204 to Mallory's DELETE counts as a refusal only when the same DELETE of
an unknown id answers the same and Alice still reads the resource.

Holes found are listed in KNOWN_HOLES (expected to be fixed): the test keeps asserting the correct
behaviour for every other operation, and fails when a known hole is closed, so the list stays exact.
"""

from __future__ import annotations

import copy
import json
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bindery import admin
from bindery.domain.sites.customization import DEFAULT as DEFAULT_CUSTOMIZATION
from tests.api.git_sync_support import SIMPLE, git_settings  # noqa: F401 - a fixture
from tests.api.saml_idp import IdP
from tests.api.test_content_reads import doc, page, publish, tree
from tests.api.test_members import join
from tests.api.test_openapi_specs import PETSTORE_TEXT
from tests.api.test_site_publishing import ADAPTIVE
from tests.client import ApiClient, Identity
from tests.git_repos import bare_repo

SPEC = Path(__file__).resolve().parents[2] / "docs" / "openapi.json"
HTTP_METHODS = ("get", "put", "post", "patch", "delete")
WRITES = ("POST", "PUT", "PATCH")
REFUSED = {400, 401, 403, 404}
DOCUMENT = doc("Mallory was here.")


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
        "profile (docs/sites.md, 'Who reads a site')", 200, PUBLISHED),
    ("GET", "/orgs/{organizationId}/sites/{siteId}/sections"): Open(
        "read by a published public site's visitors (docs/sites.md)", 200, PUBLISHED),
    ("GET", "/orgs/{organizationId}/sites/{siteId}/site-spaces"): Open(
        "read by a published public site's visitors (docs/sites.md)", 200, PUBLISHED),
    ("POST", "/orgs/{organizationId}/invites/{inviteId}"): Open(
        "joining with an invite link: the link id is the secret and whoever holds it joins (decisions.md, "
        "Invites); called last, since Mallory is a member of A afterwards", 200,
        check=lambda body, _w: [] if body == {} else ["answers more than {}"]),
}

# Holes this matrix found, to be fixed in production code: (method, path) → (what happens, the problem
# the matrix reports for it). Only that exact problem is let through; each known hole must still show,
# so that a fixed one is taken off the list.
KNOWN_HOLES: dict[tuple[str, str], tuple[str, str]] = {}
# Holes of the no-token / malformed-token matrix (none found).
KNOWN_TOKEN_HOLES: dict[tuple[str, str], tuple[str, str]] = {}


ORG, SPACE = "/orgs/{organizationId}", "/spaces/{spaceId}"
SITE, CR = ORG + "/sites/{siteId}", SPACE + "/change-requests/{changeRequestId}"

# --- bodies: for every write, `{}` and one that would be valid for A's owner --------------------------------
Body = Callable[[dict[str, str], Identity, str], Any]
# (world ids, the caller, an organization the caller administers other than A) → body. None: the
# operation takes no body (or any), `{}` is all there is to send.
VALID_BODIES: dict[tuple[str, str], Body | None] = {
    ("PATCH", "/collections/{collectionId}"): lambda w, me, o: {"title": "Hijacked"},
    ("POST", "/collections/{collectionId}/move"): lambda w, me, o: {"parent": w["archiveCollectionId"]},
    ("POST", "/collections/{collectionId}/permissions"): lambda w, me, o: {"role": "admin",
                                                                           "users": [me.user_id]},
    ("PATCH", "/collections/{collectionId}/permissions/teams/{teamId}"): lambda w, me, o: {"role": "admin"},
    ("PATCH", "/collections/{collectionId}/permissions/users/{userId}"): lambda w, me, o: {"role": "read"},
    ("POST", "/collections/{collectionId}/transfer"): lambda w, me, o: {"organization": o},
    ("PATCH", ORG): lambda w, me, o: {"title": "Hijacked"},
    ("PUT", ORG + "/agent-instructions"): lambda w, me, o: {"instructions": DOCUMENT},
    ("POST", ORG + "/collections"): lambda w, me, o: {"title": "Mallory's"},
    ("POST", ORG + "/invites"): lambda w, me, o: {"emails": [w["extras.malloryEmail"]], "role": "admin"},
    ("POST", ORG + "/invites/{inviteId}"): None,
    ("POST", ORG + "/join"): None,
    ("POST", ORG + "/link-invites"): lambda w, me, o: {"role": "admin"},
    ("PATCH", ORG + "/link-invites/{inviteId}"): lambda w, me, o: {"role": "admin"},
    ("PATCH", ORG + "/members/{userId}"): lambda w, me, o: {"role": "read"},
    ("POST", ORG + "/members/{userId}/sso"): None,
    ("POST", ORG + "/openapi"): lambda w, me, o: {"slug": "mallory-spec", "source": {"text": PETSTORE_TEXT}},
    ("PATCH", ORG + "/openapi/{specSlug}"): lambda w, me, o: {"visibility": "public"},
    ("PUT", ORG + "/openapi/{specSlug}"): lambda w, me, o: {
        "source": {"text": PETSTORE_TEXT.replace("Pets", "Hijacked")}},
    ("POST", ORG + "/ping"): None,
    ("POST", ORG + "/saml"): lambda w, me, o: {"label": "Mallory IdP"},
    ("PATCH", ORG + "/saml/{samlProviderId}"): lambda w, me, o: {"label": "Hijacked"},
    ("POST", ORG + "/sites"): lambda w, me, o: {"title": "Mallory's site"},
    ("PATCH", SITE): lambda w, me, o: {"title": "Hijacked"},
    ("PUT", SITE + "/adaptive-schema"): lambda w, me, o: {"jsonSchema": ADAPTIVE},
    ("PUT", SITE + "/customization"): lambda w, me, o: {
        **copy.deepcopy(DEFAULT_CUSTOMIZATION), "title": "Hijacked"},
    ("POST", SITE + "/publish"): None,
    ("POST", SITE + "/unpublish"): None,
    ("POST", SITE + "/section-groups"): lambda w, me, o: {"title": "Mallory's"},
    ("PATCH", SITE + "/section-groups/{siteSectionGroupId}"): lambda w, me, o: {"title": "Hijacked"},
    ("POST", SITE + "/section-groups/{siteSectionGroupId}/sections"):
        lambda w, me, o: {"sectionId": w["siteSectionId"]},
    ("POST", SITE + "/sections"): lambda w, me, o: {"spaceId": w["spaceId"]},
    ("PATCH", SITE + "/sections/{siteSectionId}"): lambda w, me, o: {"title": "Hijacked"},
    ("POST", SITE + "/sections/{siteSectionId}/move"): None,
    ("POST", SITE + "/share-links"): lambda w, me, o: {"name": "Mallory's"},
    ("PATCH", SITE + "/share-links/{shareLinkId}"): lambda w, me, o: {"name": "Hijacked"},
    ("POST", SITE + "/site-spaces"): lambda w, me, o: {"spaceId": w["spaceId"]},
    ("PATCH", SITE + "/site-spaces/{siteSpaceId}"): lambda w, me, o: {"path": "hijacked"},
    ("PATCH", SITE + "/site-spaces/{siteSpaceId}/customization"): lambda w, me, o: {"title": "Hijacked"},
    ("POST", SITE + "/site-spaces/{siteSpaceId}/move"): None,
    ("POST", ORG + "/spaces"): lambda w, me, o: {"title": "Mallory's"},
    ("PUT", ORG + "/teams"): lambda w, me, o: {"title": "Mallory's"},
    ("PATCH", ORG + "/teams/{teamId}"): lambda w, me, o: {"title": "Hijacked"},
    ("PUT", ORG + "/teams/{teamId}/members"): lambda w, me, o: {"add": [me.user_id]},
    ("PUT", ORG + "/teams/{teamId}/members/{userId}"): lambda w, me, o: {"role": "member"},
    ("POST", ORG + "/translations"): lambda w, me, o: {
        "source": {"space": w["spaceId"], "language": "en"}, "language": "de"},
    ("PUT", ORG + "/translations-glossary"): lambda w, me, o: {
        "operations": [{"type": "delete", "id": w["glossaryEntryId"]}]},
    ("PUT", ORG + "/translations/{translationId}"): lambda w, me, o: {"instructions": DOCUMENT},
    ("POST", ORG + "/translations/{translationId}/run"): None,
    ("POST", "/saml/{samlProviderId}/acs"): None,
    ("PATCH", SPACE): lambda w, me, o: {"title": "Hijacked"},
    ("POST", SPACE + "/change-requests"): lambda w, me, o: {"subject": "Mallory's"},
    ("PATCH", CR): lambda w, me, o: {"subject": "Hijacked"},
    ("POST", CR + "/comments"): lambda w, me, o: {"body": {"markdown": "Mallory was here"}},
    ("PUT", CR + "/comments/{commentId}"): lambda w, me, o: {"body": {"markdown": "Hijacked"}},
    ("POST", CR + "/comments/{commentId}/replies"):
        lambda w, me, o: {"body": {"markdown": "Mallory was here"}},
    ("PUT", CR + "/comments/{commentId}/replies/{commentReplyId}"):
        lambda w, me, o: {"body": {"markdown": "Hijacked"}},
    ("POST", CR + "/content"): lambda w, me, o: {
        "changes": [{"operation": "update_page", "page": w["pageId"], "title": "Hijacked"}]},
    ("POST", CR + "/merge"): None,
    ("POST", CR + "/requested-reviewers"): lambda w, me, o: {"users": [w["reviewerId"]]},
    ("POST", CR + "/reviews"): lambda w, me, o: {"status": "changes-requested"},
    ("POST", CR + "/update"): None,
    ("POST", SPACE + "/comments"): lambda w, me, o: {"body": {"markdown": "Mallory was here"}},
    ("PUT", SPACE + "/comments/{commentId}"): lambda w, me, o: {"body": {"markdown": "Hijacked"}},
    ("POST", SPACE + "/comments/{commentId}/replies"):
        lambda w, me, o: {"body": {"markdown": "Mallory was here"}},
    ("PUT", SPACE + "/comments/{commentId}/replies/{commentReplyId}"):
        lambda w, me, o: {"body": {"markdown": "Hijacked"}},
    ("POST", SPACE + "/content/template"): lambda w, me, o: {"id": "getting-started"},
    ("POST", SPACE + "/duplicate"): None,
    ("POST", SPACE + "/git/export"): lambda w, me, o: {
        "url": w["extras.gitUrl"], "ref": "refs/heads/exported", "commitMessage": "Exported"},
    ("POST", SPACE + "/git/import"): lambda w, me, o: {"url": w["extras.gitUrl"], "ref": "refs/heads/main"},
    ("POST", SPACE + "/move"): lambda w, me, o: {"parent": None},
    ("POST", SPACE + "/permissions"): lambda w, me, o: {"role": "admin", "users": [me.user_id]},
    ("PATCH", SPACE + "/permissions/teams/{teamId}"): lambda w, me, o: {"role": "admin"},
    ("PATCH", SPACE + "/permissions/users/{userId}"): lambda w, me, o: {"role": "read"},
    ("POST", SPACE + "/restore"): None,
    ("POST", SPACE + "/transfer"): lambda w, me, o: {"organization": o},
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
    ok(api.post(site + "/publish", token=t))
    ids["specSlug"] = ok(api.post(f"/orgs/{org}/openapi", token=t, body={
        "slug": "victim-spec", "source": {"text": PETSTORE_TEXT}}))["slug"]
    deliver_queued()  # the spec's processing (nothing else is queued yet): its first version
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
    world = World(alice, mallory, elsewhere, ids)
    world.secrets = {"aliceEmail": "alice@victim-a.example", "reviewerEmail": "rae@victim-a.example",
                     "aliceToken": alice.token, "reviewerToken": rae.token,
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


def deleted_as_missing(api: ApiClient, world: World, operation: Operation) -> list[str]:
    """A DELETE answers 204 also when there was nothing to delete, and what a caller cannot see is missing
    to them (API.md, Common rules 2; lifecycle.delete_space): a 204 to Mallory is a refusal if the same
    DELETE of an unknown id answers the same, and the resource is still there for Alice."""
    problems = []
    last = operation.params[-1]
    unknown = Operation("DELETE", operation.path.replace("{" + last + "}", "noSuchId0000000000"))
    made = api.call("DELETE", world.fill(unknown), headers=bearer(world.mallory))
    if made.status != 204:
        problems.append(f"204 for A's {last} but {made.status} for an unknown one: tells that it exists")
    if ("GET", operation.path) in {op.key for op in OPERATIONS}:
        still = api.get(world.fill(Operation("GET", operation.path)), token=world.alice.token)
        if still.status != 200:
            problems.append(f"deleted: Alice's GET now answers {still.status}")
    return problems


def leaks(world: World, made: Call, sent: Any, may_show: frozenset[str] = frozenset()) -> list[str]:
    """A's ids and secrets in the response that the caller did not send herself (path or body)."""
    own = made.path + json.dumps(sent)
    text = made.text()
    return sorted(name for name, value in world.leak_targets().items()
                  if name not in may_show and value not in own and value in text)


def bodies_for(world: World, operation: Operation, caller: Identity, elsewhere: str) -> list[Any]:
    """What a write is sent with: `{}` and, unless the body is irrelevant, one valid for A's owner."""
    if operation.method not in WRITES:
        return [None]
    make = VALID_BODIES[operation.key]
    return [{}] if make is None else [{}, make(body_values(world), caller, elsewhere)]


def body_values(world: World) -> dict[str, str]:
    return {**world.ids, **{f"extras.{k}": v for k, v in world.extras.items()}}


def mallory_order(operation: Operation) -> tuple[int, str, str]:
    """Reads first, then writes, then deletes (a hole there would spoil what follows); joining A with its
    invite link last of all, since Mallory is one of A's members afterwards."""
    rank = {"GET": 0, "POST": 1, "PUT": 1, "PATCH": 1, "DELETE": 2}[operation.method]
    if operation.key == ("POST", "/orgs/{organizationId}/invites/{inviteId}"):
        rank = 3
    return rank, operation.path, operation.method


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
        f"/collections/{i['collectionId']}", f"/collections/{i['collectionId']}/permissions/users",
        space, f"{space}/content", f"{space}/content/page/{i['pageId']}", f"{space}/permissions/users",
        f"{space}/permissions/teams", f"{space}/comments/{i['commentId']}",
        f"{space}/comments/{i['commentId']}/replies", f"{space}/git/runs", f"{space}/change-requests",
        cr, f"{cr}/content", f"{cr}/comments", f"{cr}/reviews", f"{cr}/requested-reviewers",
        site, f"{site}/sections", f"{site}/site-spaces", f"{site}/section-groups", f"{site}/share-links",
        f"{site}/customization",
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


def judge_outsider(api: ApiClient, world: World, made: Call, body: Any) -> list[str]:
    """What is wrong with Mallory's call of an operation naming A's ids."""
    operation = made.operation
    allowed = OPEN_TO_OUTSIDERS.get(operation.key)
    if made.status >= 500:
        return [f"server error (body {body}): {made.body[:200]!r}"]
    problems = []
    if allowed is not None:
        if made.status != allowed.status and body in (None, {}):
            problems.append(f"open to outsiders ({allowed.reason}) but not {allowed.status}")
        if allowed.check is not None and 200 <= made.status < 300:
            problems += allowed.check(made.json(), world.ids)
    elif operation.method == "DELETE" and made.status == 204:
        problems += deleted_as_missing(api, world, operation)
    elif made.status not in REFUSED:
        problems.append(f"not refused (body {body}): {made.body[:300]!r}")
    shown = leaks(world, made, body, allowed.may_show if allowed else frozenset())
    if shown:
        problems.append(f"shows A's {', '.join(shown)} (body sent {body})")
    return problems


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
        for body in bodies_for(world, operation, mallory, mallory.org_id):
            made = call(api, world, operation, headers=bearer(mallory), body=body)
            problems += [(operation.method, operation.path, made.status, issue)
                         for issue in judge_outsider(api, world, made, body)]

    after = snapshot(api, world)
    members = f"/orgs/{world.ids['organizationId']}/members"
    if isinstance(after[members], dict):  # Mallory joined with the invite link, as a reader: not a change
        joined = [m for m in after[members]["items"] if m["id"] == mallory.user_id]
        if [m["role"] for m in joined] != ["read"]:
            problems.append(("POST", "/orgs/{organizationId}/invites/{inviteId}", 200,
                             f"Mallory is not a reader of A after joining with its link: {joined}"))
        after[members]["items"] = [m for m in after[members]["items"] if m["id"] != mallory.user_id]
        after[members]["count"] -= len(joined)
    for path, seen in before.items():
        if after[path] != seen:
            problems.append(("GET", path, after[path] if isinstance(after[path], int) else 200,
                             f"changed by Mallory's calls: {difference(seen, after[path])}"))
    left = settle_known_holes(problems, KNOWN_HOLES)
    assert not left, report(left)


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


# Run last by Alice (each changes what the others act on): (method, path) → rank.
OWNER_LAST = {
    ("POST", "/spaces/{spaceId}/change-requests/{changeRequestId}/merge"): 1,
    ("POST", "/orgs/{organizationId}/sites/{siteId}/unpublish"): 1,
    ("POST", "/spaces/{spaceId}/transfer"): 2,
    ("POST", "/collections/{collectionId}/transfer"): 3,
    ("PATCH", "/orgs/{organizationId}/members/{userId}"): 4,  # Alice makes herself a reader
}


def test_the_bodies_mallory_sends_are_valid_for_the_owner(api, world):
    """Alice's own calls with the valid bodies succeed: Mallory's refusals came from authorization, not
    from validating a body that could never pass."""
    alice = world.alice
    problems = []
    writes = sorted((op for op in OPERATIONS if VALID_BODIES.get(op.key) is not None),
                    key=lambda op: (OWNER_LAST.get(op.key, 0), op.path, op.method))
    for operation in writes:
        body = bodies_for(world, operation, alice, world.alice_elsewhere)[-1]
        made = call(api, world, operation, headers=bearer(alice), body=body)
        if not 200 <= made.status < 300:
            problems.append((operation.method, operation.path, made.status, f"{body}: {made.body[:300]!r}"))
    assert not problems, report(problems)
