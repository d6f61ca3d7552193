"""Reading a space's content through the API: revisions built with `commit_revision` and `advance_space`
(the primitives import and change requests write with), then read as a client would."""

from __future__ import annotations

import json
import sys
import types

import pytest
import requests

from bindery import keys
from bindery.domain.revisions import advance_space, commit_revision
from bindery.store import revisions as revision_store
from bindery.store import spaces as space_store
from bindery.store import table
from tests.api.members.test_members import error, join
from tests.api.spaces.test_spaces import new_space

LAYOUT_FIELDS = {"width", "cover", "coverSize", "title", "description", "tableOfContents", "outline",
                 "pagination", "metadata"}
GIT = {"oid": "a" * 40, "message": "Import", "createdByGitBook": False}


# --- builders (shared with tests/repository/test_revisions_store.py) ------------------------------------
def text(value):
    return {"object": "text", "leaves": [{"object": "leaf", "text": value, "marks": []}]}


def paragraph(*nodes):
    return {"object": "block", "type": "paragraph",
            "nodes": [text(n) if isinstance(n, str) else n for n in nodes]}


def doc(*texts):
    return {"object": "document", "data": {}, "nodes": [paragraph(t) for t in texts]}


def expression(source, key="e1"):
    return {"object": "inline", "type": "expression", "key": key, "data": {"expression": source},
            "isVoid": True}


def page(page_id, title, *children, slug=None, kind="document", **fields):
    entry = {"id": page_id, "type": kind, "title": title, **fields}
    if kind in ("document", "group"):
        entry["slug"] = slug or title.lower().replace(" ", "-")
        entry["pages"] = list(children)
    return entry


def tree(*pages, files=(), contents=(), variables=None):
    return {"pages": list(pages), "files": list(files), "reusableContents": list(contents),
            "variables": variables or {}}


def publish(space_id, value, documents=None, **kwargs):
    """Commit on top of the space's current revision and advance the space to it."""
    space = space_store.get_space(space_id)
    revision_id = commit_revision(space_id, [space.revision], value, documents, **kwargs)
    advance_space(space, space.revision, revision_id)
    return revision_id


def stored_tree(space_id):
    """A copy of the space's current tree, to derive the next one from (as every writer does)."""
    space = space_store.get_space(space_id)
    value = revision_store.load_tree(revision_store.get_revision(space_id, space.revision)).value
    return json.loads(json.dumps(value))


def handbook():
    """Two groups, nested document pages, a link page; files, a reusable content, variables."""
    return tree(
        page("g1", "Getting started", page("p1", "Install", page("p2", "On Linux"), description="Set up"),
             page("l1", "Source", kind="link", target={"kind": "url", "url": "https://example.com/src"}),
             kind="group"),
        page("p3", "Reference", emoji="📘", layout={"width": "wide"},
             git={"oid": "b" * 40, "path": "ref.md"}),
        files=[{"id": "f1", "name": "logo.png", "contentType": "image/png",
                "dimensions": {"width": 2, "height": 1}},
               {"id": "f2", "name": "a.txt", "contentType": "text/plain"},
               {"id": "f3", "name": "b.txt", "contentType": "text/plain"}],
        contents=[{"id": "rc1", "title": "Warning"}],
        variables={"version": "3.1", "beta": True},
    )


HANDBOOK_DOCS = {"p1": doc("Run the installer."), "p2": doc("apt install it"), "p3": doc("Everything.")}
HANDBOOK_FILES = {"f1": b"\x89PNG fake", "f2": b"first", "f3": b"second"}


@pytest.fixture
def space(api):
    """An organization admin and a space holding the handbook; returns (admin, space id, revision id)."""
    ada = api.org_admin()
    space_id = new_space(api, ada, title="Handbook")["id"]
    revision_id = publish(space_id, handbook(), HANDBOOK_DOCS, files=HANDBOOK_FILES,
                          reusable_documents={"rc1": doc("Careful.")}, git=GIT)
    return ada, space_id, revision_id


