"""Email invites (ORG/invites), invite links (ORG/link-invites) and joining with a link."""

from __future__ import annotations

import pytest

from bindery import keys
from bindery.platform import admin
from bindery.platform.clock import now_iso
from bindery.store import orgs as org_store
from bindery.store import table
from bindery.store import users as user_store
from bindery.store.members import Member, add_member_ops, get_member


def _org(ident):
    return org_store.get_org(ident.org_id)


def _member(api, org_id, name, role):
    """A member added straight through the store, so these tests do not depend on the code under test."""
    who = api.user(name)
    user = user_store.get_user(who.user_id)
    table.transact(add_member_ops(Member.joining(org_id, user, role, now_iso())))
    who.org_id = org_id
    return who


def _link(api, ada, role="edit"):
    reply = api.post(f"/orgs/{ada.org_id}/link-invites", token=ada.token, body={"role": role})
    assert reply.status == 201, reply.body
    return reply.json()["id"]


def _error(reply, status):
    assert reply.status == status, reply.body
    return reply.json()["error"]["message"]


# --- email invites ------------------------------------------------------------------------------
def test_invite_existing_and_unknown_emails(api):
    ada = api.org_admin()
    bob = api.user("Bob", "bob@example.com")
    reply = api.post(f"/orgs/{ada.org_id}/invites", token=ada.token, body={
        "emails": ["bob@example.com", {"email": "new.person@example.org", "role": "edit"}], "role": "comment",
    })
    assert reply.status == 200, reply.body
    body = reply.json()
    assert body["invited"] == 2
    assert set(body) == {"users", "invited"}
    assert body["users"][0] == bob.user_id
    new_id = body["users"][1]
    assert get_member(ada.org_id, bob.user_id).role == "comment"  # the top-level role
    assert get_member(ada.org_id, new_id).role == "edit"  # the entry's own role wins
    created = user_store.get_user(new_id)
    assert (created.display_name, created.email, created.email_verified) == (
        "new.person", "new.person@example.org", False)
    assert user_store.user_id_for_email("NEW.person@example.org") == new_id
    assert _org(ada).member_count == 3
    # Invited users see the organization; the new one once an operator issues a token.
    assert api.get(f"/orgs/{ada.org_id}", token=bob.token).status == 200
    token = admin.create_token(new_id)
    assert api.get(f"/orgs/{ada.org_id}", token=token).json()["permissions"]["admin"] is False
    # Both count the organization in `GET /orgs`: the existing user's counter moved, the new one's was set.
    assert [api.get("/orgs", token=t).json()["count"] for t in (bob.token, token)] == [1, 1]


def test_default_role_is_the_orgs_then_read_and_null_means_guest(api):
    ada = api.org_admin()
    api.post(f"/orgs/{ada.org_id}/invites", token=ada.token, body={"emails": ["one@example.com"]})
    api.patch(f"/orgs/{ada.org_id}", token=ada.token, body={"defaultRole": "review"})
    api.post(f"/orgs/{ada.org_id}/invites", token=ada.token, body={"emails": ["two@example.com"]})
    api.post(f"/orgs/{ada.org_id}/invites", token=ada.token,
             body={"emails": ["three@example.com"], "role": None})
    roles = [get_member(ada.org_id, user_store.user_id_for_email(f"{n}@example.com")).role
             for n in ("one", "two", "three")]
    assert roles == ["read", "review", None]


def test_duplicates_collapse_and_members_are_skipped(api):
    ada = api.org_admin()
    bob = api.user("Bob", "bob@example.com")
    emails = ["Bob@Example.com", {"email": "bob@example.com", "role": "admin"}, "ada@example.com"]
    body = api.post(f"/orgs/{ada.org_id}/invites", token=ada.token, body={"emails": emails}).json()
    assert body == {"users": [bob.user_id], "invited": 1}
    assert get_member(ada.org_id, bob.user_id).role == "read"  # the first mention won
    assert get_member(ada.org_id, ada.user_id).role == "admin"  # untouched
    again = api.post(f"/orgs/{ada.org_id}/invites", token=ada.token, body={"emails": emails}).json()
    assert again == {"users": [], "invited": 0}
    assert (_org(ada).member_count, _org(ada).admin_count) == (2, 1)


