"""Installations of integrations on organizations, spaces and sites (docs/integrations.md)."""

from __future__ import annotations

import pytest
import requests

from tests.api.integration_support import SCRIPT, install, publish
from tests.api.members.test_members import error, join, pages

ACCOUNT = {"properties": {"apiKey": {"type": "string", "title": "API key"},
                          "region": {"type": "string", "enum": ["eu", "us"], "default": "eu"},
                          "sample": {"type": "number"}},
           "required": ["apiKey"]}
SPACE = {"properties": {"tracked": {"type": "boolean"}}, "required": ["tracked"]}


def space(api, who, title="Docs"):
    reply = api.post(f"/orgs/{who.org_id}/spaces", token=who.token, body={"title": title})
    assert reply.status == 201, reply.body
    return reply.json()["id"]


def site(api, who, title="Site"):
    reply = api.post(f"/orgs/{who.org_id}/sites", token=who.token, body={"title": title})
    assert reply.status == 201, reply.body
    return reply.json()["id"]


def inst_path(installation, rest=""):
    return f"/integrations/analytics/installations/{installation['id']}{rest}"


def test_installing_takes_the_account_configuration_pending_until_required_values_are_given(api):
    ada = api.org_admin()
    publish(api, ada, configurations={"account": ACCOUNT})
    olga = api.org_admin("Olga", "Other")
    installation = install(api, olga)
    assert (installation["status"], installation["configuration"]) == ("pending", {"region": "eu"})
    assert (installation["space_selection"], installation["site_selection"], installation["spaces"]) == (
        "selected", "selected", 0)
    assert installation["target"] == {"organization": olga.org_id}
    assert installation["urls"]["location"].endswith(inst_path(installation))
    assert api.get(inst_path(installation), token=olga.token).json() == installation
    updated = api.patch(inst_path(installation), token=olga.token,
                        body={"configuration": {"apiKey": "k", "region": "us"}, "externalIds": ["acct-1"],
                              "space_selection": "all"}).json()
    assert (updated["status"], updated["configuration"]) == ("active", {"apiKey": "k", "region": "us"})
    assert (updated["externalIds"], updated["space_selection"]) == (["acct-1"], "all")
    # The owner (the integration's developer) reads its installations, with the external-id filter.
    listed = api.get("/integrations/analytics/installations", token=ada.token, query={"externalId": "acct-1"})
    assert [i["id"] for i in listed.json()["items"]] == [installation["id"]]
    assert listed.json()["count"] == 1
    none = api.get("/integrations/analytics/installations", token=ada.token,
                   query={"externalId": "nope"}).json()
    assert none == {"items": [], "count": 0}
    assert api.get(inst_path(installation), token=ada.token).status == 200


@pytest.mark.parametrize(("configuration", "named"), [
    ({"unknown": 1}, "configuration.unknown"),
    ({"apiKey": 5}, "configuration.apiKey"),
    ({"region": "mars"}, "configuration.region"),
    ({"sample": True}, "configuration.sample"),
])
def test_a_configuration_that_does_not_fit_the_schema_is_a_400_naming_it(api, configuration, named):
    ada = api.org_admin()
    publish(api, ada, configurations={"account": ACCOUNT})
    installation = install(api, ada)
    assert named in error(api.patch(inst_path(installation), token=ada.token,
                                    body={"configuration": configuration}), 400)
    assert api.get(inst_path(installation), token=ada.token).json() == installation


def test_install_errors(api):
    ada = api.org_admin()
    olga = api.org_admin("Olga", "Other")
    assert "integration" in error(api.post("/integrations/missing/installations", token=ada.token,
                                           body={"organization": ada.org_id}), 404)
    publish(api, ada, visibility="private")
    assert error(api.post("/integrations/analytics/installations", token=olga.token,
                          body={"organization": olga.org_id}), 404)
    assert error(api.post("/integrations/analytics/installations", token=olga.token,
                          body={"organization": ada.org_id}), 404)  # not a member there
    editor = join(api, ada.org_id, "Ed", "create")
    assert error(api.post("/integrations/analytics/installations", token=editor.token,
                          body={"organization": ada.org_id}), 403)
    install(api, ada)
    assert "already installed" in error(api.post("/integrations/analytics/installations", token=ada.token,
                                                 body={"organization": ada.org_id}), 409)
    assert "organization" in error(api.post("/integrations/analytics/installations", token=ada.token,
                                            body={}), 400)


