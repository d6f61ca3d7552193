"""PATCH /spaces/{spaceId}: a space's settings, who may change them, and what may not be lost."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bindery import keys
from bindery.domain.spaces import records as domain
from bindery.store import spaces as space_store
from bindery.store import table
from tests.api.members.test_members import error, join
from tests.api.spaces.test_spaces import give, new_collection, new_space


def patch(api, who, space_id, body, status=200):
    reply = api.patch(f"/spaces/{space_id}", token=who.token, body=body)
    assert reply.status == status, reply.body
    return reply.json()


def test_patch_changes_the_sent_fields_and_bumps_updated_at(api):
    ada = api.org_admin()
    before = new_space(api, ada, title="Old", emoji="📘")
    after = patch(api, ada, before["id"], {"title": "New", "editMode": "locked", "language": "de",
                                           "defaultLevel": "comment"})
    assert (after["title"], after["editMode"], after["language"], after["defaultLevel"]) == (
        "New", "locked", "de", "comment")
    assert after["emoji"] == "📘"  # not sent, not changed
    assert after["updatedAt"] > before["updatedAt"]
    assert after["createdAt"] == before["createdAt"]
    assert after["permissions"]["edit"] is False
    assert api.get(f"/spaces/{before['id']}", token=ada.token).json() == after
    # Unlocking gives content changes back.
    assert patch(api, ada, before["id"], {"editMode": "live"})["permissions"]["edit"] is True


def test_emoji_and_icon_replace_each_other_and_null_removes_them(api):
    ada = api.org_admin()
    sid = new_space(api, ada, emoji="📘")["id"]
    with_icon = patch(api, ada, sid, {"icon": "https://example.com/icon.png"})
    assert (with_icon["emoji"], with_icon["urls"]["icon"]) == ("", "https://example.com/icon.png")
    with_emoji = patch(api, ada, sid, {"emoji": "🎉"})
    assert (with_emoji["emoji"], "icon" in with_emoji["urls"]) == ("🎉", False)
    cleared = patch(api, ada, sid, {"emoji": None, "icon": None})
    assert (cleared["emoji"], "icon" in cleared["urls"]) == ("", False)
    assert "emoji" not in space_store.get_space(sid).to_item()
    message = error(api.patch(f"/spaces/{sid}", token=ada.token,
                              body={"emoji": "🎉", "icon": "https://example.com/i.png"}), 400)
    assert "emoji, icon" in message


@pytest.mark.parametrize(("level", "bob_sees"), [("inherit", True), (None, False), ("read", True)])
def test_default_level_inherit_null_or_a_role(api, level, bob_sees):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "edit")
    sid = new_space(api, ada)["id"]
    assert patch(api, ada, sid, {"defaultLevel": level})["defaultLevel"] == level
    reply = api.get(f"/spaces/{sid}", token=bob.token)
    assert (reply.status == 200) is bob_sees
    if bob_sees:
        assert reply.json()["permissions"]["edit"] is (level == "inherit")


def test_merge_rules_inherit_rules_or_none(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "review")
    sid = new_space(api, ada)["id"]
    rules = {"type": "rules", "rules": [
        {"rule": "require_specific_reviewers", "users": [bob.user_id]},
        {"rule": "allow_bypass", "users": [ada.user_id]},
        {"rule": "require_at_least_one_review"},
    ]}
    assert patch(api, ada, sid, {"mergeRules": rules})["mergeRules"] == rules
    assert space_store.get_space(sid).merge_rules == rules
    assert patch(api, ada, sid, {"mergeRules": {"type": "none"}})["mergeRules"] == {"type": "none"}
    assert patch(api, ada, sid, {"mergeRules": {"type": "inherit"}})["mergeRules"] == {"type": "inherit"}


def test_merge_rules_must_name_members_of_the_organization(api):
    ada = api.org_admin()
    olga = api.org_admin("Olga", "Other")
    sid = new_space(api, ada)["id"]
    for users in ([olga.user_id], ["no-such-user"]):
        body = {"mergeRules": {"type": "rules", "rules": [
            {"rule": "require_one_of_specific_reviewers", "users": [ada.user_id, *users]}]}}
        message = error(api.patch(f"/spaces/{sid}", token=ada.token, body=body), 400)
        assert message == f"mergeRules: {users[0]} is not a member of this organization"
    missing = {"mergeRules": {"type": "rules", "rules": [{"rule": "require_specific_reviewers"}]}}
    reply = api.patch(f"/spaces/{sid}", token=ada.token, body=missing)
    assert "mergeRules.rules.0.users" in error(reply, 400)
    assert space_store.get_space(sid).merge_rules == {"type": "inherit"}


@pytest.mark.parametrize(("body", "named"), [
    ({"title": "x" * 51}, "title"), ({"title": None}, "title"), ({"editMode": "frozen"}, "editMode"),
    ({"editMode": None}, "editMode"), ({"language": "xx"}, "language"), ({"language": None}, "language"),
    ({"defaultLevel": "owner"}, "defaultLevel"), ({"mergeRules": {"type": "sometimes"}}, "mergeRules"),
    ({"mergeRules": None}, "mergeRules"), ({"icon": "not a url"}, "icon"), ({"emoji": "x" * 51}, "emoji"),
])
def test_bad_patch_bodies_are_400_naming_the_field(api, body, named):
    ada = api.org_admin()
    before = new_space(api, ada, title="Same")
    assert named in error(api.patch(f"/spaces/{before['id']}", token=ada.token, body=body), 400)
    assert api.get(f"/spaces/{before['id']}", token=ada.token).json() == before


def test_space_admins_change_settings_others_get_403(api):
    ada = api.org_admin()
    sid = new_space(api, ada, title="Handbook")["id"]
    for role in ("read", "edit", "create"):
        who = join(api, ada.org_id, f"U{role}", role)
        reply = api.patch(f"/spaces/{sid}", token=who.token, body={"title": "Mine"})
        assert "admin role" in error(reply, 403)
    # A direct admin grant on the space (or its collection) is enough.
    carol = join(api, ada.org_id, "Carol", "read")
    give("space", sid, "user", carol.user_id, "admin")
    assert patch(api, carol, sid, {"title": "Carol's"})["title"] == "Carol's"
    guides = new_collection(ada.org_id)
    inner = new_space(api, ada, parent=guides)["id"]
    dan = join(api, ada.org_id, "Dan", "read")
    give("collection", guides, "user", dan.user_id, "admin")
    assert patch(api, dan, inner, {"emoji": "🎉"})["emoji"] == "🎉"


def test_other_organizations_and_unknown_spaces_are_404(api):
    ada = api.org_admin()
    sid = new_space(api, ada, title="Mine")["id"]
    olga = api.org_admin("Olga", "Other")
    assert error(api.patch(f"/spaces/{sid}", token=olga.token, body={"title": "Theirs"}), 404)
    assert error(api.patch("/spaces/nope", token=ada.token, body={"title": "X"}), 404)
    assert api.get(f"/spaces/{sid}", token=ada.token).json()["title"] == "Mine"


def test_patch_never_overwrites_counters_or_grants_written_meanwhile(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "read")
    sid = new_space(api, ada)["id"]
    # Counters kept on the item by later features (comments, change requests) move with ADD.
    table.transact([table.update_op(keys.space(sid), "ADD comments :one, changeRequestsOpen :one",
                                    {":one": 1})])
    give("space", sid, "user", bob.user_id, "edit")
    body = patch(api, ada, sid, {"title": "Renamed"})
    assert (body["comments"], body["changeRequestsOpen"]) == (1, 1)
    assert space_store.get_space(sid).grants == {f"user:{bob.user_id}": "edit"}


def test_a_change_between_read_and_write_is_a_409_that_changes_nothing(api, monkeypatch):
    ada = api.org_admin()
    sid = new_space(api, ada, title="Original")["id"]
    read = domain.space_access

    def read_then_someone_else_writes(caller, space_id, **kw):
        access = read(caller, space_id, **kw)
        table.transact([space_store.update_space_op(access.node, replace(access.node, title="Theirs",
                                                                         updated_at="2999-01-01"))])
        return access

    monkeypatch.setattr(domain, "space_access", read_then_someone_else_writes)
    assert "nothing was changed" in error(api.patch(f"/spaces/{sid}", token=ada.token,
                                                    body={"title": "Mine"}), 409)
    monkeypatch.undo()
    assert api.get(f"/spaces/{sid}", token=ada.token).json()["title"] == "Theirs"


def test_an_empty_patch_changes_nothing(api):
    ada = api.org_admin()
    before = new_space(api, ada)
    assert patch(api, ada, before["id"], {}) == before
