"""Integration events: recorded with the changes they report, listed with their delivery trace, and
delivered by IntegrationEventWorker as signed POSTs to a real local receiver that verifies them
(docs/integrations.md, "Events")."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest

from bindery.keys import integrations as integration_keys
from bindery.platform import aws
from bindery.platform.aws import counting_requests
from bindery.store import table
from tests.api.integration_support import SECRET, install, publish
from tests.api.members.test_members import error, join


def dev_integration(api, who, receiver, **fields):
    publish(api, who, secrets={"SIGNING_SECRET": SECRET}, **fields)
    reply = api.put("/integrations/analytics/dev", token=who.token, body={"tunnelUrl": receiver.url})
    assert reply.status == 204, reply.body


def events(api, who):
    return api.get("/integrations/analytics/events", token=who.token).json()


def dead_letters(sqs_queues):
    found = aws.sqs_client().receive_message(QueueUrl=sqs_queues["IntegrationEventDeadLetterQueue"].url,
                                             MaxNumberOfMessages=10)
    return found.get("Messages", [])


def test_an_installation_is_delivered_signed_and_its_trace_shows_it(api, receiver, deliver_queued):
    ada = api.org_admin()
    dev_integration(api, ada, receiver)
    installation = install(api, ada)
    deliver_queued()
    assert [(e["type"], e["installationId"], e["status"]) for e in receiver.accepted] == [
        ("installation_setup", installation["id"], "active")]
    listed = events(api, ada)
    assert listed["count"] == 1
    (event,) = listed["items"]
    assert (event["status"], event["payload"]["type"], event["installationId"]) == (
        "success", "installation_setup", installation["id"])
    traced = api.get(f"/integrations/analytics/events/{event['id']}", token=ada.token).json()
    assert traced["event"] == event
    assert [log["level"] for log in traced["trace"]["logs"]] == ["debug", "info"]
    assert "delivered (200)" in traced["trace"]["logs"][-1]["message"]
    assert "event" in error(api.get("/integrations/analytics/events/nope", token=ada.token), 404)


def test_every_installation_change_is_an_event_newest_first(api, receiver, deliver_queued):
    ada = api.org_admin()
    dev_integration(api, ada, receiver)
    installation = install(api, ada)
    path = f"/integrations/analytics/installations/{installation['id']}"
    api.patch(path, token=ada.token, body={"externalIds": ["x"]})
    space_id = api.post(f"/orgs/{ada.org_id}/spaces", token=ada.token, body={"title": "S"}).json()["id"]
    api.post(f"{path}/spaces", token=ada.token, body={"space": space_id})
    api.delete(f"{path}/spaces/{space_id}", token=ada.token)
    api.delete(path, token=ada.token)
    deliver_queued()
    kinds = [e["payload"]["type"] for e in events(api, ada)["items"]]
    assert kinds == ["installation_deleted", "space_installation_deleted", "space_installation_setup",
                     "installation_setup", "installation_setup"]
    assert sorted(e["type"] for e in receiver.accepted) == sorted(kinds)
    space_setup = next(e for e in receiver.accepted if e["type"] == "space_installation_setup")
    assert space_setup["spaceId"] == space_id
    updated = [e for e in receiver.accepted if e["type"] == "installation_setup" and "previous" in e]
    assert updated[0]["previous"]["status"] == "active"


def test_a_failing_endpoint_is_retried_until_it_answers(api, receiver, deliver_queued):
    ada = api.org_admin()
    dev_integration(api, ada, receiver)
    receiver.statuses = [500, 503]
    install(api, ada)
    deliver_queued()
    (event,) = events(api, ada)["items"]
    assert event["status"] == "success"
    assert len(receiver.accepted) == 1
    logs = api.get(f"/integrations/analytics/events/{event['id']}", token=ada.token).json()["trace"]["logs"]
    messages = [log["message"] for log in logs]
    assert any("Attempt 1 failed: the endpoint answered 500" in m for m in messages)
    assert any("Attempt 2 failed: the endpoint answered 503" in m for m in messages)
    assert any("Attempt 3: delivered (200)" in m for m in messages)


def test_after_the_last_attempt_the_message_is_dead_lettered(api, receiver, deliver_queued, sqs_queues):
    ada = api.org_admin()
    dev_integration(api, ada, receiver)
    receiver.statuses = [500] * 10
    install(api, ada)
    deliver_queued()
    (event,) = events(api, ada)["items"]
    assert event["status"] == "failed"
    assert receiver.accepted == []
    assert len(receiver.raw) == 4  # the queue's maxReceiveCount
    assert len(dead_letters(sqs_queues)) == 1


def test_a_replayed_delivery_is_refused_by_its_timestamp(api, receiver, deliver_queued):
    ada = api.org_admin()
    dev_integration(api, ada, receiver)
    install(api, ada)
    deliver_queued()
    headers, body = receiver.raw[0]
    receiver.clock_skew = 600  # ten minutes later, someone sends the captured delivery again
    request = urllib.request.Request(receiver.url, data=body, method="POST", headers=headers)  # noqa: S310
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=5)  # noqa: S310 - the test's own loopback receiver
    assert refused.value.code == 401
    tampered = body.replace(b"installation_setup", b"installation_deleted")
    receiver.clock_skew = 0
    request = urllib.request.Request(receiver.url, data=tampered, method="POST", headers=headers)  # noqa: S310
    with pytest.raises(urllib.error.HTTPError) as forged:
        urllib.request.urlopen(request, timeout=5)  # noqa: S310 - the test's own loopback receiver
    assert forged.value.code == 401
    assert len(receiver.accepted) == 1


def test_without_a_tunnel_nothing_is_sent(api, receiver, deliver_queued, sqs_queues):
    ada = api.org_admin()
    publish(api, ada, secrets={"SIGNING_SECRET": SECRET})
    install(api, ada)
    deliver_queued()
    (event,) = events(api, ada)["items"]
    logs = api.get(f"/integrations/analytics/events/{event['id']}", token=ada.token).json()["trace"]["logs"]
    assert event["status"] == "failed"
    assert "No endpoint" in logs[-1]["message"]
    assert dead_letters(sqs_queues) == []  # no retry: nothing would change
    assert receiver.raw == []


def generated_secret(api, who, name="analytics"):
    reply = api.get(f"/integrations/{name}/signing-secrets", token=who.token)
    assert reply.status == 200, reply.body
    return reply.json()["integration"]


def test_an_integration_without_a_signing_secret_is_signed_with_the_one_generated_for_it(
        api, receiver, deliver_queued):
    ada = api.org_admin()
    publish(api, ada)  # no `secrets` at all, as the official CLI publishes a new integration
    api.put("/integrations/analytics/dev", token=ada.token, body={"tunnelUrl": receiver.url})
    receiver.secret = generated_secret(api, ada)
    installation = install(api, ada)
    deliver_queued()
    assert [(e["type"], e["installationId"]) for e in receiver.accepted] == [
        ("installation_setup", installation["id"])]
    assert receiver.refused == []
    (event,) = events(api, ada)["items"]
    logs = api.get(f"/integrations/analytics/events/{event['id']}", token=ada.token).json()["trace"]["logs"]
    assert "signed with the generated secret" in logs[0]["message"]
    # A later publish keeps it: receivers verifying with it go on working.
    publish(api, ada, title="Analytics 2")
    assert generated_secret(api, ada) == receiver.secret


def test_a_published_signing_secret_still_signs(api, receiver, deliver_queued):
    ada = api.org_admin()
    dev_integration(api, ada, receiver)
    generated = generated_secret(api, ada)
    assert generated != SECRET
    install(api, ada)
    deliver_queued()
    assert len(receiver.accepted) == 1  # the receiver verifies with SECRET, the published one
    (event,) = events(api, ada)["items"]
    logs = api.get(f"/integrations/analytics/events/{event['id']}", token=ada.token).json()["trace"]["logs"]
    assert "signed with the published SIGNING_SECRET" in logs[0]["message"]


def test_the_generated_secret_is_its_owners_admins_to_read(api):
    ada = api.org_admin()
    publish(api, ada)
    publish(api, ada, "hidden", visibility="private")
    secret = generated_secret(api, ada)
    assert secret != generated_secret(api, ada, "hidden")  # one per integration
    reader = join(api, ada.org_id, "Rita", "read")
    olga = api.org_admin("Olga", "Other")
    install(api, olga)  # installing it gives no access to its secret
    for who, path, status in [(reader, "analytics", 403), (olga, "analytics", 403), (olga, "hidden", 404),
                              (ada, "missing", 404)]:
        reply = api.get(f"/integrations/{path}/signing-secrets", token=who.token)
        assert reply.status == status, (who, path, reply.body)
        assert secret.encode() not in reply.body
    # Nor does any read of the integration carry it.
    for path in ("/integrations/analytics", "/integrations", f"/orgs/{olga.org_id}/installations"):
        assert secret.encode() not in api.get(path, token=olga.token).body
        assert secret.encode() not in api.get(path, token=ada.token).body


def test_an_integration_published_before_secrets_were_generated_gets_one_at_its_next_publish(
        api, receiver, deliver_queued):
    ada = api.org_admin()
    publish(api, ada)
    api.put("/integrations/analytics/dev", token=ada.token, body={"tunnelUrl": receiver.url})
    # The item as a version before generated secrets wrote it.
    table.dynamodb_table().update_item(Key=integration_keys.integration("analytics"),
                                       UpdateExpression="REMOVE signingSecret")
    reply = api.get("/integrations/analytics/signing-secrets", token=ada.token)
    assert "publish it again" in error(reply, 404)
    install(api, ada)
    deliver_queued()
    unsigned = events(api, ada)["items"][0]
    trace = api.get(f"/integrations/analytics/events/{unsigned['id']}", token=ada.token).json()["trace"]
    assert "SIGNING_SECRET" in trace["logs"][-1]["message"]
    assert receiver.raw == []
    publish(api, ada)
    receiver.secret = generated_secret(api, ada)
    api.patch(f"/integrations/analytics/installations/{unsigned['installationId']}", token=ada.token,
              body={"externalIds": ["x"]})
    deliver_queued()
    assert len(receiver.accepted) == 1


def test_signing_with_the_generated_secret_costs_no_request_more(api, receiver, deliver_queued):
    ada = api.org_admin()
    with counting_requests() as published:
        dev_integration(api, ada, receiver)
    with counting_requests() as generated:
        publish(api, ada, "bare")
        api.put("/integrations/bare/dev", token=ada.token, body={"tunnelUrl": receiver.url})
    # Generated at publish, inside the one PutItem a publish makes: no request of its own.
    assert generated == published
    install(api, ada)
    with counting_requests() as signed_with_published:
        deliver_queued()
    receiver.secret = generated_secret(api, ada, "bare")
    install(api, ada, "bare")
    with counting_requests() as signed_with_generated:
        deliver_queued()
    assert len(receiver.accepted) == 2
    # The event, the integration (which holds both secrets), the attempt recorded.
    assert signed_with_generated == signed_with_published == {"GetItem": 2, "TransactWriteItems": 1}
    with counting_requests() as read:
        generated_secret(api, ada, "bare")
    # The caller's token (the authorizer), the integration, then the caller's organization and membership
    # (owner_admin), as a read of its events does before its own Query.
    assert read == {"GetItem": 2, "BatchGetItem": 1}


def test_development_mode_sends_only_the_owners_events_unless_all(api, receiver, deliver_queued):
    ada = api.org_admin()
    dev_integration(api, ada, receiver)
    olga = api.org_admin("Olga", "Other")
    install(api, olga)
    deliver_queued()
    assert receiver.accepted == []
    api.put("/integrations/analytics/dev", token=ada.token, body={"tunnelUrl": receiver.url, "all": True})
    installation = api.get(f"/orgs/{olga.org_id}/installations", token=olga.token).json()["items"][0]
    api.patch(f"/integrations/analytics/installations/{installation['installation']['id']}", token=olga.token,
              body={"externalIds": ["o"]})
    deliver_queued()
    assert [e["installationId"] for e in receiver.accepted] == [installation["installation"]["id"]]


def test_events_are_the_owners_to_read(api, receiver):
    ada = api.org_admin()
    dev_integration(api, ada, receiver)
    olga = api.org_admin("Olga", "Other")
    assert api.get("/integrations/analytics/events", token=olga.token).status == 403
    assert api.get("/integrations/missing/events", token=ada.token).status == 404
