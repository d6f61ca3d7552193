"""The invite repository (store/invites.py), on every engine (moto, DynamoDB Local)."""

from __future__ import annotations

import pytest

from bindery import keys
from bindery.store import invites as invite_store
from bindery.store import orgs as org_store
from bindery.store import table
from bindery.store import users as user_store
from bindery.store.invites import LinkInvite
from bindery.store.members import Member, get_member
from bindery.store.orgs import Organization
from bindery.store.users import User

pytestmark = pytest.mark.repository

AT = "2026-01-01T00:00:00.000Z"


def _user(uid: str, email: str | None = None) -> User:
    return user_store.create_user(User(id=uid, display_name=uid.title(), email=email, email_verified=True))


def _org(org_id: str = "o1", *, links: bool = True) -> Organization:
    founder = _user(f"{org_id}-admin", f"admin@{org_id}.example.com")
    org = Organization(id=org_id, title="Acme", created_at=AT, invite_links=links)
    org_store.create_org(org, Member.joining(org_id, founder, "admin", AT))
    return org


def _link(org_id: str, invite_id: str, role: str | None = "edit") -> LinkInvite:
    invite = LinkInvite(org_id=org_id, id=invite_id, role=role, created_at=AT, created_by=f"{org_id}-admin")
    invite_store.create_link_invite(invite)
    return invite


def _count(org_id: str = "o1") -> int:
    org = org_store.get_org(org_id)
    assert org is not None
    return org.invite_count


def test_link_round_trip_and_exact_counter():
    _org()
    invite = _link("o1", "L1")
    assert invite_store.get_link_invite("o1", "L1") == invite
    assert _count() == 1
    invite_store.set_link_invite_role(invite, None)
    assert invite_store.get_link_invite("o1", "L1").role is None
    assert invite_store.delete_link_invite("o1", "L1") is True
    assert invite_store.delete_link_invite("o1", "L1") is False  # a second delete counts nothing
    assert invite_store.get_link_invite("o1", "L1") is None
    assert _count() == 0


def test_changing_a_deleted_link_is_refused():
    _org()
    invite = _link("o1", "L1")
    invite_store.delete_link_invite("o1", "L1")
    with pytest.raises(table.TransactionConflict):
        invite_store.set_link_invite_role(invite, "read")
    assert invite_store.get_link_invite("o1", "L1") is None  # the update did not resurrect it


def test_links_are_not_created_while_switched_off():
    _org(links=False)
    with pytest.raises(table.TransactionConflict):
        _link("o1", "L1")
    assert invite_store.get_link_invite("o1", "L1") is None
    assert _count() == 0


def test_link_pages_hold_only_links_in_id_order():
    _org()
    _org("o2")
    for invite_id in ("L3", "L1", "L5", "L2", "L4"):
        _link("o1", invite_id)
    _link("o2", "L0")  # another organization's link, in another partition
    seen, start = [], None
    while True:
        links, start = invite_store.link_invites_page("o1", 2, start)
        assert len(links) <= 2
        seen += [link.id for link in links]
        if start is None:
            break
    assert seen == ["L1", "L2", "L3", "L4", "L5"]  # members of the same partition are not listed


def test_join_context_is_one_batch_read():
    _org()
    invite = _link("o1", "L1", "comment")
    bob = _user("bob")
    context = invite_store.join_context("o1", "L1", "bob")
    assert (context.org, context.invite, context.member, context.user) == (
        org_store.get_org("o1"), invite, None, bob)
    admin_context = invite_store.join_context("o1", "nope", "o1-admin")
    assert admin_context.invite is None
    assert admin_context.member is not None


def test_joining_adds_the_member_and_counts_it():
    _org()
    invite = _link("o1", "L1", "comment")
    bob = _user("bob")
    invite_store.join_with_link(Member.joining("o1", bob, invite.role, AT), invite)
    assert get_member("o1", "bob").role == "comment"
    org = org_store.get_org("o1")
    assert (org.member_count, org.admin_count) == (2, 1)


def test_joining_with_a_deleted_link_writes_nothing():
    _org()
    invite = _link("o1", "L1")
    invite_store.delete_link_invite("o1", "L1")
    bob = _user("bob")
    with pytest.raises(table.TransactionConflict):
        invite_store.join_with_link(Member.joining("o1", bob, "edit", AT), invite)
    assert get_member("o1", "bob") is None
    assert org_store.get_org("o1").member_count == 1


def test_find_invitees_tells_members_users_and_strangers_apart():
    _org()
    bob = _user("bob", "bob@example.com")
    cat = _user("cat", "cat@example.com")
    invite_store.add_invited_members("o1", [], [Member.joining("o1", cat, "read", AT)])
    found = {i.email: i for i in invite_store.find_invitees("o1", ["bob@example.com", "cat@example.com",
                                                                   "dan@example.com"])}
    assert (found["bob@example.com"].user, found["bob@example.com"].member) == (bob, None)
    assert found["cat@example.com"].member.role == "read"
    assert (found["dan@example.com"].user_id, found["dan@example.com"].user) == (None, None)


def test_thirty_new_users_join_in_one_transaction():
    _org()
    users = [User(id=f"u{n:02d}", display_name=f"u{n}", email=f"u{n}@example.com", created_at=AT)
             for n in range(30)]
    members = [Member.joining("o1", user, "admin" if n < 2 else "read", AT) for n, user in enumerate(users)]
    invite_store.add_invited_members("o1", users, members)  # 30 * 3 + 1 = 91 operations
    org = org_store.get_org("o1")
    assert (org.member_count, org.admin_count) == (31, 3)
    assert user_store.user_id_for_email("U29@example.com") == "u29"
    assert get_member("o1", "u29").role == "read"


def test_a_conflicting_invite_writes_nothing():
    _org()
    bob = _user("bob", "bob@example.com")
    invite_store.add_invited_members("o1", [], [Member.joining("o1", bob, "read", AT)])
    newcomer = User(id="new", display_name="new", email="new@example.com", created_at=AT)
    with pytest.raises(table.TransactionConflict):
        invite_store.add_invited_members("o1", [newcomer], [Member.joining("o1", newcomer, "read", AT),
                                                            Member.joining("o1", bob, "edit", AT)])
    assert user_store.get_user("new") is None
    assert get_member("o1", "bob").role == "read"
    assert org_store.get_org("o1").member_count == 2


def test_invite_targets_must_exist_be_live_and_belong_to_the_org():
    _org()
    table.transact([
        table.put_op({**keys.space("s1"), "type": "space", "id": "s1", "orgId": "o1"}),
        table.put_op({**keys.space("s2"), "type": "space", "id": "s2", "orgId": "o2"}),
        table.put_op({**keys.space("s3"), "type": "space", "id": "s3", "orgId": "o1", "deletedAt": AT}),
        table.put_op({**keys.collection("c1"), "type": "collection", "id": "c1", "orgId": "o1"}),
    ])
    assert invite_store.invite_target("o1", "space", "s1")["id"] == "s1"
    assert invite_store.invite_target("o1", "space", "s2") is None
    assert invite_store.invite_target("o1", "space", "s3") is None
    assert invite_store.invite_target("o1", "space", "s4") is None
    assert invite_store.invite_target("o1", "collection", "c1")["id"] == "c1"
    assert invite_store.invite_target("o2", "collection", "c1") is None