def test_admin_invites_count_admins_and_sso_marks_members(api):
    ada = api.org_admin()
    api.post(f"/orgs/{ada.org_id}/invites", token=ada.token,
             body={"emails": ["boss@example.com"], "role": "admin", "sso": True})
    member = get_member(ada.org_id, user_store.user_id_for_email("boss@example.com"))
    assert (member.role, member.sso) == ("admin", True)
    assert (_org(ada).member_count, _org(ada).admin_count) == (2, 2)


def test_thirty_new_emails_fit_one_call(api):
    ada = api.org_admin()
    emails = [f"user{n}@example.com" for n in range(30)]
    body = api.post(f"/orgs/{ada.org_id}/invites", token=ada.token, body={"emails": emails}).json()
    assert body["invited"] == 30
    assert _org(ada).member_count == 31


@pytest.mark.parametrize(("body", "named"), [
    ({"emails": ["ok@example.com", "not-an-email"]}, "emails: entry 1 ('not-an-email')"),
    ({"emails": [{"email": "a@b", "role": "read"}]}, "emails: entry 0"),
    ({"emails": [f"u{n}@example.com" for n in range(31)]}, "emails: List should have at most 30"),
    ({"emails": [{"email": "x@example.com"}]}, "emails.0.object.role"),
    ({"emails": ["x@example.com"], "role": "owner"}, "role:"),
    ({}, "emails: Field required"),
])
def test_bad_invite_bodies_are_400_naming_the_field(api, body, named):
    ada = api.org_admin()
    message = _error(api.post(f"/orgs/{ada.org_id}/invites", token=ada.token, body=body), 400)
    assert named in message
    assert _org(ada).member_count == 1
    assert user_store.user_id_for_email("ok@example.com") is None  # nothing of a bad call is written


def test_only_admins_invite(api):
    ada = api.org_admin()
    creator = _member(api, ada.org_id, "Cleo", "create")
    outsider = api.org_admin("Olga", "Other")
    body, path = {"emails": ["x@example.com"]}, f"/orgs/{ada.org_id}/invites"
    assert "admin role" in _error(api.post(path, token=creator.token, body=body), 403)
    assert _error(api.post(path, token=outsider.token, body=body), 404) == "No matching organization"
    assert _org(ada).member_count == 2


# --- invite links -------------------------------------------------------------------------------
def test_create_read_update_delete_a_link(api):
    ada = api.org_admin()
    base = f"/orgs/{ada.org_id}/link-invites"
    created = api.post(base, token=ada.token, body={"role": "edit"})
    assert created.status == 201
    link = created.json()
    assert link == {"object": "invite", "id": link["id"], "role": "edit", "redundant": False}
    assert api.get(f"{base}/{link['id']}", token=ada.token).json() == link
    changed = api.patch(f"{base}/{link['id']}", token=ada.token, body={"role": None})
    assert changed.status == 200
    assert changed.json()["role"] is None
    assert api.get(f"{base}/{link['id']}", token=ada.token).json()["role"] is None
    assert _org(ada).invite_count == 1
    assert api.delete(f"{base}/{link['id']}", token=ada.token).status == 204
    assert api.delete(f"{base}/{link['id']}", token=ada.token).status == 204  # already gone: still 204
    assert _org(ada).invite_count == 0
    assert _error(api.get(f"{base}/{link['id']}", token=ada.token), 404) == "No matching invite"
    assert api.get(base, token=ada.token).json() == {"items": [], "count": 0}


def test_links_list_in_pages_with_an_exact_count(api):
    ada = api.org_admin()
    created = [_link(api, ada) for _ in range(5)]
    api.delete(f"/orgs/{ada.org_id}/link-invites/{created.pop(2)}", token=ada.token)
    api.delete(f"/orgs/{ada.org_id}/link-invites/unknown", token=ada.token)
    seen, page, pages = [], None, 0
    while True:
        body = api.get(f"/orgs/{ada.org_id}/link-invites", token=ada.token,
                       query={"limit": 2, "page": page}).json()
        assert body["count"] == 4
        assert len(body["items"]) <= 2
        seen += [item["id"] for item in body["items"]]
        pages += 1
        if "next" not in body:
            break
        page = body["next"]["page"]
    assert seen == created  # oldest first, each once
    assert pages >= 2


