"""local.server as `make run` starts it: a real process, real sockets (loopback only), one keep-alive
connection, and DynamoDB Local's data (table and file bytes) surviving a restart."""

from __future__ import annotations

import http.client
import json
import re
import socket
from urllib.parse import urlsplit

import pytest

from tests.local.runner_process import LOGO, STORAGE, call, download, import_repository


def test_serves_the_api_over_one_keep_alive_connection(start_runner):
    server = start_runner(BINDERY_ENGINE="moto", BINDERY_BOOTSTRAP_TOKEN="known")
    assert re.search(r"WARNING: .*Data will NOT persist", server.text())
    banner = server.banner()
    assert banner["API token"] == "known"
    assert banner["API URL"] == f"http://127.0.0.1:{server.port}/v1"
    # What `make run` relaxes by default is said, with the switch that turns it off.
    policy = re.search(r"^URL policy: RELAXED .*$", server.text(), re.MULTILINE)
    assert policy is not None, server.text()
    assert "BINDERY_GIT_ALLOW_FILE_URLS=1" in policy.group(0)
    assert "BINDERY_ALLOW_PRIVATE_HOSTS=1" in policy.group(0)

    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    status, body = call(conn, "GET", "/v1/orgs", "known")
    assert status == 200, body
    assert [org["id"] for org in body["items"]] == [banner["Organization id"]]
    sock = conn.sock
    assert sock is not None

    status, body = call(conn, "GET", "/v1/user", "known")
    assert (status, body["id"]) == (200, banner["User id"])
    status, body = call(conn, "GET", "/v1/orgs")
    assert status == 401
    assert body == {"error": {"code": 401, "message": body["error"]["message"]}}
    status, body = call(conn, "POST", "/v1/orgs", "known", {"title": "Acme"})
    assert (status, body["title"]) == (201, "Acme"), body
    assert conn.sock is sock, "the server closed the keep-alive connection"

    server.wait_for(re.compile(r"^GET /v1/orgs 401 \d+\.\dms$"))
    conn.close()

    # Methods API Gateway does not know are refused in the API's error shape, never a 5xx.
    for method in ("TRACE", "QUERY", "PROPFIND"):
        other = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        other.request(method, "/v1/orgs", headers={"Authorization": "Bearer known"})
        response = other.getresponse()
        assert response.status == 405
        assert json.loads(response.read()) == {
            "error": {"code": 405, "message": f"Method {method} is not allowed"}}
        other.close()


def test_request_bodies_chunked_and_oversized(start_runner):
    server = start_runner(BINDERY_ENGINE="moto", BINDERY_BOOTSTRAP_TOKEN="known", BINDERY_QUIET="1")
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    conn.request("POST", "/v1/orgs", body=iter([b'{"title":', b' "Chunked"}']), encode_chunked=True,
                 headers={"Authorization": "Bearer known", "Content-Type": "application/json",
                          "Transfer-Encoding": "chunked"})
    response = conn.getresponse()
    assert (response.status, json.loads(response.read())["title"]) == (201, "Chunked")
    sock = conn.sock

    status, body = call(conn, "POST", "/v1/orgs", "known", {"title": "x" * (11 * 1024 * 1024)})
    assert (status, body["error"]["code"]) == (413, 413)
    # The oversized body was drained, so the connection still carries the next request.
    status, _ = call(conn, "GET", "/v1/user", "known")
    assert status == 200
    assert conn.sock is sock
    conn.close()


def test_without_java_auto_falls_back_to_moto_with_a_warning(start_runner, tmp_path):
    empty = tmp_path / "bin"
    empty.mkdir()
    server = start_runner(PATH=str(empty), BINDERY_BOOTSTRAP_TOKEN="known", BINDERY_QUIET="1")
    assert re.search(r"^WARNING: java was not found.*Data will NOT persist", server.text(), re.MULTILINE)
    assert STORAGE.search(server.text()).group(0).startswith("Storage: moto")
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    status, body = call(conn, "GET", "/v1/user", "known")
    assert (status, body["id"]) == (200, server.banner()["User id"])
    conn.close()


