"""The permission resolver's reads (bindery.domain.access.content), on every engine: who it finds, what it
refuses, which teams and collections it reads, and how many requests that takes. The rule itself, without
storage, is tests/test_effective_role.py's; together they are what `make mutation` runs on the resolver."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest

from bindery.domain.access.auth import INSTALLATION_PREFIX, Caller, InstallationGrant
from bindery.domain.access.content import (
    NO_COLLECTION,
    NO_SPACE,
    collection_access,
    member_roles,
    member_roles_and_org,
    member_team_ids,
    roles_in_chains,
    roles_on,
    space_access,
)
from bindery.domain.access.organization import NO_ORG
from bindery.domain.change_requests.rules import effective_rules
from bindery.platform import aws
from bindery.platform.errors import Forbidden, NotFound
from bindery.store import members as member_store
from bindery.store import orgs as org_store
from bindery.store import table
from bindery.store import teams as team_store
from bindery.store import users as user_store
from bindery.store.collections import Collection
from bindery.store.integration_installations import Installation
from bindery.store.members import Member
from bindery.store.orgs import Organization
from bindery.store.spaces import Space
from bindery.store.teams import Team, TeamLink
from bindery.store.users import User

pytestmark = pytest.mark.repository
NodeT = TypeVar("NodeT", Space, Collection)

ORG = "o1"
AT = "2026-01-01T00:00:00.000Z"


def _org(*members: tuple[str, str | None], sso: bool = False) -> None:
    ada = user_store.create_user(User(id="ada", display_name="Ada", email="ada@example.com"))
    org_store.create_org(Organization(id=ORG, title="Acme", created_at=AT, sso=sso),
                         Member.joining(ORG, ada, "admin", AT))
    for uid, role in members:
        user = user_store.create_user(User(id=uid, display_name=uid.title(), email=f"{uid}@example.com"))
        table.transact(member_store.add_member_ops(Member.joining(ORG, user, role, AT)))


def _put(node: NodeT) -> NodeT:
    # The resolver reads only the node's level and grants map: the grant items and counters the
    # permission endpoints also write are tests/repository/test_grants_store.py's.
    table.transact([table.put_op(node.to_item())])
    return node


def _collection(cid: str, *, above: tuple[str, ...] = (), level: str | None = "inherit",
                grants: dict[str, str] | None = None) -> Collection:
    return _put(Collection(id=cid, org_id=ORG, created_at=AT, updated_at=AT, position="V", title=cid,
                           parent=above[0] if above else None, ancestors=list(above), default_level=level,
                           grants=grants or {}))


def _space(sid: str, *, above: tuple[str, ...] = (), level: str | None = "inherit",
           grants: dict[str, str] | None = None, deleted: bool = False) -> Space:
    return _put(Space(id=sid, org_id=ORG, created_at=AT, updated_at=AT, position="V", title=sid,
                      revision=f"r-{sid}", parent=above[0] if above else None, ancestors=list(above),
                      default_level=level, grants=grants or {},
                      deleted_at=AT if deleted else None))


def _team(tid: str, *members: str) -> None:
    team_store.create_team(Team(org_id=ORG, id=tid, title=tid, created_at=AT),
                           [TeamLink(ORG, tid, uid, "member") for uid in members])


def _disable(uid: str) -> None:
    member = member_store.get_member(ORG, uid)
    assert member is not None
    member.disabled = True
    table.transact([table.put_op(member.to_item())])


def _member(uid: str) -> Member:
    member = member_store.get_member(ORG, uid)
    assert member is not None
    return member


@pytest.fixture
def batch_keys() -> Iterator[list[set[tuple[str, str]]]]:
    """The keys of each BatchGetItem sent while a test runs: what the resolver reads, item by item."""
    sent: list[set[tuple[str, str]]] = []

    def record(params: dict[str, Any], **_: Any) -> None:
        for request in params["RequestItems"].values():
            sent.append({(key["PK"], key["SK"]) for key in request["Keys"]})

    events = aws.dynamodb_client().meta.events
    events.register("provide-client-params.dynamodb.BatchGetItem", record)
    try:
        yield sent
    finally:
        events.unregister("provide-client-params.dynamodb.BatchGetItem", record)


def _missing(call: Callable[[], object], message: str) -> None:
    with pytest.raises(NotFound) as raised:
        call()
    assert str(raised.value) == message


def test_a_space_resolves_through_its_collections_nearest_first():
    _org(("bob", "read"))
    _collection("top", level="edit")
    _collection("mid", above=("top",))
    _space("s1", above=("mid", "top"))
    access = space_access(Caller("bob"), "s1")
    assert access.role == "edit"  # inherited from the first explicit level above
    assert [c.id for c in access.collections] == ["mid", "top"]
    assert (access.node.id, access.member.user_id) == ("s1", "bob")
    assert collection_access(Caller("bob"), "mid").role == "edit"


def test_what_the_caller_may_not_see_does_not_exist():
    _org(("bob", "read"), ("dan", "admin"))
    _space("private", level=None)
    _space("gone", deleted=True)
    _collection("hidden", level=None)
    _missing(lambda: space_access(Caller("bob"), "private"), NO_SPACE)
    _missing(lambda: space_access(Caller("bob"), "nowhere"), NO_SPACE)
    _missing(lambda: space_access(Caller("eve"), "gone", deleted=True), NO_SPACE)  # not a member
    _missing(lambda: collection_access(Caller("bob"), "hidden"), NO_COLLECTION)
    _missing(lambda: collection_access(Caller("bob"), "nowhere"), NO_COLLECTION)
    _missing(lambda: space_access(Caller("eve"), "private"), NO_SPACE)
    # A space awaiting removal is only found by those who ask for one, and a live one only by the others.
    _missing(lambda: space_access(Caller("dan"), "gone"), NO_SPACE)
    assert space_access(Caller("dan"), "gone", deleted=True).role == "admin"
    _missing(lambda: space_access(Caller("dan"), "private", deleted=True), NO_SPACE)
    _disable("dan")
    _missing(lambda: space_access(Caller("dan"), "private"), NO_SPACE)
    _missing(lambda: member_roles(ORG, Caller("dan"), []), NO_ORG)
    _missing(lambda: member_roles(ORG, Caller("eve"), []), NO_ORG)


def test_require_refuses_below_the_role_naming_it_and_the_action():
    _org(("bob", "comment"))
    _space("s1")
    access = space_access(Caller("bob"), "s1")
    access.require("comment", "comment")
    access.require("read", "read")
    with pytest.raises(Forbidden) as raised:
        access.require("edit", "edit this space")
    assert str(raised.value) == "You need the edit role here to edit this space"


def test_an_organization_enforcing_sso_refuses_its_sso_members_other_tokens():
    _org(("bob", "read"), sso=True)
    _space("s1")
    bob = _member("bob")
    table.transact([table.put_op({**bob.to_item(), "sso": True})])
    with pytest.raises(Forbidden):
        space_access(Caller("bob"), "s1")
    assert space_access(Caller("bob", sso_org=ORG), "s1").role == "read"
    assert space_access(Caller("ada"), "s1").role == "admin"  # not an SSO member: any token


def test_listings_of_an_organization_enforcing_sso_refuse_its_sso_members_other_tokens():
    """The listings' resolver (a page of spaces with the membership) applies the same SSO rule."""
    _org(("bob", "read"), sso=True)
    _space("s1")
    bob = _member("bob")
    table.transact([table.put_op({**bob.to_item(), "sso": True})])
    for listing in (member_roles, member_roles_and_org):
        with pytest.raises(Forbidden):
            listing(ORG, Caller("bob"), [])
        assert listing(ORG, Caller("bob", sso_org=ORG), [])[0].user_id == "bob"
        assert listing(ORG, Caller("ada"), [])[0].role == "admin"


