"""SPACE/search and ORG/search through the API: ranked pages with sections, 400s, access, pages."""

from __future__ import annotations

import pytest

from tests.api.content.test_content_reads import page, publish, tree
from tests.api.members.test_members import error, join
from tests.api.spaces.test_spaces import give, new_space


def heading(text, key):
    return {"object": "block", "type": "heading-1", "key": key, "data": {},
            "nodes": [{"object": "text", "leaves": [{"object": "leaf", "text": text, "marks": []}]}]}


def para(text, key):
    return {"object": "block", "type": "paragraph", "key": key, "data": {},
            "nodes": [{"object": "text", "leaves": [{"object": "leaf", "text": text, "marks": []}]}]}


def document(*blocks):
    return {"object": "document", "data": {}, "nodes": list(blocks)}


GUIDE = tree(page("g", "Guides", page("p1", "Installing"), page("p2", "Buffers"), kind="group"),
             page("p3", "Outputs"))
GUIDE_DOCS = {
    "p1": document(para("Install the agent first.", "a"), heading("On Debian", "b"),
                   para("Run apt-get install to install the package.", "c")),
    "p2": document(para("Buffers hold chunks until they are flushed.", "d"),
                   heading("Chunk limits", "e"), para("The chunk limit caps each chunk.", "f")),
    "p3": document(para("Outputs flush buffered chunks to storage; install plugins for more.", "g")),
}


@pytest.fixture
def guide(api):
    ada = api.org_admin()
    space_id = new_space(api, ada, title="Guide")["id"]
    revision_id = publish(space_id, GUIDE, GUIDE_DOCS)
    return ada, space_id, revision_id


def test_space_search_ranks_pages_and_shows_matching_sections(api, guide):
    ada, space_id, _ = guide
    reply = api.get(f"/spaces/{space_id}/search", token=ada.token, query={"query": "install"})
    assert reply.status == 200, reply.body
    body = reply.json()
    assert body["count"] == 2
    first, second = body["items"]
    assert (first["id"], first["title"], first["path"]) == ("p1", "Installing", "guides/installing")
    assert first["urls"]["app"].endswith(f"/s/{space_id}/guides/installing")
    assert second["id"] == "p3"
    anchors = {section["id"]: section for section in first["sections"]}
    debian = anchors["on-debian"]
    assert (debian["title"], debian["path"]) == ("On Debian", "guides/installing#on-debian")
    assert "install the package" in debian["body"]
    assert debian["urls"]["app"].endswith("/guides/installing#on-debian")


def test_a_warm_space_search_reads_only_the_space_and_the_callers_access(api, guide, request_counter):
    ada, space_id, _ = guide
    first = api.get(f"/spaces/{space_id}/search", token=ada.token, query={"query": "install"})
    request_counter.clear()
    again = api.get(f"/spaces/{space_id}/search", token=ada.token, query={"query": "chunks"})
    assert again.status == 200, again.body
    # token (authorizer), the space, then the membership and the organization in one batch: which index
    # the revision has was read by the first search and never changes.
    assert request_counter == {"GetItem": 2, "BatchGetItem": 1}
    assert [item["id"] for item in first.json()["items"]] == ["p1", "p3"]
    assert [item["id"] for item in again.json()["items"]] == ["p2", "p3"]


def test_a_warm_org_search_reads_no_index_pointer(api, guide, request_counter):
    ada, space_id, _ = guide
    other = new_space(api, ada, title="Other")["id"]
    publish(other, tree(page("o1", "Install more")), {})
    first = api.get(f"/orgs/{ada.org_id}/search", token=ada.token, query={"query": "install"})
    request_counter.clear()
    again = api.get(f"/orgs/{ada.org_id}/search", token=ada.token, query={"query": "install"})
    # token, the page of spaces (GSI1), the caller's roles with the organization: the pointers of both
    # spaces' revisions were read by the first search
    assert request_counter == {"GetItem": 1, "Query": 1, "BatchGetItem": 1}
    assert again.json() == first.json()
    assert {item["id"] for item in again.json()["items"]} == {space_id, other}


def test_stemming_phrases_and_prefixes_through_the_api(api, guide):
    ada, space_id, _ = guide

    def ids(query):
        reply = api.get(f"/spaces/{space_id}/search", token=ada.token, query={"query": query})
        assert reply.status == 200, reply.body
        return [item["id"] for item in reply.json()["items"]]

    assert set(ids("flushing")) == {"p2", "p3"}
    assert ids('"chunk limit"') == ["p2"]
    assert ids("buff*")[0] == "p2"
    assert ids('unbalanced " AND (') == []  # never an FTS syntax error


