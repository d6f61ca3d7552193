"""An organization's SAML providers (ORG/saml) and its login choices (ORG/sso): docs/sso.md."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.api.members.test_members import error, join, pages, team
from tests.api.saml_idp import IdP, certificate_pair

pytestmark = pytest.mark.repository


def saml_path(who, rest=""):
    return f"/orgs/{who.org_id}/saml{rest}"


def new_provider(api, who, status=201, **body):
    reply = api.post(saml_path(who), token=who.token, body={"label": "Keycloak", **body})
    assert reply.status == status, reply.body
    return reply.json()


def complete(idp, **more):
    return {"entityID": idp.entity_id, "ssoURL": idp.sso_url, "certificate": idp.certificate, **more}


def test_a_provider_is_pending_until_it_can_log_people_in_then_active(api):
    ada = api.org_admin()
    idp = IdP()
    created = api.post(saml_path(ada), token=ada.token, body={"label": "Keycloak"})
    assert created.status == 201
    provider = created.json()
    assert created.headers["Location"] == provider["urls"]["location"]
    assert provider["urls"]["location"].endswith(f"/orgs/{ada.org_id}/saml/{provider['id']}")
    assert (provider["object"], provider["label"], provider["status"], provider["defaultRole"]) == (
        "saml-provider", "Keycloak", "pending", "read")
    assert (provider["ssoURL"], provider["entityID"], provider["certificate"]) == ("about:blank", "", "")
    service = provider["service"]
    assert service["acsURL"].endswith(f"/saml/{provider['id']}/acs")
    assert service["startURL"].endswith(f"/saml/{provider['id']}/start")
    assert service["entityID"].endswith(f"/saml/{provider['id']}/metadata")
    path = saml_path(ada, f"/{provider['id']}")
    half = api.patch(path, token=ada.token, body={"entityID": idp.entity_id, "ssoURL": idp.sso_url}).json()
    assert half["status"] == "pending"
    done = api.patch(path, token=ada.token, body={"certificate": idp.certificate}).json()
    assert (done["status"], done["entityID"], done["ssoURL"]) == ("active", idp.entity_id, idp.sso_url)
    assert "BEGIN CERTIFICATE" in done["certificate"]
    assert api.get(path, token=ada.token).json() == done
    # Unsetting what a login needs makes it pending again.
    assert api.patch(path, token=ada.token, body={"certificate": None}).json()["status"] == "pending"


def test_a_bare_base64_certificate_as_idps_show_it_is_accepted_as_pem(api):
    ada = api.org_admin()
    idp = IdP()
    body = "".join(line for line in idp.certificate.splitlines() if "CERTIFICATE" not in line)
    provider = new_provider(api, ada, **complete(idp, certificate=body))
    assert provider["certificate"].startswith("-----BEGIN CERTIFICATE-----")
    assert provider["status"] == "active"


def test_default_team_and_role_are_checked_and_shown(api):
    ada = api.org_admin()
    writers = team(api, ada, "Writers")
    provider = new_provider(api, ada, defaultTeam=writers, defaultRole="edit")
    assert (provider["defaultTeam"]["id"], provider["defaultTeam"]["title"]) == (writers, "Writers")
    assert provider["defaultRole"] == "edit"
    guest = api.patch(saml_path(ada, f"/{provider['id']}"), token=ada.token,
                      body={"defaultRole": None, "defaultTeam": None}).json()
    assert guest["defaultRole"] is None
    assert "defaultTeam" not in guest
    olga = api.org_admin("Olga", "Other")
    theirs = team(api, olga, "Theirs")
    assert "defaultTeam" in error(api.post(saml_path(ada), token=ada.token,
                                           body={"label": "x", "defaultTeam": theirs}), 400)


def _expired_certificate():
    now = datetime.now(UTC)
    return certificate_pair(not_before=now - timedelta(days=30), not_after=now - timedelta(days=1))[1]


def _future_certificate():
    now = datetime.now(UTC)
    return certificate_pair(not_before=now + timedelta(days=1), not_after=now + timedelta(days=30))[1]


@pytest.mark.parametrize(("body", "named"), [
    ({}, "label"), ({"label": ""}, "label"), ({"label": "x" * 31}, "label"),
    ({"label": "k", "entityID": "e" * 1025}, "entityID"),
    ({"label": "k", "certificate": "c" * 10001}, "certificate"),
    ({"label": "k", "certificate": "not a certificate"}, "certificate"),
    ({"label": "k", "certificate": "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----"},
     "certificate"),
    ({"label": "k", "certificate": "EXPIRED"}, "certificate"),
    ({"label": "k", "certificate": "FUTURE"}, "certificate"),
    ({"label": "k", "ssoURL": "http://idp.example.com/sso"}, "ssoURL"),
    ({"label": "k", "ssoURL": "not a url"}, "ssoURL"),
    ({"label": "k", "defaultRole": "owner"}, "defaultRole"),
    ({"label": "k", "defaultTeam": "no-such-team"}, "defaultTeam"),
])
def test_bad_bodies_are_400_naming_the_field_and_write_nothing(api, body, named):
    ada = api.org_admin()
    if body.get("certificate") == "EXPIRED":
        body = {**body, "certificate": _expired_certificate()}
    if body.get("certificate") == "FUTURE":
        body = {**body, "certificate": _future_certificate()}
    assert named in error(api.post(saml_path(ada), token=ada.token, body=body), 400)
    provider = new_provider(api, ada)
    if body.get("label") == "k" or "label" not in body:
        patched = api.patch(saml_path(ada, f"/{provider['id']}"), token=ada.token, body=body)
        if body:
            assert named in error(patched, 400)
    assert [p["id"] for p in api.get(saml_path(ada), token=ada.token).json()["items"]] == [provider["id"]]


def test_list_pages_in_creation_order_with_count_and_delete_answers_205_then_204(api):
    ada = api.org_admin()
    made = [new_provider(api, ada, label=f"IdP {n}")["id"] for n in range(5)]
    seen = pages(api, saml_path(ada), ada.token, limit=2)
    assert [p["id"] for page in seen for p in page["items"]] == made
    assert {page["count"] for page in seen} == {5}
    path = saml_path(ada, f"/{made[0]}")
    assert api.delete(path, token=ada.token).status == 205
    assert api.delete(path, token=ada.token).status == 204
    assert error(api.get(path, token=ada.token), 404)
    assert error(api.patch(path, token=ada.token, body={"label": "x"}), 404)
    assert api.get(saml_path(ada), token=ada.token).json()["count"] == 4


def test_only_admins_manage_providers_and_other_organizations_see_nothing(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "edit")
    provider = new_provider(api, ada)
    path = saml_path(ada, f"/{provider['id']}")
    for reply in (api.get(saml_path(ada), token=bob.token), api.get(path, token=bob.token),
                  api.post(saml_path(ada), token=bob.token, body={"label": "x"}),
                  api.patch(path, token=bob.token, body={"label": "x"}), api.delete(path, token=bob.token)):
        assert "admin" in error(reply, 403)
    olga = api.org_admin("Olga", "Other")
    error(api.get(path, token=olga.token), 404)
    error(api.get(saml_path(ada), token=olga.token), 404)
    # A provider named under another organization (even the caller's own) does not exist there.
    error(api.get(saml_path(olga, f"/{provider['id']}"), token=olga.token), 404)
    assert api.delete(saml_path(olga, f"/{provider['id']}"), token=olga.token).status == 204
    assert api.get(path, token=ada.token).status == 200
    assert api.get(saml_path(ada), token=None).status == 401


def test_org_sso_lists_the_active_providers_to_anyone(api):
    ada = api.org_admin()
    idp = IdP()
    active = new_provider(api, ada, label="Okta", **complete(idp))
    new_provider(api, ada, label="Half done", entityID=idp.entity_id)
    reply = api.get(f"/orgs/{ada.org_id}/sso")  # no token: a login page asks before anyone logs in
    assert reply.status == 200, reply.body
    assert reply.json() == {"items": [{"id": active["id"], "label": "Okta",
                                       "startURL": active["service"]["startURL"]}]}
    error(api.get("/orgs/no-such-org/sso"), 404)
