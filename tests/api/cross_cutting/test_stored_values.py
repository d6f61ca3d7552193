"""A stored value the response models refuse (an item an older Bindery imported, a hand edit) never makes a
read answer 500: the field is served as its default and a warning names the item and the page
(bindery.api.responses.base.stored_or), an optional field that does not validate is left out and a
layout key the spec does not name is dropped (StoredModel). A missing required field still fails."""

from __future__ import annotations

import logging

import pytest
from pydantic import ValidationError

from bindery.api.responses.content import RevisionPage
from bindery.api.wire.content import page_to_wire
from bindery.api.wire.content_views import View
from bindery.engines.content.page_defaults import DEFAULT_LAYOUT
from bindery.store import revisions as revision_store
from tests.api.content.test_content_reads import doc, page, publish, tree
from tests.api.spaces.test_spaces import new_space

# What GitBook's own docs hold (`layout.cover.size: background`), what the importer stored before it
# mapped values, and hand edits of other shapes.
STORED = {"width": "full", "coverSize": "background", "title": "maybe", "outline": 7}


def _warnings(caplog: pytest.LogCaptureFixture) -> list[dict[str, object]]:
    return [vars(record) for record in caplog.records
            if record.name == "wire" and record.levelname == "WARNING"]


@pytest.fixture
def stored(api):
    """A space whose current tree holds a page with layout values outside the spec, next to a clean one."""
    ada = api.org_admin()
    space_id = new_space(api, ada, title="Old import")["id"]
    value = tree(page("home", "Home", layout={"width": "wide"}),
                 page("bad", "Landing", page("child", "Child", layout={"coverSize": "background"}),
                      layout=dict(STORED)))
    revision_id = publish(space_id, value, {"home": doc("Hi."), "bad": doc("Welcome."), "child": doc("C.")})
    return ada, space_id, revision_id


def test_the_listing_the_page_and_its_document_read_with_the_defaults(api, stored):
    ada, space_id, revision_id = stored
    listing = api.get(f"/spaces/{space_id}/content/pages", token=ada.token)
    assert listing.status == 200, listing.body
    home, bad = listing.json()["pages"]
    assert home["layout"] == {**DEFAULT_LAYOUT, "width": "wide"}  # valid values are served as stored
    # the refused values are served as the default layout's; the others of the same page as stored
    assert bad["layout"] == DEFAULT_LAYOUT
    assert bad["pages"][0]["layout"] == DEFAULT_LAYOUT
    one = api.get(f"/spaces/{space_id}/content/page/bad", token=ada.token)
    assert one.status == 200, one.body
    assert (one.json()["layout"], one.json()["document"]) == (DEFAULT_LAYOUT, doc("Welcome."))
    assert api.get(f"/spaces/{space_id}/content/path/landing/child", token=ada.token).status == 200
    document = api.get(f"/spaces/{space_id}/revisions/{revision_id}/page/bad/document", token=ada.token)
    assert (document.status, document.json()) == (200, doc("Welcome."))
    revision = api.get(f"/spaces/{space_id}/content", token=ada.token)
    assert revision.status == 200, revision.body
    assert api.get(f"/spaces/{space_id}/content/page/bad", token=ada.token,
                   query={"format": "markdown"}).status == 200


def test_each_refused_value_is_logged_with_its_item_and_page(api, stored, caplog):
    ada, space_id, revision_id = stored
    caplog.set_level(logging.WARNING, logger="wire")  # the test settings log CRITICAL only
    assert api.get(f"/spaces/{space_id}/content/page/bad", token=ada.token).status == 200
    warnings = _warnings(caplog)
    found = {(w["page"], w["field"], w["stored"], w["served"]) for w in warnings}
    assert found == {
        ("bad", "width", "'full'", "default"), ("bad", "coverSize", "'background'", "hero"),
        ("bad", "title", "'maybe'", True), ("bad", "outline", "7", True),
        ("child", "coverSize", "'background'", "hero"),
    }
    assert {w["item"] for w in warnings} == {f"space {space_id} revision {revision_id}"}


def test_reading_a_refused_value_costs_no_extra_request(api, stored, request_counter):
    ada, space_id, _ = stored
    revision_store.clear_cache()
    request_counter.clear()
    assert api.get(f"/spaces/{space_id}/content/page/bad", token=ada.token).status == 200
    assert request_counter == {"GetItem": 5, "BatchGetItem": 1}  # as test_content_reads' cold page read


# Stored shapes of other kinds: a layout key the spec does not name (an older Bindery's, a hand edit) and
# optional fields of the wrong type or shape. None is refused when written (content.tree.validate checks
# the tree's structure, not these fields), and each made every read of the space answer 500.
ODD = {"layout": {"mask": "radial", "width": "wide"}, "hidden": "sometimes", "icon": 7,
       "cover": "cover.png", "variables": ["x"], "createdAt": 1700000000, "description": {"text": "D"}}


