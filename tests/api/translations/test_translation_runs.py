"""Translation runs end to end (TranslationRunWorker; docs/translations.md): the API queues a run, the
worker translates through a real HTTP translator on loopback (each backend's protocol), commits one
revision on the result space, and keeps to the run's rules — incremental, no parallel runs, failures
visible and harmless, duplicate and poison messages."""

from __future__ import annotations

import json

import pytest

from bindery.domain.translations.result import run
from bindery.domain.translations.runs import end_run, process
from bindery.platform import aws, clock, queues
from bindery.platform.config import settings
from bindery.platform.messages import TranslationRunMessage
from bindery.store import translations as translation_store
from tests.api.content.test_content_reads import doc, page, paragraph, publish, stored_tree, tree
from tests.api.members.test_members import error
from tests.api.spaces.test_spaces import new_space
from tests.api.translations.test_translations import DOCUMENT, create, glossary_path, translations_path
from tests.api.translator_server import KEY, reverse_words, translator_server
from tests.settings_environment import set_env

BACKENDS = ("openai", "deepl", "libretranslate")
CODE = {
    "object": "block",
    "type": "code",
    "data": {"syntax": "bash"},
    "nodes": [
        {
            "object": "block",
            "type": "code-line",
            "data": {},
            "nodes": [
                {
                    "object": "text",
                    "leaves": [{"object": "leaf", "text": "sudo apt install handbook", "marks": []}],
                }
            ],
        }
    ],
}
BOLD = {
    "object": "text",
    "leaves": [
        {"object": "leaf", "text": "Read the ", "marks": []},
        {"object": "leaf", "text": "whole guide", "marks": [{"object": "mark", "type": "bold"}]},
        {"object": "leaf", "text": " first.", "marks": []},
    ],
}


@pytest.fixture
def translator(sqs_queues):
    """A translator on loopback, configured as a deployment would (no backoff waits in tests)."""
    with translator_server() as server:
        set_env("BINDERY_TRANSLATION_API_KEY", KEY)
        set_env("BINDERY_TRANSLATION_MODEL", "test-model")
        set_env("BINDERY_TRANSLATION_BACKOFF", "0")
        server.use = lambda kind: (
            set_env("BINDERY_TRANSLATION_BACKEND", kind),
            set_env("BINDERY_TRANSLATION_URL", server.url(kind)),
        )
        server.use("libretranslate")
        yield server
    for name in ("BACKEND", "URL", "API_KEY", "MODEL", "BACKOFF"):
        set_env(f"BINDERY_TRANSLATION_{name}", None)


def handbook(api):
    ada = api.org_admin()
    space = new_space(api, ada, title="Handbook")
    value = tree(
        page("g1", "Getting started", page("p1", "Install the agent", page("p2", "On Linux")), kind="group"),
        page("p3", "Reference", description="Every option"),
    )
    documents = {
        "p1": {"object": "document", "data": {}, "nodes": [paragraph(BOLD), CODE]},
        "p2": doc("Use the package manager."),
        "p3": doc("Options are listed here."),
    }
    publish(space["id"], value, documents)
    return ada, space


def translation_of(api, who, made):
    reply = api.get(translations_path(who, f"/{made['id']}"), token=who.token)
    assert reply.status == 200, reply.body
    return reply.json()


def content(api, who, space_id, page_id=None):
    path = f"/spaces/{space_id}/content" + (f"/page/{page_id}" if page_id else "")
    reply = api.get(path, token=who.token)
    assert reply.status == 200, reply.body
    return reply.json()


def leaves(document):
    return [
        leaf["text"]
        for block in document["nodes"]
        for node in block["nodes"]
        for leaf in node.get("leaves", [])
        or [lf for n in node.get("nodes", []) for lf in n.get("leaves", [])]
    ]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_run_translates_the_space_into_one_revision_of_a_new_result_space(
    api, translator, deliver_queued, backend
):
    translator.use(backend)
    ada, space = handbook(api)
    made = create(api, ada, space["id"])
    deliver_queued()
    done = translation_of(api, ada, made)
    assert done["status"] == "completed", done
    assert "lastRunError" not in done
    result = done["result"]
    result_space = api.get(f"/spaces/{result['space']}", token=ada.token).json()
    assert result_space["title"] == "Handbook (French)"
    assert result_space["revision"] == result["revision"]
    translated = content(api, ada, result["space"])
    source = content(api, ada, space["id"])

    def outline(pages):
        return [
            (p["id"], p["type"], p.get("slug"), p.get("path"), outline(p.get("pages") or [])) for p in pages
        ]

    assert outline(translated["pages"]) == outline(source["pages"])  # ids, slugs, paths, order
    assert translated["pages"][0]["title"] == reverse_words("Getting started")
    assert translated["pages"][1]["description"] == reverse_words("Every option")
    install = content(api, ada, result["space"], "p1")
    assert install["title"] == reverse_words("Install the agent")
    original = content(api, ada, space["id"], "p1")["document"]
    assert install["document"]["nodes"][0]["nodes"][0]["leaves"] == [
        {"object": "leaf", "text": reverse_words("Read the "), "marks": []},
        {
            "object": "leaf",
            "text": reverse_words("whole guide"),
            "marks": [{"object": "mark", "type": "bold"}],
        },
        {"object": "leaf", "text": reverse_words(" first."), "marks": []},
    ]
    assert install["document"]["nodes"][1] == original["nodes"][1]  # the code block, as it was
    assert len(translator.texts) == len(set(translator.texts))  # each text sent once
    assert "sudo apt install handbook" not in json.dumps(translator.texts)
    stats = done["stats"]
    assert (stats["runs"], stats["latestPages"], stats["totalPages"]) == (1, 4, 4)
    words = sum(
        len(text.split())
        for text in (
            "Getting started",
            "Install the agent",
            "Read the whole guide first",
            "On Linux",
            "Use the package manager",
            "Reference",
            "Every option",
            "Options are listed here",
        )
    )
    assert stats["latestWords"] == stats["totalWords"] == words