def test_dynamodb_local_data_survives_a_restart(start_runner, tmp_path):
    data_dir = tmp_path / "data"
    first = start_runner(BINDERY_ENGINE="dynamodb-local", BINDERY_BOOTSTRAP_TOKEN="known")
    banner = first.banner()
    assert banner["API token"] == "known"
    engine = urlsplit(STORAGE.search(first.text()).group(1))
    conn = http.client.HTTPConnection("127.0.0.1", first.port, timeout=30)
    status, body = call(conn, "POST", "/v1/orgs", "known", {"title": "Persisted"})
    assert status == 201, body
    status, body = call(conn, "GET", "/v1/orgs?limit=1", "known")
    assert status == 200
    cursor = body["next"]["page"]
    conn.close()
    # DynamoDB Local has no S3: the imported file's bytes are files in the data dir, served by the runner.
    assert f"Blobs: files in {data_dir / 'blobs'}" in first.output
    space_id, files = import_repository(first, "known", tmp_path / "docs.git")
    assert [f["name"] for f in files] == ["logo.png"]
    assert download(files[0]["downloadURL"]) == ("image/png", LOGO)
    secret = (data_dir / "cursor-secret").read_text()
    assert first.stop() == 0
    with pytest.raises(ConnectionRefusedError):  # the runner stopped DynamoDB Local on its way out
        socket.create_connection((engine.hostname, engine.port), timeout=10).close()

    second = start_runner(BINDERY_ENGINE="dynamodb-local", BINDERY_BOOTSTRAP_TOKEN="other")
    assert second.banner() == {}, "bootstrap ran again"
    assert "known" not in second.text()
    conn = http.client.HTTPConnection("127.0.0.1", second.port, timeout=30)
    status, body = call(conn, "GET", "/v1/orgs", "known")
    assert status == 200, body
    assert sorted(org["title"] for org in body["items"]) == ["Bindery", "Persisted"]
    assert banner["Organization id"] in {org["id"] for org in body["items"]}
    # The cursor signed before the restart still verifies: the secret was kept in the data dir.
    status, body = call(conn, "GET", f"/v1/orgs?limit=1&page={cursor}", "known")
    assert (status, len(body["items"])) == (200, 1), body
    status, _ = call(conn, "GET", "/v1/orgs", "other")
    assert status == 401
    status, body = call(conn, "GET", f"/v1/spaces/{space_id}/content/files", "known")
    assert status == 200, body
    url = body["items"][0]["downloadURL"]
    assert url.startswith(f"http://127.0.0.1:{second.port}/_local/blobs/")  # the new port: URLs are fresh
    assert download(url) == ("image/png", LOGO)
    conn.close()
    assert (data_dir / "cursor-secret").read_text() == secret
    assert second.stop() == 0
    assert (data_dir / "dynamodb" / "shared-local-instance.db").is_file()


def test_the_url_policies_can_be_switched_to_a_deployed_stacks(start_runner):
    server = start_runner(BINDERY_ENGINE="moto", BINDERY_BOOTSTRAP_TOKEN="known", BINDERY_QUIET="1",
                          BINDERY_GIT_ALLOW_FILE_URLS="0", BINDERY_ALLOW_PRIVATE_HOSTS="0")
    assert re.search(r"^URL policy: as deployed", server.text(), re.MULTILINE), server.text()
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    org_id = server.banner()["Organization id"]
    status, space = call(conn, "POST", f"/v1/orgs/{org_id}/spaces", "known", {"title": "Imported"})
    assert status == 201, space
    for url in ("file:///etc", "http://127.0.0.1:9/repo.git"):
        status, body = call(conn, "POST", f"/v1/spaces/{space['id']}/git/import", "known",
                            {"url": url, "ref": "refs/heads/main"})
        assert status == 400, (url, body)
        assert body["error"]["message"].startswith("url:"), body
    conn.close()
