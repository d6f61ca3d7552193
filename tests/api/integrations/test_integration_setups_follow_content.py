"""An integration's setup on a space or site goes when the content leaves its organization — a site
deleted, a space transferred to another organization, a deleted space purged — with its
`…_installation_deleted` event, so the installation's `spaces` count stays exact and no integration
hears of content its organization no longer has (docs/integrations.md, "On spaces and sites")."""

from __future__ import annotations

import pytest

from local import ttl_stream
from tests.api.integration_support import install, publish, seeded_space
from tests.api.integrations.test_integration_content_events import merged
from tests.api.sites.test_sites import new_site
from tests.api.spaces.test_space_purge import later  # noqa: F401 - a fixture
from tests.api.spaces.test_transfer import transferred, two_orgs

pytestmark = pytest.mark.repository


def setup_on(api, who, kind, content_id):
    """The analytics integration, published and installed by `who` and set up on the space or site."""
    publish(api, who)
    installation = install(api, who)
    base = f"/integrations/analytics/installations/{installation['id']}"
    made = api.post(f"{base}/{kind}s", token=who.token,
                    body={"space": content_id} if kind == "space" else {"siteId": content_id})
    assert made.status == 201, made.body
    return base


def gone(api, who, base, kind, content_id):
    """The setup is gone, the installation counts no space, and the deletion is an event."""
    assert api.get(f"{base}/{kind}s/{content_id}", token=who.token).status == 404
    assert api.get(f"{base}/{kind}s", token=who.token).json()["items"] == []
    assert api.get(base, token=who.token).json()["spaces"] == 0
    recorded = api.get("/integrations/analytics/events", token=who.token).json()["items"]
    deleted = [e["payload"] for e in recorded if e["payload"]["type"] == f"{kind}_installation_deleted"]
    assert [e[f"{kind}Id"] for e in deleted] == [content_id]


def test_a_deleted_site_takes_its_setups(api):
    ada = api.org_admin()
    site = new_site(api, ada, title="Docs")
    base = setup_on(api, ada, "site", site["id"])
    assert api.delete(f"/orgs/{ada.org_id}/sites/{site['id']}", token=ada.token).status == 204
    gone(api, ada, base, "site", site["id"])


def test_a_transferred_space_leaves_its_organizations_integrations(api):
    ada, beta = two_orgs(api)
    space = seeded_space(api, ada, "Moving")
    base = setup_on(api, ada, "space", space["id"])
    assert api.get(base, token=ada.token).json()["spaces"] == 1
    transferred(api, ada, "space", space["id"], beta.org_id)
    gone(api, ada, base, "space", space["id"])
    merged(api, ada, space["id"], "In Beta now")  # Beta's content: Acme's integration is not told
    recorded = api.get("/integrations/analytics/events", token=ada.token).json()["items"]
    kinds = [e["payload"]["type"] for e in recorded]
    assert "space_content_updated" not in kinds
    assert api.get(f"/spaces/{space['id']}/integrations", token=ada.token).json()["items"] == []


def test_a_purged_space_takes_its_setups(api, later):  # noqa: F811 - a fixture
    ada = api.org_admin()
    space = seeded_space(api, ada, "Doomed")
    base = setup_on(api, ada, "space", space["id"])
    assert api.delete(f"/spaces/{space['id']}", token=ada.token).status == 204
    later(3)  # restorable still: the setup stays with it
    assert ttl_stream.sweep().removed == []
    assert api.get(f"{base}/spaces/{space['id']}", token=ada.token).status == 200
    later(8)
    assert ttl_stream.sweep().removed == [{"PK": f"SPACE#{space['id']}", "SK": "SPACE"}]
    gone(api, ada, base, "space", space["id"])


def test_deleting_a_site_costs_one_query_of_its_setups_and_a_transaction_for_each(api, request_counter):
    ada = api.org_admin()
    bare, used = new_site(api, ada, title="Bare"), new_site(api, ada, title="Used")
    setup_on(api, ada, "site", used["id"])
    request_counter.clear()
    assert api.delete(f"/orgs/{ada.org_id}/sites/{bare['id']}", token=ada.token).status == 204
    without = dict(request_counter)
    request_counter.clear()
    assert api.delete(f"/orgs/{ada.org_id}/sites/{used['id']}", token=ada.token).status == 204
    # The token and the site (GetItem), the membership and organization (BatchGetItem); the Query of the
    # site's partition, the Query of its integration setups (the one request this adds), the transaction
    # that deletes the site; with a setup, one more transaction (the setup, its installation's counter,
    # its event).
    assert without == {"GetItem": 2, "BatchGetItem": 1, "Query": 2, "TransactWriteItems": 1}
    assert dict(request_counter) == {**without, "TransactWriteItems": 2}
