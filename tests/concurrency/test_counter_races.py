"""Counters raced on DynamoDB Local: comment, reply and resolved counts, reactions, organization member and
admin counts, team sizes. Each counter ends equal to what it counts (the listing beside it), whoever won."""

from __future__ import annotations

import pytest

from bindery.domain import members, organizations, team_members
from bindery.domain.access.auth import Caller
from bindery.domain.access.organization import org_access
from bindery.domain.comments import replies, threads
from bindery.domain.comments.targets import TargetRef
from bindery.domain.spaces import lifecycle
from bindery.domain.spaces import records as spaces
from bindery.requests.comments import PostComment, PostReply, UpdateComment
from bindery.requests.spaces import CreateSpace
from bindery.store import change_requests as cr_store
from bindery.store import orgs as org_store
from tests.api.change_requests.test_change_requests import new_cr
from tests.api.members.test_members import join
from tests.api.members.test_teams import roster, team_size, teams_of
from tests.api.spaces.test_spaces import new_space
from tests.concurrency.racing import race

pytestmark = pytest.mark.concurrent
RACERS = 6


@pytest.fixture
def review(api):
    """A space with a change request to comment on, and its admin."""
    ada = api.org_admin()
    space_id = new_space(api, ada, title="Handbook")["id"]
    cr = new_cr(api, ada, space_id)
    return ada, space_id, cr["id"]


def comments_path(space_id, cr_id):
    return f"/spaces/{space_id}/change-requests/{cr_id}/comments"


def post(ada, space_id, cr_id, text="Looks good"):
    posted = threads.post_comment(Caller(ada.user_id), TargetRef(space_id, cr_id),
                                 PostComment.model_validate({"body": {"markdown": text}}))
    return posted.post.id


def test_comments_posted_at_once_are_all_counted(api, review):
    ada, space_id, cr_id = review
    outcomes = race(*[lambda i=i: post(ada, space_id, cr_id, f"Comment {i}") for i in range(RACERS)])
    assert all(outcome.ok for outcome in outcomes), [o.error for o in outcomes]
    listed = api.get(comments_path(space_id, cr_id), token=ada.token).json()
    assert listed["count"] == len(listed["items"]) == RACERS
    assert cr_store.get_change_request(space_id, cr_id).comments == RACERS
    commenters = api.get(f"/spaces/{space_id}/change-requests/{cr_id}/commenters", token=ada.token).json()
    assert [c["id"] for c in commenters["items"]] == [ada.user_id]


