"""Revisions and content-addressed blobs on every engine (moto, DynamoDB Local; S3 is moto's either way):
sharing, large values in the object store, caching, idempotent writes, the space's optimistic pointer."""

from __future__ import annotations

import hashlib
import secrets

import pytest
from botocore.exceptions import ClientError

from bindery import keys
from bindery.domain.revisions import RevisionMoved, advance_space, commit_revision, copy_content
from bindery.engines.content.tree import InvalidTree
from bindery.platform import aws
from bindery.platform.aws import counting_requests
from bindery.platform.config import settings
from bindery.platform.errors import Forbidden, NotFound
from bindery.store import blobs, table
from bindery.store import revisions as revision_store
from bindery.store import spaces as space_store
from bindery.store.revisions import Revision
from bindery.store.spaces import Space
from tests.api.content.test_content_reads import doc, page, tree
from tests.repository.org_item import ensure_org

pytestmark = pytest.mark.repository

T0 = "2026-01-01T00:00:00.000Z"


def _space(sid: str = "s1") -> Space:
    space = Space(id=sid, org_id="o1", created_at=T0, updated_at=T0, position="a0", title=sid,
                  revision=f"r-{sid}")
    ensure_org("o1")
    table.transact(space_store.create_space_ops(space))
    return space


def _blob_items(space_id: str) -> list[table.Item]:
    page_ = table.Query(partition=f"SPACE#{space_id}", prefix="BLOB#", limit=1000).run()
    assert page_.last_key is None
    return page_.items


def _objects(prefix: str) -> list[str]:
    listed = aws.s3_client().list_objects_v2(Bucket=settings().blob_bucket, Prefix=prefix)
    return [entry["Key"] for entry in listed.get("Contents", [])]


def test_a_new_space_has_an_empty_first_revision() -> None:
    space = _space()
    revision = revision_store.get_revision(space.id, space.revision)
    assert revision is not None
    assert (revision.parents, revision.type, revision.tree) == ([], "edits", None)
    loaded = revision_store.load_tree(revision)
    assert (loaded.page_count, loaded.files, loaded.reusable_contents) == (0, [], [])
    assert dict(loaded.variables) == {}


def test_equal_documents_are_stored_once_across_pages_and_revisions() -> None:
    space = _space()
    value = tree(page("p1", "One"), page("p2", "Two"), page("p3", "Three"))
    same = doc("Same words")
    first = commit_revision(space.id, [space.revision], value, {"p1": same, "p2": same, "p3": doc("Other")})
    assert len(_blob_items(space.id)) == 3  # two documents and the tree
    stored = revision_store.load_tree(revision_store.get_revision(space.id, first))
    shared = blobs.digest_of(same)
    assert stored.page("p1").entry["documentId"] == stored.page("p2").entry["documentId"] == shared
    # a second revision changing one page adds that page's document and a tree, nothing else
    second = commit_revision(space.id, [first], stored.value, {"p3": doc("Edited")})
    assert len(_blob_items(space.id)) == 5
    # writing what exists already changes nothing: same digests, same items
    third = commit_revision(space.id, [second], stored.value, {"p1": same})
    assert len(_blob_items(space.id)) == 5
    same_tree = revision_store.get_revision(space.id, first).tree
    assert revision_store.get_revision(space.id, third).tree == same_tree


def test_values_too_large_for_an_item_go_to_the_object_store() -> None:
    space = _space()
    big = {"object": "document", "data": {}, "nodes": [], "filler": secrets.token_urlsafe(600_000)}
    [digest] = blobs.put_values(space.id, [big])
    [item] = _blob_items(space.id)
    assert (item["stored"], "data" in item) == ("object", False)
    assert _objects(f"spaces/{space.id}/blobs/") == [f"spaces/{space.id}/blobs/{digest}"]
    blobs.clear_cache()
    with counting_requests("s3") as s3:
        assert blobs.get_value(space.id, digest) == big
    assert s3 == {"GetObject": 1}


def test_small_values_stay_in_their_item() -> None:
    space = _space()
    [digest] = blobs.put_values(space.id, [doc("small")])
    [item] = _blob_items(space.id)
    assert item["SK"] == f"BLOB#{digest}"
    assert "stored" not in item
    assert _objects(f"spaces/{space.id}/") == []


