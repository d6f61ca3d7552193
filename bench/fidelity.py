"""Git Sync fidelity over real repositories: import, read, render, export, re-import, compare.

    python -m bench.fidelity DIRECTORY [--only NAME]...      (or BINDERY_FIDELITY_REPOS=DIRECTORY)

DIRECTORY holds git repositories (bare or not; `owner+name/repo`, as the session's `fetch` leaves them,
works too); nothing of them is committed and CI never runs this. For each repository, at its HEAD, and
for each project in it (the repository itself, or every directory holding a SUMMARY.md when its top has
none: monorepos), in process on moto (bench/environment.py):

1. import: `import_repository` on the commit's files (read from the object store as the Git Sync worker
   reads them), the changes the worker stores, `commit_revision` + `advance_space` into a new space;
2. read every page through the API in every format it offers (`GET …/content/pages`, then
   `GET …/content/page/{id}` as document JSON and with `format=markdown`): any answer but 200 fails;
3. render every document page as a published page's body (`site_pages.document_html.render_document`);
4. export the revision read back from the store (`export_repository`), import the export again (with
   the first tree as `previous`, as a space syncing both ways does) and compare: the same tree (titles,
   slugs, nesting, groups, link targets) and, page by page, the same Markdown when exported again.

Prints one row per project: pages, warnings (what the import read approximately), failures (reads,
renders, round-trip differences; each listed below the table). docs/fidelity.md shows the latest run.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import traceback
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
for _entry in (ROOT, ROOT / "layers" / "shared"):
    if str(_entry) not in sys.path:
        sys.path.insert(0, str(_entry))

from bench.environment import in_process_aws, set_environment  # noqa: E402


@dataclass
class Row:
    name: str
    pages: int = 0
    warnings: int = 0
    failures: list[str] = field(default_factory=list)


def repositories(directory: Path) -> Iterator[tuple[str, Path]]:
    """(name, git directory) of every repository in `directory`, by name."""
    for child in sorted(directory.iterdir()):
        for candidate in (child / "repo", child / ".git", child):
            if (candidate / "HEAD").is_file() and (candidate / "objects").is_dir():
                yield child.name, candidate
                break


def projects(paths: list[str]) -> list[str]:
    """The project directories to import: "" when the top has a SUMMARY.md or .gitbook.yaml, else every
    directory (two levels at most) holding a SUMMARY.md."""
    if "SUMMARY.md" in paths or ".gitbook.yaml" in paths:
        return [""]
    found = sorted({p.rsplit("/", 1)[0] for p in paths if p.endswith("/SUMMARY.md") and p.count("/") <= 2})
    return found or [""]


class Links:
    """A published site's URLs for the rendering (pages by tree path, files by name)."""

    def __init__(self, tree: Any, reusable: Mapping[str, Any]) -> None:
        self.tree, self.reusable = tree, reusable

    def page_url(self, *, space_id: str | None, page_id: str, anchor: str | None) -> str | None:
        path = self.tree.path_of(page_id)
        return None if path is None or space_id else "/site/" + path + (f"#{anchor}" if anchor else "")

    def file_url(self, *, space_id: str | None, file_id: str) -> str | None:
        file = self.tree.file(file_id)
        return None if file is None or space_id else "/files/" + quote(str(file["name"]))

    def space_url(self, *, space_id: str) -> str | None:
        return None

    def reusable_content(self, *, reusable_content_id: str) -> Mapping[str, Any] | None:
        return self.reusable.get(reusable_content_id)


def outline(pages: list[Mapping[str, Any]]) -> list[Any]:
    """What a reader sees of a tree: type, title, slug, link target, children."""
    return [(p["type"], p["title"], p.get("slug"), p.get("target"), outline(list(p.get("pages") or [])))
            for p in pages]


def first_difference(left: list[Any], right: list[Any], where: str = "") -> str:
    for a, b in zip(left, right, strict=False):
        if a != b:
            if a[:4] == b[:4]:
                return first_difference(a[4], b[4], f"{where}/{a[2] or a[1]}")
            return f"{where}: {a[:4]!r} became {b[:4]!r}"
    return f"{where}: {len(left)} entries became {len(right)}"


