"""Ingesting conversations and reading them through the API (ORG/conversations; docs/conversations.md).
Processing (issues, clusters) is in test_conversations_worker.py."""

from __future__ import annotations

import json

import pytest

from bindery.platform import aws
from tests.api.members.test_members import error, join, pages


def conversations_path(who, rest=""):
    return f"/orgs/{who.org_id}/conversations{rest}"


def conversation(external_id="c-1", *, subject="Login fails", text="I cannot log in since the update.",
                 **extra):
    return {"id": external_id, "subject": subject,
            "parts": [{"type": "message", "role": "user", "body": text},
                      {"type": "message", "role": "team-member", "body": "Which browser do you use?"}],
            **extra}


def ingest(api, who, body, status=204):
    reply = api.post(conversations_path(who), token=who.token, body=body)
    assert reply.status == status, reply.body
    return reply


def queued(sqs_queues):
    """The processing messages waiting on the conversations queue (left there)."""
    found = aws.sqs_client().receive_message(QueueUrl=sqs_queues["ConversationQueue"].url,
                                             MaxNumberOfMessages=10, VisibilityTimeout=0)
    return [json.loads(message["Body"]) for message in found.get("Messages", [])]


def listed(api, who, **query):
    reply = api.get(conversations_path(who), token=who.token, query=query)
    assert reply.status == 200, reply.body
    return reply.json()


def test_an_ingested_conversation_is_listed_and_read_with_its_parts_and_metadata(api, sqs_queues):
    ada = api.org_admin()
    metadata = {"url": "https://support.example/c/1", "attributes": {"plan": "pro"},
                "createdAt": "2026-11-20T10:00:00Z"}
    reply = ingest(api, ada, conversation(metadata=metadata))
    assert reply.body in ("", b"")
    body = listed(api, ada)
    assert body["count"] == 1
    (item,) = body["items"]
    assert item["object"] == "conversation"
    assert item["source"] == "email"
    assert item["subject"] == "Login fails"
    assert item["createdAt"] == "2026-11-20T10:00:00.000Z"
    assert item["urls"]["source"] == "https://support.example/c/1"
    assert "processedAt" not in item  # not processed yet
    detail = api.get(conversations_path(ada, f"/{item['id']}"), token=ada.token).json()
    assert detail["conversation"] == item
    assert detail["parts"][0] == {"type": "message", "role": "user",
                                  "body": "I cannot log in since the update."}
    assert detail["parts"][1]["role"] == "team-member"
    assert detail["metadata"] == {"url": "https://support.example/c/1", "attributes": {"plan": "pro"},
                                  "createdAt": "2026-11-20T10:00:00.000Z"}
    assert queued(sqs_queues) == [{"organizationId": ada.org_id, "conversationId": item["id"],
                                   "rev": queued(sqs_queues)[0]["rev"]}]


def test_an_array_ingests_each_and_re_ingesting_updates_instead_of_duplicating(api, sqs_queues):
    ada = api.org_admin()
    ingest(api, ada, [conversation("a"), conversation("b", subject="Export is slow")])
    assert listed(api, ada)["count"] == 2
    ingest(api, ada, conversation("a", subject="Login still fails"))
    body = listed(api, ada)
    assert body["count"] == 2
    assert sorted(item["subject"] for item in body["items"]) == ["Export is slow", "Login still fails"]


def test_the_same_content_again_changes_nothing(api, sqs_queues):
    ada = api.org_admin()
    ingest(api, ada, conversation())
    first = listed(api, ada)["items"][0]
    ingest(api, ada, conversation())
    assert listed(api, ada)["items"] == [first]


def installation_source(api, who, name="intercom"):
    """An installation on `who`'s organization of an integration with the ingest scope (published by
    another organization): (its token, the source it ingests as)."""
    from tests.api.integration_support import install, publish
    from tests.api.integrations.test_installation_tokens import token_for

    dev = api.org_admin(f"Dev {name}", f"{name} Inc")
    publish(api, dev, name, scopes=["conversations:ingest"])
    installation = install(api, who, name)
    return token_for(api, dev, name, installation["id"]), f"integration:{name}:{installation['id']}"


def test_source_filter_and_its_count(api, sqs_queues):
    ada = api.org_admin()
    token, source = installation_source(api, ada)
    ingest(api, ada, conversation("a"))
    reply = api.post(conversations_path(ada), token=token, body=[conversation("b"), conversation("a")])
    assert reply.status == 204, reply.body
    assert listed(api, ada)["count"] == 3
    body = listed(api, ada, source=source)
    assert body["count"] == 2
    assert {item["source"] for item in body["items"]} == {source}
    assert listed(api, ada, source="email")["count"] == 1
    assert listed(api, ada, source="integration:zendesk:x") == {"items": [], "count": 0}


def test_pages_of_conversations(api, sqs_queues):
    ada = api.org_admin()
    ingest(api, ada, [conversation(f"c{n}") for n in range(5)])
    seen = pages(api, conversations_path(ada), ada.token, limit=2)
    assert [len(page["items"]) for page in seen] == [2, 2, 1]
    assert {page["count"] for page in seen} == {5}
    assert len({item["id"] for page in seen for item in page["items"]}) == 5