# --- the empty first revision ------------------------------------------------------------------------------
def test_a_new_space_reads_as_one_empty_revision(api):
    ada = api.org_admin()
    created = new_space(api, ada)
    reply = api.get(f"/spaces/{created['id']}/content", token=ada.token)
    assert reply.status == 200, reply.body
    body = reply.json()
    assert body["object"] == "revision"
    assert body["id"] == created["revision"]
    assert body["type"] == "edits"
    assert (body["parents"], body["pages"], body["files"], body["reusableContents"], body["variables"]) == (
        [], [], [], [], {})
    assert body["urls"]["app"].endswith(f"/s/{created['id']}/~/revisions/{created['revision']}/")
    assert api.get(f"/spaces/{created['id']}/content/pages", token=ada.token).json() == {"pages": []}
    files = api.get(f"/spaces/{created['id']}/content/files", token=ada.token)
    assert files.json() == {"items": [], "count": 0}


# --- current revision and page tree -------------------------------------------------------------------------
def test_current_revision_holds_the_nested_tree_with_paths(api, space):
    ada, space_id, revision_id = space
    body = api.get(f"/spaces/{space_id}/content", token=ada.token).json()
    assert body["id"] == revision_id
    assert len(body["parents"]) == 1
    assert body["git"] == GIT
    assert body["variables"] == {"version": "3.1", "beta": True}
    group, reference = body["pages"]
    assert (group["kind"], group["type"], group["path"]) == ("group", "group", "getting-started")
    install, link = group["pages"]
    assert (install["kind"], install["type"]) == ("sheet", "document")
    assert install["path"] == "getting-started/install"
    assert install["description"] == "Set up"
    assert install["pages"][0]["path"] == "getting-started/install/on-linux"
    assert install["urls"]["app"].endswith(f"/s/{space_id}/getting-started/install")
    assert set(install["layout"]) == LAYOUT_FIELDS
    assert "document" not in install  # listings carry no bodies
    assert len(install["documentId"]) == 64
    assert (link["kind"], link["href"], link["target"]) == ("link", "https://example.com/src",
                                                            {"kind": "url", "url": "https://example.com/src"})
    assert "path" not in link
    assert reference["emoji"] == "📘"
    assert reference["layout"]["width"] == "wide"
    assert reference["git"] == {"oid": "b" * 40, "path": "ref.md"}
    assert [f["name"] for f in body["files"]] == ["logo.png", "a.txt", "b.txt"]
    assert body["reusableContents"][0]["title"] == "Warning"
    assert api.get(f"/spaces/{space_id}/content/pages", token=ada.token).json() == {"pages": body["pages"]}


def test_metadata_false_leaves_git_out(api, space):
    ada, space_id, _ = space
    body = api.get(f"/spaces/{space_id}/content", token=ada.token, query={"metadata": "false"}).json()
    assert "git" not in body
    assert "git" not in body["pages"][1]
    listed = api.get(f"/spaces/{space_id}/content/pages", token=ada.token, query={"metadata": "false"}).json()
    assert "git" not in listed["pages"][1]


# --- one page -----------------------------------------------------------------------------------------------
def test_page_by_id_carries_its_document(api, space):
    ada, space_id, _ = space
    reply = api.get(f"/spaces/{space_id}/content/page/p2", token=ada.token)
    assert reply.status == 200, reply.body
    body = reply.json()
    assert (body["title"], body["path"]) == ("On Linux", "getting-started/install/on-linux")
    assert body["document"] == HANDBOOK_DOCS["p2"]
    explicit = api.get(f"/spaces/{space_id}/content/page/p2", token=ada.token, query={"format": "document"})
    assert explicit.json() == body


