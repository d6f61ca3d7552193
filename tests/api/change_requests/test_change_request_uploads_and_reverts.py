"""`POST CR/content`: files uploaded by URL, single blocks reverted, adaptive-content conditions."""

from __future__ import annotations

import io
import urllib.error
import uuid

import boto3
import pytest
from moto.server import ThreadedMotoServer

from bindery.domain.change_requests import uploads as change_request_uploads
from bindery.platform import remote_files
from bindery.store import change_requests as cr_store
from tests.api.change_requests.test_change_request_content import edit, setup  # noqa: F401 - the fixture
from tests.api.change_requests.test_change_requests import new_cr
from tests.api.content.test_content_reads import page, publish, tree
from tests.api.members.test_members import error
from tests.api.spaces.test_spaces import new_space
from tests.settings_environment import set_env


class FakeResponse(io.BytesIO):
    def __init__(self, data: bytes, content_type: str | None) -> None:
        super().__init__(data)
        self.headers = {"Content-Type": content_type} if content_type else {}


@pytest.fixture
def web(monkeypatch):
    """A pretend web (no sockets in these tests): URL -> (bytes, content type) or an HTTP status."""
    pages: dict[str, object] = {}
    fetched: list[str] = []

    def open_url(url, field, timeout=None):
        fetched.append(url)
        found = pages.get(url, 404)
        if isinstance(found, int):
            raise urllib.error.HTTPError(url, found, "error", {}, None)  # type: ignore[arg-type]
        return FakeResponse(*found)

    monkeypatch.setattr(remote_files, "_open", open_url)
    set_env("BINDERY_ALLOW_PRIVATE_HOSTS", "1")  # no DNS here; the policy itself is tested below
    yield pages, fetched
    set_env("BINDERY_ALLOW_PRIVATE_HOSTS", None)


def files_of(api, who, space_id, cr_id):
    path = f"/spaces/{space_id}/change-requests/{cr_id}/content/files"
    return {f["name"]: f for f in api.get(path, token=who.token).json()["items"]}


# --- uploads by URL ---------------------------------------------------------------------------------------
def test_files_uploaded_by_url_are_fetched_once_and_stored(api, setup, web):  # noqa: F811
    ada, space_id, cr = setup
    pages, fetched = web
    pages["https://cdn.example.com/logo.png"] = (b"\x89PNG logo", "image/png; charset=binary")
    pages["https://cdn.example.com/notes"] = (b"plain notes", None)
    reply = edit(api, ada, space_id, cr["id"],
                 {"operation": "insert_files", "files": [
                     {"name": "logo.png", "url": "https://cdn.example.com/logo.png", "ref": "logo.png"},
                     {"name": "notes.txt", "url": "https://cdn.example.com/notes"},
                     {"name": "data.bin", "url": "https://cdn.example.com/logo.png",
                      "contentType": "application/x-custom"}]},
                 {"operation": "insert_page", "title": "Logo",
                  "document": {"markdown": "![Logo](./logo.png)"}},
                 compat=False)
    assert reply.status == 200, reply.body
    assert sorted(fetched) == ["https://cdn.example.com/logo.png", "https://cdn.example.com/logo.png",
                               "https://cdn.example.com/notes"]
    stored = files_of(api, ada, space_id, cr["id"])
    assert {name: (f["contentType"], f["size"]) for name, f in stored.items()} == {
        "logo.png": ("image/png", 9),  # the server's type, without parameters
        "notes.txt": ("text/plain", 11),  # none given: guessed from the name
        "data.bin": ("application/x-custom", 9)}  # the caller's type wins
    pic = api.get(f"/spaces/{space_id}/change-requests/{cr['id']}/content/page/"
                  f"{reply.json()['changes'][0]['page']['id']}", token=ada.token).json()
    [image] = pic["document"]["nodes"][0]["nodes"]
    assert image["data"]["ref"] == {"kind": "file", "file": stored["logo.png"]["id"]}  # the ref resolved


