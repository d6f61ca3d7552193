"""Change requests raced on DynamoDB Local: creates (numbers), merges into one space, edits of one change
request, and an edit racing a merge. Every winner's change is in the result; a loser gets the documented
409 and leaves nothing behind; the space's counters count what happened."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from bindery.domain.access.auth import Caller
from bindery.domain.change_requests import edits, merges, records, reviews
from bindery.requests.change_requests import CreateChangeRequest, SubmitReview, UpdateContent
from bindery.store import change_requests as cr_store
from bindery.store import revisions as revision_store
from bindery.store import spaces as space_store
from tests.api.change_requests.test_change_request_content import titles
from tests.api.change_requests.test_change_request_merges import space_titles
from tests.api.change_requests.test_change_requests import new_cr
from tests.api.content.test_content_reads import doc, page, publish, tree
from tests.api.spaces.test_spaces import new_space
from tests.client import Identity
from tests.concurrency.racing import Outcome, race

pytestmark = pytest.mark.concurrent


def handbook(api, pages):
    ada = api.org_admin()
    space_id = new_space(api, ada, title="Handbook")["id"]
    publish(space_id, tree(*(page(f"p{i}", f"Page {i}") for i in range(pages))),
            {f"p{i}": doc(f"Text {i}") for i in range(pages)})
    return ada, space_id


def counters(space_id):
    space = space_store.get_space(space_id)
    return (space.change_requests, space.change_requests_in("open"), space.change_requests_in("merged"))


def content(changes):
    return UpdateContent.model_validate({"changes": changes})


def first_parents(space_id, revision_id, stop):
    """The space's history from `revision_id` back to `stop`, by first parents (each merge's own parent
    is the revision the space was at when it landed)."""
    chain = []
    while revision_id != stop:
        chain.append(revision_id)
        revision_id = revision_store.get_revision(space_id, revision_id).parents[0]
    return chain


def refused(outcome: Outcome) -> bool:
    return outcome.status == 409


# --- numbers ----------------------------------------------------------------------------------------------
def test_change_requests_created_at_once_get_unique_gapless_numbers(api):
    ada, space_id = handbook(api, 1)
    caller = Caller(ada.user_id)
    outcomes = race(*[lambda i=i: records.create_change_request(caller, space_id,
                                                                 CreateChangeRequest(subject=f"CR {i}"))
                      for i in range(records.CREATE_ATTEMPTS)])
    # Each lost race means another create landed, so with as many creators as attempts nobody runs out.
    assert all(outcome.ok for outcome in outcomes), [o.error for o in outcomes]
    numbers = sorted(outcome.value.change_request.number for outcome in outcomes)
    assert numbers == list(range(1, records.CREATE_ATTEMPTS + 1))
    stored = {cr_store.get_by_number(space_id, n).subject for n in numbers}
    assert stored == {f"CR {i}" for i in range(records.CREATE_ATTEMPTS)}
    assert counters(space_id) == (records.CREATE_ATTEMPTS, records.CREATE_ATTEMPTS, 0)


def test_more_creators_than_attempts_lose_with_a_409_and_leave_no_gap(api):
    ada, space_id = handbook(api, 1)
    caller = Caller(ada.user_id)
    outcomes = race(*[lambda: records.create_change_request(caller, space_id, CreateChangeRequest())
                      for _ in range(3 * records.CREATE_ATTEMPTS)])
    made = [outcome.value.change_request for outcome in outcomes if outcome.ok]
    assert all(outcome.ok or refused(outcome) for outcome in outcomes)
    assert sorted(cr.number for cr in made) == list(range(1, len(made) + 1))
    assert counters(space_id) == (len(made), len(made), 0)
    assert {cr_store.get_by_number(space_id, cr.number).id for cr in made} == {cr.id for cr in made}


# --- merges -----------------------------------------------------------------------------------------------
def _merge_race(api, how_many):
    ada, space_id = handbook(api, how_many)
    start = space_store.get_space(space_id).revision
    crs = []
    for i in range(how_many):
        cr = new_cr(api, ada, space_id)
        edited = api.post(f"/spaces/{space_id}/change-requests/{cr['id']}/content", token=ada.token,
                          body={"changes": [{"operation": "update_page", "page": f"p{i}",
                                             "title": f"Merged {i}"}]})
        assert edited.status == 200, edited.body
        crs.append(cr)
    caller = Caller(ada.user_id)
    outcomes = race(*[lambda cr=cr: merges.merge_change_request(caller, space_id, cr["id"]) for cr in crs])
    return MergeRace(ada, space_id, start, crs, outcomes)


@dataclass
class MergeRace:
    ada: Identity
    space_id: str
    start: str  # the space's revision before the merges
    crs: list[dict]
    outcomes: list[Outcome]


def _check_merges(api, merged: MergeRace):
    ada, space_id, start, crs, outcomes = (merged.ada, merged.space_id, merged.start, merged.crs,
                                           merged.outcomes)
    assert all(outcome.ok or refused(outcome) for outcome in outcomes), [o.error for o in outcomes]
    won = [i for i, outcome in enumerate(outcomes) if outcome.ok]
    assert won, "someone always lands"
    assert {outcomes[i].value.result for i in won} == {"merge"}
    # Every merge that answered "merge" is in the space; every refused one left the space and itself alone.
    assert space_titles(api, ada, space_id) == [
        f"Merged {i}" if i in won else f"Page {i}" for i in range(len(crs))]
    for i, cr in enumerate(crs):
        stored = cr_store.get_change_request(space_id, cr["id"])
        if i in won:
            assert (stored.status, stored.revision_merged) == ("merged", outcomes[i].value.revision)
        else:
            assert (stored.status, stored.revision_merged) == ("open", None)
    # Each merge moved the space from the revision the previous one left: none was overwritten.
    history = first_parents(space_id, space_store.get_space(space_id).revision, start)
    assert sorted(history) == sorted(outcomes[i].value.revision for i in won)
    assert counters(space_id) == (len(crs), len(crs) - len(won), len(won))


def test_as_many_concurrent_merges_as_attempts_all_land(api):
    merged = _merge_race(api, merges.ATTEMPTS)
    # A merge loses a round only to another merge that landed, so none runs out of attempts.
    assert all(outcome.ok for outcome in merged.outcomes), [o.error for o in merged.outcomes]
    _check_merges(api, merged)


def test_more_concurrent_merges_than_attempts_land_or_answer_409_whole(api):
    _check_merges(api, _merge_race(api, 2 * merges.ATTEMPTS))


# --- edits of one change request ----------------------------------------------------------------------
def _edit_race(api, how_many):
    ada, space_id = handbook(api, 1)
    cr = new_cr(api, ada, space_id)
    caller = Caller(ada.user_id)
    outcomes = race(*[
        lambda i=i: edits.update_content(caller, space_id, cr["id"], content([
            {"operation": "insert_page", "title": f"New {i}", "document": {"markdown": f"Text {i}"}}]))
        for i in range(how_many)])
    return ada, space_id, cr, outcomes


def _check_edits(api, ada, space_id, cr, outcomes):
    assert all(outcome.ok or refused(outcome) for outcome in outcomes), [o.error for o in outcomes]
    won = {i for i, outcome in enumerate(outcomes) if outcome.ok}
    assert won
    shown = titles(api, ada, space_id, cr["id"])
    assert shown[0] == "Page 0"
    assert sorted(shown[1:]) == sorted(f"New {i}" for i in won)  # no edit lost, no refused edit applied
    # Each edit was counted once as the caller's contribution, and made one revision on top of the last.
    contributors = api.get(f"/spaces/{space_id}/change-requests/{cr['id']}/contributors", token=ada.token)
    assert [(c["user"]["id"], c["count"]) for c in contributors.json()["items"]] == [(ada.user_id, len(won))]
    stored = cr_store.get_change_request(space_id, cr["id"])
    assert len(first_parents(space_id, stored.revision, stored.revision_initial)) == len(won)


def test_as_many_concurrent_edits_as_attempts_all_land(api):
    ada, space_id, cr, outcomes = _edit_race(api, edits.ATTEMPTS)
    assert all(outcome.ok for outcome in outcomes), [o.error for o in outcomes]
    _check_edits(api, ada, space_id, cr, outcomes)


def test_more_concurrent_edits_than_attempts_land_or_answer_409_whole(api):
    _check_edits(api, *_edit_race(api, 3 * edits.ATTEMPTS))


# --- an edit racing the merge -----------------------------------------------------------------------------
@pytest.mark.parametrize("round_", range(3))
def test_an_edit_racing_the_merge_is_merged_or_refused(api, round_):
    ada, space_id = handbook(api, 2)
    cr = new_cr(api, ada, space_id)
    first = api.post(f"/spaces/{space_id}/change-requests/{cr['id']}/content", token=ada.token,
                     body={"changes": [{"operation": "update_page", "page": "p0", "title": "First"}]})
    assert first.status == 200, first.body
    caller = Caller(ada.user_id)
    merged, edited = race(
        lambda: merges.merge_change_request(caller, space_id, cr["id"]),
        lambda: edits.update_content(caller, space_id, cr["id"], content([
            {"operation": "update_page", "page": "p1", "title": "Second"}])))
    assert merged.ok, merged.error
    assert merged.value.result == "merge"
    stored = cr_store.get_change_request(space_id, cr["id"])
    assert (stored.status, stored.revision_merged) == ("merged", merged.value.revision)
    if edited.ok:  # it landed before the merge, which merged it too
        assert space_titles(api, ada, space_id) == ["First", "Second"]
        assert stored.revision_merged == space_store.get_space(space_id).revision
    else:  # the change request was merged first: the edit is refused, nothing of it anywhere
        assert edited.status == 409
        assert space_titles(api, ada, space_id) == ["First", "Page 1"]
        assert titles(api, ada, space_id, cr["id"]) == ["First", "Page 1"]


# --- one reviewer's reviews at once ---------------------------------------------------------------------
def test_a_reviewer_s_latest_review_is_the_newest_whatever_order_they_land_in(api):
    ada, space_id = handbook(api, 1)
    caller = Caller(ada.user_id)
    for _ in range(4):
        cr = new_cr(api, ada, space_id)
        outcomes = race(*[lambda status=status, cr_id=cr["id"]: reviews.submit_review(
            caller, space_id, cr_id, SubmitReview(status=status))
            for status in ("approved", "changes-requested", "approved", "changes-requested")])
        assert all(outcome.ok for outcome in outcomes), [o.error for o in outcomes]
        listed = api.get(f"/spaces/{space_id}/change-requests/{cr['id']}/reviews", token=ada.token).json()
        assert listed["count"] == len(listed["items"]) == 4
        newest = listed["items"][0]  # newest first: ids are time-ordered
        assert [item["outdated"] for item in listed["items"]] == [False, True, True, True]
        latest = cr_store.get_change_request(space_id, cr["id"]).latest_reviews[ada.user_id]
        assert (latest["id"], latest["status"]) == (newest["id"], newest["status"])
