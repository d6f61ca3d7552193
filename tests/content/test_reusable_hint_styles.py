"""Hint styles beyond the spec's in a reusable content (`.gitbook/includes/*.md`) are kept as a page's
are (by block key under the entry's `original.hints`): the document holds the nearest official style and
an export writes the include back as the repository had it."""

from __future__ import annotations

from bindery.engines.content.tree import Tree
from bindery.engines.gitsync.exporter import export_repository
from bindery.engines.gitsync.importer import import_repository

INCLUDE = '---\ntitle: Tips\n---\n\n{% hint style="tip" %}\nA tip.\n{% endhint %}\n'
REPO = {
    "README.md": b'# Welcome\n\n{% include "../.gitbook/includes/tips.md" %}\n',
    "SUMMARY.md": b"# Table of contents\n\n* [Welcome](README.md)\n",
    ".gitbook/includes/tips.md": INCLUDE.encode(),
}


def test_an_include_s_hint_styles_are_read_official_and_exported_as_written() -> None:
    imported = import_repository(REPO)
    (tips,) = imported.tree["reusableContents"]
    hint = imported.reusable_documents[tips["id"]]["nodes"][0]
    assert (hint["type"], hint["data"]["style"]) == ("hint", "success")
    exported = export_repository(Tree(imported.tree), imported.documents, imported.reusable_documents,
                                 imported.files)
    assert exported[".gitbook/includes/tips.md"] == INCLUDE.encode()
    again = import_repository({path: bytes(data) for path, data in exported.items()  # type: ignore[arg-type]
                               if isinstance(data, bytes)}, previous=Tree(imported.tree))
    assert again.reusable_documents == imported.reusable_documents
