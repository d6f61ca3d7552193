"""The sites repository (store/sites.py, site_spaces.py, site_structure.py), on every engine (moto, DynamoDB
Local)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bindery.keys import sites as site_keys
from bindery.platform.errors import TransactionConflict
from bindery.store import Transaction, site_structure, table
from bindery.store import site_spaces as site_space_store
from bindery.store import sites as site_store
from bindery.store.site_spaces import SiteSpace
from bindery.store.sites import Site, SiteFilter

pytestmark = pytest.mark.repository

AT = "2026-01-01T00:00:00.000Z"


def _site(site_id: str = "s1", org_id: str = "o1", **fields) -> Site:
    return Site(id=site_id, org_id=org_id, title=fields.pop("title", "Docs"), created_at=AT, updated_at=AT,
                **fields)


def _site_space(site: Site, ss_id: str, space_id: str, path: str, position: str) -> SiteSpace:
    return SiteSpace(id=ss_id, site_id=site.id, org_id=site.org_id, space_id=space_id, path=path,
                     position=position, created_at=AT)


def _create(site: Site, *site_spaces: SiteSpace) -> None:
    ops = [site_store.put_site_op(site)]
    for ss in site_spaces:
        ops += [site_space_store.put_site_space_op(ss), site_space_store.path_guard_op(ss)]
    Transaction(ops).commit()


def test_a_sites_whole_structure_is_one_query_and_paths_are_unique_among_siblings():
    site = _site(site_spaces=2, default_site_space="a")
    _create(site, _site_space(site, "b", "space-2", "api", "b0"),
            _site_space(site, "a", "space-1", "guide", "a0"))
    found = site_structure.structure("s1")
    assert found is not None
    assert (found.site.title, found.site.site_spaces, found.site.default_site_space) == ("Docs", 2, "a")
    assert [(ss.id, ss.path) for ss in found.ordered()] == [("a", "guide"), ("b", "api")]
    clash = _site_space(site, "c", "space-3", "guide", "c0")
    with pytest.raises(TransactionConflict) as refused:
        Transaction(site_space_store.put_site_space_op(clash), site_space_store.path_guard_op(clash)).commit()
    assert refused.value.failed("path")
    assert [ss.id for ss in site_structure.structure("s1").site_spaces] == ["a", "b"]  # nothing written
    assert [ss.site_id for ss in site_space_store.space_site_spaces("space-1")] == ["s1"]
    assert site_structure.structure("no-such-site") is None


def test_basenames_are_unique_in_an_organization_and_updates_need_the_site_as_read():
    first, second = _site("s1"), _site("s2")
    _create(first)
    _create(second)
    renamed = replace(first, basename="docs", updated_at="2026-01-02T00:00:00.000Z")
    Transaction(site_store.basename_guard_op("o1", "docs", "s1"),
                site_store.update_site_op(first, renamed)).commit()
    with pytest.raises(TransactionConflict) as taken:
        Transaction(site_store.basename_guard_op("o1", "docs", "s2"),
                    site_store.update_site_op(second, replace(second, basename="docs"))).commit()
    assert taken.value.failed("basename")
    # Another organization has basenames of its own.
    Transaction(site_store.basename_guard_op("o2", "docs", "s9")).commit()
    # `first` as read before its update is stale now.
    with pytest.raises(TransactionConflict) as stale:
        Transaction(site_store.count_site_spaces_op(first, 1, "x")).commit()
    assert stale.value.failed("site")
    assert site_store.get_site("s1").basename == "docs"


def test_listing_filters_and_counts_the_organizations_sites():
    for site_id, title, published in (("s1", "Docs", True), ("s2", "Blog", False), ("s3", "API docs", True)):
        _create(_site(site_id, title=title, published=published))
    _create(_site("s4", org_id="o2"))
    page = site_store.org_sites_page("o1", 2, None)
    assert [item["id"] for item in page.items] == ["s1", "s2"]
    assert [item["id"] for item in site_store.org_sites_page("o1", 2, page.last_key).items] == ["s3"]
    narrow = SiteFilter(title="Docs", published=True)
    assert site_store.org_sites_count("o1", narrow) == 2
    assert site_store.org_sites_count("o1") == 3


def test_deleting_a_site_leaves_nothing_of_it():
    site = _site(basename="docs")
    _create(site, _site_space(site, "a", "space-1", "guide", "a0"))
    Transaction(site_store.basename_guard_op("o1", "docs", "s1")).commit()
    assert site_store.delete_partition_items("s1") == 2  # the site space and its path guard
    Transaction(site_store.delete_site_ops(site)).commit()
    assert table.Query(partition=site_keys.partition("s1")).run().items == []
    assert table.get(site_keys.basename_guard("o1", "docs")) is None
    assert site_space_store.space_site_spaces("space-1") == []


def test_a_custom_hostname_names_one_site_and_is_released_with_it():
    first, second = _site("s1"), _site("s2")
    _create(first)
    _create(second)
    table.transact(site_store.hostname_ops(first, "Docs.Acme.test"))
    assert site_store.site_id_for_hostname("docs.acme.test") == "s1"
    assert site_store.get_site("s1").hostname == "docs.acme.test"
    with pytest.raises(TransactionConflict) as taken:
        table.transact(site_store.hostname_ops(second, "docs.acme.test"))
    assert taken.value.failed("hostname")
    table.transact(site_store.hostname_ops(site_store.get_site("s1"), "docs.acme.test"))  # again: kept
    table.transact(site_store.hostname_ops(site_store.get_site("s1"), "help.acme.test"))  # moved
    assert site_store.site_id_for_hostname("docs.acme.test") is None
    table.transact(site_store.hostname_ops(second, "docs.acme.test"))
    assert site_store.site_id_for_hostname("docs.acme.test") == "s2"
    Transaction(site_store.delete_site_ops(site_store.get_site("s1"))).commit()
    assert site_store.site_id_for_hostname("help.acme.test") is None


def test_a_site_reads_its_publishing_auth_with_its_structure():
    from bindery.store import site_settings
    from bindery.store.site_settings import PublishingAuth

    _create(_site())
    assert site_structure.structure("s1").publishing_auth is None
    auth = PublishingAuth(private_key="k" * 43, fallback_url="https://acme.test/login", updated_at=AT)
    Transaction(site_settings.site_check_op("s1"), site_settings.put_publishing_auth_op("s1", auth)).commit()
    assert site_structure.structure("s1").publishing_auth == auth


def test_an_organization_hostname_is_held_by_one_organization():
    from bindery.store import orgs as org_store
    from bindery.store.orgs import Organization

    acme, other = (Organization(id=org_id, title=org_id, created_at=AT) for org_id in ("o1", "o2"))
    for org in (acme, other):
        table.transact([table.put_op(org.to_item())])
    acme.hostname = "acme"
    org_store.update_org(acme, [], None)
    assert org_store.org_id_for_hostname("acme") == "o1"
    org_store.update_org(acme, [], "acme")  # unchanged: nothing to claim again
    other.hostname = "acme"
    with pytest.raises(TransactionConflict) as taken:
        org_store.update_org(other, [], None)
    assert taken.value.failed("hostname")
    acme.hostname = "acme-2"
    org_store.update_org(acme, [], "acme")
    assert (org_store.org_id_for_hostname("acme"), org_store.org_id_for_hostname("acme-2")) == (None, "o1")
    org_store.update_org(other, [], None)
    assert org_store.org_id_for_hostname("acme") == "o2"