def test_a_file_s3_keeps_untyped_gets_the_type_its_name_says(api, setup):  # noqa: F811
    """An object stored without a type is served by S3 as binary/octet-stream (moto's server does the
    same, and ignores a presigned GET's response-content-type, which S3 honours): that says nothing of
    the file, so its name decides, as when a server gives no type at all."""
    ada, space_id, cr = setup
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    set_env("BINDERY_ALLOW_PRIVATE_HOSTS", "1")  # the server is on loopback
    try:
        host, port = server.get_host_and_port()
        s3 = boto3.client("s3", endpoint_url=f"http://{host}:{port}", region_name="us-east-1",
                          aws_access_key_id="local", aws_secret_access_key="local")
        bucket = f"untyped-{uuid.uuid4().hex}"
        s3.create_bucket(Bucket=bucket)
        for key in ("copy", "blob"):
            s3.put_object(Bucket=bucket, Key=key, Body=b"a small attachment")
        assert s3.get_object(Bucket=bucket, Key="copy")["ContentType"] == "binary/octet-stream"

        def url(key: str) -> str:
            return s3.generate_presigned_url("get_object", Params={"Bucket": bucket, "Key": key})

        reply = edit(api, ada, space_id, cr["id"], {"operation": "insert_files", "files": [
            {"name": "copy.txt", "url": url("copy")}, {"name": "blob", "url": url("blob")}]})
        assert reply.status == 200, reply.body
    finally:
        set_env("BINDERY_ALLOW_PRIVATE_HOSTS", None)
        server.stop()
    stored = files_of(api, ada, space_id, cr["id"])
    assert {name: f["contentType"] for name, f in stored.items()} == {
        "copy.txt": "text/plain", "blob": "application/octet-stream"}


def test_bad_url_uploads_are_400s_naming_the_file_and_change_nothing(api, setup, web, monkeypatch):  # noqa: F811
    ada, space_id, cr = setup
    pages, _ = web
    pages["https://cdn.example.com/big"] = (b"x" * 2048, "application/octet-stream")

    def upload(**source):
        return edit(api, ada, space_id, cr["id"],
                    {"operation": "insert_page", "title": "Kept?", "document": {}},
                    {"operation": "insert_files", "files": [{"name": "f", **source}]})

    assert "changes[1].files[0].url: https://cdn.example.com/gone answered HTTP 404" in error(
        upload(url="https://cdn.example.com/gone"), 400)
    monkeypatch.setattr(change_request_uploads, "MAX_URL_BYTES", 1024)
    assert "changes[1].files[0].url" in error(upload(url="https://cdn.example.com/big"), 400)
    assert "exactly one of url and base64" in error(upload(url="https://cdn.example.com/big",
                                                           base64="eA==", contentType="text/plain"), 400)
    assert "exactly one of url and base64" in error(upload(), 400)
    refused = error(upload(url="file:///etc/passwd"), 400)
    assert "changes[1].files[0].url: file:// URLs are not allowed" in refused
    set_env("BINDERY_ALLOW_PRIVATE_HOSTS", None)  # as deployed: the deployment's own network is refused
    metadata = "http://169.254.169.254/latest/meta-data"
    assert "loopback, private or reserved" in error(upload(url=metadata), 400)
    assert "loopback, private or reserved" in error(upload(url="http://127.0.0.1:3000/v1/orgs"), 400)
    assert cr_store.get_change_request(space_id, cr["id"]).revision == cr["revision"]


# --- reverting blocks -------------------------------------------------------------------------------------
def para(key, text):
    return {"object": "block", "type": "paragraph", "key": key, "data": {},
            "nodes": [{"object": "text", "leaves": [{"object": "leaf", "text": text, "marks": []}]}]}


def body(*blocks):
    return {"object": "document", "data": {}, "nodes": list(blocks)}


def blocks_of(api, who, space_id, cr_id, page_id):
    path = f"/spaces/{space_id}/change-requests/{cr_id}/content/page/{page_id}"
    document = api.get(path, token=who.token).json()["document"]
    return [(b["key"], b["nodes"][0]["leaves"][0]["text"]) for b in document["nodes"]]


@pytest.fixture
def blocky(api):
    ada = api.org_admin()
    space_id = new_space(api, ada, title="Blocks")["id"]
    publish(space_id, tree(page("p1", "Intro"), page("p2", "Other")),
            {"p1": body(para("a", "A"), para("b", "B"), para("c", "C")), "p2": body(para("z", "Z"))})
    cr = new_cr(api, ada, space_id)
    changed = edit(api, ada, space_id, cr["id"], {  # a modified, b deleted, d added, c moved last
        "operation": "update_page", "page": "p1", "title": "Intro, edited",
        "document": {"document": body(para("a", "A2"), para("d", "D"), para("c", "C"))}})
    assert changed.status == 200, changed.body
    return ada, space_id, cr