def test_installations_are_hidden_from_other_organizations_and_changed_only_by_admins(api):
    ada = api.org_admin()
    publish(api, ada)
    olga = api.org_admin("Olga", "Other")
    installation = install(api, olga)
    outsider = api.org_admin("Zed", "Third")
    assert api.get(inst_path(installation), token=outsider.token).status == 404
    assert api.patch(inst_path(installation), token=outsider.token, body={"externalIds": []}).status == 404
    reader = join(api, olga.org_id, "Rea", "read")
    assert api.patch(inst_path(installation), token=reader.token, body={"externalIds": []}).status == 403
    assert api.delete(inst_path(installation), token=reader.token).status == 403
    # The owner reads it but cannot change it: it is the installer's.
    assert api.patch(inst_path(installation), token=ada.token, body={"externalIds": []}).status == 404
    assert api.get("/integrations/analytics/installations", token=olga.token).status == 403
    assert api.get(f"/orgs/{olga.org_id}/installations", token=reader.token).status == 403


def test_an_installations_organization_members_are_told_the_role_they_lack(api):
    """Found by the authorization matrix: A's readers and guests got 404 for A's own installation, as if
    it did not exist; in an organization a member is told the role an operation needs (403 naming it),
    and only outsiders get 404 (docs/permissions.md)."""
    ada = api.org_admin()
    publish(api, ada)
    olga = api.org_admin("Olga", "Other")
    installation = install(api, olga)
    installed_on = space(api, olga)
    made = api.post(inst_path(installation, "/spaces"), token=olga.token, body={"space": installed_on})
    assert made.status == 201, made.body
    reader, guest = join(api, olga.org_id, "Rea", "read"), join(api, olga.org_id, "Gus", None)
    outsider = api.org_admin("Zed", "Third")
    for path in (inst_path(installation), inst_path(installation, "/spaces"),
                 inst_path(installation, f"/spaces/{installed_on}")):
        for member in (reader, guest):
            assert "admin" in error(api.get(path, token=member.token), 403)
        assert error(api.get(path, token=outsider.token), 404) == "No matching installation"
        assert api.get(path, token=olga.token).status == 200  # the installer's admin
        assert api.get(path, token=ada.token).status == 200  # the integration's developer


def test_an_sso_member_reads_installations_and_private_integrations_only_with_an_sso_token(api):
    """Reading an installation, and a private integration, checks the organization's single sign-on as
    every organization access does (docs/sso.md): with an SSO admin's ordinary token, the installation is
    a 403 and the organization's private integration does not exist (found in review: both skipped it)."""
    ada = api.org_admin()
    publish(api, ada)
    olga = api.org_admin("Olga", "Other")
    installation = install(api, olga)
    carla = join(api, olga.org_id, "Carla", "admin", email="carla@corp.example")
    assert api.get(inst_path(installation), token=carla.token).status == 200
    org = f"/orgs/{olga.org_id}"
    marked = api.post(f"{org}/members/{carla.user_id}/sso", token=olga.token)
    assert marked.status == 200, marked.body
    enforced = api.patch(org, token=olga.token, body={"sso": True})
    assert enforced.status == 200, enforced.body
    assert "single sign-on" in error(api.get(inst_path(installation), token=carla.token), 403)
    assert "single sign-on" in error(api.get(inst_path(installation, "/spaces"), token=carla.token), 403)
    assert api.get(inst_path(installation), token=olga.token).status == 200
    # Olga's private integration is hers alone: the same token reads it as an outsider would (404).
    publish(api, olga, "olga-private", visibility="private")
    assert api.get("/integrations/olga-private", token=olga.token).status == 200
    assert error(api.get("/integrations/olga-private", token=carla.token), 404)
    listed = api.get("/integrations", token=carla.token, query={"owner": olga.org_id}).json()
    assert "olga-private" not in [item["name"] for item in listed["items"]]


def test_a_sites_integrations_are_read_by_whoever_may_read_the_site(api):
    """Found by the authorization matrix: a guest (no organization role) listed what is installed on a
    site they may not read (GET SITE answers them 403)."""
    ada = api.org_admin()
    site_id = site(api, ada)
    path = f"/orgs/{ada.org_id}/sites/{site_id}"
    guest, reader = join(api, ada.org_id, "Gus", None), join(api, ada.org_id, "Rea", "read")
    assert api.get(path, token=guest.token).status == 403
    assert error(api.get(path + "/integrations", token=guest.token), 403)
    listed = api.get(path + "/integrations", token=reader.token)
    assert listed.status == 200, listed.body
    assert listed.json()["count"] == 0
    assert error(api.get(path + "/integrations", token=api.org_admin("Zed", "Third").token), 404)


