"""Revision content: Revision, RevisionPage (document, group, link or computed), RevisionFile,
RevisionReusableContent, and the answer of a change request's content edit. The content-location and link
shapes built on them are in models.content_locations."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictBool

from bindery.api.responses.base import ListPage, Omitted, StoredModel, WireModel, WireRoot, stored_or
from bindery.api.responses.change_requests import ChangeRequest
from bindery.api.responses.common import AppUrl, JSONObject, Timestamp
from bindery.engines.content.page_defaults import DEFAULT_LAYOUT as _DEFAULT

# The spec's `Icon` and `Emoji`.
ShortName = Annotated[str, Field(max_length=50)]


class GitSyncBlob(WireModel):
    oid: str
    path: str


# Stored options (an import's, an old item's) that the spec's enums refuse show as the default layout's;
# an option the spec does not name is dropped (StoredModel).
class PageLayout(StoredModel):
    width: Annotated[Literal["default", "wide"], stored_or(_DEFAULT["width"])]
    cover: Annotated[bool, stored_or(_DEFAULT["cover"])]
    coverSize: Annotated[Literal["hero", "full"], stored_or(_DEFAULT["coverSize"])]
    title: Annotated[bool, stored_or(_DEFAULT["title"])]
    description: Annotated[bool, stored_or(_DEFAULT["description"])]
    tableOfContents: Annotated[bool, stored_or(_DEFAULT["tableOfContents"])]
    outline: Annotated[bool, stored_or(_DEFAULT["outline"])]
    pagination: Annotated[bool, stored_or(_DEFAULT["pagination"])]
    metadata: Annotated[bool, stored_or(_DEFAULT["metadata"])]


class PageBase(StoredModel):
    # While a page validates, the warnings about its stored values name it (nested pages name themselves).
    names_context = "page"

    id: str
    title: str
    # An icon or emoji longer than the spec's `Icon`/`Emoji` (an API write, an older import) is left out.
    emoji: Omitted[ShortName] = None
    icon: Omitted[ShortName] = None
    createdAt: Omitted[Timestamp] = None
    updatedAt: Omitted[Timestamp] = None
    condition: Omitted[str] = None


class RevisionPageDocument(PageBase):
    """A document page; read by itself it carries its body (`document`, or `markdown` when asked)."""

    kind: Literal["sheet"]
    type: Literal["document"]
    slug: str
    path: str
    description: Omitted[str] = None
    hidden: Omitted[StrictBool] = None
    noIndex: Omitted[StrictBool] = None
    noRobotsIndex: Omitted[StrictBool] = None
    cover: Omitted[JSONObject] = None
    variables: Omitted[JSONObject] = None
    git: Omitted[GitSyncBlob] = None
    documentId: Omitted[str] = None
    computed: Omitted[JSONObject] = None
    computedSeed: Omitted[str] = None
    pages: list[PageUnion]
    urls: AppUrl
    layout: PageLayout
    document: Omitted[JSONObject] = None
    markdown: Omitted[str] = None


class RevisionPageGroup(PageBase):
    kind: Literal["group"]
    type: Literal["group"]
    slug: str
    path: str
    hidden: Omitted[StrictBool] = None
    noIndex: Omitted[StrictBool] = None
    noRobotsIndex: Omitted[StrictBool] = None
    pages: list[PageUnion]


class RevisionPageLink(PageBase):
    kind: Literal["link"]
    type: Literal["link"]
    target: JSONObject
    href: Omitted[str] = None
    hidden: Omitted[StrictBool] = None


class RevisionPageComputed(PageBase):
    type: Literal["computed"]
    computed: JSONObject


PageUnion = Annotated[
    RevisionPageDocument | RevisionPageGroup | RevisionPageLink | RevisionPageComputed,
    Field(discriminator="type"),
]


class RevisionPage(WireRoot[PageUnion]):
    """One page, read by id or path."""


class RevisionPages(WireModel):
    pages: list[PageUnion]


class Dimensions(WireModel):
    # The spec's `number`: an int stays an int on the wire.
    width: int | float
    height: int | float


class RevisionFile(StoredModel):
    id: str
    name: str
    contentType: str
    downloadURL: str
    size: int
    dimensions: Omitted[Dimensions] = None
    git: Omitted[GitSyncBlob] = None


class RevisionFileList(ListPage):
    items: list[RevisionFile]


class RevisionReusableContent(StoredModel):
    id: str
    title: str
    document: Omitted[str] = None
    git: Omitted[GitSyncBlob] = None


class RevisionUrls(WireModel):
    app: str


class Revision(WireModel):
    object: Literal["revision"]
    id: str
    type: Literal["edits", "merge", "rollback", "update", "computed"]
    parents: list[str]
    pages: list[PageUnion]
    files: list[RevisionFile]
    reusableContents: list[RevisionReusableContent]
    variables: JSONObject
    createdAt: Timestamp
    urls: RevisionUrls
    git: Omitted[JSONObject] = None
    mergedFrom: Omitted[ChangeRequest] = None


class JSONDocument(WireModel):
    """A rich-text document (`JSONDocument`), as the content engine stores it."""

    object: Literal["document"]
    data: JSONObject
    nodes: list[JSONObject]


class ContentUpdated(WireModel):
    """POST …/change-requests/{id}/content (Bindery): the change request after the edit, the pages it
    touched and the files it inserted."""

    changeRequest: ChangeRequest
    changes: list[JSONObject]
    insertedFiles: list[RevisionFile]


class ContentUpdateResult(WireRoot[ChangeRequest | ContentUpdated]):
    """What POST …/content answers: the change request (`compat`, the default, as GitBook does), or
    ContentUpdated."""
