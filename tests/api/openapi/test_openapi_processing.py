"""Processing OpenAPI sources in the background (OpenAPIProcessingWorker; docs/openapi.md): real
specifications (openapi-spec-validator's Petstore samples, multi-file included, and GitBook's own API
spec) fetched from a real HTTP server on loopback, versions, errors with the official codes, and the
worker's idempotency on duplicate, superseded and poison messages."""

from __future__ import annotations

import json

import pytest
import yaml

from bindery.engines.openapi import validation
from bindery.platform import aws, queues, url_policy
from bindery.platform.messages import OpenAPIProcessMessage
from bindery.store import openapi_specs as spec_store
from bindery.store.objects import object_store
from tests.api.members.test_members import error
from tests.api.openapi.test_openapi_specs import PETSTORE_TEXT, create, specs_path
from tests.api.spec_server import OPENAPI_DATA, spec_server
from tests.data_paths import REFERENCE_SPEC
from tests.settings_environment import set_env


@pytest.fixture
def web(sqs_queues):
    """The spec server, reachable: the URL policy allows loopback here (it is tested on its own below)."""
    set_env("BINDERY_ALLOW_PRIVATE_HOSTS", "1")
    set_env("BINDERY_OPENAPI_FETCH_TIMEOUT", "0.5")
    with spec_server() as server:
        server.serve_tree(OPENAPI_DATA)
        yield server
    set_env("BINDERY_ALLOW_PRIVATE_HOSTS", None)
    set_env("BINDERY_OPENAPI_FETCH_TIMEOUT", None)


def replace_source(api, who, slug="pets", **source):
    reply = api.put(specs_path(who, f"/{slug}"), token=who.token, body={"source": source})
    assert reply.status == 200, reply.body


def spec_of(api, who, slug="pets"):
    reply = api.get(specs_path(who, f"/{slug}"), token=who.token)
    assert reply.status == 200, reply.body
    return reply.json()


def versions_of(api, who, slug="pets"):
    reply = api.get(specs_path(who, f"/{slug}/versions"), token=who.token)
    assert reply.status == 200, reply.body
    return reply.json()


def content_of(api, who, slug="pets", version="latest"):
    reply = api.get(specs_path(who, f"/{slug}/versions/{version}/content"), token=who.token)
    assert reply.status == 200, reply.body
    return reply.json()


def dead_letters(sqs_queues):
    found = aws.sqs_client().receive_message(QueueUrl=sqs_queues["OpenAPIProcessingDeadLetterQueue"].url,
                                             MaxNumberOfMessages=10)
    return [message["Body"] for message in found.get("Messages", [])]


@pytest.mark.parametrize("sample", ["v2.0/petstore.yaml", "v3.0/petstore.yaml", "v3.1/petstore.yaml"])
def test_a_petstore_by_url_becomes_a_version(api, web, deliver_queued, sample):
    ada = api.org_admin()
    create(api, ada, url=web.url(sample))
    assert deliver_queued() == 1
    spec = spec_of(api, ada)
    assert spec["processingState"] == "complete"
    assert "lastProcessErrorCode" not in spec
    assert "lastProcessedErrors" not in spec
    latest = api.get(specs_path(ada, "/pets/versions/latest"), token=ada.token).json()
    assert latest["object"] == "openapi-spec-version"
    assert latest["id"] == spec["lastVersion"]
    assert latest["createdAt"] == spec["lastProcessedAt"]
    assert latest["urls"]["location"].endswith(f"/openapi/pets/versions/{latest['id']}")
    content = content_of(api, ada)
    # as JSON: YAML's integer response codes (`200:`) are the strings JSON has
    as_json = json.loads(json.dumps(yaml.safe_load((OPENAPI_DATA / sample).read_text())))
    assert content["filesystem"] == {"petstore.yaml": as_json}
    assert content["url"].split("?")[0] == latest["url"].split("?")[0]  # presigned: signed per read
    stored = spec_store.get_version(spec["id"], latest["id"])
    assert object_store().get(stored.root_object) == (OPENAPI_DATA / sample).read_bytes()
    by_id = api.get(specs_path(ada, f"/pets/versions/{latest['id']}"), token=ada.token).json()
    assert {**by_id, "url": None} == {**latest, "url": None}
    assert content_of(api, ada, version=latest["id"])["filesystem"] == content["filesystem"]


