"""A Git Sync repository (its files at one commit) -> the content of a revision.

The table of contents comes from SUMMARY.md (`summary.py`), or from the folders when there is none
(`folders.py`); each page's Markdown is read by `bindery.engines.content.markdown` with resolvers that turn
relative links into page, file and reusable-content references (`references.py`). docs/git-sync.md
("Repository format") describes the mapping and what it does not keep.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bindery.engines.content.markdown import markdown_to_document
from bindery.engines.content.tree import InvalidTree, Tree, validate
from bindery.engines.gitsync import folders, layout, page_fields
from bindery.engines.gitsync.identity import Identities
from bindery.engines.gitsync.layout import Config, InvalidRepository
from bindery.engines.gitsync.references import PageResolvers, RepositoryIndex
from bindery.engines.gitsync.repository_files import FilesById, MemoryFiles, RepositoryFiles
from bindery.engines.gitsync.summary import Entry, Part, parse_summary

__all__ = ["ImportedContent", "InvalidRepository", "import_repository"]

Page = dict[str, Any]


def empty_document() -> dict[str, Any]:
    return {"object": "document", "data": {}, "nodes": []}


@dataclass(frozen=True)
class ImportedContent:
    tree: dict[str, Any]  # a complete content.tree value (no digests: commit_revision fills them)
    documents: dict[str, Any]  # page id -> JSON document (every document page)
    reusable_documents: dict[str, Any]  # reusable content id -> document
    files: FilesById  # file id -> bytes (every file of the tree), read from the repository on access
    warnings: list[str] = field(default_factory=list)  # what was read approximately, by file


def _unique(slug: str, taken: set[str]) -> str:
    candidate, index = slug, 1
    while candidate in taken:
        index += 1
        candidate = f"{slug}-{index}"
    taken.add(candidate)
    return candidate


def _walk(entries: list[Entry]) -> list[Entry]:
    return [e for entry in entries for e in (entry, *_walk(entry.children))]


class _Importer:
    def __init__(self, repo: RepositoryFiles, config: Config, previous: Tree | None) -> None:
        self.repo, self.config, self.previous = repo, config, previous
        self.root = config.root
        self.ids = Identities(previous)
        self.index = RepositoryIndex(repo, add_file=self._add_file)
        self.files: list[Page] = []
        self.contents: list[tuple[Page, str]] = []
        self.documents: dict[str, Any] = {}
        self.reusable_documents: dict[str, Any] = {}
        self.pending: list[tuple[Page, str]] = []  # document pages whose file is still to read
        self.deferred: list[tuple[Page, str, str | None]] = []  # link pages to a page of the space
        self.owners: dict[int, str] = {}  # id(entry) -> the file it is the page of
        self.targets: dict[int, tuple[str, str | None]] = {}  # id(entry) -> the file it links to, anchor
        self.untitled: set[str] = set()  # pages whose entry has no title: their file's gives it

    # --- files and reusable contents --------------------------------------------------------------------
    def _add_file(self, path: str) -> str:
        if path in self.index.assets:
            return self.index.assets[path]
        name = posixpath.basename(path)
        entry: Page = {"id": self.ids.file(path), "name": name, "contentType": layout.content_type(name)}
        before = self.previous.file(entry["id"]) if self.previous else None
        digest = self.repo.describe(path).sha256  # read once, a file at a time (repository_files)
        if before and before["name"] == name and before.get("digest", digest) == digest:
            # the same file: what Bindery knew of it stays (an uploaded type…)
            entry.update({key: before[key] for key in ("contentType", "dimensions") if key in before})
        entry["git"] = {"oid": self.repo.oid(path), "path": path}
        self.files.append(entry)
        self.index.assets[path] = entry["id"]
        return str(entry["id"])

    def _text(self, path: str) -> str:
        try:
            return self.repo[path].decode("utf-8-sig")
        except UnicodeDecodeError:
            self.index.warnings.append(f"{path}: not valid UTF-8 (undecodable bytes replaced)")
            return self.repo[path].decode("utf-8", errors="replace")

    # --- the table of contents ------------------------------------------------------------------------
    def _outline(self) -> tuple[list[Part], str]:
        summary = self.root + self.config.summary
        readme = self.root + self.config.readme
        if summary in self.repo:
            parts, base = parse_summary(self._text(summary)), layout.directory(summary)
        else:
            parts, base = folders.outline(list(self.repo), self.root, readme, summary), self.root
        self._find_owners(parts, base)
        if readme in self.repo and readme not in self.owners.values():
            first = Entry("", layout.relative_url(base, readme))  # the first page, even if SUMMARY omits it
            if parts and parts[0].title is None:
                parts[0].entries.insert(0, first)
            else:
                parts.insert(0, Part(None, [first]))
            self.owners[id(first)] = readme
        return parts, base

    def _target(self, entry: Entry, base: str) -> tuple[str, str | None] | None:
        """The Markdown file (and anchor) an entry links to; None for an external URL or a non-page."""
        if entry.target is None or layout.is_external(entry.target):
            return None
        relative, anchor = layout.split_url(entry.target)
        # `/a.md` is relative to the project root (GitBook's reading), not to the repository's
        if relative.startswith("/"):
            path = layout.join(self.root, relative.lstrip("/") or ".")
        else:
            path = layout.join(base, relative)
        if path is None:
            raise InvalidRepository(
                f"{self.root}{self.config.summary}: the entry {entry.title!r} links outside the project "
                f"directory ({entry.target})")
        candidates = [path, f"{path}.md", f"{path}/{layout.README}"] if path else [layout.README]
        found = next((c for c in candidates if c in self.repo), None)
        if found is None:
            return (path, anchor) if path.endswith(".md") else None
        return (found, anchor) if found.endswith(".md") else None

    def _find_owners(self, parts: list[Part], base: str) -> None:
        """Each file is one page: its first entry without an anchor (else its first entry); any other
        entry linking to it is a link page to that page."""
        entries = [e for part in parts for e in _walk(part.entries)]
        self.targets = {id(e): t for e in entries if (t := self._target(e, base)) is not None}
        for with_anchor in (False, True):
            for entry in entries:
                target = self.targets.get(id(entry))
                owned = target is not None and target[0] in self.owners.values()
                if target and (target[1] is not None) == with_anchor and not owned:
                    self.owners[id(entry)] = target[0]

    # --- pages ----------------------------------------------------------------------------------------
    def _pages(self, entries: list[Entry], parent: str, slugs: set[str], base: str) -> list[Page]:
        pages = []
        for entry in entries:
            owned = self.owners.get(id(entry))
            target = self.targets.get(id(entry))
            if entry.target is not None and owned is None:
                pages.append(self._link(entry, parent, target))
                continue
            if owned is not None:
                slug = layout.slug_of(owned[len(self.root) :] if owned.startswith(self.root) else owned)
            else:
                slug = layout.slugify(entry.title)
            slug = _unique(slug, slugs)
            path = f"{parent}{slug}"
            page: Page = {"id": self.ids.document(owned, path), "type": "document",
                          "title": entry.title or "Untitled", "slug": slug}
            self.documents[page["id"]] = empty_document()
            if not entry.title:
                self.untitled.add(page["id"])
            if owned is not None:
                self.index.pages[owned] = page["id"]
                if owned in self.repo:
                    self.pending.append((page, owned))
                else:
                    self.index.warnings.append(
                        f"{self.root}{self.config.summary}: {entry.target} (for {entry.title!r}) is missing:"
                        " the page is empty")
            page["pages"] = self._pages(entry.children, f"{path}/", set(), base)
            pages.append(page)
        return pages

    def _link(self, entry: Entry, parent: str, target: tuple[str, str | None] | None) -> Page:
        if entry.children:
            raise InvalidRepository(
                f"{self.root}{self.config.summary}: the entry {entry.title!r} links to "
                f"{entry.target}, which is not a page of its own, so it cannot have child pages")
        url = str(entry.target)
        page: Page = {"id": self.ids.link(parent, entry.title or url), "type": "link",
                      "title": entry.title or url, "target": {"kind": "url", "url": url}}
        if target is not None:
            self.deferred.append((page, *target))
        return page

    def _tree_pages(self, parts: list[Part], base: str) -> list[Page]:
        pages: list[Page] = []
        top: set[str] = set()
        for part in parts:
            if part.title is None:
                pages += self._pages(part.entries, "", top, base)
                continue
            group_id, slug = self.ids.group(part.title, part.slug or layout.slugify(part.title))
            slug = part.slug or slug  # the heading's anchor says the slug; else a previous group's
            slug = _unique(slug, top)
            pages.append({"id": group_id, "type": "group", "title": part.title, "slug": slug,
                          "pages": self._pages(part.entries, f"{slug}/", set(), base)})
        return pages

    # --- reading the Markdown -------------------------------------------------------------------------
    def _read(self, path: str) -> tuple[Any, PageResolvers]:
        resolvers = PageResolvers(self.index, path)
        parsed = markdown_to_document(self._text(path), resolve_link=resolvers.link,
                                      resolve_file=resolvers.file)
        self.index.warnings.extend(f"{path}: {warning}" for warning in parsed.warnings)
        return parsed, resolvers

    def _read_pages(self) -> None:
        for page, path in self.pending:
            parsed, resolvers = self._read(path)
            stem = posixpath.basename(path).removesuffix(".md")
            if page["id"] in self.untitled:
                page["title"] = parsed.title or stem
            page.update(page_fields.from_front_matter(parsed.front_matter, resolvers.file,
                                                      hint_styles=parsed.hint_styles))
            page["git"] = {"oid": self.repo.oid(path), "path": path}
            self.documents[page["id"]] = parsed.document
        for page, path, anchor in self.deferred:
            target = self.index.pages[path]
            page["target"] = {"kind": "anchor", "anchor": anchor, "page": target} if anchor else {
                "kind": "page", "page": target}
        for content, path in self.contents:
            parsed, _ = self._read(path)
            title = parsed.front_matter.get("title")
            stem = posixpath.basename(path).removesuffix(".md")
            content["title"] = str(title) if title else parsed.title or stem
            content["git"] = {"oid": self.repo.oid(path), "path": path}
            if parsed.hint_styles:  # kept for the export, as a page's (page_fields.from_front_matter)
                content["original"] = {"hints": dict(parsed.hint_styles)}
            self.reusable_documents[content["id"]] = parsed.document

    def _order(self, entries: list[Page], previous: list[Mapping[str, Any]]) -> list[Page]:
        """Entries the previous tree had keep its order; new ones follow, by path."""
        rank = {entry["id"]: index for index, entry in enumerate(previous)}
        return sorted(entries, key=lambda e: (rank.get(e["id"], len(rank)), e["git"]["path"]))

    def run(self) -> ImportedContent:
        for path in sorted(p for p in self.repo if p.startswith(self.root + layout.ASSETS)):
            self._add_file(path)
        for path in sorted(self.repo):
            if path.startswith(self.root + layout.INCLUDES) and path.endswith(".md"):
                content: Page = {"id": self.ids.content(path), "title": posixpath.basename(path)}
                self.contents.append((content, path))
                self.index.contents[path] = content["id"]
        parts, base = self._outline()
        pages = self._tree_pages(parts, base)
        self._read_pages()
        previous = self.previous
        tree: dict[str, Any] = {
            "pages": pages,
            "files": self._order(self.files, previous.files if previous else []),
            "reusableContents": self._order([c for c, _ in self.contents],
                                            previous.reusable_contents if previous else []),
            "variables": dict(previous.variables) if previous else {},
        }
        sync: dict[str, Any] = {"root": self.root} if self.root else {}  # defaults left out
        if self.config.summary != layout.SUMMARY:
            sync["summary"] = self.config.summary
        if self.config.redirects:
            sync["redirects"] = self.config.redirects
        if sync:
            tree["gitSync"] = sync
        files = FilesById(self.repo, {entry["id"]: entry["git"]["path"] for entry in self.files})
        try:
            validate(tree, new_files=files)
        except InvalidTree as error:
            raise InvalidRepository(f"the repository does not make a valid tree: {error}") from error
        return ImportedContent(tree, self.documents, self.reusable_documents, files, self.index.warnings)


def import_repository(files: Mapping[str, bytes], *, project_directory: str = "",
                      previous: Tree | None = None) -> ImportedContent:
    """Read the files of a commit (repository-relative POSIX paths -> bytes) as a revision's content.
    Only the project directory's files are read, and only those the content needs (pages, includes,
    assets and the files pages reference): given `RepositoryFiles`, nothing else is ever read, and the
    result's `files` are read again only when asked for. `previous` (the space's current tree) gives
    pages, files and reusable contents at the same paths their ids back. Raises InvalidRepository (400)
    for what cannot be read at all."""
    prefix = layout.normalize(project_directory, what="the project directory")
    prefix = f"{prefix}/" if prefix else ""
    source = files if isinstance(files, RepositoryFiles) else MemoryFiles(files)
    repo = source.within(prefix)
    config = layout.read_config(repo.get(layout.CONFIG_FILE))
    return _Importer(repo, config, previous).run()
