"""Markdown sent through the change-request content API keeps its hint styles beyond the spec's as a Git
Sync import does: the document holds the nearest official style, the style as written is kept by block
key under the page's `original.hints`, and a Git export of the change request's content writes it back."""

from __future__ import annotations

from bindery.engines.content.tree import Tree
from bindery.engines.gitsync.exporter import export_repository
from bindery.store import change_requests as cr_store
from bindery.store import revisions as revision_store
from tests.api.change_requests.test_change_request_content import edit, setup  # noqa: F401  (the fixture)

TIP = '{% hint style="tip" %}\nA tip.\n{% endhint %}\n'


def _head(space_id: str, cr_id: str) -> tuple[Tree, revision_store.RevisionDocuments]:
    revision = revision_store.get_revision(space_id, cr_store.get_change_request(space_id, cr_id).revision)
    assert revision is not None
    tree = revision_store.load_tree(revision)
    return tree, revision_store.revision_documents(space_id, tree)


def _exported_with_the_tip(space_id: str, cr_id: str) -> str:
    tree, documents = _head(space_id, cr_id)
    files = export_repository(tree, documents.pages, documents.contents, {})
    (text,) = [data.decode() for data in files.values() if isinstance(data, bytes) and b"A tip." in data]
    return text


def test_a_markdown_body_s_hint_styles_are_kept_for_the_export(api, setup):  # noqa: F811
    ada, space_id, cr = setup
    reply = edit(api, ada, space_id, cr["id"], {"operation": "update_page", "page": "p3",
                                                "document": {"markdown": TIP}})
    assert reply.status == 200, reply.body
    tree, documents = _head(space_id, cr["id"])
    (hint,) = documents.pages["p3"]["nodes"]
    assert hint["data"]["style"] == "success"
    assert tree.page("p3").entry["original"] == {"hints": {hint["key"]: "tip"}}
    assert '{% hint style="tip" %}' in _exported_with_the_tip(space_id, cr["id"])
    served = api.get(f"/spaces/{space_id}/change-requests/{cr['id']}/content/page/p3", token=ada.token)
    assert "original" not in served.json()
    # A new body with official styles only: nothing kept from the one it replaces.
    official = TIP.replace("tip", "info")
    assert edit(api, ada, space_id, cr["id"], {"operation": "update_page", "page": "p3",
                                               "document": {"markdown": official}}).status == 200
    tree, _ = _head(space_id, cr["id"])
    assert "original" not in tree.page("p3").entry
