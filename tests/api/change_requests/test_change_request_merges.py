"""Update and merge of change requests (three-way; conflicts answer result "conflicts" and change
nothing), merge rules, locked spaces, concurrent merges; the changes listing and the PDF export."""

from __future__ import annotations

import pytest
import requests

from bindery.domain.change_requests import merges as change_request_merges
from bindery.store import change_requests as cr_store
from bindery.store import revisions as revision_store
from bindery.store import spaces as space_store
from tests.api.change_requests.test_change_request_content import edit, titles
from tests.api.change_requests.test_change_requests import counters, new_cr
from tests.api.content.test_content_reads import doc, page, publish, stored_tree, tree
from tests.api.members.test_members import error, join
from tests.api.spaces.test_spaces import new_space


@pytest.fixture
def setup(api):
    ada = api.org_admin()
    space_id = new_space(api, ada, title="Handbook")["id"]
    publish(space_id, tree(page("p1", "Intro"), page("p2", "Outro")), {"p1": doc("Hello"), "p2": doc("Bye")})
    return ada, space_id


def space_titles(api, who, space_id):
    return [p["title"] for p in api.get(f"/spaces/{space_id}/content/pages", token=who.token).json()["pages"]]


def cr_path(space_id, cr):
    return f"/spaces/{space_id}/change-requests/{cr['id']}"


def test_merge_brings_the_change_into_the_space(api, setup):
    ada, space_id = setup
    cr = new_cr(api, ada, space_id)
    changed = edit(api, ada, space_id, cr["id"], {"operation": "update_page", "page": "p1", "title": "Hi"})
    assert changed.status == 200
    reply = api.post(cr_path(space_id, cr) + "/merge", token=ada.token)
    assert reply.status == 200, reply.body
    result = reply.json()
    assert result["result"] == "merge"
    space = space_store.get_space(space_id)
    assert space.revision == result["revision"]
    assert space_titles(api, ada, space_id) == ["Hi", "Outro"]
    merged = api.get(cr_path(space_id, cr), token=ada.token).json()
    assert (merged["status"], merged["revisionMerged"], merged["mergedBy"]["id"]) == (
        "merged", result["revision"], ada.user_id)
    assert merged["mergedAt"]
    assert merged["outdated"] is False
    assert counters(api, ada, space_id) == (1, 0, 0)
    listed = api.get(f"/spaces/{space_id}/change-requests", token=ada.token, query={"status": "merged"})
    assert [c["id"] for c in listed.json()["items"]] == [cr["id"]]
    assert listed.json()["count"] == 1
    assert api.get(f"/spaces/{space_id}/change-requests", token=ada.token).json()["count"] == 0
    # The space's new revision is the spec's `merge` revision, naming the change request merged.
    from tests.search.spec_schema import check

    revision = api.get(f"/spaces/{space_id}/revisions/{result['revision']}", token=ada.token).json()
    assert (revision["type"], revision["mergedFrom"]["id"]) == ("merge", cr["id"])
    assert revision["mergedFrom"]["status"] == "merged"
    current = api.get(f"/spaces/{space_id}/content", token=ada.token).json()
    assert (current["id"], current["type"], current["mergedFrom"]) == (
        revision["id"], "merge", revision["mergedFrom"])
    check("getCurrentRevision", current)
    # Merged is final.
    error(api.post(cr_path(space_id, cr) + "/merge", token=ada.token), 409)
    error(api.patch(cr_path(space_id, cr), token=ada.token, body={"status": "open"}), 409)


def test_an_up_to_date_change_request_merges_without_a_merge(api, setup, request_counter):
    # Based on the space's current revision, its content is the merge's result: the new revision names
    # the change request's tree blob (nothing rewritten, no tree loaded but the one asked for).
    ada, space_id = setup
    cr = new_cr(api, ada, space_id)
    edit(api, ada, space_id, cr["id"], {"operation": "update_page", "page": "p2", "title": "Bye now"})
    theirs = revision_store.get_revision(space_id, cr_store.get_change_request(space_id, cr["id"]).revision)
    request_counter.clear()
    result = api.post(cr_path(space_id, cr) + "/merge", token=ada.token).json()
    assert "BatchWriteItem" not in request_counter
    merged = revision_store.get_revision(space_id, result["revision"])
    assert (merged.tree, merged.parents[1], merged.type, merged.merged_from) == (
        theirs.tree, theirs.id, "merge", cr["id"])
    assert space_titles(api, ada, space_id) == ["Intro", "Bye now"]


