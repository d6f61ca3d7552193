"""The semantic changes between two trees: what `GET …/change-requests/{id}/changes` lists (the spec's
`RevisionSemanticChange*`), between a change request's base and its head.

Pages created, deleted, edited (fields or body digest) and moved (other parent, or out of order among
the siblings both trees have: a page inserted next to another does not move it); files and reusable
contents created, edited, deleted; one `variables_edited` for all variable changes. Order: pages as the
head tree lists them (deleted pages after, in base order), then files, reusable contents, variables.
Pure: `Change.to_wire(file_url)` renders a change, given how to make a file's `downloadURL`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bindery.engines.content.merge.fields import MISSING
from bindery.engines.content.merge.pages import Flat, moved
from bindery.engines.content.tree import Tree

Entry = Mapping[str, Any]
FileUrl = Callable[[Entry], str]

# Tree fields named differently on the wire. Page fields the spec's `Revision*ChangeAttributes` do not
# name (hidden, icon…) are reported under their own names: those schemas allow more properties.
WIRE_NAMES = {"documentId": "document"}
# `original` (values Git Sync writes back, bindery.engines.gitsync.page_fields) is no field a reader sees.
_NOT_ATTRIBUTES = frozenset({"id", "type", "pages", "createdAt", "updatedAt", "git", "href", "original"})


@dataclass(frozen=True)
class Change:
    """One semantic change. `type` is the spec's; `subject` the page/file/reusable-content entry it is
    about (as the head has it, or the base for a deletion) and `path` a page's path there; `attributes`
    tree field -> (before, after), MISSING where absent; `parent` a moved page's (before, after) parent
    entries (None: top level)."""

    type: str
    subject: Entry | None = None
    path: str | None = None
    attributes: Mapping[str, tuple[Any, Any]] = field(default_factory=dict)
    parent: tuple[Entry | None, Entry | None, str | None, str | None] | None = None  # entries, paths
    before: Entry | None = None  # a file's base entry (its before `downloadURL`)

    def to_wire(self, file_url: FileUrl, layout: Callable[[Any], Any] | None = None) -> dict[str, Any]:
        """The spec's `RevisionSemanticChange`. `file_url(entry)` gives a file's `downloadURL`;
        `layout(stored)` a page's complete layout from the stored one (bindery.api.wire.content.layout)."""
        out: dict[str, Any] = {"type": self.type}
        if self.type == "variables_edited":
            out["variables"] = {name: _before_after(b, a) for name, (b, a) in self.attributes.items()}
            return out
        assert self.subject is not None
        if self.type.startswith("page_"):
            out["page"] = _page(self.subject, self.path)
            if self.parent is not None:
                before, after, before_path, after_path = self.parent
                out["parent"] = {
                    **({"before": _page(before, before_path)} if before is not None else {}),
                    **({"after": _page(after, after_path)} if after is not None else {}),
                }
        elif self.type.startswith("file_"):
            out["file"] = {"id": self.subject["id"], "name": self.subject["name"],
                           "contentType": self.subject["contentType"], "downloadURL": file_url(self.subject)}
        else:
            out["reusableContent"] = {k: self.subject[k] for k in ("id", "title", "document")
                                      if k in self.subject}
        if self.type.endswith("_edited"):
            attributes = {WIRE_NAMES.get(name, name): _before_after(b, a)
                          for name, (b, a) in self.attributes.items()}
            if self.type == "file_edited" and self.before is not None and "digest" in self.attributes:
                attributes["downloadURL"] = {"before": file_url(self.before), "after": file_url(self.subject)}
            attributes.pop("digest", None)
            if layout is not None and "layout" in attributes:
                attributes["layout"] = {k: layout(v) for k, v in attributes["layout"].items()}
            out["attributes"] = attributes
        return out


def _before_after(before: Any, after: Any) -> dict[str, Any]:
    return {name: value for name, value in (("before", before), ("after", after)) if value is not MISSING}


def _page(entry: Entry, path: str | None) -> dict[str, Any]:
    out = {"id": entry["id"], "type": entry["type"], "title": entry["title"]}
    return {**out, "path": path} if path is not None else out


def _attributes(before: Entry, after: Entry, skip: frozenset[str]) -> dict[str, tuple[Any, Any]]:
    names = dict.fromkeys([*before, *after])
    return {name: (before.get(name, MISSING), after.get(name, MISSING)) for name in names
            if name not in skip and before.get(name, MISSING) != after.get(name, MISSING)}


def _page_changes(base: Mapping[str, Any], head: Mapping[str, Any]) -> list[Change]:
    old_tree, new_tree = Tree(base), Tree(head)
    old, new = Flat.of(list(base.get("pages") or [])), Flat.of(list(head.get("pages") or []))
    moves, _ = moved(old, new, old)
    changes: list[Change] = []
    for page_id, after in new.entries.items():
        located = new_tree.page(page_id)
        assert located is not None
        subject, path = located.entry, located.path
        before = old.entries.get(page_id)
        if before is None:
            changes.append(Change("page_created", subject, path))
            continue
        if page_id in moves:
            was, now = (tree.page(p) if p else None for tree, p in
                        ((old_tree, old.parent[page_id]), (new_tree, new.parent[page_id])))
            changes.append(Change("page_moved", subject, path, parent=(
                was.entry if was else None, now.entry if now else None,
                was.path if was else None, now.path if now else None)))
        attributes = _attributes(before, after, _NOT_ATTRIBUTES)
        if attributes:
            changes.append(Change("page_edited", subject, path, attributes))
    for page_id in old.entries:
        if page_id not in new.entries:
            located = old_tree.page(page_id)
            assert located is not None
            changes.append(Change("page_deleted", located.entry, located.path))
    return changes


def _entry_changes(kind: str, base: list[Entry], head: list[Entry], skip: frozenset[str]) -> list[Change]:
    old = {entry["id"]: entry for entry in base}
    changes: list[Change] = []
    for entry in head:
        before = old.get(entry["id"])
        if before is None:
            changes.append(Change(f"{kind}_created", entry))
        elif attributes := _attributes(before, entry, skip):
            changes.append(Change(f"{kind}_edited", entry, attributes=attributes, before=before))
    seen = {entry["id"] for entry in head}
    changes += [Change(f"{kind}_deleted", entry) for entry in base if entry["id"] not in seen]
    return changes


def diff_trees(base: Mapping[str, Any], head: Mapping[str, Any]) -> list[Change]:
    """What changed from `base` to `head` (empty for equal trees)."""
    changes = _page_changes(base, head)
    changes += _entry_changes("file", list(base.get("files") or []), list(head.get("files") or []),
                              frozenset({"id", "git"}))
    changes += _entry_changes("reusable_content", list(base.get("reusableContents") or []),
                              list(head.get("reusableContents") or []), frozenset({"id", "git", "original"}))
    variables = _attributes(base.get("variables") or {}, head.get("variables") or {}, frozenset())
    if variables:
        changes.append(Change("variables_edited", attributes=variables))
    return changes
