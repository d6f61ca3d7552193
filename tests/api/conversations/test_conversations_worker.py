"""Processing ingested conversations (ConversationsWorker; docs/conversations.md): issues extracted,
clustered across conversations, cluster counters exact through re-ingests and duplicate deliveries."""

from __future__ import annotations

import pytest

from bindery.api.wire.conversations import pulse_weeks
from bindery.domain.conversations.processing import ProfileCache, iso_week, plain_text, process
from bindery.platform import aws, clock
from bindery.platform.messages import ConversationMessage
from bindery.store import conversations as conversation_store
from bindery.store import issue_clusters as cluster_store
from tests.api.conversations.test_conversations import (
    conversations_path,
    ingest,
    installation_source,
    listed,
    queued,
)
from tests.api.members.test_members import error, join, pages
from tests.api.spaces.test_spaces import new_space

LOGIN = ("Cannot log in", "I cannot log in to my account since this morning. The login page says my password "
         "is wrong but I reset the password twice.")
LOGIN_AGAIN = ("Login broken", "Login fails for me: after I reset my password the login page still says the "
               "password is wrong and I cannot log in.")
EXPORT = ("PDF export fails", "The PDF export of my space fails with an error. When I click export to PDF "
          "I get an error message and no file.")


def thread(external_id, topic, **extra):
    subject, text = topic
    return {"id": external_id, "subject": subject,
            "parts": [{"type": "message", "role": "user", "body": text},
                      {"type": "message", "role": "team-member", "body": "Thanks, we are looking into it."}],
            **extra}


def clusters(api, who, **query):
    reply = api.get(f"/orgs/{who.org_id}/conversations-clusters", token=who.token, query=query)
    assert reply.status == 200, reply.body
    return reply.json()


def issues(api, who, **query):
    reply = api.get(f"/orgs/{who.org_id}/conversations-issues", token=who.token, query=query)
    assert reply.status == 200, reply.body
    return reply.json()


@pytest.fixture
def world(api, deliver_queued):
    ada = api.org_admin()
    token, _ = installation_source(api, ada)
    ingest(api, ada, [thread("login-1", LOGIN), thread("login-2", LOGIN_AGAIN)])
    exported = api.post(conversations_path(ada), token=token, body=thread("export-1", EXPORT))
    assert exported.status == 204, exported.body
    deliver_queued()
    return ada


def test_processing_extracts_issues_and_groups_the_same_problem(api, world):
    ada = world
    conversations = {item["subject"]: item for item in listed(api, ada)["items"]}
    assert all("processedAt" in item for item in conversations.values())
    found = issues(api, ada)
    assert found["count"] == len(found["items"]) >= 3
    by_conversation = {}
    for item in found["items"]:
        assert item["issue"]["conversation"] == item["conversation"]["id"]
        by_conversation.setdefault(item["conversation"]["subject"], set()).add(item["issue"]["cluster"])
    assert by_conversation["Cannot log in"] & by_conversation["Login broken"]
    assert not by_conversation["PDF export fails"] & by_conversation["Cannot log in"]
    body = clusters(api, ada)
    assert body["count"] == len(body["items"])
    login = next(c for c in body["items"] if c["id"] in by_conversation["Cannot log in"]
                 & by_conversation["Login broken"])
    assert login["object"] == "issues-cluster"
    assert login["stats"]["conversations"] == 2
    assert login["stats"]["issues"] >= 2
    assert login["sources"] == {"email": login["stats"]["issues"]}
    assert login["label"]
    assert login["summary"]
    assert 0 < len(login["icon"]) <= 50
    assert len(login["weeklyPulse"]) == 13
    assert login["weeklyPulse"][-1] == login["stats"]["issues"]  # ingested this week, no createdAt given
    assert sum(login["weeklyPulse"][:-1]) == 0
    export = next(c for c in body["items"] if c["id"] in by_conversation["PDF export fails"])
    ((source, count),) = export["sources"].items()
    assert source.startswith("integration:intercom:")
    assert count == export["stats"]["issues"]
    assert api.get(login["urls"]["location"].split("/v1", 1)[1], token=ada.token).json() == login


def test_stats_add_up_over_every_cluster(api, world):
    ada = world
    body = clusters(api, ada)
    assert sum(c["stats"]["issues"] for c in body["items"]) == issues(api, ada)["count"]
    assert sum(sum(c["weeklyPulse"]) for c in body["items"]) == issues(api, ada)["count"]