def run_project(api: Any, who: Any, name: str, git_dir: Path, project: str) -> Row:  # noqa: PLR0915 - one linear script
    from dulwich.repo import Repo

    from bindery.domain.git_sync.import_changes import changes
    from bindery.domain.revisions import advance_space, commit_revision
    from bindery.engines.content.tree import Tree, empty_tree
    from bindery.engines.gitsync.exporter import export_repository
    from bindery.engines.gitsync.importer import import_repository
    from bindery.engines.gitsync.repository_files import StoredFiles
    from bindery.engines.gitsync.transport import tree_blobs
    from bindery.engines.site_pages.document_html import render_document
    from bindery.store import revisions as revision_store
    from bindery.store import spaces as space_store

    row = Row(f"{name}{'/' + project if project else ''}")
    repo = Repo(str(git_dir))
    commit = repo[repo.head()]
    blobs = tree_blobs(repo.object_store, commit.tree)  # type: ignore[attr-defined]
    present = {path: sha for path, sha in blobs.items() if sha in repo.object_store}
    if len(present) < len(blobs):  # a snapshot may list its largest files without their bytes
        print(f"{row.name}: {len(blobs) - len(present)} files absent from the snapshot, left out",
              file=sys.stderr)
    files = StoredFiles(repo.object_store, present)
    try:
        imported = import_repository(files, project_directory=project)
    except Exception as error:  # noqa: BLE001 - a bench reports every failure and goes on
        row.failures.append(f"import: {error}")
        return row
    row.warnings = len(imported.warnings)
    created = api.post(f"/orgs/{who.org_id}/spaces", body={"title": row.name[:50]}, token=who.token)
    space_id = created.json()["id"]
    stored = changes(imported, Tree(empty_tree()))
    space = space_store.get_space(space_id)
    assert space is not None
    revision_id = commit_revision(space_id, [space.revision], stored.tree, stored.documents,
                                  reusable_documents=stored.reusable_documents, files=stored.files)
    advance_space(space, space.revision, revision_id)

    listed = api.get(f"/spaces/{space_id}/content/pages", token=who.token)
    if listed.status != 200:
        row.failures.append(f"GET content/pages: {listed.status}")
    revision = revision_store.get_revision(space_id, revision_id)
    assert revision is not None
    tree = revision_store.load_tree(revision)
    documents = revision_store.revision_documents(space_id, tree)
    links = Links(tree, documents.contents)
    document_pages = list(tree.page_documents())
    row.pages = len(document_pages)
    for page_id in document_pages:
        title = tree.page(page_id).entry["title"]  # type: ignore[union-attr]
        for query in ({}, {"format": "markdown"}):
            reply = api.get(f"/spaces/{space_id}/content/page/{page_id}", token=who.token, query=query)
            if reply.status != 200:
                row.failures.append(f"GET page {title!r} {query or ''}: {reply.status}")
        try:
            render_document(documents.pages.get(page_id) or {"nodes": []}, links=links)
        except Exception as error:  # noqa: BLE001
            row.failures.append(f"render {title!r}: {type(error).__name__}: {error}")

    placeholders = {entry["id"]: f"file {entry['id']}".encode() for entry in tree.files}
    try:
        exported = export_repository(tree, documents.pages, documents.contents, placeholders)
        again = import_repository(exported, previous=tree)
        exported_again = export_repository(Tree(again.tree), again.documents, again.reusable_documents,
                                           placeholders)
    except Exception as error:  # noqa: BLE001
        row.failures.append(f"round trip: {type(error).__name__}: {error}\n{traceback.format_exc(limit=3)}")
        return row
    before, after = outline(tree.pages), outline(again.tree["pages"])
    if before != after:
        row.failures.append(f"tree: {first_difference(before, after)}")
    for path, data in exported.items():
        if path.endswith(".md") and exported_again.get(path) != data:
            row.failures.append(f"markdown drifts: {path}")
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.fidelity", description=__doc__.split("\n")[0])
    parser.add_argument("directory", type=Path, nargs="?", default=os.environ.get("BINDERY_FIDELITY_REPOS"))
    parser.add_argument("--only", action="append", default=[], help="a repository's folder name")
    parser.add_argument("--part", default="1/1", help="k/n: the k-th of n equal shares of the repositories")
    parser.add_argument("--details", type=int, default=5, help="failures listed per project")
    args = parser.parse_args(argv)
    if args.directory is None or not Path(args.directory).is_dir():
        parser.error("give a directory of git repositories (or set BINDERY_FIDELITY_REPOS)")
    set_environment()
    from dulwich.repo import Repo

    from bindery.engines.gitsync.transport import tree_blobs
    from tests.client import ApiClient

    rows: list[Row] = []
    with in_process_aws():
        api = ApiClient()
        who = api.org_admin("Bench", "Fidelity")
        share, shares = (int(n) for n in args.part.split("/"))
        for index, (name, git_dir) in enumerate(repositories(Path(args.directory))):
            if (args.only and name not in args.only) or index % shares != share - 1:
                continue
            repo = Repo(str(git_dir))
            paths = list(tree_blobs(repo.object_store, repo[repo.head()].tree))  # type: ignore[attr-defined]
            for project in projects(paths):
                with contextlib.redirect_stdout(io.StringIO()):  # the handlers' metrics lines
                    row = run_project(api, who, name, git_dir, project)
                rows.append(row)
                print(f"{row.name}: {row.pages} pages, {row.warnings} warnings, {len(row.failures)} failures",
                      *(f"  - {f.splitlines()[0]}" for f in row.failures[: args.details]),
                      sep="\n", file=sys.stderr, flush=True)
    width = max([len(r.name) for r in rows] + [10])
    print(f"| {'repository':<{width}} | pages | warnings | failures |")
    print(f"|{'-' * (width + 2)}|------:|---------:|---------:|")
    for r in rows:
        print(f"| {r.name:<{width}} | {r.pages:>5} | {r.warnings:>8} | {len(r.failures):>8} |")
    total = Row("total", sum(r.pages for r in rows), sum(r.warnings for r in rows),
                [f for r in rows for f in r.failures])
    print(f"| {'**total**':<{width}} | {total.pages:>5} | {total.warnings:>8} | {len(total.failures):>8} |")
    for r in rows:
        if r.failures:
            print(f"\n{r.name}:")
            for failure in r.failures[: args.details]:
                print(f"- {failure.splitlines()[0]}")
            if len(r.failures) > args.details:
                print(f"- … and {len(r.failures) - args.details} more")
    return 0


if __name__ == "__main__":
    sys.exit(main())