def test_replies_posted_at_once_are_all_counted(api, review):
    ada, space_id, cr_id = review
    bob = join(api, ada.org_id, "Bob", "comment")
    comment_id = post(ada, space_id, cr_id)
    who = [ada, bob] * (RACERS // 2)
    outcomes = race(*[lambda w=w, i=i: replies.post_reply(
        Caller(w.user_id), TargetRef(space_id, cr_id), comment_id,
        PostReply.model_validate({"body": {"markdown": f"Reply {i}"}})) for i, w in enumerate(who)])
    assert all(outcome.ok for outcome in outcomes), [o.error for o in outcomes]
    path = f"{comments_path(space_id, cr_id)}/{comment_id}"
    shown = api.get(path, token=ada.token).json()
    listed = api.get(f"{path}/replies", token=ada.token).json()
    assert shown["replies"] == listed["count"] == len(listed["items"]) == RACERS
    # Each replier's own count: RACERS // 2 replies each.
    assert sorted((r["user"]["id"], r["count"]) for r in shown["repliers"]) == sorted(
        [(ada.user_id, RACERS // 2), (bob.user_id, RACERS // 2)])


def test_reactions_at_once_count_each_user_once(api, review):
    ada, space_id, cr_id = review
    people = [join(api, ada.org_id, f"Reader {i}", "comment") for i in range(RACERS - 1)]
    comment_id = post(ada, space_id, cr_id)

    def react(who, emoji):
        return lambda: threads.update_comment(Caller(who.user_id), TargetRef(space_id, cr_id), comment_id,
                                              UpdateComment.model_validate({"addedReactions": [emoji]}))

    # Everyone adds 👍 at once, and ada adds 🎉 from as many requests at once.
    outcomes = race(*[react(who, "👍") for who in [ada, *people]], *[react(ada, "🎉") for _ in range(RACERS)])
    assert all(outcome.ok for outcome in outcomes), [o.error for o in outcomes]
    shown = api.get(f"{comments_path(space_id, cr_id)}/{comment_id}", token=ada.token).json()
    reactions = {r["emoji"]: r for r in shown["reactions"]}
    assert reactions["👍"]["count"] == RACERS
    assert {u["user"]["id"] for u in reactions["👍"]["users"]} == {ada.user_id, *(p.user_id for p in people)}
    assert reactions["🎉"]["count"] == 1


def test_resolving_one_comment_at_once_moves_the_counters_once(api, review):
    ada, space_id, cr_id = review
    comment_id, _ = post(ada, space_id, cr_id), post(ada, space_id, cr_id)
    resolve = UpdateComment.model_validate({"resolved": True})
    outcomes = race(*[lambda: threads.update_comment(Caller(ada.user_id), TargetRef(space_id, cr_id),
                                                     comment_id, resolve) for _ in range(RACERS)])
    # Resolving a resolved comment changes nothing (200); a lost race is a 409, never a second count.
    assert all(outcome.status in (200, 409) for outcome in outcomes), [o.error for o in outcomes]
    assert any(outcome.ok for outcome in outcomes)
    stored = cr_store.get_change_request(space_id, cr_id)
    assert (stored.comments, stored.comments_resolved) == (1, 1)
    open_ = api.get(comments_path(space_id, cr_id), token=ada.token, query={"status": "open"}).json()
    resolved = api.get(comments_path(space_id, cr_id), token=ada.token, query={"status": "resolved"}).json()
    assert ([c["id"] for c in resolved["items"]], open_["count"]) == ([comment_id], 1)


# --- organizations and teams ------------------------------------------------------------------------------
def test_users_joining_at_once_are_all_counted_and_a_double_join_counts_once(api):
    ada = api.org_admin()
    api.patch(f"/orgs/{ada.org_id}", token=ada.token, body={"emailDomains": ["acme.test"]})
    people = [api.user(f"User {i}", f"user{i}@acme.test") for i in range(RACERS)]
    # Each of them joins, and the first one from three requests at once.
    joins = [*people, people[0], people[0]]
    outcomes = race(*[lambda who=who: organizations.join_org(Caller(who.user_id), ada.org_id)
                      for who in joins])
    assert all(outcome.ok for outcome in outcomes), [o.error for o in outcomes]
    listed = api.get(f"/orgs/{ada.org_id}/members", token=ada.token, query={"limit": 100}).json()
    assert len(listed["items"]) == listed["count"] == RACERS + 1
    assert org_store.get_org(ada.org_id).member_count == RACERS + 1


def test_admins_stepping_down_at_once_leave_exactly_one_admin(api):
    ada = api.org_admin()
    admins = [ada, *(join(api, ada.org_id, f"Admin {i}", "admin") for i in range(RACERS - 1))]
    outcomes = race(*[lambda who=who: members.change_role(Caller(who.user_id), ada.org_id, who.user_id,
                                                          "read") for who in admins])
    # Each one's own check saw other admins; the counter's condition lets all but one go.
    refused = [outcome for outcome in outcomes if not outcome.ok]
    assert len(refused) == 1
    assert refused[0].status == 400
    listed = api.get(f"/orgs/{ada.org_id}/members", token=ada.token, query={"role": "admin"}).json()
    assert len(listed["items"]) == listed["count"] == 1
    assert org_store.get_org(ada.org_id).admin_count == 1


def test_team_members_added_at_once_are_all_counted(api):
    ada = api.org_admin()
    people = [join(api, ada.org_id, f"Writer {i}", "edit") for i in range(RACERS)]
    made = api.put(f"/orgs/{ada.org_id}/teams", token=ada.token, body={"title": "Writers"})
    assert made.status == 201, made.body
    team_id = made.json()["id"]
    adds = [*people, people[0], people[0]]  # the first one three times at once
    outcomes = race(*[lambda who=who: team_members.add_team_member(Caller(ada.user_id), ada.org_id, team_id,
                                                                   who.user_id, None) for who in adds])
    assert all(outcome.ok or outcome.status == 409 for outcome in outcomes), [o.error for o in outcomes]
    assert set(roster(api, ada, team_id)) == {who.user_id for who in people}
    assert team_size(ada.org_id, team_id) == RACERS
    assert [teams_of(ada.org_id, who.user_id) for who in people] == [1] * RACERS


# --- spaces -----------------------------------------------------------------------------------------------
def test_spaces_created_deleted_and_restored_at_once_keep_the_organization_s_count(api):
    ada = api.org_admin()
    caller = Caller(ada.user_id)
    made = race(*[lambda i=i: spaces.create_space(org_access(ada.org_id, caller),
                                                  CreateSpace.model_validate({"title": f"Space {i}"}))
                  for i in range(RACERS)])
    assert all(outcome.ok for outcome in made), [o.error for o in made]
    ids = [outcome.value.space.id for outcome in made]

    def listed():
        body = api.get(f"/orgs/{ada.org_id}/spaces", token=ada.token, query={"limit": 100}).json()
        assert body["count"] == len(body["items"])
        return {item["id"] for item in body["items"]}

    assert listed() == set(ids)
    assert org_store.get_org(ada.org_id).space_count == RACERS
    # One space deleted from every racer at once: counted down once.
    deleted = race(*[lambda: lifecycle.delete_space(caller, ids[0]) for _ in range(RACERS)])
    assert all(outcome.ok for outcome in deleted), [o.error for o in deleted]
    assert listed() == set(ids[1:])
    assert org_store.get_org(ada.org_id).space_count == RACERS - 1
    # And restored from every racer at once: counted up once.
    restored = race(*[lambda: lifecycle.restore_space(caller, ids[0]) for _ in range(RACERS)])
    assert all(outcome.ok or outcome.status == 409 for outcome in restored), [o.error for o in restored]
    assert listed() == set(ids)
    assert org_store.get_org(ada.org_id).space_count == RACERS


def test_a_member_removed_while_added_to_teams_leaves_no_team_membership_behind(api):
    ada = api.org_admin()
    bob = join(api, ada.org_id, "Bob", "edit")
    teams = []
    for i in range(RACERS - 1):
        made = api.put(f"/orgs/{ada.org_id}/teams", token=ada.token, body={"title": f"Team {i}"})
        assert made.status == 201, made.body
        teams.append(made.json()["id"])
    caller = Caller(ada.user_id)
    removal, *adds = race(lambda: members.remove_member(caller, ada.org_id, bob.user_id),
                          *[lambda team_id=team_id: team_members.add_team_member(caller, ada.org_id, team_id,
                                                                                 bob.user_id, None)
                            for team_id in teams])
    # Each add either landed before the removal read the member's teams (then the removal took it away
    # too, or answered 409 for it), or found no member (404) or a member going away (409).
    assert removal.status in (200, 409), removal.error
    assert all(add.status in (200, 404, 409) for add in adds), [add.error for add in adds]
    member = api.get(f"/orgs/{ada.org_id}/members/{bob.user_id}", token=ada.token)
    in_teams = {team_id for team_id in teams if bob.user_id in roster(api, ada, team_id)}
    if removal.ok:
        assert member.status == 404
        assert in_teams == set()
    else:
        assert member.status == 200
        assert teams_of(ada.org_id, bob.user_id) == len(in_teams)
    assert [team_size(ada.org_id, team_id) for team_id in teams] == [
        int(team_id in in_teams) for team_id in teams]