def test_re_ingesting_replaces_the_issues_and_keeps_counts_exact(api, world, deliver_queued):
    ada = world
    before = issues(api, ada)
    login_2 = next(i for i in before["items"] if i["conversation"]["subject"] == "Login broken")
    ingest(api, ada, thread("login-2", EXPORT))  # the same conversation, now about the export
    pending = next(c for c in listed(api, ada)["items"] if c["id"] == login_2["conversation"]["id"])
    assert "processedAt" not in pending
    deliver_queued()
    error(api.get(f"/orgs/{ada.org_id}/conversations-issues/{login_2['issue']['id']}", token=ada.token), 404)
    after = issues(api, ada)
    assert after["count"] == len(after["items"])
    body = clusters(api, ada)
    assert sum(c["stats"]["issues"] for c in body["items"]) == after["count"]
    for cluster in body["items"]:
        members = issues(api, ada, cluster=cluster["id"])
        assert members["count"] == cluster["stats"]["issues"] == len(members["items"])
        assert cluster["stats"]["conversations"] == len({i["conversation"]["id"] for i in members["items"]})
    again = issues(api, ada, conversation=login_2["conversation"]["id"])
    assert again["count"] >= 1
    assert {i["issue"]["id"] for i in again["items"]}.isdisjoint({login_2["issue"]["id"]})


def test_a_re_ingested_issue_leaves_its_clusters_profile(api, deliver_queued):
    """A conversation re-ingested about something else takes its old issue out of the cluster it joined:
    the cluster is then about the issues it still holds, as if the old one had never been there."""
    from bindery.engines.insights.clustering import ClusterProfile

    def profile(who, cluster_id):
        return ClusterProfile.from_json(cluster_store.profiles(who.org_id)[cluster_id].profile)

    ada, bob = api.org_admin(), api.org_admin("Bob", "Bobs")
    ingest(api, ada, [thread("login-1", LOGIN), thread("login-2", LOGIN_AGAIN)])
    ingest(api, bob, thread("login-1", LOGIN))
    deliver_queued()
    (login,) = clusters(api, ada)["items"]
    (only_first,) = clusters(api, bob)["items"]
    assert profile(ada, login["id"]).size == 2
    ingest(api, ada, thread("login-2", EXPORT))
    deliver_queued()
    left, expected = profile(ada, login["id"]), profile(bob, only_first["id"])
    assert left.size == expected.size == 1
    assert dict(left.terms).keys() == dict(expected.terms).keys()
    assert all(abs(weight - dict(expected.terms)[column]) < 1e-5 for column, weight in left.terms)


def test_a_duplicate_delivery_changes_nothing(api, deliver_queued, sqs_queues):
    ada = api.org_admin()
    ingest(api, ada, thread("login-1", LOGIN))
    (message,) = queued(sqs_queues)
    parsed = ConversationMessage.model_validate(message)
    assert process(parsed) == "processed"
    first = (issues(api, ada), clusters(api, ada))
    with aws.counting_requests() as dynamodb:
        assert process(parsed) == "duplicate"
    assert set(dynamodb) <= {"GetItem", "Query", "BatchGetItem"}  # reads only
    deliver_queued()  # the queued copy too
    assert (issues(api, ada), clusters(api, ada)) == first


def test_a_message_of_a_replaced_revision_is_superseded(api, sqs_queues):
    ada = api.org_admin()
    ingest(api, ada, thread("login-1", LOGIN))
    (old,) = queued(sqs_queues)
    ingest(api, ada, thread("login-1", EXPORT))
    assert process(ConversationMessage.model_validate(old)) == "superseded"
    assert issues(api, ada)["count"] == 0


def test_the_weekly_pulse_counts_by_iso_week_of_the_conversation(api, deliver_queued):
    ada = api.org_admin()
    now = clock.now()
    weeks_ago = [0, 3, 12, 20]  # 20 weeks ago is outside the 13-week pulse
    ingest(api, ada, [thread(f"login-{n}", LOGIN, metadata={"createdAt": clock.iso(now.replace(
        microsecond=0) - __import__("datetime").timedelta(weeks=n))}) for n in weeks_ago])
    deliver_queued()
    (cluster,) = [c for c in clusters(api, ada)["items"] if c["stats"]["conversations"] == 4]
    per = cluster["stats"]["issues"] // 4
    assert cluster["weeklyPulse"][12] == per
    assert cluster["weeklyPulse"][9] == per
    assert cluster["weeklyPulse"][0] == per
    assert sum(cluster["weeklyPulse"]) == 3 * per
    assert iso_week(clock.now_iso()) == pulse_weeks()[-1]


