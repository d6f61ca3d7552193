"""Every row of the table of cases in docs/permissions.md, through the API: an organization, a member with
an organization role, a space under a chain of collections with their `defaultLevel`s, grants made with
the permission endpoints; then the member reads the space (404 when they have no role) and its
`permissions`."""

from __future__ import annotations

import pytest

from tests.api.members.test_members import error, join, team
from tests.api.spaces.test_grants import invite, new_collection, new_space

F, T = False, True
PERMISSION_KEYS = ("view", "access", "admin", "viewInviteLinks", "edit", "triggerGitSync", "comment", "merge",
                   "review", "installIntegration")
# The permissions object by effective role, in PERMISSION_KEYS order (docs/permissions.md, "Flags").
SPACE_FLAGS = {
    "admin":   (T, T, T, T, T, T, T, T, T, T),
    "create":  (T, T, F, F, T, T, T, T, T, F),
    "review":  (T, T, F, F, T, T, T, T, T, F),
    "edit":    (T, T, F, F, T, T, T, F, F, F),
    "comment": (T, T, F, F, F, F, T, F, F, F),
    "read":    (T, T, F, F, F, F, F, F, F, F),
}
# A locked space: no content change and no merge, whoever asks.
LOCKED_OFF = {"edit", "triggerGitSync", "merge"}


def expected_flags(role, *, locked=False):
    flags = dict(zip(PERMISSION_KEYS, SPACE_FLAGS[role], strict=True))
    return {key: value and not (locked and key in LOCKED_OFF) for key, value in flags.items()}


# (case, organization role (None: guest), defaultLevel of the space then of each collection above it,
#  grants as (0 = the space / 1 = its collection / 2 = the one above, "user" | "team" | "other-team", role),
#  locked, effective role (None: 404))
ROWS = [
    ("org-admin-on-private-content", "admin", [None, None], [], F, "admin"),
    ("inherits-the-org-role", "edit", ["inherit"], [], F, "edit"),
    ("inherits-through-collections", "comment", ["inherit", "inherit", "inherit"], [], F, "comment"),
    ("space-level-limits", "create", ["read"], [], F, "read"),
    ("space-level-widens", "read", ["edit"], [], F, "edit"),
    ("space-private", "edit", [None], [], F, None),
    ("collection-level-applies", "edit", ["inherit", "comment"], [], F, "comment"),
    ("outer-collection-level-applies", "read", ["inherit", "inherit", "create"], [], F, "create"),
    ("collection-private", "edit", ["inherit", None], [], F, None),
    ("nearest-level-wins", "read", ["review", None], [], F, "review"),
    ("inner-collection-over-outer", "read", ["inherit", "edit", None], [], F, "edit"),
    ("guest-inherits-nothing", None, ["admin"], [], F, None),
    ("guest-with-a-direct-grant", None, ["inherit"], [(0, "user", "edit")], F, "edit"),
    ("private-space-direct-grant", "read", [None], [(0, "user", "comment")], F, "comment"),
    ("grant-never-lowers", "edit", ["inherit"], [(0, "user", "read")], F, "edit"),
    ("grant-to-admin", "read", ["inherit"], [(0, "user", "admin")], F, "admin"),
    ("team-grant", "read", ["inherit"], [(0, "team", "review")], F, "review"),
    ("team-grant-to-another-team", "read", [None], [(0, "other-team", "admin")], F, None),
    ("user-grant-on-the-collection", "read", [None, "inherit"], [(1, "user", "create")], F, "create"),
    ("team-grant-on-an-outer-collection", "read", [None, "inherit", None], [(2, "team", "edit")], F, "edit"),
    ("guest-team-grant-on-the-collection", None, ["inherit", "inherit"], [(1, "team", "read")], F, "read"),
    ("strongest-source-wins", "comment", ["read"], [(0, "user", "edit"), (0, "team", "review")], F,
     "review"),
    ("locked-space-reviewer", "review", ["inherit"], [], T, "review"),
    ("locked-space-admin", "admin", ["inherit"], [], T, "admin"),
]


@pytest.mark.parametrize("row", ROWS, ids=[row[0] for row in ROWS])
def test_permission_table(api, row):
    _, org_role, levels, grants, locked, expected = row
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", org_role)
    teams = {"team": team(api, ada, "Bob's team", [bob.user_id]), "other-team": team(api, ada, "Others")}
    parent, nodes = None, []
    for level in reversed(levels[1:]):  # the outermost collection first
        parent = new_collection(api, ada, parent=parent, level=level)
        nodes.insert(0, ("collection", parent))
    sid = new_space(api, ada, parent=parent, level=levels[0], edit_mode="locked" if locked else None)
    nodes.insert(0, ("space", sid))
    for where, principal, role in grants:
        kind, node = nodes[where]
        if principal == "user":
            invite(api, ada, kind, node, role, users=[bob.user_id])
        else:
            invite(api, ada, kind, node, role, teams=[teams[principal]])
    reply = api.get(f"/spaces/{sid}", token=bob.token)
    if expected is None:
        assert error(reply, 404) == "No matching space"
        assert error(api.get(f"/spaces/{sid}/permissions/users", token=bob.token), 404)
        return
    assert reply.status == 200, reply.body
    assert reply.json()["permissions"] == expected_flags(expected, locked=locked)


def test_the_table_covers_every_role_and_the_guest():
    assert {row[5] for row in ROWS} == {*SPACE_FLAGS, None}
    assert {row[1] for row in ROWS} == {*SPACE_FLAGS, None}


@pytest.mark.parametrize(("org_role", "flags"), [
    ("admin", {"view": T, "admin": T, "viewInviteLinks": T, "create": T}),
    ("create", {"view": T, "admin": F, "viewInviteLinks": F, "create": T}),
    ("review", {"view": T, "admin": F, "viewInviteLinks": F, "create": F}),
    ("read", {"view": T, "admin": F, "viewInviteLinks": F, "create": F}),
])
def test_collection_permissions_follow_the_same_rule(api, org_role, flags):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", org_role)
    cid = new_collection(api, ada)
    assert api.get(f"/collections/{cid}", token=bob.token).json()["permissions"] == flags


def test_someone_outside_the_organization_sees_nothing(api):
    ada = api.org_admin()
    stranger = api.org_admin("Olga", "Other")
    sid = new_space(api, ada, level="admin")
    assert error(api.get(f"/spaces/{sid}", token=stranger.token), 404)
