"""Installation tokens: a token authenticates as the installation and may do exactly what its scopes and
its installation's space selection allow (docs/integrations.md, "Installation tokens"). The matrix:
scopes by selection by endpoints; every cell not allowed is a 403 (the route is outside the scopes) or a
404 (the resource is outside the selection), never a 2xx."""

from __future__ import annotations

import pytest

from tests.api.integration_support import install, publish, publish_body, seeded_space
from tests.api.members.test_members import error

SCOPE_SETS = {
    "none": [],
    "metadata": ["space:metadata:read"],
    "content": ["space:content:read"],
    "metadata-write": ["space:metadata:write"],
    "content-write": ["space:content:write"],
}
READ_ONLY = ("none", "metadata", "content")


def token_for(api, developer, name, installation_id):
    reply = api.post(f"/integrations/{name}/installations/{installation_id}/tokens", token=developer.token)
    assert reply.status == 200, reply.body
    return reply.json()["token"]


@pytest.fixture
def world(api):
    """Ada's organization with three spaces (one selected), Olga's with one; an integration per scope set
    installed on Ada's organization; its developer is Dev's organization."""
    dev = api.org_admin("Dev", "Developer")
    ada = api.org_admin("Ada", "Acme")
    olga = api.org_admin("Olga", "Other")
    selected, unselected = seeded_space(api, ada, "Selected"), seeded_space(api, ada, "Unselected")
    elsewhere = seeded_space(api, olga, "Elsewhere")
    installs = {}
    for label, scopes in SCOPE_SETS.items():
        name = f"int-{label}"
        publish(api, dev, name, scopes=scopes)
        installation = install(api, ada, name)
        made = api.post(f"/integrations/{name}/installations/{installation['id']}/spaces", token=ada.token,
                        body={"space": selected["id"]})
        assert made.status == 201, made.body
        installs[label] = (name, installation["id"])
    return {"dev": dev, "ada": ada, "olga": olga, "selected": selected, "unselected": unselected,
            "elsewhere": elsewhere, "installs": installs}


def _reads(space):
    sid, page_id, revision = space["id"], space["page"], space["revision"]
    return {
        "space": f"/spaces/{sid}",
        "content": f"/spaces/{sid}/content",
        "page": f"/spaces/{sid}/content/page/{page_id}",
        "revision": f"/spaces/{sid}/revisions/{revision}",
    }


def _expected(scopes, endpoint, reachable):
    routes = {"space": {"space:metadata:read", "space:content:read"},
              "content": {"space:content:read"}, "page": {"space:content:read"},
              "revision": {"space:content:read"}}[endpoint]
    if not routes & set(scopes):
        return 403
    return 200 if reachable else 404


@pytest.mark.parametrize("selection", ["selected", "all"])
@pytest.mark.parametrize("label", list(SCOPE_SETS))
def test_reads_follow_the_scopes_and_the_selection(api, world, label, selection):
    name, installation_id = world["installs"][label]
    ada = world["ada"]
    if selection == "all":
        changed = api.patch(f"/integrations/{name}/installations/{installation_id}", token=ada.token,
                            body={"space_selection": "all"})
        assert changed.status == 200, changed.body
    token = token_for(api, world["dev"], name, installation_id)
    scopes = SCOPE_SETS[label]
    cases = (("selected", True), ("unselected", selection == "all"), ("elsewhere", False))
    for space_key, reachable in cases:
        for endpoint, path in _reads(world[space_key]).items():
            reply = api.get(path, token=token)
            expected = _expected(scopes, endpoint, reachable)
            assert reply.status == expected, (label, selection, space_key, endpoint, reply.body)


@pytest.mark.parametrize("label", READ_ONLY)
def test_everything_outside_the_scopes_is_refused(api, world, label):
    name, installation_id = world["installs"][label]
    token = token_for(api, world["dev"], name, installation_id)
    ada, selected = world["ada"], world["selected"]
    refused = [
        ("PATCH", f"/spaces/{selected['id']}", {"title": "Taken"}),
        ("DELETE", f"/spaces/{selected['id']}", None),
        ("POST", f"/spaces/{selected['id']}/change-requests", {"subject": "x"}),
        ("GET", f"/spaces/{selected['id']}/comments", None),
        ("GET", f"/orgs/{ada.org_id}", None),
        ("GET", f"/orgs/{ada.org_id}/spaces", None),
        ("GET", f"/orgs/{ada.org_id}/members", None),
        ("POST", "/orgs", {"title": "Mine"}),
        ("GET", "/user", None),
        ("GET", "/integrations", None),
        ("POST", f"/integrations/{name}", publish_body(ada.org_id)),
        ("POST", f"/integrations/{name}/installations/{installation_id}/tokens", None),
        ("PATCH", f"/integrations/{name}/installations/{installation_id}", {"externalIds": []}),
        ("DELETE", f"/integrations/{name}/installations/{installation_id}", None),
    ]
    for method, path, body in refused:
        reply = api.call(method, path, token=token, body=body)
        assert reply.status == 403, (method, path, reply.body)
    assert api.get(f"/spaces/{selected['id']}", token=ada.token).json()["title"] == "Selected"