@pytest.mark.parametrize(("body", "field"), [
    ({"parts": []}, "id"),
    ({"id": "", "parts": []}, "id"),
    ({"id": "x" * 256, "parts": []}, "id"),
    ({"id": "a"}, "parts"),
    ({"id": "a", "parts": [{"type": "message", "role": "bot", "body": "hi"}]}, "parts.0.role"),
    ({"id": "a", "parts": [{"type": "note", "role": "user", "body": "hi"}]}, "parts.0.type"),
    ({"id": "a", "parts": [{"type": "message", "role": "user"}]}, "parts.0.body"),
    ({"id": "a", "parts": [], "subject": "s" * 513}, "subject"),
    ({"id": "a", "parts": [], "metadata": {"attributes": {"plan": 3}}}, "metadata.attributes.plan"),
    ({"id": "a", "parts": [], "metadata": {"createdAt": "yesterday"}}, "metadata.createdAt"),
    ({"id": "a", "parts": [], "metadata": {"attributes": {str(n): "v" for n in range(51)}}},
     "metadata.attributes"),
    ({"id": "a", "parts": [], "source": "slack"}, "source"),
    ({"id": "a", "parts": [], "source": "integration:x"}, "source"),
    ([{"id": "a", "parts": []}, {"parts": []}], "1.id"),
    ([], "body"),
])
def test_a_bad_body_is_a_400_naming_the_field_and_writes_nothing(api, sqs_queues, body, field):
    ada = api.org_admin()
    message = error(api.post(conversations_path(ada), token=ada.token, body=body), 400)
    assert field in message
    assert listed(api, ada)["count"] == 0
    assert queued(sqs_queues) == []


def test_a_member_cannot_ingest_as_an_installation_of_any_organization(api, sqs_queues):
    # Issue 39: a source naming an installation is that installation's own, never a member's to claim,
    # whether the installation is another organization's or one on the member's own organization.
    ada = api.org_admin()
    olga = api.org_admin("Olga", "Other")
    _, theirs = installation_source(api, olga, "helpdesk")
    _, ours = installation_source(api, ada, "intercom")
    for source in (theirs, ours, "integration:x:y"):
        message = error(api.post(conversations_path(ada), token=ada.token, body=conversation(source=source)),
                        403)
        assert message.startswith("source: only an installation's own token")
        batch = [conversation("ok"), conversation("b", source=source)]
        refused = api.post(conversations_path(ada), token=ada.token, body=batch)
        assert error(refused, 403).startswith("1.source")
    ingest(api, ada, conversation(source="email"))
    assert [item["source"] for item in listed(api, ada)["items"]] == ["email"]
    assert listed(api, olga)["count"] == 0


def test_ingesting_takes_the_ingest_permission_and_reading_a_member(api, sqs_queues):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "create")
    error(api.post(conversations_path(bob), token=bob.token, body=conversation()), 403)
    ingest(api, ada, conversation())
    assert listed(api, bob)["count"] == 1
    outsider = api.org_admin("Eve", "Other")
    outsider.org_id = ada.org_id
    error(api.get(conversations_path(outsider), token=outsider.token), 404)
    error(api.post(conversations_path(outsider), token=outsider.token, body=conversation()), 404)


def test_unknown_conversations_are_404s(api, sqs_queues):
    ada = api.org_admin()
    error(api.get(conversations_path(ada, "/nothing"), token=ada.token), 404)
    ingest(api, ada, conversation())
    other = api.org_admin("Eve", "Other")
    conversation_id = listed(api, ada)["items"][0]["id"]
    error(api.get(f"/orgs/{other.org_id}/conversations/{conversation_id}", token=other.token), 404)


def test_an_installation_with_the_ingest_scope_ingests_as_its_own_source(api, sqs_queues):
    from tests.api.integration_support import install, publish
    from tests.api.integrations.test_installation_tokens import token_for

    dev = api.org_admin("Dev", "Developer")
    ada = api.org_admin()
    olga = api.org_admin("Olga", "Other")
    publish(api, dev, "helpdesk", scopes=["conversations:ingest"])
    publish(api, dev, "reader", scopes=["space:content:read"])
    installation = install(api, ada, "helpdesk")
    token = token_for(api, dev, "helpdesk", installation["id"])
    reply = api.post(conversations_path(ada), token=token, body=conversation())
    assert reply.status == 204, reply.body
    (item,) = listed(api, ada)["items"]
    assert item["source"] == f"integration:helpdesk:{installation['id']}"
    # Its own source only, in its own organization only, and nothing but ingesting.
    claimed = api.post(conversations_path(ada), token=token, body=conversation(source="email"))
    assert "source" in error(claimed, 400)
    error(api.post(conversations_path(olga), token=token, body=conversation()), 404)
    error(api.get(conversations_path(ada), token=token), 403)
    other = token_for(api, dev, "reader", install(api, ada, "reader")["id"])
    error(api.post(conversations_path(ada), token=other, body=conversation()), 403)
    assert listed(api, ada)["count"] == 1


def test_a_creation_time_without_an_offset_is_utc(api, sqs_queues):
    ada = api.org_admin()
    ingest(api, ada, conversation(metadata={"createdAt": "2026-11-20T10:00:00"}))
    assert listed(api, ada)["items"][0]["createdAt"] == "2026-11-20T10:00:00.000Z"
