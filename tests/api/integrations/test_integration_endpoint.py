"""Delivery outside development mode: the `endpoint` an integration publishes (a Bindery extension of
the publish body), checked against SSRF and for HTTPS when given and before every attempt, and delivered
to with the same signing, retries, dead-letter queue and trace as the tunnel (docs/integrations.md,
"Delivered")."""

from __future__ import annotations

import pytest

from tests.api.event_receiver import event_receiver
from tests.api.integration_support import SECRET, install, publish, publish_body
from tests.api.integrations.test_integration_events import dead_letters, events
from tests.api.members.test_members import error
from tests.settings_environment import set_env


def trace(api, who, event_id):
    reply = api.get(f"/integrations/analytics/events/{event_id}", token=who.token)
    return [log["message"] for log in reply.json()["trace"]["logs"]]


@pytest.mark.parametrize(("endpoint", "said"), [
    ("http://93.184.216.34/hook", "only https://"),
    ("https://10.1.2.3/hook", "private or reserved"),
    ("https://127.0.0.1:8443/hook", "private or reserved"),
    ("https://169.254.169.254/latest/meta-data", "private or reserved"),
    ("https://[::1]/hook", "private or reserved"),
    ("file:///etc/passwd", "only https://"),
    ("ftp://93.184.216.34/hook", "only https://"),
    ("https://a..b/hook", "not a valid host name"),  # no name IDNA encodes: refused, never a 500
    ("https://[zz]/hook", "not a valid URL"),
])
def test_an_endpoint_bindery_may_not_reach_is_a_400_and_publishes_nothing(api, endpoint, said):
    ada = api.org_admin()
    reply = api.post("/integrations/analytics", token=ada.token,
                     body=publish_body(ada.org_id, endpoint=endpoint))
    message = error(reply, 400)
    assert message.startswith("endpoint: "), message
    assert said in message, message
    assert api.get("/integrations/analytics", token=ada.token).status == 404


def test_a_public_https_endpoint_is_accepted_and_not_shown(api, sqs_queues):
    ada = api.org_admin()
    published = publish(api, ada, endpoint="https://93.184.216.34/hook")
    assert "endpoint" not in published  # an extension of the body, not of the official Integration
    assert "endpoint" not in api.get("/integrations/analytics", token=ada.token).json()


def test_events_go_to_the_endpoint_signed_and_retried(api, receiver, deliver_queued):
    ada = api.org_admin()
    publish(api, ada, endpoint=receiver.url, secrets={"SIGNING_SECRET": SECRET})
    assert publish(api, ada)["version"] == 2  # the official CLI's publish, without `endpoint`: kept
    receiver.statuses = [500]
    installation = install(api, ada)
    deliver_queued()
    assert [(e["type"], e["installationId"]) for e in receiver.accepted] == [
        ("installation_setup", installation["id"])]  # verified by the receiver: signed, fresh
    (event,) = events(api, ada)["items"]
    assert event["status"] == "success"
    messages = trace(api, ada, event["id"])
    assert f"Attempt 1: POST {receiver.url}, signed with the published SIGNING_SECRET" in messages
    assert "Attempt 1 failed: the endpoint answered 500" in messages
    assert "Attempt 2: delivered (200)" in messages


def test_development_mode_takes_the_owners_events_and_the_endpoint_the_others(api, receiver, deliver_queued):
    ada, olga = api.org_admin(), api.org_admin("Olga", "Other")
    with event_receiver(SECRET) as tunnel:
        publish(api, ada, endpoint=receiver.url, secrets={"SIGNING_SECRET": SECRET})
        assert api.put("/integrations/analytics/dev", token=ada.token,
                       body={"tunnelUrl": tunnel.url}).status == 204
        own, other = install(api, ada), install(api, olga)
        deliver_queued()
        assert [e["installationId"] for e in tunnel.accepted] == [own["id"]]
        assert [e["installationId"] for e in receiver.accepted] == [other["id"]]


def test_a_removed_endpoint_delivers_nothing_and_is_not_retried(api, receiver, deliver_queued, sqs_queues):
    ada = api.org_admin()
    publish(api, ada, endpoint=receiver.url, secrets={"SIGNING_SECRET": SECRET})
    publish(api, ada, endpoint=None)
    install(api, ada)
    deliver_queued()
    (event,) = events(api, ada)["items"]
    assert event["status"] == "failed"
    assert "No endpoint" in trace(api, ada, event["id"])[-1]
    assert receiver.raw == []
    assert dead_letters(sqs_queues) == []


def test_an_endpoint_refused_at_delivery_is_never_reached_and_dead_lettered(api, receiver, deliver_queued,
                                                                            sqs_queues):
    ada = api.org_admin()
    publish(api, ada, endpoint=receiver.url, secrets={"SIGNING_SECRET": SECRET})
    set_env("BINDERY_ALLOW_PRIVATE_HOSTS", None)  # the deployment's policy now: loopback is off limits
    install(api, ada)
    deliver_queued()
    (event,) = events(api, ada)["items"]
    assert event["status"] == "failed"
    messages = trace(api, ada, event["id"])
    assert any("failed: endpoint: only https://" in m for m in messages), messages
    assert receiver.raw == []
    assert len(dead_letters(sqs_queues)) == 1