def test_a_token_reads_its_own_installation_and_no_other(api, world):
    name, installation_id = world["installs"]["content"]
    token = token_for(api, world["dev"], name, installation_id)
    own = api.get(f"/integrations/{name}/installations/{installation_id}", token=token)
    assert (own.status, own.json()["id"]) == (200, installation_id)
    spaces = api.get(f"/integrations/{name}/installations/{installation_id}/spaces", token=token).json()
    assert [s["space"] for s in spaces["items"]] == [world["selected"]["id"]]
    other_name, other_id = world["installs"]["metadata"]
    assert api.get(f"/integrations/{other_name}/installations/{other_id}", token=token).status == 404


def test_only_the_developer_makes_tokens_and_uninstalling_revokes_them(api, world):
    name, installation_id = world["installs"]["content"]
    ada, olga = world["ada"], world["olga"]
    path = f"/integrations/{name}/installations/{installation_id}/tokens"
    assert api.post(path, token=ada.token).status == 403  # the installer is not the integration
    assert api.post(path, token=olga.token).status == 403
    assert "installation" in error(api.post(f"/integrations/{name}/installations/nope/tokens",
                                            token=world["dev"].token), 404)
    token = token_for(api, world["dev"], name, installation_id)
    space_path = f"/spaces/{world['selected']['id']}"
    assert api.get(space_path, token=token).status == 200
    assert api.delete(f"/integrations/{name}/installations/{installation_id}", token=ada.token).status == 204
    assert api.get(space_path, token=token).status == 404


def test_a_token_expires_after_an_hour(api, world, monkeypatch):
    name, installation_id = world["installs"]["content"]
    token = token_for(api, world["dev"], name, installation_id)
    space_path = f"/spaces/{world['selected']['id']}"
    assert api.get(space_path, token=token).status == 200
    monkeypatch.setenv("BINDERY_CLOCK_OFFSET_SECONDS", str(3601))
    assert api.get(space_path, token=token).status == 401


def _writes(space):
    sid = space["id"]
    return {"metadata": ("PATCH", f"/spaces/{sid}", {"title": "Renamed"}),
            "change-request": ("POST", f"/spaces/{sid}/change-requests", {"subject": "By the integration"})}


@pytest.mark.parametrize("label", list(SCOPE_SETS))
def test_writes_follow_the_write_scopes_and_the_selection(api, world, label):
    name, installation_id = world["installs"][label]
    token = token_for(api, world["dev"], name, installation_id)
    scopes = set(SCOPE_SETS[label])
    needs = {"metadata": "space:metadata:write", "change-request": "space:content:write"}
    for space_key, reachable in (("selected", True), ("unselected", False), ("elsewhere", False)):
        for write, (method, path, body) in _writes(world[space_key]).items():
            reply = api.call(method, path, token=token, body=body)
            expected = 403 if needs[write] not in scopes else (200 if write == "metadata" else 201)
            if needs[write] in scopes and not reachable:
                expected = 404
            assert reply.status == expected, (label, space_key, write, reply.body)
    owner = world["ada"]
    titles = {key: api.get(f"/spaces/{world[key]['id']}", token=owner.token).json()["title"]
              for key in ("selected", "unselected")}
    assert titles == {"selected": "Renamed" if label == "metadata-write" else "Selected",
                      "unselected": "Unselected"}


def test_content_write_edits_and_merges_a_change_request_but_reads_nothing(api, world):
    name, installation_id = world["installs"]["content-write"]
    token = token_for(api, world["dev"], name, installation_id)
    space_id = world["selected"]["id"]
    made = api.post(f"/spaces/{space_id}/change-requests", token=token, body={"subject": "Retitle"})
    assert made.status == 201, made.body
    path = f"/spaces/{space_id}/change-requests/{made.json()['id']}"
    edited = api.post(f"{path}/content", token=token,
                      body={"changes": [{"operation": "update_page", "page": "p1", "title": "Renamed"}]})
    assert edited.status == 200, edited.body
    merged = api.post(f"{path}/merge", token=token)
    assert (merged.status, merged.json().get("result")) == (200, "merge"), merged.body
    pages = api.get(f"/spaces/{space_id}/content/pages", token=world["ada"].token).json()["pages"]
    assert [p["title"] for p in pages] == ["Renamed"]
    assert api.get(f"/spaces/{space_id}/content/pages", token=token).status == 403
    assert api.get(path, token=token).status == 403
    assert api.patch(f"/spaces/{space_id}", token=token, body={"title": "No"}).status == 403
    assert api.delete(f"/spaces/{space_id}", token=token).status == 403
