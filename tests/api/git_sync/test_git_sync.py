"""Git Sync imports through the API: POST …/git/import starts a run (204 + Location), the worker
(delivered in process from moto's SQS) performs it, and the run, the content and the Git info show the
outcome. A failed import changes nothing."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

import pytest

from bindery.domain.git_sync import runs as git_runs
from bindery.domain.revisions import advance_space, commit_revision
from bindery.store import spaces as space_store
from tests.api.git_sync_support import (
    SIMPLE,
    git_settings,  # noqa: F401 - a fixture
    outline,
    pages,
    run,
    space_with_admin,
    start,
)
from tests.api.members.test_members import error, join
from tests.client import ApiClient
from tests.git_repos import bare_repo, branch_head
from tests.settings_environment import set_env

pytestmark = pytest.mark.usefixtures("git_settings")
Deliver = Callable[[], int]


def test_import_runs_in_the_background_and_makes_a_revision(api: ApiClient, deliver_queued: Deliver,
                                                            tmp_path: Path) -> None:
    ada, space = space_with_admin(api)
    url = bare_repo(tmp_path / "docs.git", SIMPLE)
    path = start(api, ada, space["id"], "import", url=url, ref="refs/heads/main")
    queued = run(api, ada, path)
    assert queued["status"] == "pending"
    assert queued["kind"] == "import"
    assert queued["revision"] is None
    assert pages(api, ada, space["id"]) == []  # nothing happens before the worker runs

    assert deliver_queued() == 2  # the import, then the search indexing of the revision it made
    done = run(api, ada, path)
    assert done["status"] == "succeeded"
    assert done["error"] is None
    assert done["warnings"] == []
    assert done["commit"] == branch_head(tmp_path / "docs.git").id.decode()
    assert outline(pages(api, ada, space["id"])) == [
        ("document", "Home", "readme", []),
        ("document", "Guide", "guide", [("document", "Install", "guide/install", [])]),
    ]
    current = api.get(f"/spaces/{space['id']}/content", token=ada.token).json()
    assert current["id"] == done["revision"]
    assert current["git"]["oid"] == done["commit"]
    assert current["git"]["ref"] == "refs/heads/main"
    files = api.get(f"/spaces/{space['id']}/content/files", token=ada.token).json()["items"]
    assert [f["name"] for f in files] == ["logo.png"]
    info = api.get(f"/spaces/{space['id']}/git/info", token=ada.token).json()
    assert info["repoName"] == "docs"
    assert info["url"] == url


def test_git_info_is_404_until_a_run_succeeded(api: ApiClient) -> None:
    ada, space = space_with_admin(api)
    error(api.get(f"/spaces/{space['id']}/git/info", token=ada.token), 404)


def test_runs_are_listed_newest_first_with_pages(api: ApiClient, deliver_queued: Deliver,
                                                tmp_path: Path) -> None:
    ada, space = space_with_admin(api)
    url = bare_repo(tmp_path / "docs.git", SIMPLE)
    paths = [start(api, ada, space["id"], "import", url=url, ref="main") for _ in range(3)]
    first = api.get(f"/spaces/{space['id']}/git/runs", token=ada.token, query={"limit": 2}).json()
    rest = api.get(f"/spaces/{space['id']}/git/runs", token=ada.token,
                   query={"limit": 2, "page": first["next"]["page"]}).json()
    listed = [item["id"] for item in first["items"] + rest["items"]]
    assert listed == [p.rsplit("/", 1)[1] for p in reversed(paths)]
    assert "next" not in rest
    assert first["count"] == rest["count"] == 3


def test_standalone_import_makes_a_revision_without_moving_the_space(api: ApiClient, deliver_queued: Deliver,
                                                                     tmp_path: Path) -> None:
    ada, space = space_with_admin(api)
    url = bare_repo(tmp_path / "docs.git", SIMPLE)
    path = start(api, ada, space["id"], "import", url=url, ref="main", standalone=True)
    deliver_queued()
    done = run(api, ada, path)
    assert done["status"] == "succeeded"
    assert done["standalone"] is True
    assert pages(api, ada, space["id"]) == []
    revision = api.get(f"/spaces/{space['id']}/revisions/{done['revision']}/pages", token=ada.token).json()
    assert [p["title"] for p in revision["pages"]] == ["Home", "Guide"]


def test_project_directory_selects_part_of_the_repository(api: ApiClient, deliver_queued: Deliver,
                                                          tmp_path: Path) -> None:
    ada, space = space_with_admin(api)
    url = bare_repo(tmp_path / "mono.git", {"src/app.py": b"print()\n",
                                            **{f"docs/{name}": data for name, data in SIMPLE.items()}})
    start(api, ada, space["id"], "import", url=url, ref="main", repoProjectDirectory="docs")
    deliver_queued()
    assert [p["title"] for p in pages(api, ada, space["id"])] == ["Home", "Guide"]


# --- failures change nothing --------------------------------------------------------------------------------
def _failed_import(api: ApiClient, deliver: Deliver, url: str,
                   ref: str = "main") -> tuple[dict[str, Any], Any]:
    ada, space = space_with_admin(api)
    before = api.get(f"/spaces/{space['id']}", token=ada.token).json()
    path = start(api, ada, space["id"], "import", url=url, ref=ref)
    deliver()
    after = api.get(f"/spaces/{space['id']}", token=ada.token).json()
    assert after["revision"] == before["revision"]
    assert after["updatedAt"] == before["updatedAt"]
    assert pages(api, ada, space["id"]) == []
    error(api.get(f"/spaces/{space['id']}/git/info", token=ada.token), 404)
    failed = run(api, ada, path)
    assert failed["status"] == "failed"
    assert failed["revision"] is None
    return failed, space


def test_a_missing_ref_fails_the_run(api: ApiClient, deliver_queued: Deliver, tmp_path: Path) -> None:
    failed, _ = _failed_import(api, deliver_queued, bare_repo(tmp_path / "d.git", SIMPLE), "refs/heads/nope")
    assert "refs/heads/nope does not exist" in failed["error"]


def test_a_directory_that_is_not_a_repository_fails_the_run(api: ApiClient, deliver_queued: Deliver,
                                                            tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    failed, _ = _failed_import(api, deliver_queued, (tmp_path / "plain").as_uri())
    assert "is not a Git repository" in failed["error"]


def test_a_summary_pointing_outside_the_project_fails_the_run(api: ApiClient, deliver_queued: Deliver,
                                                              tmp_path: Path) -> None:
    broken = {**SIMPLE, "SUMMARY.md": b"# Summary\n\n* [Home](README.md)\n* [Away](../../etc/passwd.md)\n"}
    failed, _ = _failed_import(api, deliver_queued, bare_repo(tmp_path / "d.git", broken))
    assert "SUMMARY.md" in failed["error"]
    assert "outside the project" in failed["error"]


def test_invalid_gitbook_yaml_fails_the_run(api: ApiClient, deliver_queued: Deliver, tmp_path: Path) -> None:
    failed, _ = _failed_import(api, deliver_queued,
                               bare_repo(tmp_path / "d.git", {**SIMPLE, ".gitbook.yaml": b"root: [\n"}))
    assert ".gitbook.yaml" in failed["error"]


def test_a_concurrent_edit_fails_the_import_and_is_kept(
        api: ApiClient, deliver_queued: Deliver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ada, space = space_with_admin(api)
    path = start(api, ada, space["id"], "import", url=bare_repo(tmp_path / "d.git", SIMPLE), ref="main")
    importing = git_runs.importer.import_repository

    def import_while_someone_edits(*args: Any, **kwargs: Any) -> Any:
        imported = importing(*args, **kwargs)
        live = space_store.get_space(space["id"])
        assert live is not None
        edit = {"pages": [{"id": "p1", "type": "document", "title": "Mine", "slug": "mine", "pages": []}],
                "files": [], "reusableContents": [], "variables": {}}
        advance_space(live, live.revision, commit_revision(live.id, [live.revision], edit))
        return imported

    monkeypatch.setattr(git_runs.importer, "import_repository", import_while_someone_edits)
    deliver_queued()
    failed = run(api, ada, path)
    assert failed["status"] == "failed"
    assert "changed while importing" in failed["error"]
    assert [p["title"] for p in pages(api, ada, space["id"])] == ["Mine"]


# --- what may be imported, and by whom ---------------------------------------------------------------------
def test_file_urls_are_refused_where_not_allowed(api: ApiClient, sqs_queues: Any, tmp_path: Path) -> None:
    set_env("BINDERY_GIT_ALLOW_FILE_URLS", None)
    ada, space = space_with_admin(api)
    reply = api.post(f"/spaces/{space['id']}/git/import", token=ada.token,
                     body={"url": bare_repo(tmp_path / "d.git", SIMPLE), "ref": "main"})
    assert "url: file:// URLs are not allowed" in error(reply, 400)
    assert api.get(f"/spaces/{space['id']}/git/runs", token=ada.token).json()["items"] == []


@pytest.mark.parametrize("url", ["http://127.0.0.1:8080/docs.git", "https://10.1.2.3/docs.git",
                                 "http://169.254.169.254/latest/meta-data", "ssh://git@github.com/a/b.git"])
def test_private_hosts_and_other_schemes_are_refused(api: ApiClient, sqs_queues: Any, url: str) -> None:
    ada, space = space_with_admin(api)
    reply = api.post(f"/spaces/{space['id']}/git/import", token=ada.token, body={"url": url, "ref": "main"})
    assert error(reply, 400).startswith("url: ")


@pytest.mark.parametrize(("body", "field"), [
    ({"ref": "main"}, "url"), ({"url": "https://github.com/a/b.git"}, "ref"),
    ({"url": "https://github.com/a/b.git", "ref": "refs/heads/a..b"}, "ref"),
    ({"url": "https://github.com/a/b.git", "ref": "main", "repoProjectDirectory": "../up"},
     "repoProjectDirectory"),
])
def test_invalid_bodies_name_the_field(api: ApiClient, sqs_queues: Any, body: dict[str, Any],
                                       field: str) -> None:
    ada, space = space_with_admin(api)
    assert field in error(api.post(f"/spaces/{space['id']}/git/import", token=ada.token, body=body), 400)


def test_credentials_never_show_in_runs_errors_or_logs(
        api: ApiClient, deliver_queued: Deliver, tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    set_env("BINDERY_ALLOW_PRIVATE_HOSTS", "1")
    git_runs.logger.setLevel("DEBUG")
    try:
        ada, space = space_with_admin(api)
        # Nothing listens on port 9 (discard): every attempt fails, and the last one records the failure.
        path = start(api, ada, space["id"], "import", url="http://ada:s3cret-token@127.0.0.1:9/docs.git",
                     ref="main")
        assert deliver_queued() >= 1
    finally:
        git_runs.logger.setLevel("CRITICAL")
    failed = run(api, ada, path)
    listed = api.get(f"/spaces/{space['id']}/git/runs", token=ada.token).body.decode()
    output = capfd.readouterr()
    assert failed["status"] == "failed"
    assert failed["url"] == "http://127.0.0.1:9/docs.git"
    for text in (str(failed), listed, output.out, output.err):
        assert "s3cret-token" not in text


def test_readers_cannot_start_runs_and_other_organizations_see_nothing(api: ApiClient, sqs_queues: Any,
                                                                       tmp_path: Path) -> None:
    ada, space = space_with_admin(api)
    reader = join(api, ada.org_id, "Rita", "read")
    body = {"url": "https://github.com/a/b.git", "ref": "main"}
    assert "edit" in error(api.post(f"/spaces/{space['id']}/git/import", token=reader.token, body=body), 403)
    assert api.get(f"/spaces/{space['id']}/git/runs", token=reader.token).status == 200
    outsider = api.org_admin("Otto", "Other")
    error(api.post(f"/spaces/{space['id']}/git/import", token=outsider.token, body=body), 404)
    error(api.get(f"/spaces/{space['id']}/git/runs", token=outsider.token), 404)
    error(api.get(f"/spaces/{space['id']}/git/info", token=outsider.token), 404)


def test_a_locked_space_refuses_imports(api: ApiClient, sqs_queues: Any) -> None:
    ada, space = space_with_admin(api)
    assert api.patch(f"/spaces/{space['id']}", token=ada.token, body={"editMode": "locked"}).status == 200
    reply = api.post(f"/spaces/{space['id']}/git/import", token=ada.token,
                     body={"url": "https://github.com/a/b.git", "ref": "main"})
    assert "locked" in error(reply, 403)


def test_unknown_runs_are_404(api: ApiClient) -> None:
    ada, space = space_with_admin(api)
    error(api.get(f"/spaces/{space['id']}/git/runs/nope", token=ada.token), 404)


def test_reimporting_unchanged_files_uploads_nothing_again(
        api: ApiClient, deliver_queued: Deliver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """File bytes are content-addressed: a re-import stores only what changed."""
    from bindery.store import blobs

    stored: list[bytes] = []
    put_file_stream = blobs.put_file_stream

    def recording(space_id: str, digest: str, stream: BinaryIO) -> None:
        data = stream.read()
        stored.append(data)
        put_file_stream(space_id, digest, io.BytesIO(data))

    monkeypatch.setattr(blobs, "put_file_stream", recording)
    ada, space = space_with_admin(api)
    url = bare_repo(tmp_path / "docs.git", SIMPLE)
    start(api, ada, space["id"], "import", url=url, ref="refs/heads/main")
    deliver_queued()
    assert stored == [SIMPLE[".gitbook/assets/logo.png"]]
    path = start(api, ada, space["id"], "import", url=url, ref="refs/heads/main")
    deliver_queued()
    assert run(api, ada, path)["status"] == "succeeded"
    assert stored == [SIMPLE[".gitbook/assets/logo.png"]]  # not stored a second time
    files = api.get(f"/spaces/{space['id']}/content/files", token=ada.token).json()["items"]
    assert [(f["name"], f["size"]) for f in files] == [("logo.png", len(SIMPLE[".gitbook/assets/logo.png"]))]


def test_reimporting_rewrites_only_the_documents_that_changed(
        api: ApiClient, deliver_queued: Deliver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from bindery.store import blobs

    # How many blobs each write stored: the import's commit (documents, then the tree), then the search
    # indexer's link report of the new revision (one blob).
    written: list[int] = []
    put_encoded = blobs.put_encoded

    def recording(space_id: str, values: Any) -> None:
        values = list(values)
        written.append(len(values))
        put_encoded(space_id, values)

    monkeypatch.setattr(blobs, "put_encoded", recording)
    ada, space = space_with_admin(api)
    url = bare_repo(tmp_path / "docs.git", SIMPLE)
    start(api, ada, space["id"], "import", url=url, ref="main")
    deliver_queued()
    assert written == [4, 1]  # three documents and the tree; the link report
    start(api, ada, space["id"], "import", url=url, ref="main")
    deliver_queued()
    assert written[2:] == [1, 1]  # nothing changed: the tree only
    edited = {**SIMPLE, "guide/install.md": b"# Install\n\nRun it twice.\n"}
    start(api, ada, space["id"], "import", url=bare_repo(tmp_path / "edited.git", edited), ref="main")
    deliver_queued()
    assert written[4:] == [2, 1]  # the edited page's document and the tree
    install = next(p for p in pages(api, ada, space["id"])[1]["pages"] if p["title"] == "Install")
    body = api.get(f"/spaces/{space['id']}/content/page/{install['id']}", token=ada.token).json()
    assert "Run it twice." in str(body["document"])
    readme = api.get(f"/spaces/{space['id']}/content/page/{pages(api, ada, space['id'])[0]['id']}",
                     token=ada.token).json()
    assert "Welcome." in str(readme["document"])  # an unchanged document still reads


def test_what_an_import_read_approximately_is_on_its_run(api: ApiClient, deliver_queued: Deliver,
                                                        tmp_path: Path) -> None:
    ada, space = space_with_admin(api)
    files = {**SIMPLE, "guide/install.md": b"# Install\n\nCaf\xe9 au lait.\n"}  # Latin-1, not UTF-8
    path = start(api, ada, space["id"], "import", url=bare_repo(tmp_path / "docs.git", files), ref="main")
    deliver_queued()
    done = run(api, ada, path)
    assert done["status"] == "succeeded"
    assert done["warnings"] == ["guide/install.md: not valid UTF-8 (undecodable bytes replaced)"]


def test_warnings_kept_on_a_run_are_bounded() -> None:
    from bindery.store import git_runs as run_store

    many = [f"page-{n}.md: {'x' * 500}" for n in range(run_store.MAX_WARNINGS + 7)]
    op = run_store.finish_op("s1", "r1", "t0", "t1", status="succeeded", warnings=many)
    kept = op["Update"]["ExpressionAttributeValues"][":warnings"]
    assert len(kept) == run_store.MAX_WARNINGS + 1
    assert all(len(line) <= run_store.MAX_WARNING_CHARS for line in kept)
    assert kept[-1] == "… and 7 more"