def test_a_5000_page_tree_is_read_once_then_served_from_the_cache(request_counter: dict[str, int]) -> None:
    space = _space()
    groups = [page(f"g{g}", f"Group {g}", *(
        page(f"p{g}-{i}", f"Page {g}-{i} about configuring plugins",
             documentId=secrets.token_hex(32), git={"oid": secrets.token_hex(20), "path": f"g{g}/p{i}.md"})
        for i in range(100)), kind="group") for g in range(50)]
    revision_id = commit_revision(space.id, [space.revision], tree(*groups))
    revision = revision_store.get_revision(space.id, revision_id)
    assert _objects(f"spaces/{space.id}/blobs/") == [f"spaces/{space.id}/blobs/{revision.tree}"]
    revision_store.clear_cache()
    request_counter.clear()
    with counting_requests("s3") as s3:
        loaded = revision_store.load_tree(revision_store.get_revision(space.id, revision_id))
    assert (loaded.page_count, request_counter, s3) == (5050, {"GetItem": 2}, {"GetObject": 1})
    assert loaded.page_by_path("group-49/page-49-99-about-configuring-plugins").entry["id"] == "p49-99"
    request_counter.clear()
    with counting_requests("s3") as s3:
        again = revision_store.load_tree(revision_store.get_revision(space.id, revision_id))
    assert (again is loaded, request_counter, s3) == (True, {}, {})


def test_file_bytes_are_content_addressed() -> None:
    space = _space()
    value = tree(files=[{"id": "f1", "name": "a.txt", "contentType": "text/plain"},
                        {"id": "f2", "name": "b.txt", "contentType": "text/plain"}])
    revision_id = commit_revision(space.id, [space.revision], value, files={"f1": b"same", "f2": b"same"})
    loaded = revision_store.load_tree(revision_store.get_revision(space.id, revision_id))
    digest = hashlib.sha256(b"same").hexdigest()
    assert [(f["digest"], f["size"]) for f in loaded.files] == [(digest, 4), (digest, 4)]
    assert _objects(f"spaces/{space.id}/files/") == [f"spaces/{space.id}/files/{digest}"]
    assert blobs.read_file(space.id, digest) == b"same"