def test_team_grants_on_the_node_and_above_are_read_by_key(request_counter):
    _org(("bob", "read"), ("cat", "read"))
    _team("near", "bob")
    _team("far", "bob", "cat")
    _collection("c1", grants={"team:far": "comment"})
    _space("s1", above=("c1",), level=None, grants={"team:near": "edit"})
    _space("s2", above=("c1",), level=None)
    request_counter.clear()
    # Both of bob's teams count: the one the space grants to and the one the collection above does.
    assert space_access(Caller("bob"), "s1").role == "edit"
    # The space, then the membership, c1, the organization and bob's link to `near`; then his link to
    # `far`, which only the collection above grants something to.
    assert request_counter == {"GetItem": 1, "BatchGetItem": 2}
    assert space_access(Caller("cat"), "s2").role == "comment"
    assert space_access(Caller("cat"), "s1").role == "comment"  # via c1's team grant only


def test_no_team_is_read_for_an_admin_or_a_disabled_member(request_counter):
    _org(("bob", "read"))
    _team("far", "bob")
    _collection("c1", grants={"team:far": "edit"})
    _space("s1", above=("c1",), level=None)
    request_counter.clear()
    assert space_access(Caller("ada"), "s1").role == "admin"
    assert request_counter == {"GetItem": 1, "BatchGetItem": 1}  # no team changes an admin's role
    _disable("bob")
    request_counter.clear()
    _missing(lambda: space_access(Caller("bob"), "s1"), NO_SPACE)
    assert request_counter == {"GetItem": 1, "BatchGetItem": 1}  # nor a disabled member's