def test_uninstall_removes_the_space_and_site_installations_and_is_a_204_when_missing(api):
    ada = api.org_admin()
    publish(api, ada)
    installation = install(api, ada)
    space_id = space(api, ada)
    made = api.post(inst_path(installation, "/spaces"), token=ada.token, body={"space": space_id})
    assert made.status == 201
    assert api.delete(inst_path(installation), token=ada.token).status == 204
    assert api.get(inst_path(installation), token=ada.token).status == 404
    assert api.get("/integrations/analytics/spaces", token=ada.token).json() == {"items": [], "count": 0}
    assert api.get(f"/spaces/{space_id}/integrations", token=ada.token).json() == {"items": [], "count": 0}
    assert api.delete(inst_path(installation), token=ada.token).status == 204
    install(api, ada)  # installable again


def test_the_organizations_installations_list_with_their_integrations(api):
    ada = api.org_admin()
    for name in ("c-int", "a-int", "b-int"):
        publish(api, ada, name, title=f"Title {name}")
        install(api, ada, name)
    listed = pages(api, f"/orgs/{ada.org_id}/installations", ada.token, limit=2)
    items = [item for page in listed for item in page["items"]]
    assert [item["integration"]["name"] for item in items] == ["a-int", "b-int", "c-int"]
    assert {page["count"] for page in listed} == {3}
    assert all(item["installation"]["target"] == {"organization": ada.org_id} for item in items)
    found = api.get(f"/orgs/{ada.org_id}/installations", token=ada.token, query={"search": "title b"}).json()
    assert ([i["integration"]["name"] for i in found["items"]], found["count"]) == (["b-int"], 1)


def test_space_installations_check_the_space_configuration_and_count_exactly(api):
    ada = api.org_admin()
    publish(api, ada, configurations={"space": SPACE})
    installation = install(api, ada)
    first, second = space(api, ada, "One"), space(api, ada, "Two")
    made = api.post(inst_path(installation, "/spaces"), token=ada.token, body={"space": first})
    assert made.status == 201, made.body
    setup = made.json()
    assert made.headers["Location"] == setup["urls"]["location"]
    assert (setup["integration"], setup["installation"], setup["space"], setup["status"]) == (
        "analytics", installation["id"], first, "pending")
    changed = api.patch(inst_path(installation, f"/spaces/{first}"), token=ada.token,
                        body={"configuration": {"tracked": True}, "externalIds": ["s-1"]}).json()
    assert (changed["status"], changed["externalIds"]) == ("active", ["s-1"])
    wrong = api.patch(inst_path(installation, f"/spaces/{first}"), token=ada.token,
                      body={"configuration": {"tracked": "y"}})
    assert "configuration.tracked" in error(wrong, 400)
    api.post(inst_path(installation, "/spaces"), token=ada.token, body={"space": second})
    assert "already installed" in error(api.post(inst_path(installation, "/spaces"), token=ada.token,
                                                 body={"space": second}), 409)
    assert api.get(inst_path(installation), token=ada.token).json()["spaces"] == 2
    extended = api.get(inst_path(installation, "/spaces"), token=ada.token, query={"extended": "true"}).json()
    assert [(s["space"]["object"], s["space"]["id"]) for s in extended["items"]] == [
        ("space", first), ("space", second)]  # space ids are time-ordered
    assert extended["count"] == 2
    by_external = api.get("/integrations/analytics/spaces", token=ada.token,
                          query={"externalId": "s-1"}).json()
    assert ([s["space"] for s in by_external["items"]], by_external["count"]) == ([first], 1)
    assert [i["name"] for i in api.get(f"/spaces/{first}/integrations", token=ada.token).json()["items"]] == [
        "analytics"]
    assert api.delete(inst_path(installation, f"/spaces/{first}"), token=ada.token).status == 204
    assert api.delete(inst_path(installation, f"/spaces/{first}"), token=ada.token).status == 204
    assert api.get(inst_path(installation), token=ada.token).json()["spaces"] == 1
    assert api.get(inst_path(installation, f"/spaces/{first}"), token=ada.token).status == 404