def test_without_s3_bytes_live_under_the_blob_directory(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BINDERY_BLOB_DIR", str(tmp_path))
    space = _space()
    big = {"filler": secrets.token_urlsafe(600_000)}
    [digest] = blobs.put_values(space.id, [big])
    file_digest = blobs.put_file(space.id, b"bytes")
    assert (tmp_path / "spaces" / space.id / "blobs" / digest).is_file()
    assert (tmp_path / "spaces" / space.id / "files" / file_digest).read_bytes() == b"bytes"
    assert _objects("spaces/") == []
    blobs.clear_cache()
    assert blobs.get_value(space.id, digest) == big
    url = blobs.file_url(space.id, file_digest, name="a.txt", content_type="text/plain")
    assert url == (tmp_path / "spaces" / space.id / "files" / file_digest).as_uri()


def test_a_damaged_revision_is_an_error_not_an_empty_tree() -> None:
    space = _space()
    revision = Revision(id="r2", space_id=space.id, created_at=T0, tree="0" * 64)
    revision_store.put_revision(revision)
    with pytest.raises(blobs.MissingBlob):
        revision_store.load_tree(revision_store.get_revision(space.id, "r2"))


def test_revision_items_are_written_once() -> None:
    space = _space()
    with pytest.raises(ClientError, match="ConditionalCheckFailed"):
        revision_store.put_revision(Revision(id=space.revision, space_id=space.id, created_at=T0))


def test_revisions_belong_to_their_space() -> None:
    one, two = _space("s1"), _space("s2")
    assert revision_store.get_revision(one.id, two.revision) is None
    assert revision_store.get_revision(one.id, "nope") is None


@pytest.mark.parametrize(("value", "message"), [
    (tree(page("p", "A"), page("p", "B")), "used twice"),
    (tree(page("p", "A", slug="same"), page("q", "B", slug="same")), "same level"),
    (tree(page("p", "A", page("g", "G", kind="group"))), "cannot be nested"),
    (tree(page("p", "")), "title"),
    (tree(page("l", "Link", kind="link")), "target"),
    (tree(page("p", "A", slug="a/b")), "slug"),
    (tree(page("p", "A", documentId="not-a-digest")), "documentId"),
    (tree(files=[{"id": "f", "name": "x", "contentType": "text/plain"}]), "size"),
    (tree(variables={"v": [1]}), "variables"),
    ({"pages": "nope"}, "pages"),
])
def test_invalid_trees_are_refused_before_anything_is_written(value: dict[str, object], message: str) -> None:
    space = _space()
    with pytest.raises(InvalidTree, match=message):
        commit_revision(space.id, [space.revision], value)
    assert _blob_items(space.id) == []


def test_documents_must_name_document_pages_of_the_tree() -> None:
    space = _space()
    with pytest.raises(InvalidTree, match="not a document page"):
        commit_revision(space.id, [space.revision], tree(page("p", "A")), {"q": doc("x")})
    assert _blob_items(space.id) == []


def test_the_space_pointer_moves_only_from_the_expected_revision() -> None:
    space = _space()
    assert not revision_store.advance(space.id, "someone-else", "r2", "2026-01-02T00:00:00.000Z")
    assert revision_store.advance(space.id, space.revision, "r2", "2026-01-02T00:00:00.000Z")
    moved = space_store.get_space(space.id)
    assert (moved.revision, moved.updated_at) == ("r2", "2026-01-02T00:00:00.000Z")
    assert not revision_store.advance(space.id, space.revision, "r3", "2026-01-03T00:00:00.000Z")


@pytest.mark.parametrize("state", [{"editMode": "locked"}, {"deletedAt": T0}])
def test_locked_and_deleted_spaces_do_not_move(state: dict[str, str]) -> None:
    space = _space()
    item = {**space.to_item(), **state}
    table.transact([table.put_op(item)])
    assert not revision_store.advance(space.id, space.revision, "r2", "2026-01-02T00:00:00.000Z")
    assert table.get(keys.space(space.id))["revision"] == space.revision


def test_copied_content_reads_from_the_duplicate() -> None:
    source, target = _space("s1"), _space("s2")
    big = {"object": "document", "data": {}, "nodes": [], "filler": secrets.token_urlsafe(600_000)}
    value = tree(page("p1", "One"), page("p2", "Two"),
                 files=[{"id": "f1", "name": "a.txt", "contentType": "text/plain"}],
                 contents=[{"id": "rc1", "title": "Note"}])
    revision_id = commit_revision(source.id, [source.revision], value, {"p1": doc("small"), "p2": big},
                                  reusable_documents={"rc1": doc("note")}, files={"f1": b"bytes"})
    revision = revision_store.get_revision(source.id, revision_id)
    copy_content(source.id, revision, target.id)
    source_item = space_store.get_revision(source.id, revision_id)
    item = space_store.copied_revision_item(source_item, target.id, "r-copy", T0)
    table.transact([table.put_op(item)])
    revision_store.clear_cache()
    copied = revision_store.load_tree(revision_store.get_revision(target.id, "r-copy"))
    assert blobs.get_value(target.id, copied.page("p1").entry["documentId"]) == doc("small")
    assert blobs.get_value(target.id, copied.page("p2").entry["documentId"]) == big
    assert blobs.get_value(target.id, copied.reusable_content("rc1")["document"]) == doc("note")
    assert blobs.read_file(target.id, copied.file("f1")["digest"]) == b"bytes"
    assert len(_blob_items(target.id)) == len(_blob_items(source.id)) == 4


def test_concurrent_writers_never_lose_an_update() -> None:
    space = _space()
    value = tree(page("p1", "One"))
    mine = commit_revision(space.id, [space.revision], value, {"p1": doc("mine")})
    theirs = commit_revision(space.id, [space.revision], value, {"p1": doc("theirs")})
    advanced = advance_space(space, space.revision, theirs)
    with pytest.raises(RevisionMoved):
        advance_space(space, space.revision, mine)  # started from the same revision: refused
    now = space_store.get_space(space.id)
    assert (now.revision, now.updated_at) == (theirs, advanced.updated_at)
    assert advanced.updated_at > space.updated_at
    advance_space(now, theirs, mine)  # rebased on what is there now: accepted
    assert space_store.get_space(space.id).revision == mine


@pytest.mark.parametrize(("state", "refusal"), [({"editMode": "locked"}, Forbidden),
                                                ({"deletedAt": T0}, NotFound)])
def test_locked_and_deleted_spaces_refuse_content(state: dict[str, str], refusal: type[Exception]) -> None:
    space = _space()
    next_id = commit_revision(space.id, [space.revision], tree())
    table.transact([table.put_op({**space.to_item(), **state})])
    with pytest.raises(refusal):
        advance_space(space, space.revision, next_id)
