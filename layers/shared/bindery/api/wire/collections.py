"""Collection shape, with `permissions` computed from the caller's effective role (the domain's result is
read through CollectionShown: api.wire imports no domain)."""

from __future__ import annotations

from typing import Any, Protocol

from bindery.api.responses.spaces import Collection as WireCollection
from bindery.api.wire.urls import api_url, app_url
from bindery.domain.access.role_order import at_least
from bindery.store.collections import Collection


class CollectionShown(Protocol):
    """A collection with the caller's role on it: what bindery.domain.collections.CollectionView holds."""

    @property
    def collection(self) -> Collection: ...
    @property
    def role(self) -> str | None: ...


def collection_permissions(role: str | None) -> dict[str, bool]:
    """docs/permissions.md: `create` is creating spaces and collections in it; its settings and its invite
    links are the collection admin's."""
    return {"view": at_least(role, "read"), "admin": at_least(role, "admin"),
            "viewInviteLinks": at_least(role, "admin"), "create": at_least(role, "create")}


def collection_to_wire(view: CollectionShown) -> WireCollection:
    collection = view.collection
    body: dict[str, Any] = {
        "object": "collection", "id": collection.id, "title": collection.title,
        "organization": collection.org_id, "defaultLevel": collection.default_level,
        "urls": {"location": api_url(f"/collections/{collection.id}"),
                 "app": app_url(f"/collections/{collection.id}")},
        "permissions": collection_permissions(view.role),
    }
    if collection.description is not None:
        body["description"] = collection.description
    if collection.parent is not None:
        body["parent"] = collection.parent
    return WireCollection.model_validate(body)