def test_group_and_link_pages_have_no_document(api, space):
    ada, space_id, _ = space
    group = api.get(f"/spaces/{space_id}/content/page/g1", token=ada.token).json()
    assert "document" not in group
    assert [p["id"] for p in group["pages"]] == ["p1", "l1"]
    link = api.get(f"/spaces/{space_id}/content/page/l1", token=ada.token).json()
    assert (link["type"], "document" in link) == ("link", False)


def test_a_document_page_without_a_body_reads_as_an_empty_document(api):
    ada = api.org_admin()
    space_id = new_space(api, ada)["id"]
    revision_id = publish(space_id, tree(page("p", "Blank")))
    empty = {"object": "document", "data": {}, "nodes": []}
    assert api.get(f"/spaces/{space_id}/content/page/p", token=ada.token).json()["document"] == empty
    reply = api.get(f"/spaces/{space_id}/revisions/{revision_id}/page/p/document", token=ada.token)
    assert reply.json() == empty


@pytest.mark.parametrize("path", ["getting-started/install/on-linux", "getting-started%2Finstall%2Fon-linux",
                                  "getting-started/install/on-linux/"])
def test_page_by_path(api, space, path):
    ada, space_id, _ = space
    reply = api.get(f"/spaces/{space_id}/content/path/{path}", token=ada.token)
    assert reply.status == 200, reply.body
    assert reply.json()["id"] == "p2"
    assert reply.json()["document"] == HANDBOOK_DOCS["p2"]


@pytest.mark.parametrize(("path", "page_id"), [("getting-started", "g1"), ("reference", "p3"),
                                               ("reference/", "p3")])
def test_page_by_path_finds_groups_and_top_level_pages(api, space, path, page_id):
    ada, space_id, _ = space
    assert api.get(f"/spaces/{space_id}/content/path/{path}", token=ada.token).json()["id"] == page_id


@pytest.mark.parametrize("path", ["nope", "getting-started/nope", "install", "getting-started/source"])
def test_unknown_paths_are_404(api, space, path):
    ada, space_id, _ = space
    reply = api.get(f"/spaces/{space_id}/content/path/{path}", token=ada.token)
    assert error(reply, 404) == "No matching page"


def test_unknown_page_is_404(api, space):
    ada, space_id, revision_id = space
    assert error(api.get(f"/spaces/{space_id}/content/page/nope", token=ada.token), 404) == "No matching page"
    reply = api.get(f"/spaces/{space_id}/revisions/{revision_id}/page/g1/document", token=ada.token)
    assert error(reply, 404) == "No matching page"  # a group has no document


# --- revisions ----------------------------------------------------------------------------------------------
def test_older_revisions_stay_readable(api, space):
    ada, space_id, first = space
    edited = stored_tree(space_id)
    edited["pages"][1]["title"] = "API reference"
    second = publish(space_id, edited, {"p3": doc("Everything, revised.")})
    current = api.get(f"/spaces/{space_id}/content", token=ada.token).json()
    assert (current["id"], current["parents"]) == (second, [first])
    old = api.get(f"/spaces/{space_id}/revisions/{first}", token=ada.token).json()
    assert old["pages"][1]["title"] == "Reference"
    assert old["urls"]["app"].endswith(f"/~/revisions/{first}/")
    old_page = api.get(f"/spaces/{space_id}/revisions/{first}/page/p3", token=ada.token).json()
    assert old_page["document"] == HANDBOOK_DOCS["p3"]
    assert f"/~/revisions/{first}/reference" in old_page["urls"]["app"]
    new_doc = api.get(f"/spaces/{space_id}/revisions/{second}/page/p3/document", token=ada.token).json()
    assert new_doc == doc("Everything, revised.")
    by_path = api.get(f"/spaces/{space_id}/revisions/{first}/path/getting-started/install", token=ada.token)
    assert by_path.json()["document"] == HANDBOOK_DOCS["p1"]
    listed = api.get(f"/spaces/{space_id}/revisions/{first}/pages", token=ada.token).json()
    assert listed == {"pages": old["pages"]}
    # unchanged pages share their document blob
    assert old["pages"][0]["pages"][0]["documentId"] == current["pages"][0]["pages"][0]["documentId"]