def test_forged_and_foreign_cursors_are_400(api):
    ada = api.org_admin()
    bob = api.org_admin("Bob", "Bobco")
    for who in (ada, bob):
        _link(api, who)
        _link(api, who)
    foreign = api.get(f"/orgs/{bob.org_id}/link-invites", token=bob.token, query={"limit": 1}).json()
    page = foreign["next"]["page"]
    assert "another listing" in _error(api.get(f"/orgs/{ada.org_id}/link-invites", token=ada.token,
                                               query={"page": page}), 400)
    forged = page[:-2] + ("AA" if not page.endswith("AA") else "BB")
    assert "page:" in _error(api.get(f"/orgs/{bob.org_id}/link-invites", token=bob.token,
                                     query={"page": forged}), 400)
    assert "limit" in _error(api.get(f"/orgs/{ada.org_id}/link-invites", token=ada.token,
                                     query={"limit": 5000}), 400)


@pytest.mark.parametrize(("body", "named"), [
    ({}, "role is required"),
    ({"level": "read"}, "level needs a space or a collection"),
    ({"role": "read", "space": "s1"}, "takes level, not role"),
    ({"space": "s1"}, "level is required"),
    ({"level": "read", "space": "s1", "collection": "c1"}, "either space or collection"),
    ({"role": "superuser"}, "role:"),
])
def test_bad_link_bodies_are_400(api, body, named):
    ada = api.org_admin()
    assert named in _error(api.post(f"/orgs/{ada.org_id}/link-invites", token=ada.token, body=body), 400)
    assert _org(ada).invite_count == 0


def test_patch_takes_role_for_organization_links(api):
    ada = api.org_admin()
    link = _link(api, ada)
    path = f"/orgs/{ada.org_id}/link-invites/{link}"
    assert "level:" in _error(api.patch(path, token=ada.token, body={"level": "read"}), 400)
    assert "exactly one" in _error(api.patch(path, token=ada.token, body={}), 400)
    assert _error(api.patch(f"/orgs/{ada.org_id}/link-invites/nope", token=ada.token,
                            body={"role": "read"}), 404) == "No matching invite"
    assert api.get(path, token=ada.token).json()["role"] == "edit"


def test_links_to_spaces_and_collections_need_existing_targets(api):
    ada = api.org_admin()
    base = f"/orgs/{ada.org_id}/link-invites"
    assert _error(api.post(base, token=ada.token, body={"level": "read", "space": "s1"}), 404) == (
        "No matching space")
    assert _error(api.post(base, token=ada.token, body={"level": "read", "collection": "c1"}), 404) == (
        "No matching collection")
    # Spaces are not written by any endpoint yet: put two straight into the table, one of another org.
    table.transact([table.put_op({**keys.space("s1"), "type": "space", "id": "s1", "orgId": ada.org_id}),
                    table.put_op({**keys.space("s2"), "type": "space", "id": "s2", "orgId": "elsewhere"})])
    _error(api.post(base, token=ada.token, body={"level": "read", "space": "s2"}), 404)
    reply = api.post(base, token=ada.token, body={"level": "comment", "space": "s1"})
    assert reply.status == 201
    link = reply.json()
    assert (link["level"], link["space"]["id"], link["redundant"]) == ("comment", "s1", False)
    path = f"{base}/{link['id']}"
    assert "role:" in _error(api.patch(path, token=ada.token, body={"role": "read"}), 400)
    assert api.patch(path, token=ada.token, body={"level": "edit"}).json()["level"] == "edit"
    assert _org(ada).invite_count == 1
    # Space permissions have no storage yet: such a link must not quietly make its user a member.
    bob = api.user("Bob")
    assert "space" in _error(api.post(f"/orgs/{ada.org_id}/invites/{link['id']}", token=bob.token), 400)
    assert get_member(ada.org_id, bob.user_id) is None


