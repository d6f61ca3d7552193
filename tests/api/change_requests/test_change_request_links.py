"""Link checks and file backlinks on a change request's revision (`GET CR/content/page/{id}/links`,
`GET CR/content/files/{id}/backlinks`): what the change request adds is counted as its own."""

from __future__ import annotations

import base64

from tests.api.change_requests.test_change_request_content import edit, setup  # noqa: F401 - a fixture
from tests.api.members.test_members import error, join


def test_page_links_are_checked_in_the_change_request_revision(api, setup):  # noqa: F811
    ada, space_id, cr = setup
    reply = edit(api, ada, space_id, cr["id"], {
        "operation": "update_page", "page": "p3",
        "document": {"markdown": "See [gone](./missing.md) and [docs](https://example.com/docs)."}})
    assert reply.status == 200, reply.body
    path = f"/spaces/{space_id}/change-requests/{cr['id']}/content/page/p3/links"
    body = api.get(path, token=ada.token).json()
    assert body["stats"] == {"total": 2, "broken": {"total": 1, "changeRequest": 1}}
    assert sorted(item["status"] for item in body["items"]) == ["broken", "ok"]
    context = body["items"][0]["locationReferences"][0]["versionContext"]
    assert context["type"] == "changeRequest"
    assert context["changeRequest"]["id"] == cr["id"]
    broken = api.get(path, token=ada.token, query={"status": "broken"}).json()["items"]
    assert [item["status"] for item in broken] == ["broken"]
    # The space itself still has the page as it was: nothing broken there.
    space = api.get(f"/spaces/{space_id}/content/page/p3/links", token=ada.token).json()
    assert space["stats"]["broken"]["total"] == 0


def test_file_backlinks_name_the_pages_of_the_change_request(api, setup):  # noqa: F811
    ada, space_id, cr = setup
    png = base64.b64encode(b"\x89PNG\r\n\x1a\nbytes").decode()
    reply = edit(api, ada, space_id, cr["id"],
                 {"operation": "insert_files", "files": [{"name": "a.png", "contentType": "image/png",
                                                         "base64": png, "ref": "a.png"}]},
                 {"operation": "insert_page", "title": "Pic", "document": {"markdown": "![A](./a.png)"}},
                 compat=False)
    assert reply.status == 200, reply.body
    base = f"/spaces/{space_id}/change-requests/{cr['id']}/content"
    files = api.get(f"{base}/files", token=ada.token).json()["items"]
    backlinks = api.get(f"{base}/files/{files[0]['id']}/backlinks", token=ada.token)
    assert backlinks.status == 200, backlinks.body
    pages = [item["page"]["title"] for item in backlinks.json()["items"]]
    assert pages == ["Pic"]
    error(api.get(f"/spaces/{space_id}/content/files/{files[0]['id']}/backlinks", token=ada.token), 404)


def test_outsiders_and_unknown_change_requests_get_404(api, setup):  # noqa: F811
    ada, space_id, cr = setup
    stranger = api.user("Eve")
    error(api.get(f"/spaces/{space_id}/change-requests/{cr['id']}/content/page/p3/links",
                  token=stranger.token), 404)
    error(api.get(f"/spaces/{space_id}/change-requests/nope/content/page/p3/links", token=ada.token), 404)
    reader = join(api, ada.org_id, "Rita", "read")
    assert api.get(f"/spaces/{space_id}/change-requests/{cr['id']}/content/page/p3/links",
                   token=reader.token).status == 200
