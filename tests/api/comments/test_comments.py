"""Comments on a space and on a change request, through the API: every test runs on both targets (the
same routes under /spaces/{id} and /spaces/{id}/change-requests/{id}), see docs/comments.md."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from bindery.engines.content.markdown import markdown_to_document
from tests.api.content.test_content_reads import page, publish, tree
from tests.api.members.test_members import error, join
from tests.api.spaces.test_spaces import new_space

INTRO = "Intro text\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"


@dataclass
class Where:
    """A comment target: `base` is the path the comment routes hang off."""

    api: object
    admin: object
    space_id: str
    base: str
    kind: str
    doc: dict

    def counter(self) -> int:
        """The target's `comments` (open comments), as the API shows it."""
        path = self.base if self.kind == "cr" else f"/spaces/{self.space_id}"
        reply = self.api.get(path, token=self.admin.token)
        assert reply.status == 200, reply.body
        return reply.json()["comments"]

    def post(self, who, markdown="Looks good", **target):
        reply = self.api.post(f"{self.base}/comments", token=who.token, body={"body": {"markdown": markdown},
                                                                              **target})
        assert reply.status == 200, reply.body
        return reply.json()

    def put(self, who, comment_id, **body):
        return self.api.put(f"{self.base}/comments/{comment_id}", token=who.token, body=body)

    def list(self, who, **query):
        reply = self.api.get(f"{self.base}/comments", token=who.token, query=query)
        assert reply.status == 200, reply.body
        return reply.json()


def comment_target(api, kind):
    """An admin's space whose content has page p1 (a paragraph and a table) and page p2; for "cr", a
    change request of that space (its revision holds the same content)."""
    ada = api.org_admin()
    space_id = new_space(api, ada, title="Docs")["id"]
    document = markdown_to_document(INTRO).document
    publish(space_id, tree(page("p1", "Intro"), page("p2", "Other")), {"p1": document})
    base = f"/spaces/{space_id}"
    if kind == "cr":
        created = api.post(f"{base}/change-requests", token=ada.token, body={"subject": "Edits"})
        assert created.status == 201, created.body
        base += f"/change-requests/{created.json()['id']}"
    return Where(api, ada, space_id, base, kind, document)


@pytest.fixture(params=["space", "cr"])
def where(request, api):
    return comment_target(api, request.param)


# --- posting and targets ------------------------------------------------------------------------------------
def test_a_posted_comment_has_the_spec_shape_and_counts_as_open(where):
    assert where.counter() == 0
    posted = where.post(where.admin, "Hello **there**", page="p1")
    assert posted["object"] == "comment"
    assert posted["status"] == "open"
    assert posted["body"] == {"markdown": "Hello **there**"}
    assert posted["postedBy"]["id"] == where.admin.user_id
    assert (posted["replies"], posted["repliers"], posted["reactions"]) == (0, [], [])
    assert posted["target"]["space"] == where.space_id
    assert posted["target"]["page"] == {"id": "p1"}
    assert posted["urls"]["location"].endswith(f"{where.base}/comments/{posted['id']}")
    assert posted["permissions"] == {"view": True, "edit": True, "reply": True, "delete": True}
    if where.kind == "cr":
        assert posted["target"]["changeRequest"] == where.base.rsplit("/", 1)[1]
    else:
        assert "changeRequest" not in posted["target"]
    assert where.counter() == 1
    got = where.api.get(f"{where.base}/comments/{posted['id']}", token=where.admin.token)
    assert got.json() == posted


def test_comments_target_nodes_and_table_cells_that_exist(where):
    paragraph, table = where.doc["nodes"]
    on_node = where.post(where.admin, page="p1", node=paragraph["key"])
    assert on_node["target"]["node"] == {"id": paragraph["key"]}
    cell = {"record": "r1", "definition": "c2"}
    on_cell = where.post(where.admin, page="p1", node=table["key"], tableCell=cell)
    assert on_cell["target"]["tableCell"] == cell
    assert where.post(where.admin, page="p1", tableCell=cell)["target"]["tableCell"] == cell
    # a key inside a table cell's fragment is a node of the page too
    inner = table["fragments"][0]["nodes"][0]["key"]
    assert where.post(where.admin, page="p1", node=inner)["target"]["node"] == {"id": inner}


