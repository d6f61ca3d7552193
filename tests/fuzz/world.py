"""The data the fuzzer needs to get past 401 and 404: one organization's world, made through the running
API (and the admin command, for the users the API cannot create), and the path-parameter values that name
it.

Schemathesis sends every request with the admin's token and these values in the path, so each operation
reaches real handling: a real space, page, file, change request, comment, site, spec... Operations that
destroy what they name (every DELETE, a change request's merge, a space's or collection's transfer, a
member's role change) get victims of their own (`Seeded.victims`), so the operations tested after them
still find the world whole.
"""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.git_repos import bare_repo

ROOT = Path(__file__).resolve().parents[2]
# A small GitBook repository: pages in a tree, one file (so pages, files, a revision and a Git Sync run).
REPOSITORY = {
    "README.md": b"# Home\n\nWelcome.\n",
    "SUMMARY.md": b"# Summary\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n"
                  b"  * [Install](guide/install.md)\n",
    "guide/README.md": b"# Guide\n\nHow to.\n",
    "guide/install.md": b"# Install\n\nRun it.\n\n![logo](../.gitbook/assets/logo.png)\n",
    ".gitbook/assets/logo.png": b"\x89PNG\r\n\x1a\nlogo-bytes",
}
OPENAPI_TEXT = json.dumps({"openapi": "3.0.0", "info": {"title": "Pets", "version": "1"}, "paths": {}})
EMAIL_DOMAIN = "fuzz.example"
# Background work (a Git import, an OpenAPI spec's processing) is delivered by the runner's own threads;
# the seed waits for it by polling, at most this long.
BACKGROUND_TIMEOUT = 120


class SeedError(RuntimeError):
    pass


@dataclass
class Api:
    """JSON calls to the runner as one user."""

    port: int
    token: str
    conn: http.client.HTTPConnection = field(init=False)

    def __post_init__(self) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=BACKGROUND_TIMEOUT)

    def call(self, method: str, path: str, body: Any = None, *, expect: tuple[int, ...] = (200, 201, 204),
             token: str | None = None) -> tuple[Any, http.client.HTTPResponse]:
        headers = {"Authorization": f"Bearer {token or self.token}"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        self.conn.request(method, "/v1" + path, body=data, headers=headers)
        response = self.conn.getresponse()
        raw = response.read()
        if response.status not in expect:
            raise SeedError(f"{method} {path} -> {response.status}: {raw[:500]!r}")
        return (json.loads(raw) if raw else None), response

    def __call__(self, method: str, path: str, body: Any = None, **kw: Any) -> Any:
        return self.call(method, path, body, **kw)[0]


@dataclass
class Seeded:
    params: dict[str, str]  # path-parameter name → value, for every operation
    # (path fragment, values): a change request's comments are not the space's
    contextual: list[tuple[str, dict[str, str]]]
    # (method, path template) → values for that operation only: a DELETE gets a thing of its own to delete
    victims: dict[tuple[str, str], dict[str, str]]
    token: str


def admin_user(storage_endpoint: str, name: str, email: str) -> dict[str, str]:
    """A user and their API token, made by `python -m bindery.platform.admin` against the runner's table."""
    env = {**os.environ, "BINDERY_DYNAMODB_ENDPOINT": storage_endpoint, "AWS_REGION": "us-east-1",
           "PYTHONPATH": str(ROOT / "layers" / "shared")}
    # The runner's engine accepts any credentials (as its own dummy ones); none of the shell's apply.
    env.update({"AWS_ACCESS_KEY_ID": "local", "AWS_SECRET_ACCESS_KEY": "local"})
    for variable in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "BINDERY_ENGINE"):
        env.pop(variable, None)
    command = [sys.executable, "-m", "bindery.platform.admin", "create-user", "--name", name,
               "--email", email]
    done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SeedError(f"bindery.platform.admin create-user failed: {done.stderr}")
    issued: dict[str, str] = json.loads(done.stdout)
    return issued


def wait_until(what: str, ready: Any) -> Any:
    deadline = time.monotonic() + BACKGROUND_TIMEOUT
    while True:
        value = ready()
        if value:
            return value
        if time.monotonic() > deadline:
            raise SeedError(f"{what}: not done after {BACKGROUND_TIMEOUT} s")
        time.sleep(0.2)  # the runner's delivery thread does the work; nothing to wait on but the API