def test_roles_on_a_page_of_nodes(request_counter):
    _org(("bob", "read"), ("cat", None))
    _team("t1", "bob", "cat")
    above = _collection("c1", grants={"team:t1": "comment"})
    inside = _space("s1", above=("c1",))
    private = _space("s2", level=None, grants={"user:cat": "edit"})
    plain = _space("s3")
    bob, cat, ada = _member("bob"), _member("cat"), _member("ada")
    assert roles_on(bob, [inside, private, plain]) == {"s1": "comment", "s2": None, "s3": "read"}
    assert roles_on(cat, [inside, private, plain]) == {"s1": "comment", "s2": "edit", "s3": None}
    # A collection on the page is not read again for the nodes under it.
    assert roles_on(bob, [above, inside]) == {"c1": "comment", "s1": "comment"}
    request_counter.clear()
    assert roles_on(ada, [inside, private]) == {"s1": "admin", "s2": "admin"}
    assert roles_on(bob, []) == {}
    assert request_counter == {}  # an admin's roles, or none asked for, read nothing
    _disable("bob")
    request_counter.clear()
    assert roles_on(_member("bob"), [inside, plain]) == {"s1": None, "s3": None}
    assert request_counter.get("BatchGetItem", 0) == 0


def test_member_roles_reads_the_membership_and_the_organization_with_the_nodes():
    _org(("bob", "read"))
    inside = _space("s1", above=("c-missing",), grants={"user:bob": "create"})
    plain = _space("s2", level="comment")
    member, roles = member_roles(ORG, Caller("bob"), [inside, plain])
    assert member.user_id == "bob"
    # A collection above that no longer exists is skipped, not an error.
    assert roles == {"s1": "create", "s2": "comment"}
    member, roles, org = member_roles_and_org(ORG, Caller("bob"), [plain])
    assert (member.role, roles, org.id, org.member_count) == ("read", {"s2": "comment"}, ORG, 2)


def test_roles_in_chains_reads_the_teams_the_chains_grant_to():
    _org(("bob", "read"), ("cat", "read"))
    _team("t1", "bob")
    top = _collection("c1", grants={"team:t1": "admin"})
    space = _space("s1", above=("c1",), level=None)
    chains = {"s1": [space, top], "c1": [top]}
    assert roles_in_chains(_member("bob"), chains) == {"s1": "admin", "c1": "admin"}
    assert roles_in_chains(_member("cat"), chains) == {"s1": None, "c1": "read"}
    assert member_team_ids(ORG, "bob") == {"t1"}
    assert member_team_ids(ORG, "cat") == set()