def test_a_space_or_site_of_another_organization_cannot_be_installed_on(api):
    ada = api.org_admin()
    publish(api, ada)
    installation = install(api, ada)
    olga = api.org_admin("Olga", "Other")
    theirs = space(api, olga)
    assert error(api.post(inst_path(installation, "/spaces"), token=ada.token, body={"space": theirs}), 404)
    assert error(api.post(inst_path(installation, "/sites"), token=ada.token,
                          body={"siteId": site(api, olga)}), 404)
    assert "space" in error(api.post(inst_path(installation, "/spaces"), token=ada.token, body={}), 400)


def test_the_target_decides_where_an_integration_installs(api):
    ada = api.org_admin()
    publish(api, ada, target="site")
    installation = install(api, ada)
    assert "space" in error(api.post(inst_path(installation, "/spaces"), token=ada.token,
                                     body={"space": space(api, ada)}), 400)
    site_id = site(api, ada)
    made = api.post(inst_path(installation, "/sites"), token=ada.token, body={"siteId": site_id})
    assert made.status == 201, made.body
    assert made.json()["site"] == site_id
    extended = api.get(inst_path(installation, f"/sites/{site_id}"), token=ada.token,
                       query={"extended": "true"}).json()
    assert (extended["site"]["object"], extended["site"]["id"]) == ("site", site_id)
    listed = api.get(f"/orgs/{ada.org_id}/sites/{site_id}/integrations", token=ada.token).json()
    assert ([i["name"] for i in listed["items"]], listed["count"]) == (["analytics"], 1)
    assert api.get("/integrations/analytics/sites", token=ada.token).json()["count"] == 1
    assert api.delete(inst_path(installation, f"/sites/{site_id}"), token=ada.token).status == 204
    assert api.get(f"/orgs/{ada.org_id}/sites/{site_id}/integrations", token=ada.token).json()["count"] == 0


def test_a_published_site_loads_the_scripts_of_its_active_inject_integrations(api):
    ada = api.org_admin()
    site_id = site(api, ada)
    csp = {"script-src": "'self' https://cdn.example.com", "img-src": "*"}
    publish(api, ada, "tracker", scopes=["site:script:inject", "site:script:cookies"],
            contentSecurityPolicy=csp,
            configurations={"site": {"properties": {"id": {"type": "string"}}, "required": ["id"]}})
    publish(api, ada, "reader-only", scopes=["site:metadata:read"])
    for name in ("tracker", "reader-only"):
        installation = install(api, ada, name)
        path = f"/integrations/{name}/installations/{installation['id']}/sites"
        assert api.post(path, token=ada.token, body={"siteId": site_id}).status == 201
    published = f"/orgs/{ada.org_id}/sites/{site_id}/published"
    assert api.get(published, token=ada.token).json()["scripts"] == []  # tracker's site setup is pending
    tracker = api.get(f"/orgs/{ada.org_id}/installations", token=ada.token).json()["items"][1]["installation"]
    assert api.patch(f"/integrations/tracker/installations/{tracker['id']}/sites/{site_id}", token=ada.token,
                     body={"configuration": {"id": "UA-1"}}).json()["status"] == "active"
    scripts = api.get(published, token=ada.token).json()["scripts"]
    assert [(s["cookies"], s["contentSecurityPolicy"]) for s in scripts] == [
        (True, "script-src 'self' https://cdn.example.com; img-src *")]
    assert requests.get(scripts[0]["script"], timeout=5).content == SCRIPT.encode()


def test_a_spaces_integrations_cost_the_same_requests_however_many_owners_they_have(api, request_counter):
    ada = api.org_admin()
    space_id = space(api, ada)

    def install_on_space(name, publisher):
        publish(api, publisher, name=name, visibility="public")
        installation = install(api, ada, name=name)
        reply = api.post(f"/integrations/{name}/installations/{installation['id']}/spaces", token=ada.token,
                         body={"space": space_id})
        assert reply.status == 201, reply.body

    def listed():
        request_counter.clear()
        reply = api.get(f"/spaces/{space_id}/integrations", token=ada.token)
        assert reply.status == 200, reply.body
        return [i["name"] for i in reply.json()["items"]], dict(request_counter)

    install_on_space("analytics", ada)
    names, one_owner = listed()
    assert names == ["analytics"]
    for name, owner in (("chat", "Bo"), ("maps", "Cy")):
        install_on_space(name, api.org_admin(owner, f"{owner} Inc"))
    names, three_owners = listed()
    assert names == ["analytics", "chat", "maps"]
    # The owners and the caller's memberships there are one BatchGetItem, not one read per integration.
    assert three_owners == one_owner