def seed(port: int, token: str, user_id: str, storage_endpoint: str, workdir: Path) -> Seeded:
    api = Api(port, token)
    org = api("POST", "/orgs", {"title": "Fuzz", "emailDomains": [EMAIL_DOMAIN]})["id"]
    p: dict[str, str] = {"organizationId": org, "userId": user_id, "emailDomain": EMAIL_DOMAIN}

    # Members: a reviewer (the change request's reviews) and victims for the member DELETEs.
    members = {}
    for name in ("Rae", "Vic", "Tess"):
        issued = admin_user(storage_endpoint, name, f"{name.lower()}@{EMAIL_DOMAIN}")
        api("POST", f"/orgs/{org}/join", token=issued["token"])
        members[name] = issued
    api("PATCH", f"/orgs/{org}/members/{members['Rae']['userId']}", {"role": "review"})

    def space(title: str, **extra: Any) -> str:
        return str(api("POST", f"/orgs/{org}/spaces", {"title": title, **extra})["id"])

    def collection(title: str) -> str:
        return str(api("POST", f"/orgs/{org}/collections", {"title": title})["id"])

    p["collectionId"] = collection("Guides")
    p["spaceId"] = space("Handbook", parent=p["collectionId"])
    # Content: a Git import of REPOSITORY (pages, a file, a revision, a Git Sync run).
    url = bare_repo(workdir / "docs.git", REPOSITORY)
    _, started = api.call("POST", f"/spaces/{p['spaceId']}/git/import",
                          {"url": url, "ref": "refs/heads/main"})
    p["runId"] = str(started.headers["Location"]).rsplit("/", 1)[1]
    run_path = f"/spaces/{p['spaceId']}/git/runs/{p['runId']}"
    run = wait_until("the Git import",
                     lambda: (r := api("GET", run_path))["status"] not in ("pending", "running") and r)
    if run["status"] != "succeeded":
        raise SeedError(f"the Git import {run['status']}: {run.get('error')}")
    content = api("GET", f"/spaces/{p['spaceId']}/content")
    p["revisionId"] = content["id"]
    pages = api("GET", f"/spaces/{p['spaceId']}/content/pages")["pages"]
    p["pageId"], p["pagePath"] = pages[0]["id"], pages[0]["path"]
    p["fileId"] = api("GET", f"/spaces/{p['spaceId']}/content/files")["items"][0]["id"]

    team = api("PUT", f"/orgs/{org}/teams", {"title": "Writers", "members": [user_id]})["id"]
    p["teamId"] = team
    for kind, node in (("space", p["spaceId"]), ("collection", p["collectionId"])):
        api("POST", f"/{kind}s/{node}/permissions",
            {"role": "edit", "users": [members["Rae"]["userId"]], "teams": [team]})

    s = f"/spaces/{p['spaceId']}"
    p["changeRequestId"] = api("POST", f"{s}/change-requests", {"subject": "Edits"})["id"]
    cr = f"{s}/change-requests/{p['changeRequestId']}"
    api("POST", f"{cr}/requested-reviewers", {"users": [members["Rae"]["userId"]]})
    p["reviewId"] = api("POST", f"{cr}/reviews", {"status": "approved"}, token=members["Rae"]["token"])["id"]
    p["commentId"] = api("POST", f"{s}/comments",
                         {"body": {"markdown": "A comment"}, "page": p["pageId"]})["id"]
    p["commentReplyId"] = api("POST", f"{s}/comments/{p['commentId']}/replies",
                              {"body": {"markdown": "A reply"}})["id"]
    p["inviteId"] = api("POST", f"/orgs/{org}/link-invites", {"role": "read"})["id"]

    p["siteId"] = api("POST", f"/orgs/{org}/sites", {"title": "Docs", "spaces": [p["spaceId"]]})["id"]
    site = f"/orgs/{org}/sites/{p['siteId']}"
    section = api("POST", f"{site}/sections", {"spaceId": p["spaceId"], "title": "Main"})
    p["siteSectionId"], p["siteSpaceId"] = section["id"], section["siteSpaces"][0]["id"]
    p["siteSectionGroupId"] = api("POST", f"{site}/section-groups", {"title": "Group"})["id"]
    p["shareLinkId"] = api("POST", f"{site}/share-links", {"name": "Partners"})["id"]
    api("POST", f"{site}/publish")

    p["specSlug"] = api("POST", f"/orgs/{org}/openapi",
                        {"slug": "pets", "source": {"text": OPENAPI_TEXT}})["slug"]
    versions = wait_until("the OpenAPI spec's processing",
                          lambda: api("GET", f"/orgs/{org}/openapi/{p['specSlug']}/versions")["items"])
    p["versionId"] = versions[0]["id"]
    p["translationId"] = api("POST", f"/orgs/{org}/translations",
                             {"source": {"space": p["spaceId"], "language": "en"}, "language": "fr"})["id"]
    api("PUT", f"/orgs/{org}/translations-glossary",
        {"operations": [{"type": "insert", "translations": {"en": "guide", "fr": "guide"}}]})
    p["glossaryEntryId"] = api("GET", f"/orgs/{org}/translations-glossary")["items"][0]["id"]
    p["samlProviderId"] = api("POST", f"/orgs/{org}/saml", {"label": "IdP"})["id"]

    cr_comment = api("POST", f"{cr}/comments", {"body": {"markdown": "A CR comment"}})["id"]
    cr_reply = api("POST", f"{cr}/comments/{cr_comment}/replies", {"body": {"markdown": "A CR reply"}})["id"]
    contextual = [("/change-requests/{changeRequestId}/comments/{commentId}",
                   {"commentId": cr_comment, "commentReplyId": cr_reply}),
                  ("/requested-reviewers/{userId}", {"userId": members["Rae"]["userId"]})]
    victims = _victims(api, p, org, members)
    return Seeded(params=p, contextual=contextual, victims=victims, token=token)


