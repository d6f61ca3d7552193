"""Git Sync import of generated repositories of growing size: seconds and peak memory, in process on moto.

    python -m bench.import_memory_bench [--sizes 50,200,800] [--file-mb 16]

Each repository is generated in a temporary directory (random, incompressible bytes: images and videos
as far as zlib can tell): a project directory `docs/` of pages, each referencing one `--file-mb` video,
as many as make the size. Each is imported into a new space as the Git Sync worker does it
(gitsync.transport fetches it over `file://` into a temporary on-disk repository, the importer reads the
project directory, git_import_changes uploads the files to S3, commit_revision and advance_space), with
tracemalloc counting every Python allocation (moto's included; and, for a `file://` URL, the serving
side's). Every size is run once.

Printed, per size:
- seconds, and as a ratio to the baseline: SHA-256 over the same number of bytes, measured in the same
  run (the least an import must do with every byte: the store names file bytes by their SHA-256);
- peak MB, and as a ratio to the largest file. The peak must stay flat as the repository grows: it
  follows the largest file, not the repository.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for _entry in (ROOT, ROOT / "layers" / "shared"):
    if str(_entry) not in sys.path:
        sys.path.insert(0, str(_entry))

MB = 1024 * 1024


def repository_shape(size_mb: int, file_mb: int) -> tuple[dict[str, bytes], dict[str, int]]:
    """The pages (bytes) and the videos (sizes) of a `size_mb` repository."""
    sizes: dict[str, int] = {}
    left = size_mb * MB
    while left > 0:
        sizes[f"docs/videos/part-{len(sizes)}.mp4"] = min(file_mb * MB, left)
        left -= file_mb * MB
    pages = {f"docs/part-{n}.md": f"# Part {n}\n\n[The video](videos/part-{n}.mp4)\n".encode()
             for n in range(len(sizes))}
    summary = "".join(f"* [Part {n}](part-{n}.md)\n" for n in range(len(sizes)))
    return {"docs/README.md": b"# Videos\n", "docs/SUMMARY.md": f"* [Videos](README.md)\n{summary}".encode(),
            **pages}, sizes


def hash_seconds(total: int) -> float:
    """The baseline: SHA-256 over `total` bytes, 1 MB at a time."""
    chunk = os.urandom(MB)
    started = time.perf_counter()
    digest = hashlib.sha256()
    for _ in range(total // MB):
        digest.update(chunk)
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.import_memory_bench",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="50,200,800", help="repository sizes in MB, comma-separated")
    parser.add_argument("--file-mb", type=int, default=16, help="the size of each video")
    args = parser.parse_args(argv)
    from bench.environment import in_process_aws, set_environment

    set_environment(BINDERY_GIT_ALLOW_FILE_URLS="1")

    from bindery.domain.git_sync import import_changes
    from bindery.domain.revisions import advance_space, commit_revision
    from bindery.engines.content.tree import Tree, empty_tree
    from bindery.engines.gitsync import transport
    from bindery.engines.gitsync.importer import import_repository
    from bindery.store import spaces as space_store
    from tests.client import ApiClient
    from tests.git_repos import large_repo

    def import_into(space_id: str, url: str) -> None:
        """What the Git Sync worker does (domain.git_sync.runs._import), without the run's bookkeeping."""
        previous = Tree(empty_tree())
        with transport.workspace() as repo:
            snapshot = transport.fetch_snapshot(url, "main", repo)
            imported = import_repository(snapshot.files, project_directory="docs", previous=previous)
            stored = import_changes.store_files(space_id, import_changes.changes(imported, previous))
        space = space_store.get_space(space_id)
        assert space is not None
        revision = commit_revision(space_id, [space.revision], stored.tree, stored.documents,
                                   reusable_documents=stored.reusable_documents, files=stored.files)
        advance_space(space, space.revision, revision)

    results: list[tuple[int, int, float, float, float, float]] = []  # MB, files, s, baseline s, peak, largest
    with in_process_aws(), tempfile.TemporaryDirectory(prefix="bindery-memory-bench-") as scratch:
        api = ApiClient()
        who = api.org_admin("Bench", "Bench Org")
        for size_mb in (int(size) for size in args.sizes.split(",")):
            pages, sizes = repository_shape(size_mb, args.file_mb)
            url = large_repo(Path(scratch) / f"repo-{size_mb}.git", pages, sizes)
            created: Any = api.post(f"/orgs/{who.org_id}/spaces", body={"title": f"{size_mb} MB"},
                                    token=who.token)
            tracemalloc.start()
            started = time.perf_counter()
            import_into(created.json()["id"], url)
            seconds = time.perf_counter() - started
            _, peak_bytes = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            results.append((size_mb, len(sizes), seconds, hash_seconds(size_mb * MB), peak_bytes / MB,
                            max(sizes.values()) / MB))
    print(f"videos of {args.file_mb} MB at most; seconds with tracemalloc on; "
          "ratio: to SHA-256 of as many bytes")
    print(f"{'repository':<24}{'s':>8}{'ratio':>8}{'peak MB':>10}{'largest MB':>12}{'peak ÷ largest':>16}")
    for size_mb, files, seconds, baseline, peak, largest in results:
        print(f"{f'{size_mb} MB, {files} videos':<24}{seconds:>8.1f}{seconds / baseline:>8.1f}"
              f"{peak:>10.1f}{largest:>12.0f}{peak / largest:>16.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
