"""Git transport (dulwich, into a temporary on-disk repository) against bare repositories on disk, through
file:// URLs."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from bindery.engines.gitsync import transport
from bindery.engines.gitsync.transport import GitTransportError
from tests.git_repos import bare_repo, branch_files, branch_head, commit_files

FILES = {"README.md": b"# Home\n", "SUMMARY.md": b"* [Home](README.md)\n", "docs/a.md": b"# A\n",
         ".gitbook/assets/logo.png": b"\x89PNG\r\n\x1a\n\x00\x01"}


def fetch(url: str, ref: str) -> transport.Snapshot:
    with transport.workspace() as repo:
        return transport.fetch_snapshot(url, ref, repo)


def test_fetch_reads_every_file_at_the_ref(tmp_path: Path) -> None:
    url = bare_repo(tmp_path / "repo.git", FILES)
    with transport.workspace() as repo:
        snapshot = transport.fetch_snapshot(url, "refs/heads/main", repo)
        assert snapshot.files == FILES
        workspace = Path(repo.path)
        assert workspace.is_dir()
    assert not workspace.exists()  # the fetched repository is removed with the workspace
    assert snapshot.ref == "refs/heads/main"
    assert snapshot.commit == branch_head(tmp_path / "repo.git").id.decode()
    assert snapshot.message == "Update docs"


def test_a_short_branch_name_is_resolved_like_git_does(tmp_path: Path) -> None:
    url = bare_repo(tmp_path / "repo.git", FILES, branch="docs")
    assert fetch(url, "docs").ref == "refs/heads/docs"


def test_a_missing_ref_is_a_permanent_failure(tmp_path: Path) -> None:
    url = bare_repo(tmp_path / "repo.git", FILES)
    with pytest.raises(GitTransportError, match="refs/heads/nope does not exist") as caught:
        fetch(url, "refs/heads/nope")
    assert not caught.value.retryable


def test_a_directory_that_is_not_a_repository_fails(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    with pytest.raises(GitTransportError, match="not a Git repository") as caught:
        fetch((tmp_path / "plain").as_uri(), "main")
    assert not caught.value.retryable


def test_push_creates_the_branch_in_an_empty_repository(tmp_path: Path) -> None:
    url = bare_repo(tmp_path / "repo.git")
    with transport.workspace() as repo:
        pushed = transport.push_files(url, "refs/heads/main", project_directory="",
                                      files={"README.md": b"hi\n"}, message="Export",
                                      author=b"Ada <ada@example.com>", repo=repo)
    head = branch_head(tmp_path / "repo.git")
    assert pushed.parent is None
    assert head.parents == []
    assert head.id.decode() == pushed.commit
    assert head.author == b"Ada <ada@example.com>"
    assert head.message == b"Export\n"
    assert branch_files(tmp_path / "repo.git") == {"README.md": b"hi\n"}


def test_push_commits_on_top_of_the_branch_and_keeps_files_outside_the_project(tmp_path: Path) -> None:
    path = tmp_path / "repo.git"
    url = bare_repo(path, {"src/app.py": b"print()\n", "docs/old.md": b"old\n", "docs/keep.md": b"k\n"})
    before = branch_head(path).id.decode()
    with transport.workspace() as repo:
        pushed = transport.push_files(url, "main", project_directory="docs",
                                      files={"README.md": b"# Docs\n", "guide/a.md": b"# A\n"},
                                      message="Sync", author=b"Ada <ada@example.com>", repo=repo)
    assert pushed.parent == before
    assert [p.decode() for p in branch_head(path).parents] == [before]
    # Inside the project directory the export replaces everything; outside it nothing changes.
    assert branch_files(path) == {"src/app.py": b"print()\n", "docs/README.md": b"# Docs\n",
                                  "docs/guide/a.md": b"# A\n"}


def test_push_never_rewinds_a_branch_that_moved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "repo.git"
    url = bare_repo(path, {"README.md": b"one\n"})
    fetch = transport._fetch

    def fetch_then_someone_pushes(*args: object, **kwargs: object) -> object:
        found = fetch(*args, **kwargs)  # type: ignore[arg-type]
        commit_files(path, {"README.md": b"two\n"})
        return found

    monkeypatch.setattr(transport, "_fetch", fetch_then_someone_pushes)
    with transport.workspace() as repo, pytest.raises(GitTransportError, match="moved"):
        transport.push_files(url, "main", project_directory="", files={"README.md": b"mine\n"},
                             message="Export", author=b"Ada <ada@example.com>", repo=repo)
    assert branch_files(path) == {"README.md": b"two\n"}


def test_merged_files_with_the_whole_repository_as_project() -> None:
    merged = transport.merged_files({"a.md": b"a", "b/c.md": b"c"}, "", {"x.md": b"x"})
    assert merged == {"x.md": b"x"}


def test_a_repository_that_fills_the_disk_fails_saying_so(monkeypatch: pytest.MonkeyPatch) -> None:
    class FullDisk:
        def fetch(self, *args: object, **kwargs: object) -> object:
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(transport, "_transport", lambda url: (FullDisk(), "/repo.git"))
    with pytest.raises(GitTransportError, match="too large to fetch: the worker's storage is full") as caught:
        fetch("https://user:secret@git.example.com/repo.git", "main")
    assert not caught.value.retryable
    assert "secret" not in caught.value.message