def test_the_resolver_reads_only_what_it_was_not_given(batch_keys):
    # docs: bindery.domain.access.content's "Reads:" (each item read costs read capacity on every request).
    _org(("bob", "read"))
    _space("s1")
    membership, organization = member_store.member_key(ORG, "bob"), org_store.org_key(ORG)
    keys = {(membership["PK"], membership["SK"]): "membership",
            (organization["PK"], organization["SK"]): "org"}
    bob = _member("bob")
    space = space_access(Caller("bob"), "s1").node

    def read(call: Callable[[], object]) -> list[set[str]]:
        batch_keys.clear()
        call()
        return [{keys.get(key, "other") for key in batch} for batch in batch_keys]

    assert read(lambda: space_access(Caller("bob"), "s1")) == [{"membership", "org"}]
    assert read(lambda: member_roles_and_org(ORG, Caller("bob"), [space])) == [{"membership", "org"}]
    assert read(lambda: member_roles(ORG, Caller("bob"), [space])) == [{"membership", "org"}]
    # Given the membership and asked for no organization, it reads neither (nothing else here).
    assert read(lambda: roles_on(bob, [space])) == []


def _installation_caller(*, org: str = ORG, scopes: frozenset[str] = frozenset({"space:content:read"}),
                         ) -> Caller:
    """An installation token's caller, its installation (every space of `org`) put as the install does."""
    installation = Installation(id="i1", integration="analytics", org_id=org, status="active", created_at=AT,
                                updated_at=AT, space_selection="all")
    table.transact([table.put_op(installation.to_item())])
    grant = InstallationGrant("analytics", "i1", scopes, route_scopes=scopes)
    return Caller(user_id=f"{INSTALLATION_PREFIX}i1", installation=grant)


def test_an_installation_token_has_the_role_its_scopes_give_as_a_guest_of_no_collection():
    _org()
    _collection("top", level="admin")
    _space("s1", above=("top",))
    caller = _installation_caller()
    access = space_access(caller, "s1")
    assert (access.node.id, access.role, access.collections) == ("s1", "read", [])
    # Never anyone's membership: a guest of the organization named "Integration".
    assert access.member == Member(org_id=ORG, user_id=caller.user_id, role=None, joined_at="",
                                   display_name="Integration")


def test_an_installation_token_reaches_nothing_its_installation_does_not_cover():
    _org()
    _space("s1")
    _missing(lambda: space_access(_installation_caller(org="elsewhere"), "s1"), NO_SPACE)
    _missing(lambda: space_access(_installation_caller(scopes=frozenset({"site:metadata:read"})), "s1"),
             NO_SPACE)
    _collection("top")
    _missing(lambda: collection_access(_installation_caller(), "top"), NO_COLLECTION)


def test_an_sso_token_of_another_organization_reaches_nothing_here_and_reads_nothing(batch_keys):
    """docs/sso.md "Tokens": a SAML login's token is a non-member of every other organization (404),
    refused before any membership is read; in its own organization it is the member it is."""
    _org(("bob", "admin"))
    _space("s1")
    _collection("c1")
    elsewhere = Caller("bob", sso_org="another-org")
    batch_keys.clear()
    _missing(lambda: space_access(elsewhere, "s1"), NO_SPACE)
    _missing(lambda: collection_access(elsewhere, "c1"), NO_COLLECTION)
    _missing(lambda: member_roles(ORG, elsewhere, []), NO_ORG)
    _missing(lambda: member_roles_and_org(ORG, elsewhere, []), NO_ORG)
    assert batch_keys == []
    assert space_access(Caller("bob", sso_org=ORG), "s1").role == "admin"
    assert member_roles(ORG, Caller("bob", sso_org=ORG), [])[0].role == "admin"


def test_the_check_hands_back_the_organization_it_read(request_counter):
    """A space's access check reads its organization (SSO enforcement); the caller gets it back, so that
    what else the organization decides (the merge rules a space inherits) costs no second read."""
    _org(("bob", "edit"))
    _space("s1")
    access = space_access(Caller("bob"), "s1")
    assert access.org is not None
    assert (access.org.id, access.org.title) == (ORG, "Acme")
    request_counter.clear()
    assert effective_rules(access.node, access.org) == []  # inherits the organization's: none set
    assert sum(request_counter.values()) == 0
