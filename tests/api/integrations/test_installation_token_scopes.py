"""Installation tokens beyond spaces: the site, OpenAPI, Git Sync and route-less scopes, by selection,
against the existing endpoints (docs/integrations.md, "Installation tokens"). Every cell is the scope's
answer (2xx), a 403 (no scope of the token names the route) or a 404 (outside the installation's
organization or its site/space selection), never more."""

from __future__ import annotations

import pytest

from bindery.domain.access.auth import Caller, InstallationGrant
from bindery.domain.access.installation_scopes import CONVERSATIONS_INGEST
from bindery.domain.access.installations import require_installation_scope
from bindery.platform.errors import NotFound
from tests.api.git_sync_support import SIMPLE, git_settings, run  # noqa: F401 - a fixture
from tests.api.integration_support import install, publish, seeded_space
from tests.api.integrations.test_installation_tokens import token_for
from tests.api.openapi.test_openapi_specs import PETSTORE_TEXT
from tests.api.sites.test_sites import new_site
from tests.git_repos import bare_repo

SCOPE_SETS = {
    "none": [],
    "site-read": ["site:metadata:read"],
    "adaptive-read": ["site:adaptive:read"],
    "adaptive-write": ["site:adaptive:write"],
    "openapi-read": ["openapi:read"],
    "openapi-write": ["openapi:write"],
    "git": ["space:git:sync"],
    "visitor-auth": ["site:visitor:auth"],
    # Scopes that name no route (the script is put on the published site; Bindery serves no analytics
    # or feedback routes; conversations check the capability themselves).
    "routeless": ["site:script:inject", "site:script:cookies", "site:views:read",
                  "page:feedback:read", "conversations:ingest"],
}


def schema(claim):
    return {"jsonSchema": {"type": "object", "additionalProperties": False, "properties": {
        claim: {"type": "string", "description": "A claim"}}}}


SCHEMA = schema("plan")


@pytest.fixture
def world(api, sqs_queues):
    """Ada's organization: two sites (one selected), a space and an OpenAPI spec; Olga's the same; an
    integration per scope set, installed on Ada's organization and her selected site and space."""
    dev, ada = api.org_admin("Dev", "Developer"), api.org_admin("Ada", "Acme")
    olga = api.org_admin("Olga", "Other")
    found = {"dev": dev, "ada": ada, "olga": olga, "installs": {}}
    for who, prefix in ((ada, ""), (olga, "other-")):
        space = seeded_space(api, who, "Docs")
        found[prefix + "space"] = space
        for key in ("selected", "unselected") if who is ada else ("elsewhere",):
            site = new_site(api, who, title=key.title(), spaces=[space["id"]])
            put = api.put(f"/orgs/{who.org_id}/sites/{site['id']}/adaptive-schema", token=who.token,
                          body=SCHEMA)
            assert put.status == 200, put.body
            found[key] = (who, site)
        made = api.post(f"/orgs/{who.org_id}/openapi", token=who.token,
                        body={"slug": "pets", "source": {"text": PETSTORE_TEXT}})
        assert made.status == 201, made.body
    for label, scopes in SCOPE_SETS.items():
        name = f"int-{label}"
        publish(api, dev, name, scopes=scopes)
        installation = install(api, ada, name)
        base = f"/integrations/{name}/installations/{installation['id']}"
        for kind, body in (("sites", {"siteId": found["selected"][1]["id"]}),
                           ("spaces", {"space": found["space"]["id"]})):
            made = api.post(f"{base}/{kind}", token=ada.token, body=body)
            assert made.status == 201, made.body
        found["installs"][label] = (name, installation["id"])
    return found


SITE_READS = {"": "site:metadata:read", "/published": "site:metadata:read",
              "/customization": "site:metadata:read", "/site-spaces": "site:metadata:read",
              "/sections": "site:metadata:read", "/section-groups": "site:metadata:read",
              "/adaptive-schema": "site:adaptive:read",
              "/adaptive-schema/template-conditions": "site:adaptive:read"}