def test_issue_filters_and_lookups(api, world):
    ada = world
    every = issues(api, ada)["items"]
    one = every[0]
    same_cluster = issues(api, ada, cluster=one["issue"]["cluster"])
    assert {i["issue"]["cluster"] for i in same_cluster["items"]} == {one["issue"]["cluster"]}
    both = issues(api, ada, cluster=one["issue"]["cluster"], conversation=one["conversation"]["id"])
    assert one in both["items"]
    assert all(i["conversation"]["id"] == one["conversation"]["id"] for i in both["items"])
    got = api.get(f"/orgs/{ada.org_id}/conversations-issues/{one['issue']['id']}", token=ada.token).json()
    assert got == one
    assert issues(api, ada, cluster="nothing") == {"items": [], "count": 0}
    assert issues(api, ada, conversation="nothing") == {"items": [], "count": 0}
    error(api.get(f"/orgs/{ada.org_id}/conversations-issues/nothing", token=ada.token), 404)
    error(api.get(f"/orgs/{ada.org_id}/conversations-clusters/nothing", token=ada.token), 404)
    seen = pages(api, f"/orgs/{ada.org_id}/conversations-issues", ada.token, limit=1)
    paged = sorted(i["issue"]["id"] for p in seen for i in p["items"])
    assert paged == sorted(i["issue"]["id"] for i in every)


def test_another_organization_sees_none_of_it(api, world):
    ada = world
    eve = api.org_admin("Eve", "Other")
    one = issues(api, ada)["items"][0]
    error(api.get(f"/orgs/{eve.org_id}/conversations-issues/{one['issue']['id']}", token=eve.token), 404)
    error(api.get(f"/orgs/{eve.org_id}/conversations-clusters/{one['issue']['cluster']}", token=eve.token),
          404)
    assert issues(api, eve)["count"] == 0
    assert clusters(api, eve)["count"] == 0
    assert issues(api, eve, cluster=one["issue"]["cluster"])["count"] == 0
    eve.org_id = ada.org_id
    error(api.get(f"/orgs/{ada.org_id}/conversations-clusters", token=eve.token), 404)


@pytest.mark.parametrize("order_by", ["updatedAt", "issues", "conversations", "tasksTotal", "tasksBacklog",
                                      "tasksStarted"])
@pytest.mark.parametrize("order", ["asc", "desc"])
def test_clusters_in_every_order_and_by_page(api, world, order, order_by):
    ada = world
    everything = clusters(api, ada)["items"]
    seen = pages(api, f"/orgs/{ada.org_id}/conversations-clusters", ada.token, order=order, orderBy=order_by,
                 limit=1)
    listed_ids = [c["id"] for p in seen for c in p["items"]]
    assert sorted(listed_ids) == sorted(c["id"] for c in everything)

    def value(cluster):
        return cluster["updatedAt"] if order_by == "updatedAt" else (
            cluster["stats"][order_by])

    by_id = {c["id"]: c for c in everything}
    expected = sorted(listed_ids, key=lambda i: (value(by_id[i]), i), reverse=order == "desc")
    assert listed_ids == expected


def test_cluster_status_filter(api, world):
    ada = world
    every = clusters(api, ada)
    assert clusters(api, ada, status="pending")["count"] == every["count"]  # no change request names any
    assert clusters(api, ada, status="analysing") == {"items": [], "count": 0}
    error(api.get(f"/orgs/{ada.org_id}/conversations-clusters", token=ada.token,
                  query={"status": "done"}), 400)
    error(api.get(f"/orgs/{ada.org_id}/conversations-clusters", token=ada.token,
                  query={"orderBy": "label"}), 400)


def test_a_reader_reads_but_a_guest_does_not(api, world):
    ada = world
    reader = join(api, ada.org_id, "Rita", "read")
    assert clusters(api, reader)["count"] == clusters(api, ada)["count"]
    guest = join(api, ada.org_id, "Gus", None)
    error(api.get(conversations_path(guest), token=guest.token), 403)
    stored = conversation_store.get_counters(ada.org_id)
    assert stored.conversations == 3