def _victims(api: Api, p: dict[str, str], org: str,
             members: dict[str, dict[str, str]]) -> dict[tuple[str, str], dict[str, str]]:
    """Things of their own for the operations that destroy what they name."""
    s = f"/spaces/{p['spaceId']}"
    site = f"/orgs/{org}/sites/{p['siteId']}"
    cr = api("POST", f"{s}/change-requests", {"subject": "To merge"})["id"]
    comment = api("POST", f"{s}/comments", {"body": {"markdown": "To delete"}})["id"]
    reply = api("POST", f"{s}/comments/{p['commentId']}/replies", {"body": {"markdown": "To delete"}})["id"]
    cr_comment = api("POST", f"{s}/change-requests/{p['changeRequestId']}/comments",
                     {"body": {"markdown": "To delete"}})["id"]
    cr_reply = api("POST", f"{s}/change-requests/{p['changeRequestId']}/comments/{cr_comment}/replies",
                   {"body": {"markdown": "To delete"}})["id"]
    group = api("POST", f"{site}/section-groups", {"title": "To delete"})["id"]
    spares = [str(api("POST", f"/orgs/{org}/spaces", {"title": f"Spare {n}"})["id"]) for n in range(3)]
    section = api("POST", f"{site}/sections", {"spaceId": spares[0], "title": "To delete"})
    team = api("PUT", f"/orgs/{org}/teams", {"title": "To delete"})["id"]
    collection = str(api("POST", f"/orgs/{org}/collections", {"title": "To delete"})["id"])
    vic, tess = members["Vic"]["userId"], members["Tess"]["userId"]
    sp = "/spaces/{spaceId}"
    crp = sp + "/change-requests/{changeRequestId}"
    sitep = "/orgs/{organizationId}/sites/{siteId}"
    return {
        ("DELETE", "/collections/{collectionId}"): {"collectionId": collection},
        ("DELETE", "/orgs/{organizationId}/link-invites/{inviteId}"):
            {"inviteId": api("POST", f"/orgs/{org}/link-invites", {"role": "read"})["id"]},
        ("DELETE", "/orgs/{organizationId}/members/{userId}"): {"userId": vic},
        # Changing a member's role or SSO: another member's, or the admin would lose the rights the
        # operations tested after it need (found: every later DELETE a 403).
        ("PATCH", "/orgs/{organizationId}/members/{userId}"): {"userId": tess},
        ("POST", "/orgs/{organizationId}/members/{userId}/sso"): {"userId": tess},
        ("DELETE", "/orgs/{organizationId}/openapi/{specSlug}"):
            {"specSlug": api("POST", f"/orgs/{org}/openapi",
                             {"slug": "gone", "source": {"text": OPENAPI_TEXT}})["slug"]},
        ("DELETE", "/orgs/{organizationId}/saml/{samlProviderId}"):
            {"samlProviderId": api("POST", f"/orgs/{org}/saml", {"label": "Gone"})["id"]},
        ("DELETE", sitep): {"siteId": api("POST", f"/orgs/{org}/sites", {"title": "Gone"})["id"]},
        ("DELETE", sitep + "/section-groups/{siteSectionGroupId}"): {"siteSectionGroupId": group},
        ("DELETE", sitep + "/sections/{siteSectionId}"): {"siteSectionId": section["id"]},
        ("DELETE", sitep + "/share-links/{shareLinkId}"):
            {"shareLinkId": api("POST", f"{site}/share-links", {"name": "Gone"})["id"]},
        ("DELETE", sitep + "/site-spaces/{siteSpaceId}"): {"siteSpaceId": section["siteSpaces"][0]["id"]},
        ("DELETE", "/orgs/{organizationId}/teams/{teamId}"): {"teamId": team},
        ("DELETE", "/orgs/{organizationId}/teams/{teamId}/members/{userId}"): {"userId": tess},
        ("DELETE", "/orgs/{organizationId}/translations/{translationId}"):
            {"translationId": api("POST", f"/orgs/{org}/translations", {
                "source": {"space": p["spaceId"], "language": "en"}, "language": "de"})["id"]},
        ("DELETE", sp): {"spaceId": spares[1]},
        ("DELETE", sp + "/comments/{commentId}"): {"commentId": comment},
        ("DELETE", sp + "/comments/{commentId}/replies/{commentReplyId}"): {"commentReplyId": reply},
        ("DELETE", crp + "/comments/{commentId}"): {"commentId": cr_comment},
        ("DELETE", crp + "/comments/{commentId}/replies/{commentReplyId}"):
            {"commentId": cr_comment, "commentReplyId": cr_reply},
        ("DELETE", crp + "/requested-reviewers/{userId}"): {"userId": members["Rae"]["userId"]},
        ("POST", crp + "/merge"): {"changeRequestId": cr},
        ("POST", sp + "/transfer"): {"spaceId": spares[2]},
        ("POST", "/collections/{collectionId}/transfer"): {"collectionId": collection},
    }