@pytest.mark.parametrize("selection", ["selected", "all"])
@pytest.mark.parametrize("label", list(SCOPE_SETS))
def test_site_reads_follow_the_scopes_and_the_site_selection(api, world, label, selection):
    name, installation_id = world["installs"][label]
    if selection == "all":
        changed = api.patch(f"/integrations/{name}/installations/{installation_id}", token=world["ada"].token,
                            body={"site_selection": "all"})
        assert changed.status == 200, changed.body
    token = token_for(api, world["dev"], name, installation_id)
    scopes = set(SCOPE_SETS[label])
    for key, reachable in (("selected", True), ("unselected", selection == "all"), ("elsewhere", False)):
        who, site = world[key]
        for rest, scope in SITE_READS.items():
            reply = api.get(f"/orgs/{who.org_id}/sites/{site['id']}{rest}", token=token)
            expected = 403 if scope not in scopes else (200 if reachable else 404)
            assert reply.status == expected, (label, selection, key, rest, reply.body)
            if expected == 200 and rest == "":
                assert reply.json()["id"] == site["id"]


@pytest.mark.parametrize("label", list(SCOPE_SETS))
def test_site_writes_only_the_adaptive_schema_with_its_scope(api, world, label):
    name, installation_id = world["installs"][label]
    token = token_for(api, world["dev"], name, installation_id)
    writer = label == "adaptive-write"
    changed = schema("tier")
    for key, reachable in (("selected", True), ("unselected", False), ("elsewhere", False)):
        who, site = world[key]
        path = f"/orgs/{who.org_id}/sites/{site['id']}"
        reply = api.put(f"{path}/adaptive-schema", token=token, body=changed)
        assert reply.status == (403 if not writer else 200 if reachable else 404), (label, key, reply.body)
        for method, rest, body in (("PATCH", "", {"title": "Taken"}), ("DELETE", "", None),
                                   ("POST", "/publish", None), ("GET", "/share-links", None),
                                   ("PUT", "/customization", {}), ("GET", "/integrations", None)):
            assert api.call(method, path + rest, token=token, body=body).status == 403, (label, method, rest)
        properties = api.get(f"{path}/adaptive-schema", token=who.token).json()["jsonSchema"]["properties"]
        assert list(properties) == (["tier"] if writer and reachable else ["plan"])
    ada = world["ada"]
    assert api.get(f"/orgs/{ada.org_id}/sites", token=token).status == 403  # no listing: selection only


@pytest.mark.parametrize("label", list(SCOPE_SETS))
def test_the_visitor_auth_scope_reads_the_signing_key_of_selected_sites_only(api, world, label):
    name, installation_id = world["installs"][label]
    token = token_for(api, world["dev"], name, installation_id)
    scoped = label == "visitor-auth"
    for key, reachable in (("selected", True), ("unselected", False), ("elsewhere", False)):
        who, site = world[key]
        path = f"/orgs/{who.org_id}/sites/{site['id']}/publishing/auth"
        reply = api.get(path, token=token)
        assert reply.status == (403 if not scoped else 200 if reachable else 404), (label, key, reply.body)
        if reply.status == 200:
            # The very key the site's admin sees: the one that verifies the visitors' tokens.
            assert reply.json()["privateKey"] == api.get(path, token=who.token).json()["privateKey"]
        for method, rest in (("PATCH", ""), ("POST", "/regenerate")):
            body = {"backend": "custom"} if method == "PATCH" else None
            assert api.call(method, path + rest, token=token, body=body).status == 403, (label, method)


