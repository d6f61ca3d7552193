"""Translations and the glossary through the API (ORG/translations, ORG/translations-glossary;
docs/translations.md). Runs themselves are tested in test_translation_runs.py."""

from __future__ import annotations

import json

import pytest

from bindery.platform import aws
from tests.api.members.test_members import error, join, pages
from tests.api.spaces.test_spaces import new_space

DOCUMENT = {"object": "document", "data": {}, "nodes": [
    {"object": "block", "type": "paragraph", "data": {}, "nodes": [
        {"object": "text", "leaves": [{"object": "leaf", "text": "Use a formal tone.", "marks": []}]}]}]}


def translations_path(who, rest=""):
    return f"/orgs/{who.org_id}/translations{rest}"


def glossary_path(who, rest=""):
    return f"/orgs/{who.org_id}/translations-glossary{rest}"


def create(api, who, space_id, language="fr", status=201, **extra):
    reply = api.post(translations_path(who), token=who.token,
                     body={"source": {"space": space_id, "language": "en"}, "language": language, **extra})
    assert reply.status == status, reply.body
    return reply.json()


def queued(sqs_queues):
    """The run messages waiting on the translation queue (left there: nothing is delivered here)."""
    found = aws.sqs_client().receive_message(QueueUrl=sqs_queues["TranslationRunQueue"].url,
                                             MaxNumberOfMessages=10, VisibilityTimeout=0)
    return [json.loads(message["Body"]) for message in found.get("Messages", [])]


def test_a_created_translation_has_the_spec_shape_and_its_first_run_is_queued(api, sqs_queues):
    ada = api.org_admin()
    space = new_space(api, ada, title="Handbook")
    made = create(api, ada, space["id"], instructions=DOCUMENT)
    assert (made["object"], made["status"], made["language"]) == ("translation", "pending", "fr")
    assert made["source"] == {"space": space["id"], "language": "en"}
    assert made["instructions"] == DOCUMENT
    assert made["stats"] == dict.fromkeys(("runs", "totalWords", "totalPages", "totalDuration",
                                           "latestRunDuration", "latestPages", "latestWords"), 0)
    assert made["permissions"] == {"view": True, "edit": True}
    assert made["urls"]["location"].endswith(f"/v1/orgs/{ada.org_id}/translations/{made['id']}")
    assert "result" not in made
    assert "lastRunError" not in made
    assert api.get(translations_path(ada, f"/{made['id']}"), token=ada.token).json() == made
    [message] = queued(sqs_queues)
    assert message["translationId"] == made["id"]
    assert message["organizationId"] == ada.org_id
    without = create(api, ada, space["id"], language="de")
    assert without["instructions"] == {"object": "document", "data": {}, "nodes": []}


@pytest.mark.parametrize(("body", "named"), [
    ({"source": {"space": "SPACE", "language": "en"}}, "language"),
    ({"source": {"space": "SPACE", "language": "en"}, "language": "klingon"}, "language"),
    ({"language": "fr"}, "source"),
    ({"source": {"space": "SPACE"}, "language": "fr"}, "source.language"),
    ({"source": {"space": "SPACE", "language": "xx"}, "language": "fr"}, "source.language"),
    ({"source": {"language": "en"}, "language": "fr"}, "source.space"),
    ({"source": {"space": "SPACE", "language": "en"}, "language": "en"}, "language"),
    ({"source": {"space": "missing-space", "language": "en"}, "language": "fr"}, "source.space"),
    ({"source": {"space": "SPACE", "language": "en"}, "language": "fr", "instructions": {"nodes": []}},
     "instructions"),
    ({"source": {"space": "SPACE", "language": "en"}, "language": "fr", "instructions": "be formal"},
     "instructions"),
])
def test_bad_bodies_are_400s_naming_the_field_and_create_nothing(api, sqs_queues, body, named):
    ada = api.org_admin()
    space = new_space(api, ada)
    raw = json.loads(json.dumps(body).replace("SPACE", space["id"]))
    assert named in error(api.post(translations_path(ada), token=ada.token, body=raw), 400)
    assert api.get(translations_path(ada), token=ada.token).json()["count"] == 0
    assert queued(sqs_queues) == []


def test_the_source_must_be_a_space_of_the_organization_the_caller_can_read(api, sqs_queues):
    ada = api.org_admin()
    olga = api.org_admin("Olga", "Other")
    theirs = new_space(api, olga)
    assert "source.space" in error(api.post(translations_path(ada), token=ada.token, body={
        "source": {"space": theirs["id"], "language": "en"}, "language": "fr"}), 400)
    # Olga is not a member of Ada's organization: the organization is a 404 to her, whatever the body.
    error(api.post(translations_path(ada), token=olga.token, body={
        "source": {"space": theirs["id"], "language": "en"}, "language": "fr"}), 404)