@pytest.mark.parametrize(("target", "named"), [
    ({"page": "nope"}, "page"),
    ({"page": "p2", "node": "nope"}, "node"),
    ({"page": "p1", "node": "nope"}, "node"),
    ({"node": "x"}, "page"),
    ({"tableCell": {"record": "r1", "definition": "c1"}}, "page"),
    ({"page": "p1", "tableCell": {"record": "r9", "definition": "c1"}}, "tableCell"),
    ({"page": "p1", "tableCell": {"record": "r1", "definition": "c9"}}, "tableCell"),
    ({"page": "p1", "tableCell": {"record": "r1"}}, "tableCell"),
])
def test_a_target_missing_from_the_current_revision_is_a_400_and_writes_nothing(where, target, named):
    reply = where.api.post(f"{where.base}/comments", token=where.admin.token,
                           body={"body": {"markdown": "x"}, **target})
    assert named in error(reply, 400)
    assert where.list(where.admin)["items"] == []
    assert where.counter() == 0


def test_a_cell_must_be_in_the_named_table(where):
    paragraph = where.doc["nodes"][0]
    reply = where.api.post(f"{where.base}/comments", token=where.admin.token,
                           body={"body": {"markdown": "x"}, "page": "p1", "node": paragraph["key"],
                                 "tableCell": {"record": "r1", "definition": "c1"}})
    assert "tableCell" in error(reply, 400)


@pytest.mark.parametrize(("body", "named"), [
    ({}, "body"),
    ({"body": {}}, "body"),
    ({"body": {"markdown": "   "}}, "body.markdown"),
    ({"body": {"markdown": "x" * 20_001}}, "body.markdown"),
    ({"body": {"markdown": "x", "document": {"object": "document", "nodes": []}}}, "body"),
    ({"body": {"markdown": "x"}, "page": 3}, "page"),
])
def test_bad_bodies_are_400_naming_the_field(where, body, named):
    reply = where.api.post(f"{where.base}/comments", token=where.admin.token, body=body)
    assert named in error(reply, 400)


def test_a_document_body_is_stored_as_markdown(where):
    document = markdown_to_document("Some *words*").document
    posted = where.api.post(f"{where.base}/comments", token=where.admin.token,
                            body={"body": {"document": document}}).json()
    assert posted["body"]["markdown"].strip() == "Some _words_"
    assert where.list(where.admin, format="document")["items"][0]["body"]["document"]["nodes"] == \
        document["nodes"]


# --- format=document and mentions ---------------------------------------------------------------------------
def test_format_document_renders_markdown_and_recognises_member_mentions(where, api):
    bob = join(api, where.admin.org_id, "Bob", "comment")
    stranger = api.user("Stray")
    markdown = (f"# Heading kept\n\nHi [Bob](https://x/v1/users/{bob.user_id} \"mention\") and "
                f"[Stray](https://x/v1/users/{stranger.user_id} \"mention\")")
    posted = where.post(where.admin, markdown)
    assert posted["body"] == {"markdown": markdown}
    got = api.get(f"{where.base}/comments/{posted['id']}", token=where.admin.token,
                  query={"format": "document"}).json()
    nodes = got["body"]["document"]["nodes"]
    assert [node["type"] for node in nodes] == ["heading-1", "paragraph"]
    inlines = [node for node in nodes[1]["nodes"] if node["object"] == "inline"]
    assert inlines[0]["type"] == "mention"
    assert inlines[0]["data"]["ref"] == {"kind": "user", "user": bob.user_id}
    # not a member of the organization: stays a reference to its URL
    assert inlines[1]["data"]["ref"]["kind"] == "url"
    listed = where.list(where.admin, format="markdown")["items"][0]
    assert listed["body"] == {"markdown": markdown}


# --- resolving and the counters -----------------------------------------------------------------------------
def test_resolving_and_reopening_move_the_status_and_the_open_counter(where, api):
    bob = join(api, where.admin.org_id, "Bob", "comment")
    first, second = where.post(where.admin), where.post(where.admin)
    assert where.counter() == 2
    resolved = where.put(bob, first["id"], resolved=True).json()
    assert resolved["status"] == "resolved"
    assert resolved["resolvedBy"]["id"] == bob.user_id
    assert resolved["resolvedAt"] >= first["postedAt"]
    assert where.counter() == 1
    assert where.put(bob, first["id"], resolved=True).status == 200  # again: no change
    assert where.counter() == 1
    reopened = where.put(where.admin, first["id"], resolved=False).json()
    assert reopened["status"] == "open"
    assert "resolvedAt" not in reopened
    assert "resolvedBy" not in reopened
    assert where.counter() == 2
    where.put(where.admin, second["id"], resolved=True)
    # The listing's count follows each status (the target's open and resolved counters).
    counts = [where.list(where.admin, **query)["count"] for query in ({}, {"status": "open"},
                                                                      {"status": "resolved"})]
    assert counts == [2, 1, 1]
    assert where.api.delete(f"{where.base}/comments/{second['id']}", token=where.admin.token).status == 204
    assert where.counter() == 1  # a resolved comment was not counted
    assert [where.list(where.admin, **query)["count"] for query in ({}, {"status": "resolved"})] == [1, 0]
    assert where.api.delete(f"{where.base}/comments/{first['id']}", token=where.admin.token).status == 204
    assert where.counter() == 0
    assert where.api.delete(f"{where.base}/comments/{first['id']}", token=where.admin.token).status == 204