def test_a_multi_file_spec_brings_every_referenced_file_into_the_filesystem(api, web, deliver_queued):
    ada = api.org_admin()
    create(api, ada, url=web.url("v3.0/petstore-separate/spec/openapi.yaml"))
    deliver_queued()
    assert spec_of(api, ada)["processingState"] == "complete"
    files = content_of(api, ada)["filesystem"]
    assert sorted(files) == ["../common/schemas/Error.yaml", "openapi.yaml", "schemas/Pet.yaml",
                             "schemas/Pets.yaml"]
    assert files["schemas/Pets.yaml"] == {"type": "array", "items": {"$ref": "Pet.yaml"}}
    # each file fetched once, though several references name it
    fetched = [path for path in web.requests if "petstore-separate" in path]
    assert len(fetched) == len(set(fetched)) == 4


def test_the_official_gitbook_spec_as_text_becomes_a_version(api, web, deliver_queued):
    ada = api.org_admin()
    create(api, ada, "gitbook", text=REFERENCE_SPEC.read_text())
    deliver_queued()
    spec = spec_of(api, ada, "gitbook")
    assert (spec["processingState"], "lastProcessErrorCode" in spec) == ("complete", False)
    files = content_of(api, ada, "gitbook")["filesystem"]
    assert files == {"openapi.json": json.loads(REFERENCE_SPEC.read_text())}


def test_an_unchanged_source_makes_no_new_version_and_a_changed_one_does(api, web, deliver_queued):
    ada = api.org_admin()
    create(api, ada, text=PETSTORE_TEXT)
    deliver_queued()
    first = spec_of(api, ada)
    reformatted = json.dumps(json.loads(PETSTORE_TEXT), indent=4)
    replaced = api.put(specs_path(ada, "/pets"), token=ada.token, body={"source": {"text": reformatted}})
    assert replaced.status == 200
    deliver_queued()
    again = spec_of(api, ada)
    assert again["lastVersion"] == first["lastVersion"]
    assert again["lastProcessedAt"] > first["lastProcessedAt"]
    assert versions_of(api, ada)["count"] == 1
    changed = json.dumps({**json.loads(PETSTORE_TEXT), "info": {"title": "Pets", "version": "2"}})
    replace_source(api, ada, text=changed)
    deliver_queued()
    latest = spec_of(api, ada)["lastVersion"]
    listed = versions_of(api, ada)
    assert listed["count"] == 2
    assert [v["id"] for v in listed["items"]] == [latest, first["lastVersion"]]  # newest first
    assert content_of(api, ada)["filesystem"]["openapi.json"]["info"]["version"] == "2"
    assert content_of(api, ada, version=first["lastVersion"])["filesystem"]["openapi.json"]["info"][
        "version"] == "1"


def test_an_invalid_spec_records_errors_and_keeps_the_previous_version(api, web, deliver_queued):
    ada = api.org_admin()
    create(api, ada, url=web.url("v3.0/petstore.yaml"))
    deliver_queued()
    good = spec_of(api, ada)["lastVersion"]
    replace_source(api, ada, url=web.url("v3.0/missing-description.yaml"))
    deliver_queued()
    spec = spec_of(api, ada)
    assert (spec["processingState"], spec["lastProcessErrorCode"], spec["lastVersion"]) == (
        "complete", "PARSE_ERROR", good)
    assert spec["lastProcessedErrors"][0]["code"] == "VALIDATION_ERROR"
    assert "/paths/~1/get/responses/200" in spec["lastProcessedErrors"][0]["message"]
    assert versions_of(api, ada)["count"] == 1
    # fixed again: the errors go
    replace_source(api, ada, url=web.url("v3.1/petstore.yaml"))
    deliver_queued()
    fixed = spec_of(api, ada)
    assert "lastProcessErrorCode" not in fixed
    assert "lastProcessedErrors" not in fixed
    assert fixed["lastVersion"] != good