def test_roles_reading_needs_a_member_changing_needs_create(api, sqs_queues):
    ada = api.org_admin()
    space = new_space(api, ada)
    made = create(api, ada, space["id"])
    reader = join(api, ada.org_id, "Rita", "read")
    seen = api.get(translations_path(ada, f"/{made['id']}"), token=reader.token).json()
    assert seen["permissions"] == {"view": True, "edit": False}
    assert api.get(translations_path(ada), token=reader.token).json()["count"] == 1
    body = {"source": {"space": space["id"], "language": "en"}, "language": "de"}
    error(api.post(translations_path(ada), token=reader.token, body=body), 403)
    error(api.put(translations_path(ada, f"/{made['id']}"), token=reader.token,
                  body={"instructions": DOCUMENT}), 403)
    error(api.post(translations_path(ada, f"/{made['id']}/run"), token=reader.token), 403)
    error(api.delete(translations_path(ada, f"/{made['id']}"), token=reader.token), 403)
    outsider = api.org_admin("Otto", "Elsewhere")
    for reply in (api.get(translations_path(ada), token=outsider.token),
                  api.get(translations_path(ada, f"/{made['id']}"), token=outsider.token),
                  api.delete(translations_path(ada, f"/{made['id']}"), token=outsider.token)):
        error(reply, 404)
    error(api.get(translations_path(ada)), 401)
    assert api.get(translations_path(ada, f"/{made['id']}"), token=ada.token).status == 200


def test_listing_pages_in_creation_order_with_the_count(api, sqs_queues):
    ada = api.org_admin()
    space = new_space(api, ada)
    made = [create(api, ada, space["id"], language=lang)["id"] for lang in ("fr", "de", "es", "it", "ja")]
    seen = pages(api, translations_path(ada), ada.token, limit=2)
    assert [item["id"] for body in seen for item in body["items"]] == made
    assert {body["count"] for body in seen} == {5}
    assert len(seen) == 3
    olga = api.org_admin("Olga", "Other")
    assert api.get(translations_path(olga), token=olga.token).json() == {"items": [], "count": 0}


def test_put_changes_the_instructions_and_checks_them(api, sqs_queues):
    ada = api.org_admin()
    made = create(api, ada, new_space(api, ada)["id"])
    path = translations_path(ada, f"/{made['id']}")
    reply = api.put(path, token=ada.token, body={"instructions": DOCUMENT})
    assert reply.status == 200, reply.body
    assert reply.json()["instructions"] == DOCUMENT
    assert reply.json()["updatedAt"] >= made["updatedAt"]
    assert api.get(path, token=ada.token).json()["instructions"] == DOCUMENT
    for body in ({}, {"instructions": {"object": "block"}}, {"instructions": None}):
        assert "instructions" in error(api.put(translations_path(ada, f"/{made['id']}"), token=ada.token,
                                               body=body), 400)
    error(api.put(translations_path(ada, "/missing"), token=ada.token, body={"instructions": DOCUMENT}), 404)


def test_unknown_top_level_fields_of_the_instructions_are_dropped_and_the_translation_stays_readable(
        api, sqs_queues):
    # Found by schemathesis: instructions with an extra top-level field were stored as sent, after which
    # every read of the translation (and the organization's listing) was a 500.
    ada = api.org_admin()
    made = create(api, ada, new_space(api, ada)["id"])
    path = translations_path(ada, f"/{made['id']}")
    reply = api.put(path, token=ada.token, body={"instructions": {**DOCUMENT, "": [], "extra": {"a": 1}}})
    assert reply.status == 200, reply.body
    assert reply.json()["instructions"] == DOCUMENT
    assert api.get(path, token=ada.token).json()["instructions"] == DOCUMENT
    assert api.get(translations_path(ada), token=ada.token).json()["count"] == 1


def test_numbers_in_the_instructions_are_kept_and_unstorable_ones_are_400s(api, sqs_queues):
    # Found by schemathesis: a float in a document's data was a 500 (boto3 refuses floats).
    ada = api.org_admin()
    made = create(api, ada, new_space(api, ada)["id"])
    path = translations_path(ada, f"/{made['id']}")
    data = {"ratio": 1.5, "big": 4.9375845583901176e+16, "list": [-0.25, 7], "n": -108331553}
    sent = {**DOCUMENT, "data": data}
    reply = api.put(path, token=ada.token, body={"instructions": sent})
    assert reply.status == 200, reply.body
    assert api.get(path, token=ada.token).json()["instructions"]["data"] == data
    for bad in (b"NaN", b"Infinity", b"1e300", b"1" + b"0" * 39 + b"1"):
        raw = b'{"instructions": {"object": "document", "nodes": [], "data": {"x": ' + bad + b"}}}"
        reply = api.call("PUT", path, token=ada.token, raw=raw, headers={"Content-Type": "application/json"})
        assert "instructions" in error(reply, 400), bad
    assert api.get(path, token=ada.token).json()["instructions"]["data"] == data


