"""local.self_contained: the lint check that keeps a clone alone runnable."""

from __future__ import annotations

import subprocess
from pathlib import Path

from local import self_contained

SIBLING = "sha" + "red"  # spelled in parts so that the check does not report this test file


def test_the_repository_refers_to_nothing_outside_itself():
    assert self_contained.scan() == []


def test_sibling_and_workplace_paths_are_reported():
    text = "\n".join([
        f'CORPUS = Path(__file__).parents[2] / "../{SIBLING}/corpus"',
        f'SPEC = Path("/work/{SIBLING}/reference/spec.json")',
        f'CORPUS = ROOT.parent / "{SIBLING}" / "corpus"',
        "fine = ROOT / 'tests' / 'corpus'",
    ])
    found = self_contained.references("tests/x.py", text)
    assert [r.line for r in found] == [1, 2, 3]


def test_markdown_links_that_climb_out_of_the_repository_are_reported():
    text = "[api](../../API.md) [model](data-model.md) [root](../README.md) [web](https://example.com/../x)"
    found = self_contained.references("docs/page.md", text)
    assert [r.text for r in found] == ["../../API.md"]


def test_a_new_tracked_file_with_a_sibling_path_fails_the_check(tmp_path: Path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "ok.py").write_text("ROOT = 'tests/corpus'\n")
    (tmp_path / "bad.md").write_text(f"See `../{SIBLING}/API.md`.\n")
    (tmp_path / "untracked.md").write_text(f"See `../{SIBLING}/API.md`.\n")
    subprocess.run(["git", "add", "ok.py", "bad.md"], cwd=tmp_path, check=True)
    found = self_contained.scan(tmp_path)
    assert [(r.path, r.line) for r in found] == [("bad.md", 1)]
