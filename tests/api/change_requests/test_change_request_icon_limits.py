"""Page icons written through the change-request content API keep to the spec's `Icon` (50 characters):
the request's own `icon` and a Markdown body's front matter alike, a 400 naming the field, nothing written."""

from __future__ import annotations

from bindery.store import change_requests as cr_store
from tests.api.change_requests.test_change_request_content import edit, setup  # noqa: F401  (the fixture)
from tests.api.members.test_members import error

LONG = "x" * 51


def test_an_icon_past_the_spec_length_is_a_400_naming_it(api, setup):  # noqa: F811
    ada, space_id, cr = setup
    for change in ({"operation": "insert_page", "title": "Iconic", "icon": LONG, "document": {}},
                   {"operation": "update_page", "page": "p1", "icon": LONG}):
        assert "icon" in error(edit(api, ada, space_id, cr["id"], change), 400)
    assert cr_store.get_change_request(space_id, cr["id"]).revision == cr["revision"]
    reply = edit(api, ada, space_id, cr["id"],
                 {"operation": "update_page", "page": "p1", "icon": "x" * 50})
    assert reply.status == 200, reply.body
    page = api.get(f"/spaces/{space_id}/change-requests/{cr['id']}/content/page/p1", token=ada.token).json()
    assert page["icon"] == "x" * 50


def test_a_front_matter_icon_past_the_spec_length_is_a_400_naming_it(api, setup):  # noqa: F811
    ada, space_id, cr = setup
    markdown = f"---\nicon: {LONG}\n---\n\n# Iconic\n\nBody\n"
    for change in ({"operation": "insert_page", "document": {"markdown": markdown}},
                   {"operation": "update_page", "page": "p1", "document": {"markdown": markdown}}):
        message = error(edit(api, ada, space_id, cr["id"], change), 400)
        assert "changes[0].document.markdown" in message
        assert "icon" in message
    assert cr_store.get_change_request(space_id, cr["id"]).revision == cr["revision"]