def test_unknown_revisions_and_other_spaces_revisions_are_404(api, space):
    ada, space_id, _ = space
    other = new_space(api, ada)
    for path in (f"/spaces/{space_id}/revisions/nope", f"/spaces/{space_id}/revisions/{other['revision']}",
                 f"/spaces/{space_id}/revisions/{other['revision']}/pages",
                 f"/spaces/{space_id}/revisions/{other['revision']}/files"):
        assert error(api.get(path, token=ada.token), 404) == "No matching revision"


# --- files --------------------------------------------------------------------------------------------------
def test_files_list_in_pages_and_download(api, space):
    ada, space_id, revision_id = space
    first = api.get(f"/spaces/{space_id}/content/files", token=ada.token, query={"limit": 2}).json()
    assert first["count"] == 3
    assert [f["id"] for f in first["items"]] == ["f1", "f2"]
    logo = first["items"][0]
    assert (logo["contentType"], logo["size"]) == ("image/png", 9)
    assert logo["dimensions"] == {"width": 2, "height": 1}
    assert requests.get(logo["downloadURL"], timeout=5).content == HANDBOOK_FILES["f1"]
    # the cursor pins the revision it started on, even once the space moves on
    publish(space_id, tree(), {})
    rest = api.get(f"/spaces/{space_id}/content/files", token=ada.token,
                   query={"limit": 2, "page": first["next"]["page"]}).json()
    assert [f["id"] for f in rest["items"]] == ["f3"]
    assert "next" not in rest
    assert api.get(f"/spaces/{space_id}/content/files", token=ada.token).json()["count"] == 0
    in_revision = api.get(f"/spaces/{space_id}/revisions/{revision_id}/files", token=ada.token).json()
    assert [f["id"] for f in in_revision["items"]] == ["f1", "f2", "f3"]


def test_file_cursors_belong_to_their_listing(api, space):
    ada, space_id, revision_id = space
    first = api.get(f"/spaces/{space_id}/content/files", token=ada.token, query={"limit": 1}).json()
    reply = api.get(f"/spaces/{space_id}/revisions/{revision_id}/files", token=ada.token,
                    query={"page": first["next"]["page"]})
    assert error(reply, 400) == "page: the page cursor belongs to another listing"


def test_file_by_id(api, space):
    ada, space_id, revision_id = space
    body = api.get(f"/spaces/{space_id}/content/files/f2", token=ada.token).json()
    assert (body["id"], body["name"], body["size"]) == ("f2", "a.txt", 5)
    assert requests.get(body["downloadURL"], timeout=5).content == b"first"
    in_revision = api.get(f"/spaces/{space_id}/revisions/{revision_id}/files/f3", token=ada.token)
    assert in_revision.json()["size"] == 6
    missing = api.get(f"/spaces/{space_id}/content/files/nope", token=ada.token)
    assert error(missing, 404) == "No matching file"


# --- reusable contents --------------------------------------------------------------------------------------
def test_reusable_contents(api, space):
    ada, space_id, revision_id = space
    body = api.get(f"/spaces/{space_id}/content/reusable-contents/rc1", token=ada.token).json()
    assert body["title"] == "Warning"
    assert len(body["document"]) == 64
    in_revision = api.get(f"/spaces/{space_id}/revisions/{revision_id}/reusable-contents/rc1",
                          token=ada.token)
    assert in_revision.json() == body
    document = api.get(f"/spaces/{space_id}/revisions/{revision_id}/reusable-contents/rc1/document",
                       token=ada.token)
    assert document.json() == doc("Careful.")
    missing = api.get(f"/spaces/{space_id}/content/reusable-contents/nope", token=ada.token)
    assert error(missing, 404) == "No matching reusable content"


