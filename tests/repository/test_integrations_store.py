"""Integrations and their installations (store/integrations.py, store/integration_installations.py) on
every engine (moto, DynamoDB Local): the conditional writes that keep versions, once-per-organization
installations and the space/site counters exact, and the filtered listings with their counts."""

from __future__ import annotations

import pytest

from bindery.platform.errors import TransactionConflict
from bindery.store import Transaction
from bindery.store import integration_events as event_store
from bindery.store import integration_installations as install_store
from bindery.store import integrations as integration_store
from bindery.store.integration_events import Event
from bindery.store.integration_installations import ContentInstallation, Installation
from bindery.store.integrations import Integration, IntegrationFilter

pytestmark = pytest.mark.repository

AT = "2026-01-01T00:00:00.000Z"


def _integration(name: str = "analytics", owner: str = "o1", **fields: object) -> Integration:
    values: dict[str, object] = {"version": 1, "title": f"Title {name}", "created_at": AT, "updated_at": AT,
                                 "script_digest": "d", **fields}
    return Integration(name=name, owner_id=owner, **values)  # type: ignore[arg-type]


def _publish(integration: Integration, seen: int | None = None) -> None:
    Transaction(integration_store.publish_op(integration, seen)).commit()


def _installation(name: str = "analytics", org: str = "o2", installation_id: str = "i1") -> Installation:
    return Installation(id=installation_id, integration=name, org_id=org, status="active", created_at=AT,
                        updated_at=AT)


def test_a_version_is_published_once_and_the_next_only_over_the_one_read() -> None:
    _publish(_integration())
    with pytest.raises(TransactionConflict):
        _publish(_integration())  # the name is taken
    second = _integration(version=2, endpoint="https://hooks.example.com/bindery")
    _publish(second, seen=1)
    with pytest.raises(TransactionConflict):
        _publish(_integration(version=2), seen=1)  # a concurrent publish read version 1 too
    stored = integration_store.get_integration("analytics")
    assert (stored.version, stored.endpoint) == (2, "https://hooks.example.com/bindery")


def test_the_listing_filters_with_an_exact_count_and_pages() -> None:
    _publish(_integration("a", categories=["analytics"], scopes=["site:script:inject"]))
    _publish(_integration("b", visibility="private"))
    block = {"id": "x", "title": "X", "urlUnfurl": ["https://m.example/"]}
    _publish(_integration("c", owner="o2", blocks=[block]))
    everyone = IntegrationFilter()
    assert integration_store.integrations_count(None, everyone) == 2  # b is private
    assert integration_store.integrations_count(None, IntegrationFilter(visible_owners=("o1",))) == 3
    assert integration_store.integrations_count("o1", IntegrationFilter(visible_owners=("o1",))) == 2
    found = integration_store.integrations_page(None, IntegrationFilter(block_domain="m.example"), 10, None)
    assert [item["name"] for item in found.items] == ["c"]
    narrow = IntegrationFilter(category="analytics", scope="site:script:inject")
    assert integration_store.integrations_count(None, narrow) == 1
    first = integration_store.integrations_page(None, everyone, 1, None)
    rest = integration_store.integrations_page(None, everyone, 10, first.last_key)
    assert [i["name"] for i in first.items + rest.items] == ["a", "c"]


def test_an_organization_installs_once_and_only_an_existing_integration() -> None:
    with pytest.raises(TransactionConflict) as missing:
        Transaction(install_store.install_ops(_installation())).commit()
    assert missing.value.failed("integration")
    _publish(_integration())
    Transaction(install_store.install_ops(_installation())).commit()
    with pytest.raises(TransactionConflict) as twice:
        Transaction(install_store.install_ops(_installation(installation_id="i2"))).commit()
    assert twice.value.failed("guard")
    assert install_store.installation_id_on("analytics", "o2") == "i1"
    assert install_store.org_installations_count("o2") == 1


def test_space_and_site_installations_move_the_counters_exactly() -> None:
    _publish(_integration())
    Transaction(install_store.install_ops(_installation())).commit()

    def setup(kind: str, content_id: str) -> ContentInstallation:
        return ContentInstallation(kind=kind, integration="analytics", installation_id="i1",
                                   content_id=content_id, org_id="o2", status="active", created_at=AT,
                                   updated_at=AT, external_ids=[f"x-{content_id}"])

    for content_id in ("s1", "s2"):
        Transaction(install_store.install_content_ops(setup("space", content_id))).commit()
    Transaction(install_store.install_content_ops(setup("site", "w1"))).commit()
    with pytest.raises(TransactionConflict):
        Transaction(install_store.install_content_ops(setup("space", "s1"))).commit()
    stored = install_store.get_installation("analytics", "i1")
    assert (stored.spaces, stored.sites) == (2, 1)
    assert install_store.content_installations_count("space", "analytics", "i1", "x-s2") == 1
    assert [s.integration for s in install_store.installed_on("space", "s1")] == ["analytics"]
    Transaction(install_store.uninstall_content_ops(setup("space", "s1"))).commit()
    with pytest.raises(TransactionConflict):
        Transaction(install_store.uninstall_content_ops(setup("space", "s1"))).commit()  # already gone
    assert install_store.get_installation("analytics", "i1").spaces == 1
    assert len(install_store.installation_content_keys("analytics", "i1")) == 2


def test_an_update_applies_only_over_the_state_it_read() -> None:
    _publish(_integration())
    installation = _installation()
    Transaction(install_store.install_ops(installation)).commit()
    installation.external_ids, installation.updated_at = ["e"], "2026-01-02T00:00:00.000Z"
    Transaction(install_store.update_installation_op(installation, AT)).commit()
    with pytest.raises(TransactionConflict):
        Transaction(install_store.update_installation_op(installation, AT)).commit()
    assert install_store.installations_count("analytics", "e") == 1


def test_unpublishing_deletes_the_whole_partition() -> None:
    _publish(_integration())
    Transaction(install_store.install_ops(_installation())).commit()
    integration_store.delete_partition("analytics")
    assert integration_store.get_integration("analytics") is None
    assert install_store.get_installation("analytics", "i1") is None
    assert install_store.installation_id_on("analytics", "o2") is None


def test_events_list_newest_first_and_each_attempt_appends_to_the_trace() -> None:
    _publish(_integration())
    for event_id in ("e1", "e2", "e3"):
        event = Event(id=event_id, integration="analytics", installation_id="i1", org_id="o2", created_at=AT,
                      payload={"eventId": event_id, "type": "installation_setup"})
        Transaction(event_store.put_event_op(event)).commit()
    page = event_store.events_page("analytics", 2, None)
    rest = event_store.events_page("analytics", 2, page.last_key)
    assert [item["id"] for item in page.items + rest.items] == ["e3", "e2", "e1"]
    assert event_store.events_count("analytics") == 3
    event = event_store.get_event("analytics", "e1")
    line = {"message": "m", "timestamp": AT, "level": "info"}
    event_store.record_attempt(event, [line] * 30, "failed")
    event_store.record_attempt(event, [line] * 30, "success")
    stored = event_store.get_event("analytics", "e1")
    assert (stored.delivery, stored.attempts, len(stored.logs)) == ("success", 2, event_store.MAX_LOGS)
    event_store.delete_events("analytics")
    assert event_store.events_count("analytics") == 0
