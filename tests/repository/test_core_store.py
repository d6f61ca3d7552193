"""The store primitives and the user/organization repositories, on every engine (moto, DynamoDB Local)."""

from __future__ import annotations

import time

import pytest

from bindery import keys
from bindery.domain.access.auth import hash_token
from bindery.platform.errors import BadRequest, Conflict
from bindery.platform.pagination import decode_cursor, encode_cursor
from bindery.store import members as member_store
from bindery.store import orgs as org_store
from bindery.store import table
from bindery.store import users as user_store
from bindery.store.members import Member
from bindery.store.orgs import Organization
from bindery.store.users import User

pytestmark = pytest.mark.repository


def _user(uid: str, email: str | None = None) -> User:
    return user_store.create_user(User(id=uid, display_name=uid.title(), email=email, email_verified=True))


def test_user_round_trip_and_email_uniqueness():
    ada = _user("ada", "Ada@Example.com")
    assert user_store.get_user("ada") == ada
    assert user_store.user_id_for_email("ada@example.COM") == "ada"
    with pytest.raises(Conflict):
        _user("ada2", "ada@example.com")
    # the failed transaction wrote nothing
    assert user_store.get_user("ada2") is None


def test_tokens_resolve_by_hash_only():
    _user("ada")
    user_store.create_token(hash_token("secret-token"), "ada")
    assert user_store.user_id_for_token(hash_token("secret-token")) == "ada"
    assert user_store.user_id_for_token(hash_token("other")) is None
    stored = table.get(keys.token(hash_token("secret-token")))
    assert stored is not None
    assert "secret-token" not in str(stored)


def test_token_for_missing_user_is_refused():
    with pytest.raises(table.TransactionConflict):
        user_store.create_token(hash_token("t"), "ghost")
    assert user_store.user_id_for_token(hash_token("t")) is None


def test_org_with_founder_in_one_batch_read():
    ada = _user("ada")
    org = Organization(id="o1", title="Acme", created_at="2026-01-01T00:00:00.000Z")
    org_store.create_org(org, Member.joining("o1", ada, "admin", org.created_at))
    found, member = org_store.get_org_and_member("o1", "ada")
    assert found is not None
    assert found.title == "Acme"
    assert found.member_count == 1
    assert found.admin_count == 1
    assert member is not None
    assert member.role == "admin"
    assert org_store.get_org_and_member("o1", "bob") == (found, None)


def test_member_counter_moves_with_the_membership():
    ada, bob = _user("ada"), _user("bob")
    org_store.create_org(Organization(id="o1", title="Acme", created_at="t"),
                         Member.joining("o1", ada, "admin", "t"))
    table.transact(member_store.add_member_ops(Member.joining("o1", bob, "read", "t")))
    with pytest.raises(table.TransactionConflict):
        table.transact(member_store.add_member_ops(Member.joining("o1", bob, "read", "t")))
    org = org_store.get_org("o1")
    assert org is not None
    assert (org.member_count, org.admin_count) == (2, 1)


def test_email_domain_index_is_kept_in_step():
    ada = _user("ada")
    org = Organization(id="o1", title="Acme", created_at="t")
    org_store.create_org(org, Member.joining("o1", ada, "admin", "t"))
    org.email_domains = ["a.test", "b.test"]
    org_store.update_org(org, [])
    assert org_store.org_ids_for_email_domain("a.test") == ["o1"]
    previous = list(org.email_domains)
    org.email_domains = ["b.test"]
    org_store.update_org(org, previous)
    assert org_store.org_ids_for_email_domain("a.test") == []
    assert org_store.org_ids_for_email_domain("B.test") == ["o1"]


def test_user_orgs_query_pages_in_order():
    ada = _user("ada")
    for oid in ("o3", "o1", "o2"):
        org_store.create_org(Organization(id=oid, title=oid, created_at="t"),
                             Member.joining(oid, ada, "admin", "t"))
    first = member_store.user_memberships_page("ada", 2, None)
    assert [(m.org_id, m.role) for m in first.members] == [("o1", "admin"), ("o2", "admin")]
    assert first.last_key is not None
    rest = member_store.user_memberships_page("ada", 2, first.last_key)
    assert [m.org_id for m in rest.members] == ["o3"]


def test_expired_items_read_as_gone():
    past, future = int(time.time()) - 10, int(time.time()) + 3600
    table.transact([
        table.put_op({"PK": "X#1", "SK": "A", table.TTL_ATTRIBUTE: past}),
        table.put_op({"PK": "X#1", "SK": "B", table.TTL_ATTRIBUTE: future}),
    ])
    assert table.get({"PK": "X#1", "SK": "A"}) is None
    assert table.get({"PK": "X#1", "SK": "B"}) is not None
    assert [i["SK"] for i in table.Query(partition="X#1").run().items] == ["B"]
    assert [i["SK"] for i in table.batch_get([{"PK": "X#1", "SK": "A"}, {"PK": "X#1", "SK": "B"}])] == ["B"]


def test_a_cancelled_transaction_names_the_operation_that_was_refused():
    table.transact([table.put_op({"PK": "X#2", "SK": "TAKEN"})])
    transaction = table.Transaction(
        table.put_op({"PK": "X#2", "SK": "NEW"}, "attribute_not_exists(PK)", name="new-item"),
        [table.put_op({"PK": "X#2", "SK": "TAKEN"}, "attribute_not_exists(PK)", name="guard")],
    )
    with pytest.raises(table.TransactionConflict) as raised:
        transaction.commit()
    assert raised.value.failed("guard")
    assert not raised.value.failed("new-item")
    assert table.get({"PK": "X#2", "SK": "NEW"}) is None  # all or nothing


def test_cursor_round_trip_and_scope():
    key = {"PK": "ORG#o1", "SK": "MEMBER#u", "n": 3}
    cursor = encode_cursor("members:o1", key)
    assert decode_cursor("members:o1", cursor) == key
    with pytest.raises(BadRequest):
        decode_cursor("members:o2", cursor)
    with pytest.raises(BadRequest):
        decode_cursor("members:o1", cursor + "x")
    with pytest.raises(BadRequest):
        decode_cursor("members:o1", "garbage")
    assert decode_cursor("members:o1", None) is None