def test_change_requests_naming_a_cluster_are_its_tasks_by_status(api, world):
    ada = world
    (cluster, *_) = clusters(api, ada)["items"]
    space_id = new_space(api, ada, title="Handbook")["id"]
    made = []
    for subject in ("Fix login", "Document login", "Login FAQ"):
        reply = api.post(f"/spaces/{space_id}/change-requests", token=ada.token,
                         body={"subject": subject, "conversationsIssuesCluster": cluster["id"]})
        assert reply.status in (200, 201), reply.body
        assert reply.json()["conversationsIssuesCluster"] == cluster["id"]
        made.append(reply.json())
    stats = clusters(api, ada)
    started = api.get(f"/orgs/{ada.org_id}/conversations-clusters/{cluster['id']}", token=ada.token).json()
    assert started["stats"] == {**cluster["stats"], "tasksTotal": 3, "tasksStarted": 3}
    assert {c["id"] for c in clusters(api, ada, status="analysing")["items"]} == {cluster["id"]}
    assert stats["count"] == clusters(api, ada, status="pending")["count"] + 1
    path = f"/spaces/{space_id}/change-requests"
    assert api.patch(f"{path}/{made[0]['id']}", token=ada.token, body={"status": "draft"}).status == 200
    assert api.patch(f"{path}/{made[1]['id']}", token=ada.token, body={"status": "archived"}).status == 200
    assert api.post(f"{path}/{made[2]['id']}/merge", token=ada.token).status == 200
    after = api.get(f"/orgs/{ada.org_id}/conversations-clusters/{cluster['id']}", token=ada.token).json()
    assert after["stats"] == {**cluster["stats"], "tasksTotal": 3, "tasksBacklog": 1, "tasksStarted": 0,
                              "tasksCompleted": 1, "tasksCancelled": 1}
    listing = api.get(path, token=ada.token, query={"conversationsIssuesCluster": cluster["id"],
                                                     "status": "draft"}).json()
    assert [item["id"] for item in listing["items"]] == [made[0]["id"]]


def test_a_change_request_names_only_a_cluster_of_its_organization(api, world):
    ada = world
    eve = api.org_admin("Eve", "Other")
    space_id = new_space(api, eve, title="Theirs")["id"]
    cluster_id = clusters(api, ada)["items"][0]["id"]
    reply = api.post(f"/spaces/{space_id}/change-requests", token=eve.token,
                     body={"conversationsIssuesCluster": cluster_id})
    assert "conversationsIssuesCluster" in error(reply, 400)
    assert clusters(api, ada)["items"][0]["stats"]["tasksTotal"] == 0


def test_workers_racing_on_one_organization_start_over_and_stay_exact(api, sqs_queues):
    """A worker whose clusters another worker changed between its read and its write loses the
    transaction, reads again (its cache of the profiles is stale) and assigns against the new clusters."""
    ada = api.org_admin()
    ingest(api, ada, [thread("login-1", LOGIN), thread("login-2", LOGIN_AGAIN)])
    first, second = (ConversationMessage.model_validate(m) for m in queued(sqs_queues))
    other = ProfileCache()

    class Interrupted(ProfileCache):
        loads = 0

        def load(self, org_id, state):
            found = super().load(org_id, state)
            Interrupted.loads += 1
            if Interrupted.loads == 1:
                assert process(second, other) == "processed"  # lands between this read and its write
            return found

    assert process(first, Interrupted()) == "processed"
    assert Interrupted.loads == 2
    found = issues(api, ada)
    assert len({i["issue"]["cluster"] for i in found["items"]}) == 1  # the same problem, one cluster
    (cluster,) = clusters(api, ada)["items"]
    assert cluster["stats"]["issues"] == found["count"] == 2
    assert cluster["stats"]["conversations"] == 2


def test_html_bodies_are_read_as_their_text():
    html = ("<p>I cannot log in.</p><p>The page says <b>wrong password</b>&nbsp;again.</p>"
            "<script>alert(1)</script>")
    assert plain_text(html) == "I cannot log in.\n\nThe page says wrong password\xa0again."
    assert plain_text("Use `a < b` in **Markdown**") == "Use `a < b` in **Markdown**"


def test_an_html_conversation_yields_issues_without_markup(api, deliver_queued):
    ada = api.org_admin()
    body = ("<div><p>Hello,</p><p>I cannot log in to my account. The login page says my password is "
            "<strong>wrong</strong> but I reset the password twice.</p></div>")
    ingest(api, ada, {"id": "html-1", "subject": "Cannot log in",
                      "parts": [{"type": "message", "role": "user", "body": body}]})
    deliver_queued()
    found = issues(api, ada)["items"]
    assert found
    assert all("<" not in i["issue"]["summary"] and "<" not in i["issue"]["title"] for i in found)


def test_a_conversation_without_a_problem_is_processed_without_touching_the_clusters(api, sqs_queues):
    ada = api.org_admin()
    ingest(api, ada, {"id": "thanks", "subject": "Thanks", "parts": [
        {"type": "message", "role": "user", "body": "Thanks, have a nice day!"}]})
    (message,) = queued(sqs_queues)
    with aws.counting_requests() as dynamodb:
        assert process(ConversationMessage.model_validate(message)) == "processed"
    assert dynamodb["TransactWriteItems"] == 1
    assert "processedAt" in listed(api, ada)["items"][0]
    assert issues(api, ada)["count"] == 0
    assert clusters(api, ada)["count"] == 0
    assert cluster_store.clustering_state(ada.org_id).version == 0  # no cluster write to serialise
