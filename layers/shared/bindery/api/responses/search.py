"""Search results: SearchSpaceResult (an organization's search) holding SearchPageResult (a space's)."""

from __future__ import annotations

from bindery.api.responses.base import ListPage, Omitted, WireModel
from bindery.api.responses.common import AppUrl


class SearchSectionResult(WireModel):
    id: str
    title: str
    path: str
    body: str
    urls: AppUrl


class SearchPageResult(WireModel):
    id: str
    title: str
    path: str
    sections: Omitted[list[SearchSectionResult]] = None
    urls: AppUrl


class SearchPageResultList(ListPage):
    items: list[SearchPageResult]


class SearchSpaceResult(WireModel):
    id: str
    title: str
    pages: list[SearchPageResult]


class SearchSpaceResultList(ListPage):
    items: list[SearchSpaceResult]
