"""`space_content_updated`: a space's new revision is an event for every installation set up on that
space, delivered as the other events are (docs/integrations.md, "Events")."""

from __future__ import annotations

from bindery.domain.integrations.content_events import space_content_updated
from tests.api.change_requests.test_change_request_content import edit
from tests.api.change_requests.test_change_requests import new_cr
from tests.api.integration_support import install, seeded_space
from tests.api.integrations.test_integration_events import dev_integration, events


def merged(api, who, space_id, title):
    cr = new_cr(api, who, space_id)
    assert edit(api, who, space_id, cr["id"], {"operation": "update_page", "page": "p1",
                                               "title": title}).status == 200
    reply = api.post(f"/spaces/{space_id}/change-requests/{cr['id']}/merge", token=who.token)
    assert reply.status == 200, reply.body
    return reply.json()["revision"]


def test_a_merge_is_space_content_updated_for_the_spaces_installations_only(api, receiver, deliver_queued):
    ada = api.org_admin()
    dev_integration(api, ada, receiver)
    installation = install(api, ada)
    chosen, other = seeded_space(api, ada, "Chosen"), seeded_space(api, ada, "Other")
    path = f"/integrations/analytics/installations/{installation['id']}/spaces"
    assert api.post(path, token=ada.token, body={"space": chosen["id"]}).status == 201
    deliver_queued()
    receiver.accepted.clear()
    revision = merged(api, ada, chosen["id"], "Hi")
    merged(api, ada, other["id"], "Elsewhere")  # no installation there: nothing recorded
    deliver_queued()
    assert receiver.accepted == [{"eventId": receiver.accepted[0]["eventId"], "type": "space_content_updated",
                                  "installationId": installation["id"], "spaceId": chosen["id"],
                                  "revisionId": revision}]
    newest = events(api, ada)["items"][0]
    assert (newest["payload"]["type"], newest["status"], newest["installationId"]) == (
        "space_content_updated", "success", installation["id"])


def test_recording_the_same_revision_again_is_one_event(api, receiver, deliver_queued):
    ada = api.org_admin()
    dev_integration(api, ada, receiver)
    installation = install(api, ada)
    space = seeded_space(api, ada, "Chosen")
    api.post(f"/integrations/analytics/installations/{installation['id']}/spaces", token=ada.token,
             body={"space": space["id"]})
    revision = merged(api, ada, space["id"], "Hi")
    space_content_updated(space["id"], revision)  # a retried write after the change committed
    kinds = [e["payload"]["type"] for e in events(api, ada)["items"]]
    assert kinds.count("space_content_updated") == 1
    deliver_queued()
    assert [e["type"] for e in receiver.accepted].count("space_content_updated") == 1


def test_a_template_applied_by_a_write_token_is_space_content_updated(api, receiver, deliver_queued):
    ada = api.org_admin()
    dev_integration(api, ada, receiver, scopes=["space:content:write"])
    installation = install(api, ada)
    space = seeded_space(api, ada, "Chosen")
    api.post(f"/integrations/analytics/installations/{installation['id']}/spaces", token=ada.token,
             body={"space": space["id"]})
    token = api.post(f"/integrations/analytics/installations/{installation['id']}/tokens",
                     token=ada.token).json()["token"]
    applied = api.post(f"/spaces/{space['id']}/content/template", token=token, body={"id": "getting-started"})
    assert applied.status == 201, applied.body
    deliver_queued()
    updated = [e for e in receiver.accepted if e["type"] == "space_content_updated"]
    assert [(e["spaceId"], e["installationId"]) for e in updated] == [(space["id"], installation["id"])]
    assert updated[0]["revisionId"] != space["revision"]