def test_runs_are_incremental_and_follow_the_sources_tree(api, translator, deliver_queued):
    ada, space = handbook(api)
    made = create(api, ada, space["id"])
    deliver_queued()
    first = translation_of(api, ada, made)
    sent = len(translator.requests)
    # Nothing changed: the run commits nothing and sends nothing.
    assert api.post(translations_path(ada, f"/{made['id']}/run"), token=ada.token).status == 204
    deliver_queued()
    again = translation_of(api, ada, made)
    assert again["result"] == first["result"]
    assert len(translator.requests) == sent
    assert (again["stats"]["runs"], again["stats"]["latestWords"], again["stats"]["latestPages"]) == (2, 0, 0)
    assert again["stats"]["totalWords"] == first["stats"]["totalWords"]
    # One page edited, one removed, one moved: only the edited page is sent (its title and its body).
    value = stored_tree(space["id"])
    group = value["pages"][0]
    install = group["pages"][0]
    install["pages"] = []  # p2 removed
    reference = value["pages"].pop(1)
    group["pages"].append(reference)  # p3 moved into the group
    publish(space["id"], value, {"p1": doc("Download it.")})
    before = len(translator.texts)
    assert api.post(translations_path(ada, f"/{made['id']}/run"), token=ada.token).status == 204
    deliver_queued()
    third = translation_of(api, ada, made)
    assert translator.texts[before:] == ["Install the agent", "Download it."]
    assert third["result"]["revision"] != first["result"]["revision"]
    assert (third["stats"]["latestPages"], third["stats"]["latestWords"], third["stats"]["totalPages"]) == (
        1,
        5,
        4,
    )
    pages = content(api, ada, third["result"]["space"])["pages"]
    assert [(p["id"], [c["id"] for c in p.get("pages", [])]) for p in pages] == [("g1", ["p1", "p3"])]
    assert pages[0]["pages"][1]["title"] == reverse_words("Reference")  # kept from the first run
    assert leaves(content(api, ada, third["result"]["space"], "p1")["document"]) == [
        reverse_words("Download it.")
    ]


def test_without_a_backend_a_run_fails_visibly_and_translates_nothing(api, sqs_queues, deliver_queued):
    ada, space = handbook(api)
    made = create(api, ada, space["id"])
    deliver_queued()
    done = translation_of(api, ada, made)
    assert done["status"] == "completed"
    assert done["lastRunError"]["code"] == "BACKEND_NOT_CONFIGURED"
    assert "BINDERY_TRANSLATION_BACKEND" in done["lastRunError"]["message"]
    assert "result" not in done
    assert done["stats"]["runs"] == 0
    assert api.get(f"/orgs/{ada.org_id}/spaces", token=ada.token).json()["count"] == 1  # no result space


def test_backend_failures_keep_the_previous_result_and_a_later_run_recovers(api, translator, deliver_queued):
    ada, space = handbook(api)
    made = create(api, ada, space["id"])
    deliver_queued()
    first = translation_of(api, ada, made)
    publish(space["id"], stored_tree(space["id"]), {"p3": doc("New options.")})
    translator.fail_next = [503] * 5  # the first try and every retry
    api.post(translations_path(ada, f"/{made['id']}/run"), token=ada.token)
    deliver_queued()
    failed = translation_of(api, ada, made)
    assert failed["lastRunError"]["code"] == "BACKEND_UNAVAILABLE"
    assert failed["result"] == first["result"]
    assert failed["stats"] == first["stats"]
    assert leaves(content(api, ada, first["result"]["space"], "p3")["document"]) == [
        reverse_words("Options are listed here.")
    ]
    translator.fail_next, translator.retry_after = [429, 500], "0"  # retried, then answered
    before = len(translator.requests)
    api.post(translations_path(ada, f"/{made['id']}/run"), token=ada.token)
    deliver_queued()
    recovered = translation_of(api, ada, made)
    assert "lastRunError" not in recovered
    assert len(translator.requests) - before == 3
    assert leaves(content(api, ada, first["result"]["space"], "p3")["document"]) == [
        reverse_words("New options.")
    ]


