"""Git Sync on real-size repositories: the import's memory follows the largest file, not the repository.

The repository is generated here (incompressible random bytes, in tmp_path, never committed): a project
directory `docs/` whose pages reference large videos, beside a larger media directory outside the project
that the import must never read. The import runs as the worker runs it (SQS delivery, moto's DynamoDB and
S3), with tracemalloc counting every Python allocation, moto's included.
"""

from __future__ import annotations

import tempfile
import time
import tracemalloc
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from bindery.engines.gitsync import repository_files
from bindery.engines.gitsync.repository_files import StoredFiles
from tests.api.git_sync_support import git_settings, run, space_with_admin, start  # noqa: F401
from tests.client import ApiClient
from tests.git_repos import large_repo

pytestmark = pytest.mark.usefixtures("git_settings")
Deliver = Callable[[], int]
MB = 1024 * 1024
VIDEO = 24 * MB
VIDEOS = 8  # inside the project directory: imported
RAW = 6  # outside it (media/): never read
# dulwich holds a file's compressed and decompressed forms at once while it indexes the fetched pack
# (and, for a file:// URL, the serving side runs in this process too): 4 x the largest file at most.
PER_LARGEST_FILE = 4
MARGIN = 48 * MB  # the interpreter, moto, boto3, the Markdown of the pages, dulwich's caches

PAGES = {
    "docs/.gitbook.yaml": b"root: ./\n",
    "docs/README.md": b"# Videos\n\nThe tour.\n",
    "docs/SUMMARY.md": b"# Summary\n\n* [Videos](README.md)\n"
                       + b"".join(f"* [Part {n}](part-{n}.md)\n".encode() for n in range(VIDEOS)),
    **{f"docs/part-{n}.md": f"# Part {n}\n\n[The video](videos/part-{n}.mp4)\n".encode()
       for n in range(VIDEOS)},
    "README.md": b"# The project\n",
}
SIZES = {**{f"docs/videos/part-{n}.mp4": VIDEO for n in range(VIDEOS)},
         **{f"media/raw-{n}.mov": VIDEO for n in range(RAW)}}


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The temporary directory the worker's workspaces go to (TMPDIR on Lambda)."""
    directory = tmp_path / "worker-tmp"
    directory.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(directory))
    return directory


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every repository path whose bytes the import read."""
    read: list[str] = []
    chunks = StoredFiles.chunks

    def recording(self: StoredFiles, path: str) -> Sequence[bytes]:
        read.append(self._prefix + path)
        return chunks(self, path)

    monkeypatch.setattr(StoredFiles, "chunks", recording)
    return read


def test_a_repository_of_hundreds_of_megabytes_imports_in_the_memory_of_its_largest_file(
        api: ApiClient, deliver_queued: Deliver, tmp_path: Path, scratch: Path, reads: list[str]) -> None:
    url = large_repo(tmp_path / "big.git", PAGES, SIZES)
    total = sum(SIZES.values())
    ada, space = space_with_admin(api)
    path = start(api, ada, space["id"], "import", url=url, ref="main", repoProjectDirectory="docs")

    tracemalloc.start()
    started = time.perf_counter()
    try:
        deliver_queued()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    seconds = time.perf_counter() - started

    done = run(api, ada, path)
    assert done["status"] == "succeeded", done["error"]
    print(f"\nimported {total // MB} MB ({VIDEOS} x {VIDEO // MB} MB inside docs/) in {seconds:.1f} s, "
          f"peak {peak / MB:.1f} MB")
    assert peak < PER_LARGEST_FILE * VIDEO + MARGIN < total / 2
    files = api.get(f"/spaces/{space['id']}/content/files", token=ada.token).json()["items"]
    assert sorted((f["name"], f["size"]) for f in files) == [(f"part-{n}.mp4", VIDEO) for n in range(VIDEOS)]
    assert not any(read.startswith("media/") for read in reads)  # outside the project: never read
    assert list(scratch.iterdir()) == []  # the fetched repository is gone


def test_a_file_over_the_limit_fails_the_run_naming_it(
        api: ApiClient, deliver_queued: Deliver, tmp_path: Path, scratch: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(repository_files, "MAX_FILE_BYTES", 2 * MB)
    url = large_repo(tmp_path / "big.git", PAGES, {"docs/videos/part-0.mp4": 3 * MB,
                                                   "media/raw-0.mov": 5 * MB})
    ada, space = space_with_admin(api)
    path = start(api, ada, space["id"], "import", url=url, ref="main", repoProjectDirectory="docs")
    deliver_queued()
    failed = run(api, ada, path)
    assert failed["status"] == "failed"
    assert failed["error"] == "docs/videos/part-0.mp4 is too large to import (3 MB; the limit is 2 MB a file)"
    assert list(scratch.iterdir()) == []  # removed after a failure too


def test_files_outside_the_project_directory_count_toward_no_limit(
        api: ApiClient, deliver_queued: Deliver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(repository_files, "MAX_FILE_BYTES", 2 * MB)
    monkeypatch.setattr(repository_files, "MAX_PROJECT_FILES", len(PAGES) + 1)
    monkeypatch.setattr(repository_files, "MAX_PROJECT_BYTES", 2 * MB)
    many = {f"media/raw-{n}.mov": 3 * MB for n in range(3)}
    url = large_repo(tmp_path / "big.git", PAGES, {"docs/videos/part-0.mp4": MB, **many})
    ada, space = space_with_admin(api)
    path = start(api, ada, space["id"], "import", url=url, ref="main", repoProjectDirectory="docs")
    deliver_queued()
    assert run(api, ada, path)["status"] == "succeeded"


def test_the_project_directory_is_limited_in_files_and_in_bytes(
        api: ApiClient, deliver_queued: Deliver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ada, space = space_with_admin(api)
    url = large_repo(tmp_path / "big.git", PAGES, {f"docs/videos/part-{n}.mp4": MB for n in range(VIDEOS)})

    monkeypatch.setattr(repository_files, "MAX_PROJECT_FILES", 5)
    path = start(api, ada, space["id"], "import", url=url, ref="main", repoProjectDirectory="docs")
    deliver_queued()
    count = len(PAGES) - 1 + VIDEOS  # the top README.md is outside docs/
    assert run(api, ada, path)["error"] == (
        f"the project directory docs has too many files to import ({count}; the limit is 5)")

    monkeypatch.setattr(repository_files, "MAX_PROJECT_FILES", 100)
    monkeypatch.setattr(repository_files, "MAX_PROJECT_BYTES", 2 * MB)
    path = start(api, ada, space["id"], "import", url=url, ref="main", repoProjectDirectory="docs")
    deliver_queued()
    error = run(api, ada, path)["error"]
    assert error.startswith(
        "the project directory's files are too large to import (more than 2 MB read, at docs/")