# --- listing ------------------------------------------------------------------------------------------------
def test_listing_orders_filters_and_paginates(where, api):
    bob = join(api, where.admin.org_id, "Bob", "comment")
    posted = [where.post(where.admin, "a", page="p1"), where.post(bob, "b", page="p2"),
              where.post(where.admin, "c"), where.post(bob, "d", page="p1")]
    ids = [c["id"] for c in posted]
    where.put(where.admin, ids[1], resolved=True)
    assert [c["id"] for c in where.list(where.admin)["items"]] == ids[::-1]
    assert [c["id"] for c in where.list(where.admin, order="asc")["items"]] == ids
    assert [c["id"] for c in where.list(where.admin, status="resolved")["items"]] == [ids[1]]
    assert [c["id"] for c in where.list(where.admin, status="open", order="asc")["items"]] == [
        ids[0], ids[2], ids[3]]
    on_p1 = where.list(where.admin, targetPage="p1", order="asc")
    assert [c["id"] for c in on_p1["items"]] == [ids[0], ids[3]]
    assert [c["id"] for c in where.list(where.admin, authors=bob.user_id, order="asc")["items"]] == [
        ids[1], ids[3]]
    query = f"authors={bob.user_id}&authors={where.admin.user_id}&order=asc"
    both = where.api.get(f"{where.base}/comments?{query}", token=where.admin.token).json()
    assert [c["id"] for c in both["items"]] == ids
    combined = where.list(where.admin, targetPage="p1", authors=bob.user_id, status="open")
    assert [c["id"] for c in combined["items"]] == [ids[3]]
    # pages: disjoint, complete, stable
    seen, cursor = [], None
    while True:
        page_ = where.list(where.admin, limit=3, order="asc", page=cursor)
        seen += [c["id"] for c in page_["items"]]
        cursor = page_.get("next", {}).get("page")
        if not cursor:
            break
    assert seen == ids
    # every page carries the count of the whole filtered listing
    counted = [where.list(where.admin, **query)["count"] for query in (
        {}, {"status": "resolved"}, {"status": "open"}, {"targetPage": "p1"}, {"authors": bob.user_id})]
    assert counted == [4, 1, 3, 2, 2]
    first = where.list(where.admin, status="open", limit=2)
    rest = where.list(where.admin, status="open", limit=2, page=first["next"]["page"])
    assert (first["count"], rest["count"], len(first["items"]) + len(rest["items"])) == (3, 3, 3)
    # a cursor belongs to its listing
    first_page = where.list(where.admin, limit=1)
    other = where.api.get(f"{where.base}/comments", token=where.admin.token,
                          query={"limit": 1, "status": "open", "page": first_page["next"]["page"]})
    assert "page" in error(other, 400)


@pytest.mark.parametrize(("query", "named"), [
    ({"order": "sideways"}, "order"), ({"status": "closed"}, "status"), ({"format": "html"}, "format"),
    ({"limit": 1001}, "limit"),
])
def test_bad_listing_queries_are_400(where, query, named):
    reply = where.api.get(f"{where.base}/comments", token=where.admin.token, query=query)
    assert named in error(reply, 400)


def test_get_and_list_cost_a_fixed_number_of_requests(where, api, request_counter):
    bob = join(api, where.admin.org_id, "Bob", "comment")
    for n in range(5):
        posted = where.post(bob if n % 2 else where.admin, f"c{n}")
    where.put(bob, posted["id"], addedReactions=["👍"])
    request_counter.clear()
    where.list(where.admin, format="document")
    # the token (authorizer), the space, (the change request); the caller's membership; one Query; one
    # BatchGetItem of every user the page shows
    extra = 1 if where.kind == "cr" else 0
    assert request_counter == {"GetItem": 2 + extra, "BatchGetItem": 2, "Query": 1}
    request_counter.clear()
    where.api.get(f"{where.base}/comments/{posted['id']}", token=where.admin.token)
    assert request_counter == {"GetItem": 3 + extra, "BatchGetItem": 2}  # ... and the comment