def test_revert_single_blocks_to_the_base(api, blocky):
    ada, space_id, cr = blocky
    reply = edit(api, ada, space_id, cr["id"], {"operation": "revert_page", "page": "p1", "block": ["b"]})
    assert reply.status == 200, reply.body
    # b is back where it was (after a); the other changes and the page's title stay
    assert blocks_of(api, ada, space_id, cr["id"], "p1") == [("a", "A2"), ("b", "B"), ("d", "D"), ("c", "C")]
    reply = edit(api, ada, space_id, cr["id"],
                 {"operation": "revert_page", "page": "p1", "block": ["a", "d"]})
    assert reply.status == 200, reply.body
    assert blocks_of(api, ada, space_id, cr["id"], "p1") == [("a", "A"), ("b", "B"), ("c", "C")]
    pages = api.get(f"/spaces/{space_id}/change-requests/{cr['id']}/content/pages", token=ada.token).json()
    assert pages["pages"][0]["title"] == "Intro, edited"


def test_revert_blocks_to_a_given_revision_and_bad_keys_are_400(api, blocky):
    ada, space_id, cr = blocky
    edited = cr_store.get_change_request(space_id, cr["id"]).revision
    edit(api, ada, space_id, cr["id"], {"operation": "update_page", "page": "p1",
                                        "document": {"document": body(para("a", "A3"))}})
    reply = edit(api, ada, space_id, cr["id"],
                 {"operation": "revert_page", "page": "p1", "revision": edited, "block": ["c"]})
    assert reply.status == 200, reply.body
    assert blocks_of(api, ada, space_id, cr["id"], "p1") == [("a", "A3"), ("c", "C")]
    before = cr_store.get_change_request(space_id, cr["id"]).revision
    assert "changes[0].block: no block nope" in error(edit(
        api, ada, space_id, cr["id"], {"operation": "revert_page", "page": "p1", "block": ["nope"]}), 400)
    assert "changes[0].block" in error(edit(
        api, ada, space_id, cr["id"], {"operation": "revert_page", "page": "p1", "block": []}), 400)
    edit(api, ada, space_id, cr["id"], {"operation": "delete_page", "page": "p2"})
    assert "changes[0].block: page p2 is not in the change request" in error(edit(
        api, ada, space_id, cr["id"], {"operation": "revert_page", "page": "p2", "block": ["z"]}), 400)
    assert cr_store.get_change_request(space_id, cr["id"]).revision != before  # only the delete landed


# --- conditions -------------------------------------------------------------------------------------------
def test_page_conditions_are_checked_stored_and_removed(api, setup):  # noqa: F811
    ada, space_id, cr = setup
    rule = "visitor.claims.plan == 'pro' && !visitor.claims.trial"
    reply = edit(api, ada, space_id, cr["id"],
                 {"operation": "insert_page", "title": "Pro", "condition": rule, "document": {}},
                 compat=False)
    assert reply.status == 200, reply.body
    pages = api.get(f"/spaces/{space_id}/change-requests/{cr['id']}/content/pages", token=ada.token).json()
    pro = next(p for p in pages["pages"] if p["title"] == "Pro")
    assert pro["condition"] == rule
    assert "changes[0].condition: not a valid expression" in error(edit(
        api, ada, space_id, cr["id"], {"operation": "update_page", "page": pro["id"],
                                       "condition": "visitor.claims.plan =="}), 400)
    assert "changes[0].condition" in error(edit(
        api, ada, space_id, cr["id"], {"operation": "update_page", "page": pro["id"],
                                       "condition": "secrets.key"}), 400)
    edit(api, ada, space_id, cr["id"], {"operation": "update_page", "page": pro["id"], "condition": ""})
    pages = api.get(f"/spaces/{space_id}/change-requests/{cr['id']}/content/pages", token=ada.token).json()
    assert "condition" not in next(p for p in pages["pages"] if p["id"] == pro["id"])