@pytest.fixture
def odd(api):
    ada = api.org_admin()
    space_id = new_space(api, ada, title="Hand edited")["id"]
    value = tree(page("home", "Home"), page("odd", "Odd", page("kid", "Kid", layout={"mask": "x"}), **ODD))
    revision_id = publish(space_id, value, {"home": doc("Hi."), "odd": doc("Odd."), "kid": doc("K.")})
    return ada, space_id, revision_id


def test_every_read_serves_odd_stored_shapes_with_the_fields_defaulted(api, odd, caplog):
    ada, space_id, revision_id = odd
    caplog.set_level(logging.WARNING, logger="wire")
    listing = api.get(f"/spaces/{space_id}/content/pages", token=ada.token)
    assert listing.status == 200, listing.body
    served = listing.json()["pages"][1]
    assert served["layout"] == {**DEFAULT_LAYOUT, "width": "wide"}
    assert served["pages"][0]["layout"] == DEFAULT_LAYOUT
    assert not {"hidden", "icon", "cover", "variables", "createdAt", "description"} & served.keys()
    reads = [f"/spaces/{space_id}/content/page/odd", f"/spaces/{space_id}/content/path/odd",
             f"/spaces/{space_id}/content/path/odd/kid", f"/spaces/{space_id}/content",
             f"/spaces/{space_id}/revisions/{revision_id}",
             f"/spaces/{space_id}/revisions/{revision_id}/pages",
             f"/spaces/{space_id}/revisions/{revision_id}/page/odd",
             f"/spaces/{space_id}/revisions/{revision_id}/path/odd"]
    for path in reads:
        answer = api.get(path, token=ada.token)
        assert answer.status == 200, (path, answer.body)
    one = api.get(f"/spaces/{space_id}/content/page/odd", token=ada.token, query={"format": "markdown"})
    assert (one.status, one.json()["layout"]) == (200, {**DEFAULT_LAYOUT, "width": "wide"})
    found = {(w["page"], w["field"]) for w in _warnings(caplog)}
    assert {("odd", "mask"), ("kid", "mask"), ("odd", "hidden"), ("odd", "icon"), ("odd", "cover"),
            ("odd", "variables"), ("odd", "createdAt"), ("odd", "description")} <= found
    assert {w["item"] for w in _warnings(caplog)} == {f"space {space_id} revision {revision_id}"}


def test_odd_stored_shapes_cost_no_extra_request(api, odd, request_counter):
    ada, space_id, _ = odd
    revision_store.clear_cache()
    request_counter.clear()
    assert api.get(f"/spaces/{space_id}/content/page/odd", token=ada.token).status == 200
    assert request_counter == {"GetItem": 5, "BatchGetItem": 1}  # as test_content_reads' cold page read


# --- what stays an error --------------------------------------------------------------------------------
def _entry(**layout):
    return {"id": "p", "type": "document", "title": "P", "slug": "p", "layout": layout}


def test_a_layout_key_the_model_does_not_know_is_dropped():
    served = page_to_wire(View("s", "r", current=True), _entry(mask="radial", width="wide"), "p")
    assert served.root.layout.model_dump() == {**DEFAULT_LAYOUT, "width": "wide"}  # type: ignore[union-attr]


def test_an_icon_or_emoji_longer_than_the_spec_allows_is_left_out():
    # an older import stored any icon; the API takes icons up to 2048 characters
    entry = {**_entry(), "icon": "i" * 51, "emoji": "e" * 51}
    served = page_to_wire(View("s", "r", current=True), entry, "p").model_dump(exclude_none=True)
    assert "icon" not in served
    assert "emoji" not in served
    kept = page_to_wire(View("s", "r", current=True), {**_entry(), "icon": "i" * 50}, "p")
    assert kept.root.icon == "i" * 50


def test_a_missing_required_field_still_fails():
    fields = {"id": "p", "type": "document", "title": "P", "path": "p", "pages": [], "kind": "sheet",
              "urls": {"app": "https://app/p"}, "layout": DEFAULT_LAYOUT}
    with pytest.raises(ValidationError, match="slug"):
        RevisionPage.model_validate(fields, context={"item": "x"})


def test_a_nested_shape_error_inside_a_tolerated_field_still_fails():
    # a list where an enum's string belongs is a stored value of another shape: served as the default;
    # but a page's `pages` that is no list is Bindery's own bug
    served = page_to_wire(View("s", "r", current=True), _entry(coverSize=["full"]), "p")
    assert served.root.layout.coverSize == "hero"  # type: ignore[union-attr]
    with pytest.raises(ValidationError):
        RevisionPage.model_validate({**_entry(), "path": "p", "kind": "sheet", "pages": "none",
                                     "urls": {"app": "a"}, "layout": DEFAULT_LAYOUT})