@pytest.mark.parametrize("query", [{}, {"query": ""}, {"query": "   "}, {"query": "x" * 513}])
def test_a_missing_empty_or_long_query_is_a_400(api, guide, query):
    ada, space_id, _ = guide
    assert "query" in error(api.get(f"/spaces/{space_id}/search", token=ada.token, query=query), 400)
    assert "query" in error(api.get(f"/orgs/{ada.org_id}/search", token=ada.token, query=query), 400)


def test_results_page_within_the_revision_they_started_on(api, guide):
    ada, space_id, _ = guide
    first = api.get(f"/spaces/{space_id}/search", token=ada.token,
                    query={"query": "chunks", "limit": 1}).json()
    assert (len(first["items"]), first["count"]) == (1, 2)
    publish(space_id, tree(page("p9", "Other")), {})  # every page is gone from the next revision
    second = api.get(f"/spaces/{space_id}/search", token=ada.token,
                     query={"query": "chunks", "limit": 1, "page": first["next"]["page"]}).json()
    assert len(second["items"]) == 1
    assert "next" not in second
    assert {first["items"][0]["id"], second["items"][0]["id"]} == {"p2", "p3"}
    fresh = api.get(f"/spaces/{space_id}/search", token=ada.token, query={"query": "chunks"}).json()
    assert fresh == {"items": [], "count": 0}
    other = api.get(f"/spaces/{space_id}/search", token=ada.token,
                    query={"query": "install", "page": first["next"]["page"]})
    assert "page" in error(other, 400)  # a cursor belongs to its query


def test_outsiders_get_404_and_readers_search(api, guide):
    ada, space_id, _ = guide
    eve = api.org_admin("Eve", "Elsewhere")
    assert error(api.get(f"/spaces/{space_id}/search", token=eve.token, query={"query": "x"}), 404)
    assert error(api.get(f"/orgs/{ada.org_id}/search", token=eve.token, query={"query": "x"}), 404)
    rita = join(api, ada.org_id, "Rita", "read")
    reply = api.get(f"/spaces/{space_id}/search", token=rita.token, query={"query": "install"})
    assert reply.status == 200
    assert reply.json()["count"] == 2


def test_org_search_groups_per_space_and_covers_only_readable_spaces(api, guide):
    ada, space_id, _ = guide
    secret = new_space(api, ada, title="Secret")["id"]
    publish(secret, tree(page("s1", "Install secrets")), {"s1": document(para("Install the vault.", "v"))})
    api.patch(f"/spaces/{secret}", token=ada.token, body={"defaultLevel": None})
    empty = new_space(api, ada, title="Empty")["id"]
    rita = join(api, ada.org_id, "Rita", "read")
    reply = api.get(f"/orgs/{ada.org_id}/search", token=ada.token, query={"query": "install"})
    assert reply.status == 200, reply.body
    groups = {item["id"]: item for item in reply.json()["items"]}
    assert set(groups) == {space_id, secret}
    assert groups[space_id]["title"] == "Guide"
    assert [p["id"] for p in groups[space_id]["pages"]] == ["p1", "p3"]
    assert empty not in groups
    for_rita = api.get(f"/orgs/{ada.org_id}/search", token=rita.token, query={"query": "install"}).json()
    assert [item["id"] for item in for_rita["items"]] == [space_id]
    assert (reply.json()["count"], for_rita["count"]) == (2, 1)  # spaces with matches Rita may read
    give("space", secret, "user", rita.user_id, "read")
    for_rita = api.get(f"/orgs/{ada.org_id}/search", token=rita.token, query={"query": "install"}).json()
    assert {item["id"] for item in for_rita["items"]} == {space_id, secret}


def test_org_search_pages_through_spaces(api, guide):
    ada, space_id, _ = guide
    other = new_space(api, ada, title="Other")["id"]
    publish(other, tree(page("o1", "Install more")), {})
    first = api.get(f"/orgs/{ada.org_id}/search", token=ada.token,
                    query={"query": "install", "limit": 1}).json()
    assert [item["id"] for item in first["items"]] == [space_id]
    second = api.get(f"/orgs/{ada.org_id}/search", token=ada.token,
                     query={"query": "install", "limit": 1, "page": first["next"]["page"]}).json()
    assert [item["id"] for item in second["items"]] == [other]
    # The first page searched every space to count those with matches; its cursor carries the count.
    assert first["count"] == second["count"] == 2


def test_responses_match_the_reference_spec(api, guide):
    from tests.search.spec_schema import check

    ada, space_id, _ = guide
    check("searchSpaceContent",
          api.get(f"/spaces/{space_id}/search", token=ada.token, query={"query": "install"}).json())
    check("searchOrganizationContent",
          api.get(f"/orgs/{ada.org_id}/search", token=ada.token, query={"query": "install"}).json())
