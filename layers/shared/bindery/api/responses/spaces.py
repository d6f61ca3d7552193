"""Space and Collection (the content permission shapes, which show users and teams, are
api/responses/content_permissions.py)."""

from __future__ import annotations

from typing import Literal

from bindery.api.responses.base import ListPage, Omitted, WireModel
from bindery.api.responses.common import JSONObject, Timestamp
from bindery.requests.spaces import DefaultLevel, Language

ContentVisibility = Literal["public", "unlisted", "share-link", "visitor-auth", "in-collection", "private"]


class GitSyncState(WireModel):
    repoName: Omitted[str] = None
    installationProvider: Omitted[Literal["github", "gitlab", "github-legacy"]] = None
    integration: Omitted[str] = None
    url: Omitted[str] = None
    updatedAt: Omitted[Timestamp] = None


class SpaceUrls(WireModel):
    location: str
    app: str
    icon: Omitted[str] = None


class SpacePermissions(WireModel):
    view: bool
    access: bool
    admin: bool
    viewInviteLinks: bool
    edit: bool
    triggerGitSync: bool
    comment: bool
    merge: bool
    review: bool
    installIntegration: bool


class Space(WireModel):
    object: Literal["space"]
    id: str
    title: str
    emoji: str
    visibility: ContentVisibility
    createdAt: Timestamp
    updatedAt: Timestamp
    deletedAt: Omitted[Timestamp] = None
    editMode: Omitted[Literal["live", "locked"]] = None
    mergeRules: JSONObject
    urls: SpaceUrls
    organization: str
    parent: Omitted[str] = None
    language: Omitted[Language] = None
    gitSync: Omitted[GitSyncState] = None
    revision: str
    defaultLevel: DefaultLevel
    comments: int
    changeRequests: int
    changeRequestsOpen: int
    changeRequestsDraft: int
    permissions: SpacePermissions


class SpaceList(ListPage):
    items: list[Space]


class CollectionUrls(WireModel):
    location: str
    app: str


class CollectionPermissions(WireModel):
    view: bool
    admin: bool
    viewInviteLinks: bool
    create: bool


class Collection(WireModel):
    object: Literal["collection"]
    id: str
    title: str
    description: Omitted[str] = None
    organization: str
    parent: Omitted[str] = None
    defaultLevel: DefaultLevel
    urls: CollectionUrls
    permissions: CollectionPermissions


class CollectionList(ListPage):
    items: list[Collection]