def test_update_when_outdated_brings_the_space_in(api, setup):
    ada, space_id = setup
    cr = new_cr(api, ada, space_id)
    edit(api, ada, space_id, cr["id"], {"operation": "update_page", "page": "p1", "title": "Hi"})
    moved = stored_tree(space_id)
    moved["pages"][1]["title"] = "The end"
    space_revision = publish(space_id, moved)
    assert api.get(cr_path(space_id, cr), token=ada.token).json()["outdated"] is True
    reply = api.post(cr_path(space_id, cr) + "/update", token=ada.token)
    assert reply.status == 200, reply.body
    assert reply.json()["result"] == "update"
    body = api.get(cr_path(space_id, cr), token=ada.token).json()
    assert (body["revision"], body["revisionMergedAncestor"], body["outdated"]) == (
        reply.json()["revision"], space_revision, False)
    assert titles(api, ada, space_id, cr["id"]) == ["Hi", "The end"]
    assert space_titles(api, ada, space_id) == ["Intro", "The end"]
    updated = api.get(f"/spaces/{space_id}/change-requests/{cr['id']}/content", token=ada.token).json()
    assert updated["type"] == "update"  # the spec's revision made by updating a change request
    assert updated["id"] == body["revision"]
    assert updated["parents"][1] == space_revision
    # Up to date: nothing to do.
    again = api.post(cr_path(space_id, cr) + "/update", token=ada.token).json()
    assert again == {"revision": body["revision"], "result": "update"}
    # Merging now only brings the change request's own change.
    api.post(cr_path(space_id, cr) + "/merge", token=ada.token)
    assert space_titles(api, ada, space_id) == ["Hi", "The end"]


def test_conflicts_answer_the_contracts_conflicts_result_and_change_nothing(api, setup):
    """The official contract: 200 `{revision, result: "conflicts"}`; the conflicts are listed by
    GET CR/changes until they are resolved."""
    ada, space_id = setup
    cr = new_cr(api, ada, space_id)
    edit(api, ada, space_id, cr["id"], {"operation": "update_page", "page": "p1", "title": "Mine"})
    moved = stored_tree(space_id)
    moved["pages"][0]["title"] = "Theirs"
    space_revision = publish(space_id, moved)
    before = cr_store.get_change_request(space_id, cr["id"])
    for action in ("merge", "update"):
        reply = api.post(cr_path(space_id, cr) + f"/{action}", token=ada.token)
        assert reply.status == 200, reply.body
        assert reply.json() == {"revision": before.revision, "result": "conflicts"}
    assert space_store.get_space(space_id).revision == space_revision
    after = cr_store.get_change_request(space_id, cr["id"])
    assert (after.revision, after.status, after.updated_at) == (before.revision, "open", before.updated_at)
    assert counters(api, ada, space_id) == (1, 1, 0)
    listed = api.get(cr_path(space_id, cr) + "/changes", token=ada.token).json()
    assert listed["conflicts"] == [{"kind": "page", "id": "p1", "title": "Theirs",
                                    "reason": "both sides changed the title"}]
    # Resolved in the change request (it takes the space's title): nothing conflicts, the merge lands.
    edit(api, ada, space_id, cr["id"], {"operation": "update_page", "page": "p1", "title": "Theirs"})
    assert api.get(cr_path(space_id, cr) + "/changes", token=ada.token).json()["conflicts"] == []
    merged = api.post(cr_path(space_id, cr) + "/merge", token=ada.token)
    assert merged.json()["result"] == "merge"


def test_only_reviewers_merge_and_locked_spaces_refuse(api, setup):
    ada, space_id = setup
    ed = join(api, ada.org_id, "Ed", "edit")
    cr = new_cr(api, ed, space_id)
    error(api.post(cr_path(space_id, cr) + "/merge", token=ed.token), 403)
    api.patch(f"/spaces/{space_id}", token=ada.token, body={"editMode": "locked"})
    assert "locked" in error(api.post(cr_path(space_id, cr) + "/merge", token=ada.token), 403)
    assert cr_store.get_change_request(space_id, cr["id"]).status == "open"


def test_merge_rules_need_the_named_reviewers_approval(api, setup):
    ada, space_id = setup
    rae = join(api, ada.org_id, "Rae", "review")
    rules = {"type": "rules", "rules": [{"rule": "require_specific_reviewers", "users": [rae.user_id]}]}
    assert api.patch(f"/spaces/{space_id}", token=ada.token, body={"mergeRules": rules}).status == 200
    cr = new_cr(api, ada, space_id)
    message = error(api.post(cr_path(space_id, cr) + "/merge", token=ada.token), 403)
    assert "require_specific_reviewers" in message
    api.post(cr_path(space_id, cr) + "/reviews", token=rae.token, body={"status": "changes-requested"})
    error(api.post(cr_path(space_id, cr) + "/merge", token=ada.token), 403)
    api.post(cr_path(space_id, cr) + "/reviews", token=rae.token, body={"status": "approved"})
    assert api.post(cr_path(space_id, cr) + "/merge", token=ada.token).status == 200