@pytest.mark.parametrize(
    ("backend", "script", "code"),
    [
        ("openai", {"key": "wrong"}, "BACKEND_AUTH"),
        ("deepl", {"key": "wrong"}, "BACKEND_AUTH"),
        ("libretranslate", {"key": "wrong"}, "BACKEND_AUTH"),
        ("deepl", {"fail": [456]}, "BACKEND_QUOTA"),
        ("libretranslate", {"fail": [429] * 5}, "BACKEND_QUOTA"),
        ("deepl", {"drop_tags": True}, "MARKUP_LOST"),
    ],
)
def test_refusals_are_recorded_with_their_code(api, translator, deliver_queued, *, backend, script, code):
    translator.use(backend)
    if "key" in script:
        set_env("BINDERY_TRANSLATION_API_KEY", script["key"])
    translator.fail_next = list(script.get("fail", []))
    translator.drop_tags = script.get("drop_tags", False)
    ada, space = handbook(api)
    made = create(api, ada, space["id"])
    deliver_queued()
    done = translation_of(api, ada, made)
    assert done["status"] == "completed"
    assert done["lastRunError"]["code"] == code
    assert "result" not in done


def test_a_run_asked_for_while_one_runs_follows_it(api, translator, deliver_queued, sqs_queues):
    ada, space = handbook(api)
    made = create(api, ada, space["id"])
    stored = translation_store.get_translation(ada.org_id, made["id"])
    assert translation_store.claim(stored, clock.now_iso(), "2025-01-01T00:00:00.000Z")  # a worker has it
    assert translation_of(api, ada, made)["status"] == "running"
    for _ in range(2):
        assert api.post(translations_path(ada, f"/{made['id']}/run"), token=ada.token).status == 204
    assert translation_store.get_translation(ada.org_id, made["id"]).rerun
    deliver_queued()  # the first message finds its job claimed (a worker has it): nothing happens
    assert translation_of(api, ada, made)["status"] == "running"
    # The worker that holds it finishes: its job ends pending under a new job, which is queued and runs.
    assert end_run(stored, run(stored), None, clock.now())
    after = translation_of(api, ada, made)
    assert after["status"] == "pending"
    assert after["stats"]["runs"] == 1
    deliver_queued()
    final = translation_of(api, ada, made)
    assert (final["status"], final["stats"]["runs"]) == ("completed", 2)


def test_duplicate_and_stale_messages_change_nothing_and_poison_ends_in_the_dlq(
    api, translator, deliver_queued, sqs_queues
):
    ada, space = handbook(api)
    made = create(api, ada, space["id"])
    stored = translation_store.get_translation(ada.org_id, made["id"])
    message = TranslationRunMessage(organizationId=ada.org_id, translationId=made["id"], job=stored.job)
    queues.send(settings().translation_queue_url, message)  # delivered twice
    deliver_queued()
    done = translation_of(api, ada, made)
    assert done["stats"]["runs"] == 1
    assert process(message, delivery=1) is None  # its job is done
    stale = TranslationRunMessage(organizationId=ada.org_id, translationId=made["id"], job="old-job")
    assert process(stale, delivery=1) is None
    assert translation_of(api, ada, made) == done
    queues.send(
        settings().translation_queue_url, TranslationRunMessage.model_construct(organizationId=ada.org_id)
    )
    deliver_queued()
    dead = aws.sqs_client().receive_message(
        QueueUrl=sqs_queues["TranslationRunDeadLetterQueue"].url, MaxNumberOfMessages=10
    )
    assert len(dead.get("Messages", [])) == 1


def test_the_glossary_and_instructions_reach_the_translator(api, translator, deliver_queued):
    ada, space = handbook(api)
    api.put(
        glossary_path(ada),
        token=ada.token,
        body={
            "operations": [
                {"type": "insert", "translations": {"en": "package manager", "fr": "gestionnaire de paquets"}}
            ]
        },
    )
    made = create(api, ada, space["id"])  # LibreTranslate has no glossary: the terms are placeholders
    deliver_queued()
    result = translation_of(api, ada, made)["result"]
    assert leaves(content(api, ada, result["space"], "p2")["document"]) == [
        reverse_words("Use the ") + "gestionnaire de paquets" + "."
    ]
    translator.use("openai")
    made = create(api, ada, space["id"], language="de", instructions=DOCUMENT)
    api.put(
        glossary_path(ada),
        token=ada.token,
        body={"operations": [{"type": "insert", "translations": {"en": "agent", "de": "Agent"}}]},
    )
    deliver_queued()
    prompt = translator.requests[-1].body["messages"][0]["content"]
    assert "English to German" in prompt
    assert "- agent → Agent" in prompt
    assert "Use a formal tone." in prompt
    assert translation_of(api, ada, made)["status"] == "completed"


def test_a_deleted_translation_keeps_its_result_space(api, translator, deliver_queued):
    ada, space = handbook(api)
    made = create(api, ada, space["id"])
    deliver_queued()
    result = translation_of(api, ada, made)["result"]
    assert api.delete(translations_path(ada, f"/{made['id']}"), token=ada.token).status == 204
    assert api.get(f"/spaces/{result['space']}", token=ada.token).status == 200
    error(api.post(translations_path(ada, f"/{made['id']}/run"), token=ada.token), 404)
