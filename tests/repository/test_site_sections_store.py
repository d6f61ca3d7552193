"""Site sections, groups, settings and share links in the site's partition (store/site_sections.py,
store/site_settings.py), on every engine (moto, DynamoDB Local)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bindery.platform.errors import TransactionConflict
from bindery.store import Transaction, site_structure
from bindery.store import site_sections as section_store
from bindery.store import site_settings as settings_store
from bindery.store import sites as site_store
from bindery.store.site_sections import Section, SectionGroup
from bindery.store.site_settings import AdaptiveSchema, ShareLink
from bindery.store.sites import Site

pytestmark = pytest.mark.repository

AT = "2026-01-01T00:00:00.000Z"


def _site() -> Site:
    site = Site(id="s1", org_id="o1", title="Docs", created_at=AT, updated_at=AT)
    Transaction(site_store.put_site_op(site)).commit()
    return site


def _section(section_id: str, path: str, position: str, **fields) -> Section:
    return Section(id=section_id, site_id="s1", title=path.title(), path=path, position=position,
                   created_at=AT, **fields)


def test_the_structure_query_reads_sections_groups_settings_and_links_with_the_site():
    _site()
    guide, api = _section("a", "guide", "a0", icon="book"), _section("b", "api", "b0", condition="x == 1")
    group = SectionGroup(id="g", site_id="s1", title="Learn", position="c0", created_at=AT)
    link = ShareLink(id="l1", site_id="s1", name="Partners", key="secret", active=True, created_at=AT)
    Transaction(section_store.put_section_op(guide), section_store.section_path_guard_op(guide),
                section_store.put_section_op(api), section_store.section_path_guard_op(api),
                section_store.put_group_op(group), settings_store.put_share_link_op(link),
                settings_store.put_customization_op("s1", {"styling": {"theme": "bold"}, "n": 1.5}, AT),
                settings_store.put_override_op("s1", "ss1", {"title": "Guide"}, AT)).commit()
    found = site_structure.structure("s1")
    assert found is not None
    assert [(s.id, s.path, s.icon, s.condition) for s in found.ordered_sections()] == [
        ("a", "guide", "book", None), ("b", "api", None, "x == 1")]
    assert [(g.id, g.title) for g in found.groups] == [("g", "Learn")]
    assert found.customization == {"styling": {"theme": "bold"}, "n": 1.5}
    assert found.overrides == {"ss1": {"title": "Guide"}}
    assert [(link.id, link.key, link.active) for link in found.share_links] == [("l1", "secret", True)]
    assert found.default_section() == found.section("a")


def test_section_paths_are_unique_and_moves_need_the_section_as_read():
    _site()
    guide = _section("a", "guide", "a0")
    Transaction(section_store.put_section_op(guide), section_store.section_path_guard_op(guide)).commit()
    clash = _section("b", "guide", "b0")
    with pytest.raises(TransactionConflict) as refused:
        Transaction(section_store.put_section_op(clash), section_store.section_path_guard_op(clash)).commit()
    assert refused.value.failed("path")
    Transaction(section_store.update_section_op(guide, replace(guide, position="Z0", group="g"))).commit()
    with pytest.raises(TransactionConflict) as stale:  # its position moved
        Transaction(section_store.update_section_op(guide, replace(guide, title="Late"))).commit()
    assert stale.value.failed("section")
    moved = replace(guide, position="Z0", group="g")
    Transaction(section_store.regroup_section_op(moved, None)).commit()
    with pytest.raises(TransactionConflict):
        Transaction(section_store.regroup_section_op(moved, "h")).commit()  # no longer in g
    found = site_structure.structure("s1")
    assert found is not None
    assert [(s.id, s.group, s.title) for s in found.sections] == [("a", None, "Guide")]


def test_settings_need_the_site_and_the_adaptive_schema_round_trips():
    orphan = Transaction(settings_store.site_check_op("s1"),
                         settings_store.put_adaptive_schema_op("s1", AdaptiveSchema({"type": "object"}, AT)))
    with pytest.raises(TransactionConflict) as missing:
        orphan.commit()
    assert missing.value.failed("site")
    assert settings_store.get_adaptive_schema("s1") is None
    _site()
    schema = AdaptiveSchema({"type": "object", "properties": {}, "additionalProperties": False}, AT)
    Transaction(settings_store.site_check_op("s1"),
                settings_store.put_adaptive_schema_op("s1", schema)).commit()
    assert settings_store.get_adaptive_schema("s1") == schema
    assert site_store.delete_partition_items("s1") == 1
    assert settings_store.get_adaptive_schema("s1") is None