@pytest.mark.parametrize("case", [
    ("openapi: [unclosed", "INVALID_SYNTAX", "not valid JSON or YAML"),
    ('{"title": "not a spec"}', "NOT_OPENAPI", "not an OpenAPI document"),
    ('{"openapi": "3.0.0", "info": {"title": "x", "version": "1"}, "paths": {"/a": {"$ref": "other.yaml"}}}',
     "EXTERNAL_REF", "give the spec by URL"),
    ('{"openapi": "9.0.0", "info": {"title": "x", "version": "1"}, "paths": {}}', "UNSUPPORTED_VERSION",
     "9.0.0"),
])
def test_text_that_is_no_valid_spec_is_a_parse_error_and_no_version(api, web, deliver_queued, case):
    text, code, says = case
    ada = api.org_admin()
    create(api, ada, text=text)
    deliver_queued()
    spec = spec_of(api, ada)
    assert (spec["processingState"], spec["lastProcessErrorCode"]) == ("complete", "PARSE_ERROR")
    assert spec["lastProcessedErrors"][0]["code"] == code
    assert says in spec["lastProcessedErrors"][0]["message"]
    assert "lastVersion" not in spec
    assert error(api.get(specs_path(ada, "/pets/versions/latest"), token=ada.token), 404)


def test_fetch_failures_carry_the_official_codes(api, web, deliver_queued):
    ada = api.org_admin()
    web.hang.add("/slow.yaml")
    web.files["/huge.json"] = b"{" + b" " * 5000 + b"}"
    web.files["/elsewhere.yaml"] = (b'openapi: 3.0.0\ninfo: {title: x, version: "1"}\n'
                                    b'paths: {/a: {$ref: "https://example.com/paths.yaml"}}\n')
    web.files["/local-file.yaml"] = (b'openapi: 3.0.0\ninfo: {title: x, version: "1"}\n'
                                     b'paths: {/a: {$ref: "file:///etc/passwd"}}\n')
    set_env("BINDERY_OPENAPI_MAX_BYTES", "4096")
    try:
        cases = {"missing": (web.url("nowhere.yaml"), "FETCH_ERROR", "HTTP 404"),
                 "slow": (web.url("slow.yaml"), "FETCH_TIMEOUT", "did not answer"),
                 "huge": (web.url("huge.json"), "FETCH_ERROR", "larger than"),
                 "refused": ("http://127.0.0.1:9/spec.yaml", "FETCH_ERROR", "could not be fetched"),
                 "elsewhere": (web.url("elsewhere.yaml"), "FETCH_ERROR", "not on the spec's own host"),
                 "local-file": (web.url("local-file.yaml"), "FETCH_ERROR", "not on the spec's own host"),
                 "missing-ref": (web.url("v2.0/missing-reference.yaml"), "FETCH_ERROR", "HTTP 404")}
        for slug, (url, _, _) in cases.items():
            create(api, ada, slug, url=url)
        deliver_queued()
    finally:
        set_env("BINDERY_OPENAPI_MAX_BYTES", None)
    for slug, (_, code, says) in cases.items():
        spec = spec_of(api, ada, slug)
        assert (slug, spec["processingState"], spec["lastProcessErrorCode"]) == (slug, "complete", code)
        assert says in spec["lastProcessedErrors"][0]["message"], (slug, spec["lastProcessedErrors"])
        assert "lastVersion" not in spec


def test_a_redirect_to_a_private_address_is_not_followed(api, web, deliver_queued, monkeypatch):
    """Here the spec server counts as a public host (as a real one would be); it redirects to a private
    address, which the policy refuses before any connection is made."""
    set_env("BINDERY_ALLOW_PRIVATE_HOSTS", None)
    public = url_policy._public
    monkeypatch.setattr(url_policy, "_public", lambda address: address == "127.0.0.1" or public(address))
    web.redirects["/moved.yaml"] = "http://10.0.0.5/internal/openapi.yaml"
    web.redirects["/renamed.yaml"] = web.url("v3.0/petstore.yaml")
    ada = api.org_admin()
    create(api, ada, "moved", url=web.url("moved.yaml"))
    create(api, ada, "renamed", url=web.url("renamed.yaml"))
    deliver_queued()
    moved = spec_of(api, ada, "moved")
    assert moved["lastProcessErrorCode"] == "FETCH_ERROR"
    assert "private" in moved["lastProcessedErrors"][0]["message"]
    renamed = spec_of(api, ada, "renamed")  # a redirect to a public address is followed
    assert "lastProcessErrorCode" not in renamed
    assert renamed["lastVersion"]


def test_a_duplicate_delivery_changes_nothing(api, web, deliver_queued, sqs_queues):
    ada = api.org_admin()
    create(api, ada, url=web.url("v3.0/petstore.yaml"))
    stored = spec_store.get_spec(ada.org_id, "pets")
    message = OpenAPIProcessMessage(organizationId=ada.org_id, slug="pets", specId=stored.id, job=stored.job)
    queues.send(sqs_queues["OpenAPIProcessingQueue"].url, message)  # the same job, delivered twice
    assert deliver_queued() >= 1
    spec = spec_of(api, ada)
    assert versions_of(api, ada)["count"] == 1
    served = len(web.requests)
    queues.send(sqs_queues["OpenAPIProcessingQueue"].url, message)  # and once more, later
    deliver_queued()
    assert spec_of(api, ada) == spec
    assert len(web.requests) == served


