"""Excerpts of real repositories that the fidelity bench (`python -m bench.fidelity`) once found
drifting, each a small Git Sync repository in tests/corpus/fidelity/: export → re-import gives the same
tree and documents, and exporting again writes the same files (issue 41)."""

from __future__ import annotations

import pytest

from bindery.engines.content.tree import Tree
from bindery.engines.gitsync.exporter import export_repository
from bindery.engines.gitsync.importer import ImportedContent, import_repository
from tests.data_paths import FIDELITY_CORPUS

EXCERPTS = sorted(path.name for path in FIDELITY_CORPUS.iterdir() if path.is_dir())


def _files(name: str) -> dict[str, bytes]:
    root = FIDELITY_CORPUS / name
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _export(content: ImportedContent) -> dict[str, bytes]:
    out = export_repository(Tree(content.tree), content.documents, content.reusable_documents, content.files)
    return {path: bytes(data) for path, data in out.items()}


def test_every_excerpt_is_listed_with_its_source():
    readme = (FIDELITY_CORPUS.parent / "README.md").read_text()
    assert EXCERPTS
    assert all(f"`fidelity/{name}/`" in readme for name in EXCERPTS)


@pytest.mark.parametrize("name", EXCERPTS)
def test_an_excerpt_survives_export_and_reimport_exactly(name: str) -> None:
    first = import_repository(_files(name))
    exported = _export(first)
    again = import_repository(exported, previous=Tree(first.tree))
    assert again.documents == first.documents
    assert again.reusable_documents == first.reusable_documents
    assert _strip_git(again.tree) == _strip_git(first.tree)
    assert _export(again) == exported


def _strip_git(value: object) -> object:
    """A tree as compared across a round trip: `git` (blob ids of the exported files) aside."""
    if isinstance(value, dict):
        return {k: _strip_git(v) for k, v in value.items() if k != "git"}
    if isinstance(value, list):
        return [_strip_git(v) for v in value]
    return value


def test_a_list_item_opening_with_a_nested_code_block_is_written_as_gitbook_writes_it():
    # BikeF/dify-docs zh_CN/guides/extension/api-based-extension/moderation.md: `* Example` then
    # `  * ```` drifted to `* Example \*` on each round trip
    page = _export(import_repository(_files("dify-docs")))["moderation.md"].decode()
    assert "* Example\n  * ```\n    {\n" in page
    assert "\\*" not in page