# --- reactions ----------------------------------------------------------------------------------------------
def test_reactions_count_each_user_once_per_emoji(where, api):
    bob = join(api, where.admin.org_id, "Bob", "comment")
    comment = where.post(where.admin)
    where.put(where.admin, comment["id"], addedReactions=["👍", "🎉"])
    where.put(bob, comment["id"], addedReactions=["👍", "👍"])
    again = where.put(bob, comment["id"], addedReactions=["👍"]).json()
    thumbs = next(r for r in again["reactions"] if r["emoji"] == "👍")
    assert thumbs["count"] == 2
    assert [u["user"]["id"] for u in thumbs["users"]] == [where.admin.user_id, bob.user_id]
    after = where.put(where.admin, comment["id"], removedReactions=["👍", "🚀"]).json()
    # first reacted first (🎉 came with the first 👍, which is gone: Bob's 👍 came later)
    assert [(r["emoji"], r["count"]) for r in after["reactions"]] == [("🎉", 1), ("👍", 1)]
    both = where.put(bob, comment["id"], addedReactions=["x"], removedReactions=["x"])
    assert "x" in error(both, 400)


# --- permissions --------------------------------------------------------------------------------------------
def test_readers_list_but_do_not_post_and_authors_or_admins_edit(where, api):
    reader = join(api, where.admin.org_id, "Rea", "read")
    bob = join(api, where.admin.org_id, "Bob", "comment")
    carol = join(api, where.admin.org_id, "Carol", "edit")
    comment = where.post(bob, "mine")
    assert where.list(reader)["items"][0]["permissions"] == {"view": True, "edit": False, "reply": False,
                                                             "delete": False}
    assert where.list(carol)["items"][0]["permissions"] == {"view": True, "edit": False, "reply": True,
                                                            "delete": False}
    assert where.list(where.admin)["items"][0]["permissions"]["edit"] is True
    refused = where.api.post(f"{where.base}/comments", token=reader.token, body={"body": {"markdown": "x"}})
    assert "comment" in error(refused, 403)
    assert "comment" in error(where.put(reader, comment["id"], addedReactions=["👍"]), 403)
    assert "author" in error(where.put(carol, comment["id"], body={"markdown": "hijack"}), 403)
    assert "author" in error(api.delete(f"{where.base}/comments/{comment['id']}", token=carol.token), 403)
    edited = where.put(bob, comment["id"], body={"markdown": "edited"}).json()
    assert edited["body"] == {"markdown": "edited"}
    assert edited["editedAt"] >= edited["postedAt"]
    assert where.put(where.admin, comment["id"], body={"markdown": "moderated"}).status == 200
    assert api.delete(f"{where.base}/comments/{comment['id']}", token=where.admin.token).status == 204


def test_outsiders_get_404_and_guests_see_no_emails(where, api):
    stranger = api.org_admin("Eve", "Elsewhere")
    comment = where.post(where.admin)
    for reply in (api.get(f"{where.base}/comments", token=stranger.token),
                  api.get(f"{where.base}/comments/{comment['id']}", token=stranger.token),
                  api.post(f"{where.base}/comments", token=stranger.token, body={"body": {"markdown": "x"}}),
                  api.get(f"{where.base}/commenters", token=stranger.token)):
        error(reply, 404)
    error(api.get(f"{where.base}/comments/nope", token=where.admin.token), 404)
    guest = join(api, where.admin.org_id, "Gus", None)
    granted = api.post(f"/spaces/{where.space_id}/permissions", token=where.admin.token,
                       body={"users": [guest.user_id], "role": "comment"})
    assert granted.status == 204, granted.body
    seen = where.list(guest)["items"][0]
    assert "email" not in seen["postedBy"]
    assert where.list(where.admin)["items"][0]["postedBy"]["email"]


def test_an_unknown_change_request_is_a_404(api):
    ada = api.org_admin()
    space_id = new_space(api, ada)["id"]
    reply = api.get(f"/spaces/{space_id}/change-requests/nope/comments", token=ada.token)
    assert "change request" in error(reply, 404)


def test_space_and_change_request_comments_are_apart(api):
    ada = api.org_admin()
    space_id = new_space(api, ada)["id"]
    cr = api.post(f"/spaces/{space_id}/change-requests", token=ada.token, body={"subject": "S"}).json()["id"]
    on_space = api.post(f"/spaces/{space_id}/comments", token=ada.token, body={"body": {"markdown": "s"}})
    on_cr = api.post(f"/spaces/{space_id}/change-requests/{cr}/comments", token=ada.token,
                     body={"body": {"markdown": "c"}})
    space_listed = api.get(f"/spaces/{space_id}/comments", token=ada.token).json()["items"]
    cr_listed = api.get(f"/spaces/{space_id}/change-requests/{cr}/comments", token=ada.token).json()["items"]
    assert [c["id"] for c in space_listed] == [on_space.json()["id"]]
    assert [c["id"] for c in cr_listed] == [on_cr.json()["id"]]
    error(api.get(f"/spaces/{space_id}/comments/{on_cr.json()['id']}", token=ada.token), 404)
    assert api.get(f"/spaces/{space_id}", token=ada.token).json()["comments"] == 1
    assert api.get(f"/spaces/{space_id}/change-requests/{cr}", token=ada.token).json()["comments"] == 1
