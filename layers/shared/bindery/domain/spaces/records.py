"""Spaces: creation, reading, settings (PATCH), and the edit-mode guard content changes go through.

Permissions (docs/permissions.md): reading needs any role on the space; changing its settings (every
PATCH field: the spec's `permissions.admin` is "edit the title, install integrations, and manage the
space") needs `admin` on it; creating one needs `create` in the organization (top level) or in the
parent collection (which already folds the organization role in, through `defaultLevel` inheritance).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from bindery.domain.access.auth import Caller
from bindery.domain.access.content import roles_on, space_access
from bindery.domain.access.organization import OrgAccess
from bindery.domain.access.roles import at_least
from bindery.domain.access.space_roles import role_at
from bindery.domain.change_requests.rules import checked_merge_rules
from bindery.engines.content.positions import between
from bindery.platform.clock import now_iso
from bindery.platform.errors import BadRequest, Forbidden
from bindery.platform.ids import new_id
from bindery.requests.spaces import CreateSpace, UpdateSpace
from bindery.store import Transaction
from bindery.store import collections as collection_store
from bindery.store import spaces as space_store
from bindery.store import tree as tree_store
from bindery.store.collections import Collection
from bindery.store.grants import next_updated_at
from bindery.store.spaces import Space

DEFAULT_TITLE = "Untitled"
NO_PARENT = "parent: no matching collection"
# Rules that name users, who must be members of the space's organization.
# PATCH fields that may not be null (emoji, icon and defaultLevel may: null removes or makes private).
NOT_NULL = ("editMode", "title", "language", "mergeRules")


@dataclass(frozen=True)
class SpaceView:
    """A space as one caller sees it: their effective role on it decides its `permissions` on the wire."""

    space: Space
    role: str | None


def get_space(caller: Caller, space_id: str) -> SpaceView:
    access = space_access(caller, space_id)
    assert isinstance(access.node, Space)
    return SpaceView(access.node, access.role)


def create_space(access: OrgAccess, body: CreateSpace) -> SpaceView:
    """A new, empty space placed after the last space or collection at its level."""
    parent: Collection | None = None
    if body.parent:
        parent = collection_store.get_collection(body.parent)
        # A body field: 400, whether the collection is unknown, elsewhere or hidden from the caller.
        if parent is None or parent.org_id != access.org.id:
            raise BadRequest(NO_PARENT)
        role = role_at(access.member, parent)
        if role is None:
            raise BadRequest(NO_PARENT)
        if not at_least(role, "create"):
            raise Forbidden("You need the create role in the parent collection to create a space in it")
    else:
        access.require("create", "create spaces")
        role = role_at(access.member, None)
    org_id = access.org.id
    created = now_iso()
    space = Space(
        id=new_id(), org_id=org_id, created_at=created, updated_at=created,
        position=between(tree_store.last_child_position(org_id, body.parent), None),
        parent=body.parent, ancestors=[parent.id, *parent.ancestors] if parent else [],
        default_level="inherit", title=DEFAULT_TITLE if body.title is None else body.title,
        emoji=body.emoji or None, language=body.language, edit_mode=body.editMode or "live",
        revision=new_id(),
    )
    Transaction(space_store.create_space_ops(space)).commit()
    # The new space has no grants and inherits its level: the caller's role on it is the one they
    # have where it was created.
    return SpaceView(space, role)


def _changes(space: Space, body: UpdateSpace) -> dict[str, Any]:
    """The space's fields the body changes (`Space` attribute: new value, None removing it)."""
    sent = body.model_fields_set
    data = body.model_dump(mode="json")
    for name in NOT_NULL:
        if name in sent and data[name] is None:
            raise BadRequest(f"{name}: may not be null")
    if data.get("emoji") is not None and data.get("icon") is not None:
        raise BadRequest("emoji, icon: set an emoji or an icon, not both")
    values: dict[str, Any] = {attr: data[name] for name, attr in _SETTINGS if name in sent}
    if "mergeRules" in sent:
        assert body.mergeRules is not None
        values["merge_rules"] = checked_merge_rules(
            space.org_id, body.mergeRules.model_dump(mode="json", exclude_none=True))
    # A space shows an emoji or an icon: setting one replaces the other; null removes it.
    for name, other in (("emoji", "icon"), ("icon", "emoji")):
        if name in sent and data[name] is not None:
            values[name] = data[name]
            values[other] = None
        elif name in sent:
            values.setdefault(name, None)
    return values


# Body field: Space attribute, for the settings the body sets as sent.
_SETTINGS = (("title", "title"), ("editMode", "edit_mode"), ("language", "language"),
             ("defaultLevel", "default_level"))


def update_space(caller: Caller, space_id: str, body: UpdateSpace) -> SpaceView:
    """Only the sent fields are written, and only if the space is unchanged since it was read (409
    otherwise: the caller re-reads and retries)."""
    access = space_access(caller, space_id)
    assert isinstance(access.node, Space)
    access.require("admin", "change this space's settings")
    space = access.node
    values = _changes(space, body)
    if not values:
        return SpaceView(space, access.role)
    updated = replace(space, **values, updated_at=next_updated_at(space.updated_at))
    Transaction([space_store.update_space_op(space, updated)]).commit()
    # A new defaultLevel can change the caller's own role (an organization admin, or one granted admin,
    # stays admin).
    role = roles_on(access.member, [updated])[updated.id] if "default_level" in values else access.role
    return SpaceView(updated, role)
