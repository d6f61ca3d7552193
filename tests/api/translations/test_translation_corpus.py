"""Translating a real documentation space: the fluentd docs (tests/corpus) imported through Git Sync, then
translated through LibreTranslate's protocol (tests/api/translator_server.py). Every page keeps its
place and every block, key and mark; every text leaf went through the translator exactly once; a second
run after a one-page edit sends only that page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.api.content.test_content_reads import publish, stored_tree
from tests.api.git_sync_support import git_settings, run, space_with_admin, start  # noqa: F401 - a fixture
from tests.api.translations.test_translation_runs import content, translation_of, translator  # noqa: F401 - a fixture
from tests.api.translations.test_translations import create, translations_path
from tests.api.translator_server import translate_markup
from tests.data_paths import FLUENTD_CORPUS
from tests.git_repos import bare_repo

pytestmark = pytest.mark.usefixtures("git_settings")


def _walk(pages):
    for entry in pages:
        yield entry
        yield from _walk(entry.get("pages") or [])


def _shape(value):
    """A document without its text: block and inline types, keys, data, marks, and where text is."""
    if isinstance(value, dict):
        if value.get("object") == "leaf":
            return ("leaf", json.dumps(value["marks"], sort_keys=True))
        return {key: _shape(item) for key, item in value.items() if key not in ("title", "alt")}
    if isinstance(value, list):
        return [_shape(item) for item in value]
    return value


def test_the_fluentd_docs_translate_whole_and_then_page_by_page(
    api,
    translator,  # noqa: F811 - the fixture imported above
    deliver_queued,
    tmp_path: Path,
):
    files = {
        str(path.relative_to(FLUENTD_CORPUS)): path.read_bytes()
        for path in FLUENTD_CORPUS.rglob("*")
        if path.is_file()
    }
    ada, space = space_with_admin(api)
    path = start(
        api, ada, space["id"], "import", url=bare_repo(tmp_path / "fluentd.git", files), ref="refs/heads/main"
    )
    deliver_queued()
    assert run(api, ada, path)["status"] == "succeeded"
    made = create(api, ada, space["id"])
    deliver_queued()
    done = translation_of(api, ada, made)
    assert "lastRunError" not in done, done
    result = done["result"]["space"]
    source_pages = list(_walk(content(api, ada, space["id"])["pages"]))
    result_pages = list(_walk(content(api, ada, result)["pages"]))
    assert [(p["id"], p.get("path")) for p in result_pages] == [
        (p["id"], p.get("path")) for p in source_pages
    ]
    sent = translator.texts
    assert len(sent) == len(set(sent))  # every distinct text went through the translator exactly once
    documents = 0
    for entry in source_pages:
        if entry["type"] != "document":
            continue
        original = content(api, ada, space["id"], entry["id"])
        translated = content(api, ada, result, entry["id"])
        assert _shape(translated["document"]) == _shape(original["document"]), entry["path"]
        documents += 1
    assert documents > 150
    assert done["stats"]["latestPages"] == len(source_pages)
    assert done["stats"]["totalWords"] > 50_000
    # One page edited: the next run sends that page's texts only.
    value = stored_tree(space["id"])
    edited = value["pages"][0]
    page = content(api, ada, space["id"], edited["id"])
    page["document"]["nodes"].append(
        {
            "object": "block",
            "type": "paragraph",
            "data": {},
            "nodes": [
                {
                    "object": "text",
                    "leaves": [{"object": "leaf", "text": "A sentence added today.", "marks": []}],
                }
            ],
        }
    )
    publish(space["id"], value, {edited["id"]: page["document"]})
    before = len(translator.texts)
    assert api.post(translations_path(ada, f"/{made['id']}/run"), token=ada.token).status == 204
    deliver_queued()
    second = translation_of(api, ada, made)
    assert second["stats"]["latestPages"] == 1
    resent = translator.texts[before:]
    assert "A sentence added today." in resent
    assert len(resent) < 60  # one page's segments, not the space's thousands
    added = content(api, ada, result, edited["id"])["document"]["nodes"][-1]
    assert added["nodes"][0]["leaves"][0]["text"] == translate_markup("A sentence added today.")
