"""make test-sam's Git server: the conformance suite's repositories, which the function containers cannot
read as files, fetched and pushed over smart HTTP by Git Sync's own transport."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bindery.engines.gitsync.transport import GitTransportError, fetch_snapshot, push_files, workspace
from local import git_http
from tests.git_repos import bare_repo, branch_files, branch_head


@pytest.fixture
def served(tmp_path: Path) -> Iterator[git_http.GitHttpServer]:
    (tmp_path / "root").mkdir()
    server = git_http.serve(tmp_path / "root", "127.0.0.1")
    yield server
    server.stop()


def test_a_repository_under_the_root_is_fetched_and_pushed_over_http(served: git_http.GitHttpServer):
    (served.root / "run").mkdir()
    bare_repo(served.root / "run" / "source.git", {"README.md": b"# Hello\n"})
    url = f"{served.url}/run/source.git"
    with workspace() as repo:
        snapshot = fetch_snapshot(url, "refs/heads/main", repo)
        assert snapshot.files["README.md"] == b"# Hello\n"
    with workspace() as repo:
        pushed = push_files(url, "refs/heads/main", project_directory="docs", files={"a.md": b"# A\n"},
                            message="Docs", author=b"Bindery <bindery@example.com>", repo=repo)
    assert branch_head(served.root / "run" / "source.git").id.decode() == pushed.commit
    assert branch_files(served.root / "run" / "source.git") == {"README.md": b"# Hello\n",
                                                               "docs/a.md": b"# A\n"}


def test_nothing_outside_the_root_is_served(served: git_http.GitHttpServer, tmp_path: Path):
    bare_repo(tmp_path / "outside.git", {"README.md": b"secret\n"})
    with workspace() as repo, pytest.raises(GitTransportError):
        fetch_snapshot(f"{served.url}/../outside.git", "refs/heads/main", repo)