# --- evaluation and formats ---------------------------------------------------------------------------------
def _expressions_space(api):
    ada = api.org_admin()
    space_id = new_space(api, ada)["id"]
    body = {"object": "document", "data": {}, "nodes": [paragraph(
        "v", expression("space.vars.version", "a"), " on ", expression("page.vars.os", "b"), " ",
        expression("space.vars.beta", "c"), expression("space.vars.missing", "d"),
        expression("visitor.claims.plan", "e"))]}
    value = tree(page("p", "Notes", variables={"os": "Linux"}), variables={"version": 3, "beta": True})
    publish(space_id, value, {"p": body})
    return ada, space_id, body


@pytest.mark.parametrize("evaluated", ["true", "deterministic-only"])
def test_evaluation_replaces_variable_references(api, evaluated):
    ada, space_id, _ = _expressions_space(api)
    reply = api.get(f"/spaces/{space_id}/content/page/p", token=ada.token, query={"evaluated": evaluated})
    nodes = reply.json()["document"]["nodes"][0]["nodes"]
    texts = [n["leaves"][0]["text"] if n["object"] == "text" else n for n in nodes]
    assert texts[:7] == ["v", "3", " on ", "Linux", " ", "true", ""]
    assert texts[7] == expression("visitor.claims.plan", "e")  # not a variable: left as written
    assert nodes[1]["key"] == "a"


@pytest.mark.parametrize("query", [{}, {"evaluated": "false"}])
def test_documents_are_returned_as_stored_unless_evaluated(api, query):
    ada, space_id, body = _expressions_space(api)
    reply = api.get(f"/spaces/{space_id}/content/page/p", token=ada.token, query=query)
    assert reply.json()["document"] == body


def test_evaluated_refuses_other_values(api, space):
    ada, space_id, _ = space
    reply = api.get(f"/spaces/{space_id}/content/page/p1", token=ada.token, query={"evaluated": "maybe"})
    assert error(reply, 400).startswith("Invalid request: evaluated")


def test_markdown_format_uses_the_converter(api, space, monkeypatch):
    ada, space_id, _ = space
    seen = []
    converter = types.ModuleType("bindery.engines.content.markdown")
    converter.document_to_markdown = lambda document: seen.append(document) or "Run the installer.\n"
    monkeypatch.setitem(sys.modules, "bindery.engines.content.markdown", converter)
    reply = api.get(f"/spaces/{space_id}/content/page/p1", token=ada.token, query={"format": "markdown"})
    body = reply.json()
    assert body["markdown"] == "Run the installer.\n"
    assert "document" not in body
    assert seen == [HANDBOOK_DOCS["p1"]]


def test_markdown_format_without_the_converter_is_400(api, space, monkeypatch):
    ada, space_id, _ = space
    converter = "bindery.engines.content.markdown"
    monkeypatch.setitem(sys.modules, converter, types.ModuleType(converter))
    reply = api.get(f"/spaces/{space_id}/content/page/p1", token=ada.token, query={"format": "markdown"})
    assert error(reply, 400) == "format=markdown is not available yet"


# --- access -------------------------------------------------------------------------------------------------
def test_readers_read_and_strangers_get_404(api, space):
    ada, space_id, revision_id = space
    reader = join(api, ada.org_id, "Rita", "read")
    assert api.get(f"/spaces/{space_id}/content/page/p1", token=reader.token).status == 200
    stranger = api.org_admin("Sam", "Other")
    for path in ("content", "content/pages", "content/page/p1", "content/path/reference", "content/files",
                 "content/files/f1", "content/reusable-contents/rc1", f"revisions/{revision_id}",
                 f"revisions/{revision_id}/page/p1/document"):
        assert error(api.get(f"/spaces/{space_id}/{path}", token=stranger.token), 404) == "No matching space"


