"""The domain's typed results (a space or collection with the caller's role on it, a grant) turned into
their response models: the routes of every sub-resource return these same shapes."""

from __future__ import annotations

from bindery.api.wire.collections import collection_to_wire
from bindery.api.wire.models.spaces import Collection, Space, TeamContentPermission, UserContentPermission
from bindery.api.wire.spaces import space_model, team_permission_to_wire, user_permission_to_wire
from bindery.domain.access.grant_listings import TeamGrantView, UserGrantView
from bindery.domain.collections import CollectionView
from bindery.domain.spaces.records import SpaceView


def space(view: SpaceView) -> Space:
    return space_model(view.space, view.role)


def collection(view: CollectionView) -> Collection:
    return collection_to_wire(view.collection, view.role)


def user_grant(view: UserGrantView) -> UserContentPermission:
    return user_permission_to_wire(view.permission, view.user, show_email=view.show_email)


def team_grant(view: TeamGrantView) -> TeamContentPermission:
    return team_permission_to_wire(view.permission, view.team, admin=view.admin, view=view.view)