@pytest.mark.parametrize(("method", "suffix", "body"), [
    ("get", "", None), ("post", "", {"role": "read"}), ("get", "/L", None),
    ("patch", "/L", {"role": "read"}), ("delete", "/L", None),
])
def test_link_endpoints_are_for_admins(api, method, suffix, body):
    ada = api.org_admin()
    link = _link(api, ada)
    writer = _member(api, ada.org_id, "Wes", "create")
    outsider = api.org_admin("Olga", "Other")
    path = f"/orgs/{ada.org_id}/link-invites" + suffix.replace("L", link)
    call = getattr(api, method)
    assert "admin role" in _error(call(path, token=writer.token, body=body), 403)
    assert _error(call(path, token=outsider.token, body=body), 404) == "No matching organization"
    assert _org(ada).invite_count == 1
    assert api.get(f"/orgs/{ada.org_id}/link-invites/{link}", token=ada.token).json()["role"] == "edit"


# --- joining with a link ------------------------------------------------------------------------
def test_joining_with_a_link(api, request_counter):
    ada = api.org_admin()
    link = _link(api, ada, "edit")
    bob = api.user("Bob")
    request_counter.clear()
    reply = api.post(f"/orgs/{ada.org_id}/invites/{link}", token=bob.token)
    assert (reply.status, reply.json()) == (200, {})
    # token, then organization + link + membership + user in one batch, then one transaction
    assert request_counter == {"GetItem": 1, "BatchGetItem": 1, "TransactWriteItems": 1}
    assert get_member(ada.org_id, bob.user_id).role == "edit"
    assert api.get(f"/orgs/{ada.org_id}", token=bob.token).status == 200
    # Joining again, or an admin using the link, changes nothing.
    assert api.post(f"/orgs/{ada.org_id}/invites/{link}", token=bob.token).json() == {}
    assert api.post(f"/orgs/{ada.org_id}/invites/{link}", token=ada.token).json() == {}
    assert get_member(ada.org_id, ada.user_id).role == "admin"
    assert (_org(ada).member_count, _org(ada).admin_count) == (2, 1)


def test_unknown_links_and_organizations_are_the_same_404(api):
    ada = api.org_admin()
    other = api.org_admin("Olga", "Other")
    link = _link(api, ada)
    bob = api.user("Bob")
    for path in (f"/orgs/{ada.org_id}/invites/nope", f"/orgs/nope/invites/{link}",
                 f"/orgs/{other.org_id}/invites/{link}"):
        assert _error(api.post(path, token=bob.token), 404) == "No matching invite"
    api.delete(f"/orgs/{ada.org_id}/link-invites/{link}", token=ada.token)
    _error(api.post(f"/orgs/{ada.org_id}/invites/{link}", token=bob.token), 404)
    assert get_member(ada.org_id, bob.user_id) is None
    assert get_member(other.org_id, bob.user_id) is None


def test_joining_needs_a_token(api):
    ada = api.org_admin()
    link = _link(api, ada)
    assert api.post(f"/orgs/{ada.org_id}/invites/{link}").status == 401


def test_the_invite_links_switch(api):
    ada = api.org_admin()
    link = _link(api, ada, "comment")
    bob = api.user("Bob")
    api.patch(f"/orgs/{ada.org_id}", token=ada.token, body={"inviteLinks": False})
    assert "inviteLinks" in _error(api.post(f"/orgs/{ada.org_id}/link-invites", token=ada.token,
                                            body={"role": "read"}), 400)
    assert "switched off" in _error(api.post(f"/orgs/{ada.org_id}/invites/{link}", token=bob.token), 400)
    assert get_member(ada.org_id, bob.user_id) is None
    assert _org(ada).invite_count == 1
    # Admins still see and manage the links they have.
    assert api.get(f"/orgs/{ada.org_id}/link-invites", token=ada.token).json()["count"] == 1
    api.patch(f"/orgs/{ada.org_id}", token=ada.token, body={"inviteLinks": True})
    assert api.post(f"/orgs/{ada.org_id}/invites/{link}", token=bob.token).status == 200
    assert get_member(ada.org_id, bob.user_id).role == "comment"
