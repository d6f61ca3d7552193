"""The conversations worker with the optional `/embeddings` backend (docs/conversations.md, "Clustering"):
its vectors land in the clusters' profiles, and a backend that refuses leaves the conversation unprocessed
with nothing written (the message fails, as an extractor's failure does), never clustered by another
model."""

from __future__ import annotations

from bindery.engines.insights.clustering import ClusterProfile
from bindery.store import issue_clusters as cluster_store
from tests.api.conversations.test_conversations import ingest, listed
from tests.api.conversations.test_conversations_worker import EXPORT, LOGIN, issues, thread
from tests.api.translator_server import KEY, translator_server
from tests.settings_environment import changed_environment


def _environment(url: str, key: str) -> dict[str, str | None]:
    return {"BINDERY_INSIGHTS_EMBEDDINGS": "openai", "BINDERY_INSIGHTS_EMBEDDINGS_MODEL": "embedder",
            "BINDERY_TRANSLATION_BACKEND": "openai", "BINDERY_TRANSLATION_URL": url,
            "BINDERY_TRANSLATION_API_KEY": key, "BINDERY_TRANSLATION_MODEL": "small-model",
            "BINDERY_TRANSLATION_RETRIES": "0", "BINDERY_ALLOW_PRIVATE_HOSTS": "1"}


def test_the_endpoints_vectors_make_the_profiles(api, deliver_queued):
    ada = api.org_admin()
    with translator_server() as server, changed_environment(_environment(server.url("openai"), KEY)):
        ingest(api, ada, [thread("login-1", LOGIN), thread("export-1", EXPORT)])
        deliver_queued()
        asked = [request for request in server.requests if request.path == "/v1/embeddings"]
    assert asked
    assert all("processedAt" in item for item in listed(api, ada)["items"])
    profiles = [ClusterProfile.from_json(p.profile) for p in cluster_store.profiles(ada.org_id).values()]
    assert profiles
    assert {(profile.model, len(profile.vector)) for profile in profiles} == {("openai:embedder", 26)}


def test_a_refusing_endpoint_leaves_the_conversation_unprocessed_and_nothing_written(api, deliver_queued):
    ada = api.org_admin()
    with translator_server() as server, changed_environment(_environment(server.url("openai"), "wrong")):
        ingest(api, ada, [thread("login-1", LOGIN)])
        deliver_queued()
        assert server.requests  # it was asked, and refused
    (item,) = listed(api, ada)["items"]
    assert "processedAt" not in item
    assert issues(api, ada)["count"] == 0
    assert cluster_store.profiles(ada.org_id) == {}