@pytest.mark.parametrize("label", list(SCOPE_SETS))
def test_openapi_specs_of_the_installations_organization_only(api, world, label):
    name, installation_id = world["installs"][label]
    token = token_for(api, world["dev"], name, installation_id)
    scopes = set(SCOPE_SETS[label])
    for who, own in ((world["ada"], True), (world["olga"], False)):
        base = f"/orgs/{who.org_id}/openapi"
        for path in (base, f"{base}/pets", f"{base}/pets/versions"):
            reply = api.get(path, token=token)
            expected = 403 if "openapi:read" not in scopes else (200 if own else 404)
            assert reply.status == expected, (label, path, reply.body)
        writes = (("POST", base, {"slug": "more", "source": {"text": PETSTORE_TEXT}}, 201),
                  ("PATCH", f"{base}/pets", {"visibility": "public"}, 200),
                  ("DELETE", f"{base}/pets", None, 204))
        for method, path, body, success in writes:
            reply = api.call(method, path, token=token, body=body)
            expected = 403 if "openapi:write" not in scopes else (success if own else 404)
            assert reply.status == expected, (label, method, path, reply.body)
    listed = api.get(f"/orgs/{world['olga'].org_id}/openapi", token=world["olga"].token).json()["items"]
    assert [spec["slug"] for spec in listed] == ["pets"]  # nothing of another organization changed


@pytest.mark.usefixtures("git_settings")
@pytest.mark.parametrize("label", ["none", "git", "site-read"])
def test_git_sync_runs_on_selected_spaces_with_its_scope(api, world, label, tmp_path, deliver_queued):
    name, installation_id = world["installs"][label]
    token = token_for(api, world["dev"], name, installation_id)
    url = bare_repo(tmp_path / "docs.git", SIMPLE)
    ada = world["ada"]
    unselected = seeded_space(api, ada, "Unselected")
    for space, reachable in ((world["space"], True), (unselected, False), (world["other-space"], False)):
        reply = api.post(f"/spaces/{space['id']}/git/import", token=token, body={"url": url, "ref": "main"})
        expected = 403 if label != "git" else (204 if reachable else 404)
        assert reply.status == expected, (label, space["id"], reply.body)
        runs = api.get(f"/spaces/{space['id']}/git/runs", token=token)
        assert runs.status == (403 if label != "git" else 200 if reachable else 404)
    assert api.get(f"/spaces/{world['space']['id']}/content", token=token).status == 403
    if label == "git":
        deliver_queued()
        listed = api.get(f"/spaces/{world['space']['id']}/git/runs", token=token).json()["items"]
        done = run(api, ada, f"/spaces/{world['space']['id']}/git/runs/{listed[0]['id']}")
        assert done["status"] == "succeeded"


def test_conversations_ingest_is_a_capability_of_the_installations_organization_only(api):
    """No route names `conversations:ingest` yet: the conversation routes check it with
    `require_installation_scope` (docs/integrations.md, "Installation tokens")."""
    dev, ada = api.org_admin("Dev", "Developer"), api.org_admin("Ada", "Acme")
    olga = api.org_admin("Olga", "Other")
    grants = {}
    for label, scopes in (("ingest", [CONVERSATIONS_INGEST]), ("reader", ["space:content:read"])):
        publish(api, dev, f"conv-{label}", scopes=scopes)
        installation = install(api, ada, f"conv-{label}")
        grants[label] = InstallationGrant(f"conv-{label}", installation["id"], frozenset(scopes))
    ingest = Caller(user_id="installation:conv-ingest", installation=grants["ingest"])
    require_installation_scope(ingest, ada.org_id, CONVERSATIONS_INGEST)
    with pytest.raises(NotFound):
        require_installation_scope(ingest, olga.org_id, CONVERSATIONS_INGEST)
    with pytest.raises(NotFound):
        require_installation_scope(Caller(user_id="installation:conv-reader", installation=grants["reader"]),
                                   ada.org_id, CONVERSATIONS_INGEST)
    require_installation_scope(Caller(user_id=ada.user_id), ada.org_id, CONVERSATIONS_INGEST)  # a user
    assert api.delete(f"/integrations/conv-ingest/installations/{grants['ingest'].installation_id}",
                      token=ada.token).status == 204
    with pytest.raises(NotFound):  # uninstalled: the capability is gone at once
        require_installation_scope(ingest, ada.org_id, CONVERSATIONS_INGEST)