def test_a_space_that_inherits_merge_rules_meets_its_organizations(api, setup):
    # The organization's rules come from the access check's read of the organization (not a read of
    # their own): a change to them holds at the next merge.
    ada, space_id = setup
    rae = join(api, ada.org_id, "Rae", "review")
    rules = {"type": "rules", "rules": [{"rule": "require_at_least_one_review"}]}
    assert api.patch(f"/orgs/{ada.org_id}", token=ada.token, body={"mergeRules": rules}).status == 200
    cr = new_cr(api, ada, space_id)
    assert "require_at_least_one_review" in error(api.post(cr_path(space_id, cr) + "/merge", token=ada.token),
                                                  403)
    api.post(cr_path(space_id, cr) + "/reviews", token=rae.token, body={"status": "approved"})
    assert api.post(cr_path(space_id, cr) + "/merge", token=ada.token).status == 200


def test_concurrent_merges_into_one_space_keep_both_changes(api, setup, monkeypatch):
    ada, space_id = setup
    first = new_cr(api, ada, space_id)
    second = new_cr(api, ada, space_id)
    edit(api, ada, space_id, first["id"], {"operation": "update_page", "page": "p1", "title": "One"})
    edit(api, ada, space_id, second["id"], {"operation": "update_page", "page": "p2", "title": "Two"})
    original = change_request_merges._merge_revision
    raced = []

    def commit_then_race(*args, **kwargs):
        revision = original(*args, **kwargs)
        if not raced:  # the second merge has computed its result: the first lands before it writes
            raced.append(1)
            assert api.post(cr_path(space_id, first) + "/merge", token=ada.token).status == 200
        return revision

    monkeypatch.setattr(change_request_merges, "_merge_revision", commit_then_race)
    reply = api.post(cr_path(space_id, second) + "/merge", token=ada.token)
    assert reply.status == 200, reply.body
    assert space_titles(api, ada, space_id) == ["One", "Two"]
    assert space_store.get_space(space_id).revision == reply.json()["revision"]
    assert counters(api, ada, space_id) == (2, 0, 0)


def test_changes_lists_what_the_change_request_changes(api, setup):
    ada, space_id = setup
    cr = new_cr(api, ada, space_id)
    listed = api.get(cr_path(space_id, cr) + "/changes", token=ada.token).json()
    assert listed == {"changes": [], "conflicts": []}
    edit(api, ada, space_id, cr["id"],
         {"operation": "update_page", "page": "p1", "title": "Hi"},
         {"operation": "delete_page", "page": "p2"},
         {"operation": "insert_page", "title": "New", "document": {"markdown": "text"}})
    changes = api.get(cr_path(space_id, cr) + "/changes", token=ada.token).json()
    assert sorted(c["type"] for c in changes["changes"]) == ["page_created", "page_deleted", "page_edited"]
    limited = api.get(cr_path(space_id, cr) + "/changes", token=ada.token, query={"limit": 1}).json()
    assert (len(limited["changes"]), limited["more"]) == (1, 2)


def test_pdf_of_the_change_request(api, setup):
    ada, space_id = setup
    cr = new_cr(api, ada, space_id, subject="Print me")
    reply = api.get(cr_path(space_id, cr) + "/pdf", token=ada.token)
    assert reply.status == 200, reply.body
    assert requests.get(reply.json()["url"], timeout=10).content.startswith(b"%PDF")
    one = api.get(cr_path(space_id, cr) + "/pdf", token=ada.token, query={"only": "true", "page": "p1"})
    assert one.status == 200, one.body
    assert one.json()["url"] != reply.json()["url"]
    error(api.get(cr_path(space_id, cr) + "/pdf", token=ada.token, query={"only": "true", "page": "x"}), 404)


def test_a_merge_makes_its_requests_once(api, setup, request_counter):
    # The merge's DynamoDB requests, pinned: the caller's token (the authorizer), the space, the caller's
    # membership and the organization (one BatchGetItem: the merge rules the space inherits are the
    # organization's read there, not read again), the change request, its revision, the merge revision
    # (PutItem: up to date, it names the change request's tree), the space and the change request moved
    # together, the space's integrations (one Query, for the content-updated events).
    ada, space_id = setup
    cr = new_cr(api, ada, space_id)
    edit(api, ada, space_id, cr["id"], {"operation": "update_page", "page": "p2", "title": "Bye now"})
    request_counter.clear()
    reply = api.post(cr_path(space_id, cr) + "/merge", token=ada.token)
    assert reply.json()["result"] == "merge"
    assert dict(request_counter) == {"GetItem": 4, "BatchGetItem": 1, "PutItem": 1, "TransactWriteItems": 1,
                                     "Query": 1}
