"""A page of a listing as its list response: the spec's `List` (items, the next page's cursor, the count
over all pages), built from the domain's `Listing` once each item is its response model."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from bindery.api.responses.base import ListPage, NextPage
from bindery.platform.pagination import Listing

ListT = TypeVar("ListT", bound=ListPage)
ItemT = TypeVar("ItemT")
ModelT = TypeVar("ModelT")


def list_page(model: type[ListT], listing: Listing[ItemT], shape: Callable[[ItemT], ModelT]) -> ListT:
    """`listing`'s page as `model`, each item shown by `shape` (a mapper returning the item's model)."""
    # Every list model declares its own `items` (ListPage cannot: the field would move first on the wire).
    return model(items=[shape(item) for item in listing.items],  # type: ignore[call-arg]
                 next=NextPage(page=listing.next_cursor) if listing.next_cursor else None,
                 count=listing.count)