def test_a_superseded_job_is_dropped(api, web, deliver_queued):
    ada = api.org_admin()
    create(api, ada, url=web.url("v3.0/petstore.yaml"))
    replace_source(api, ada, url=web.url("v3.1/petstore.yaml"))
    deliver_queued()
    assert web.requests == ["/v3.1/petstore.yaml"]  # the first job's message found a newer job
    assert versions_of(api, ada)["count"] == 1


def test_a_malformed_message_ends_in_the_dead_letter_queue(web, deliver_queued, sqs_queues):
    queue = sqs_queues["OpenAPIProcessingQueue"].url
    aws.sqs_client().send_message(QueueUrl=queue, MessageBody='{"slug": 1}')
    assert deliver_queued() == 3  # the queue's maxReceiveCount
    assert dead_letters(sqs_queues) == ['{"slug": 1}']


def test_an_internal_error_is_retried_then_recorded_and_dead_lettered(api, web, deliver_queued, sqs_queues,
                                                                       monkeypatch):
    calls = []

    def broken(filesystem):
        calls.append(filesystem.root)
        raise RuntimeError("validator crashed")

    monkeypatch.setattr(validation, "validate", broken)
    ada = api.org_admin()
    create(api, ada, url=web.url("v3.0/petstore.yaml"))
    deliver_queued()
    assert len(calls) == 3
    spec = spec_of(api, ada)
    assert spec["processingState"] == "complete"
    assert spec["lastProcessedErrors"][0]["code"] == "INTERNAL_ERROR"
    assert len(dead_letters(sqs_queues)) == 1


def test_deleting_a_spec_removes_its_versions_and_files(api, web, deliver_queued):
    ada = api.org_admin()
    create(api, ada, url=web.url("v3.0/petstore-separate/spec/openapi.yaml"))
    deliver_queued()
    spec_id = spec_of(api, ada)["id"]
    assert spec_store.versions_page(spec_id, 10, None).items
    assert api.delete(specs_path(ada, "/pets"), token=ada.token).status == 204
    assert spec_store.versions_page(spec_id, 10, None).items == []
    listing = aws.s3_client().list_objects_v2(Bucket="bindery-test-blobs", Prefix=f"openapi/{spec_id}/")
    assert listing.get("KeyCount", 0) == 0


def test_a_public_spec_has_a_published_url_once_it_has_a_version(api, web, deliver_queued):
    ada = api.org_admin()
    create(api, ada, url=web.url("v3.0/petstore.yaml"))
    api.patch(specs_path(ada, "/pets"), token=ada.token, body={"visibility": "public"})
    assert "published" not in spec_of(api, ada)["urls"]
    deliver_queued()
    spec = spec_of(api, ada)
    assert "published" in spec["urls"]
    assert "petstore.yaml" in spec["urls"]["published"]
    api.patch(specs_path(ada, "/pets"), token=ada.token, body={"visibility": "private"})
    assert "published" not in spec_of(api, ada)["urls"]


def test_a_source_replaced_during_processing_wins_and_the_older_result_is_discarded(api, web, deliver_queued,
                                                                                     monkeypatch):
    ada = api.org_admin()
    create(api, ada, url=web.url("v3.0/petstore.yaml"))
    real_validate = validation.validate
    replaced = []

    def validate_then_replace(files):
        real_validate(files)
        if not replaced:  # while the first job runs, someone PUTs another source
            replaced.append(True)
            replace_source(api, ada, url=web.url("v3.1/petstore.yaml"))

    monkeypatch.setattr(validation, "validate", validate_then_replace)
    deliver_queued()
    spec = spec_of(api, ada)
    assert versions_of(api, ada)["count"] == 1
    assert content_of(api, ada)["filesystem"]["petstore.yaml"]["openapi"].startswith("3.1")
    listing = aws.s3_client().list_objects_v2(Bucket="bindery-test-blobs",
                                              Prefix=f"openapi/{spec['id']}/versions/")
    assert {entry["Key"].split("/")[3] for entry in listing["Contents"]} == {spec["lastVersion"]}
