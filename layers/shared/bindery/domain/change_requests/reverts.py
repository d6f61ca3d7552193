"""`revert_page` in a change request's content batch: a page, or some blocks of its document, back to
their state in a revision (default: the change request's base).

Without `block` the whole page goes back: a page added since is removed, a page deleted since is restored
under its parent (if that is still there, else at the top level) with its pages as they were, a page
changed since gets its own fields and document back and keeps its pages as they are now. With `block`
only those blocks of the page's document go back (content.block_reverts); the page's fields and other
blocks stay as they are.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from bindery.domain.change_requests.outcome import Context, Outcome
from bindery.engines.content.block_reverts import UnknownBlock, revert_blocks
from bindery.engines.content.tree import Tree
from bindery.engines.content.tree_edits import EditError
from bindery.requests.change_requests import RevertPage


def revert(change: RevertPage, outcome: Outcome, context: Context) -> None:
    target: Tree = context.load_tree(change.revision)
    then = target.page(change.page)
    now = outcome.tree.page(change.page)
    if then is None and now is None:
        raise EditError(f"page: no page {change.page} in the change request or the revision")
    if change.block is not None:
        _revert_blocks(change, outcome, context, then.entry if then else None, now)
        return
    if then is None:  # added since: remove it
        outcome.delete_page(change.page)
        return
    restored = copy.deepcopy({name: value for name, value in then.entry.items() if name != "pages"})
    outcome.documents.pop(change.page, None)
    if now is not None:  # changed since: its own fields as they were, its pages as they are
        restored["pages"] = now.get("pages") or []
        now.clear()
        now.update(restored)
    else:  # deleted since: back under its parent (if still there) with its pages as they were
        restored["pages"] = copy.deepcopy(list(then.entry.get("pages") or []))
        parent = then.parent if then.parent and outcome.tree.page(then.parent) else None
        known = outcome.tree.page_ids()
        if any(page_id in known for page_id in _ids(restored)):
            raise EditError(f"page: {change.page} cannot be restored: some of its pages exist elsewhere")
        outcome.tree.insert(restored, parent, None)
    outcome.touch(change.page, "updated_page" if now is not None else "created_page")


def _revert_blocks(change: RevertPage, outcome: Outcome, context: Context, then: Mapping[str, Any] | None,
                   now: dict[str, Any] | None) -> None:
    if now is None:
        raise EditError(f"block: page {change.page} is not in the change request; revert the whole page")
    if now["type"] != "document" or (then is not None and then["type"] != "document"):
        raise EditError(f"block: page {change.page} has no document")
    if not change.block:
        raise EditError("block: name at least one block key (omit `block` to revert the whole page)")
    digest = then.get("documentId") if then is not None else None
    older = context.load_document(str(digest)) if digest else None
    try:
        outcome.documents[change.page] = revert_blocks(context.page_document(outcome, now), older,
                                                       change.block)
    except UnknownBlock as error:
        raise EditError(f"block: no block {error} in the page's document, now or in the revision") from None
    outcome.touch(change.page, "updated_page")


def _ids(entry: Mapping[str, Any]) -> list[str]:
    ids = [entry["id"]]
    for child in entry.get("pages") or []:
        ids.extend(_ids(child))
    return ids
