"""Integration events: recorded with the changes they report, listed with their delivery trace, and
delivered by IntegrationEventWorker as signed POSTs to a real local receiver that verifies them
(docs/integrations.md, "Events")."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest

from bindery import aws
from tests.api.integration_support import SECRET, install, publish
from tests.api.test_members import error


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


def test_without_a_tunnel_or_a_signing_secret_nothing_is_sent(api, receiver, deliver_queued, sqs_queues):
    ada = api.org_admin()
    publish(api, ada, secrets={"SIGNING_SECRET": SECRET})
    install(api, ada)
    deliver_queued()
    (event,) = events(api, ada)["items"]
    logs = api.get(f"/integrations/analytics/events/{event['id']}", token=ada.token).json()["trace"]["logs"]
    assert event["status"] == "failed"
    assert "No endpoint" in logs[-1]["message"]
    assert dead_letters(sqs_queues) == []  # no retry: nothing would change
    publish(api, ada, "unsigned")
    api.put("/integrations/unsigned/dev", token=ada.token, body={"tunnelUrl": receiver.url})
    install(api, ada, "unsigned")
    deliver_queued()
    unsigned = api.get("/integrations/unsigned/events", token=ada.token).json()["items"][0]
    trace = api.get(f"/integrations/unsigned/events/{unsigned['id']}", token=ada.token).json()["trace"]
    assert "SIGNING_SECRET" in trace["logs"][-1]["message"]
    assert receiver.raw == []


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