def test_a_deleted_space_has_no_content(api, space):
    ada, space_id, _ = space
    assert api.delete(f"/spaces/{space_id}", token=ada.token).status == 204
    assert error(api.get(f"/spaces/{space_id}/content", token=ada.token), 404) == "No matching space"


# --- request counts -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("path", "content_reads"), [
    ("content/page/p1", 3), ("revisions/{revision}/page/p1/document", 3), ("content/path/reference", 3),
    ("content", 2), ("content/pages", 2), ("content/files", 2), ("content/files/f1", 2),
    ("content/reusable-contents/rc1", 2), ("revisions/{revision}/reusable-contents/rc1/document", 3),
])
def test_cold_and_warm_read_costs(api, space, request_counter, path, content_reads):
    ada, space_id, revision_id = space
    url = f"/spaces/{space_id}/" + path.format(revision=revision_id)
    revision_store.clear_cache()
    request_counter.clear()
    assert api.get(url, token=ada.token).status == 200
    # token (authorizer), space, then membership and collections in one batch; then the revision item,
    # the tree blob and (for a body) the document blob, one GetItem each
    assert request_counter == {"GetItem": 2 + content_reads, "BatchGetItem": 1}
    request_counter.clear()
    assert api.get(url, token=ada.token).status == 200
    assert request_counter == {"GetItem": 2, "BatchGetItem": 1}  # revision, tree and document are cached


def test_a_one_page_edit_of_a_large_space_writes_three_items(api, request_counter):
    ada = api.org_admin()
    space_id = new_space(api, ada)["id"]
    value = tree(*(page(f"p{i}", f"Page {i}") for i in range(200)))
    publish(space_id, value, {f"p{i}": doc(f"Text {i}") for i in range(200)})
    before = len(_partition(space_id))
    space = space_store.get_space(space_id)
    request_counter.clear()
    revision_id = commit_revision(space_id, [space.revision], value, {"p7": doc("Edited")})
    assert request_counter == {"BatchWriteItem": 1, "PutItem": 1}
    assert len(_partition(space_id)) == before + 3  # document blob, tree blob, revision
    request_counter.clear()
    advance_space(space, space.revision, revision_id)
    # The pointer moves; one Query finds the integrations set up on the space (their content events).
    assert request_counter == {"UpdateItem": 1, "Query": 1}
    assert api.get(f"/spaces/{space_id}/content/page/p7", token=ada.token).json()["document"] == doc("Edited")


def _partition(space_id):
    items, start = [], None
    while True:
        page_ = table.Query(partition=keys.space(space_id)["PK"], limit=1000, start_key=start).run()
        items += page_.items
        if not page_.last_key:
            return items
        start = page_.last_key


def _without_urls(value):
    if isinstance(value, dict):
        return {k: _without_urls(v) for k, v in value.items() if k != "urls"}
    if isinstance(value, list):
        return [_without_urls(v) for v in value]
    return value


def test_a_duplicated_space_reads_the_same_content(api, space):
    ada, original, _ = space
    reply = api.post(f"/spaces/{original}/duplicate", token=ada.token)
    assert reply.status == 201, reply.body
    copy = reply.json()["id"]
    pages = api.get(f"/spaces/{copy}/content/pages", token=ada.token)
    assert pages.status == 200, pages.body
    # Same pages, documents and paths; only the URLs name the other space.
    assert _without_urls(pages.json()) == _without_urls(
        api.get(f"/spaces/{original}/content/pages", token=ada.token).json())
    read = api.get(f"/spaces/{copy}/content/page/p2", token=ada.token)
    assert read.status == 200, read.body
    assert read.json()["document"] == api.get(f"/spaces/{original}/content/page/p2",
                                              token=ada.token).json()["document"]
    files = api.get(f"/spaces/{copy}/content/files", token=ada.token).json()["items"]
    assert [f["id"] for f in files] == ["f1", "f2", "f3"]
    assert requests.get(files[0]["downloadURL"], timeout=10).content == HANDBOOK_FILES["f1"]