def test_unknown_translations_are_404s_and_deleting_one_twice_is_204(api, sqs_queues):
    ada = api.org_admin()
    space = new_space(api, ada)
    made = create(api, ada, space["id"])
    error(api.get(translations_path(ada, "/missing"), token=ada.token), 404)
    error(api.post(translations_path(ada, "/missing/run"), token=ada.token), 404)
    assert api.delete(translations_path(ada, f"/{made['id']}"), token=ada.token).status == 204
    assert api.delete(translations_path(ada, f"/{made['id']}"), token=ada.token).status == 204
    error(api.get(translations_path(ada, f"/{made['id']}"), token=ada.token), 404)
    assert api.get(translations_path(ada), token=ada.token).json()["count"] == 0
    assert api.get(f"/spaces/{space['id']}", token=ada.token).status == 200  # the source is untouched


def test_a_run_asked_for_while_one_is_queued_is_the_same_run(api, sqs_queues):
    ada = api.org_admin()
    made = create(api, ada, new_space(api, ada)["id"])
    for _ in range(3):
        assert api.post(translations_path(ada, f"/{made['id']}/run"), token=ada.token).status == 204
    assert len(queued(sqs_queues)) == 1
    assert api.get(translations_path(ada, f"/{made['id']}"), token=ada.token).json()["status"] == "pending"


# --- the glossary -------------------------------------------------------------------------------------
def apply(api, who, *operations, status=204):
    reply = api.put(glossary_path(who), token=who.token, body={"operations": list(operations)})
    assert reply.status == status, reply.body
    return reply


def test_glossary_operations_insert_update_and_delete_entries(api):
    ada = api.org_admin()
    apply(api, ada, {"type": "insert", "translations": {"en": "space", "fr": "espace"}},
          {"type": "insert", "translations": {"en": "change request", "fr": "demande de modification"}})
    listed = api.get(glossary_path(ada), token=ada.token).json()
    assert listed["count"] == 2
    # One batch's entries are made in the same millisecond: their order among themselves is not defined.
    second, first = sorted(listed["items"], key=lambda entry: entry["translations"]["en"])
    assert first["object"] == "glossary-entry"
    assert first["translations"] == {"en": "space", "fr": "espace"}
    assert first["urls"]["location"].endswith(f"/orgs/{ada.org_id}/translations-glossary/{first['id']}")
    assert api.get(glossary_path(ada, f"/{first['id']}"), token=ada.token).json() == first
    apply(api, ada,
          {"type": "update", "id": first["id"], "translations": {"en": "space", "de": "Bereich"}},
          {"type": "delete", "id": second["id"]})
    listed = api.get(glossary_path(ada), token=ada.token).json()
    assert listed["count"] == 1
    assert listed["items"][0]["translations"] == {"en": "space", "de": "Bereich"}
    error(api.get(glossary_path(ada, f"/{second['id']}"), token=ada.token), 404)


@pytest.mark.parametrize(("operation", "named"), [
    ({"type": "insert"}, "operations.1"),
    ({"type": "insert", "translations": {}}, "operations.1"),
    ({"type": "insert", "translations": {"xx": "term"}}, "operations.1.translations"),
    ({"type": "insert", "translations": {"fr": "two\nlines"}}, "operations.1.translations.fr"),
    ({"type": "insert", "translations": {"fr": "x" * 256}}, "operations.1.translations.fr"),
    ({"type": "update", "translations": {"fr": "terme"}}, "operations.1"),
    ({"type": "update", "id": "missing", "translations": {"fr": "terme"}}, "operations.1.id"),
    ({"type": "delete", "id": "missing"}, "operations.1.id"),
    ({"type": "rename", "id": "x"}, "operations.1.type"),
])
def test_a_bad_glossary_batch_is_a_400_and_changes_nothing(api, operation, named):
    ada = api.org_admin()
    good = {"type": "insert", "translations": {"en": "space", "fr": "espace"}}
    reply = api.put(glossary_path(ada), token=ada.token, body={"operations": [good, operation]})
    assert named in error(reply, 400)
    assert api.get(glossary_path(ada), token=ada.token).json() == {"items": [], "count": 0}


def test_the_glossary_is_the_organizations_own(api):
    ada = api.org_admin()
    apply(api, ada, {"type": "insert", "translations": {"en": "space", "fr": "espace"}})
    entry = api.get(glossary_path(ada), token=ada.token).json()["items"][0]
    reader = join(api, ada.org_id, "Rita", "read")
    assert api.get(glossary_path(ada), token=reader.token).json()["count"] == 1
    error(api.put(glossary_path(ada), token=reader.token, body={"operations": []}), 403)
    olga = api.org_admin("Olga", "Other")
    error(api.get(glossary_path(ada), token=olga.token), 404)
    error(api.get(glossary_path(ada, f"/{entry['id']}"), token=olga.token), 404)
    error(api.get(glossary_path(olga, f"/{entry['id']}"), token=olga.token), 404)
    assert "operations.0.id" in error(api.put(glossary_path(olga), token=olga.token, body={
        "operations": [{"type": "delete", "id": entry["id"]}]}), 400)
    assert api.get(glossary_path(ada), token=ada.token).json()["count"] == 1
