"""The pyproject.toml `make mutation` writes in each module's work directory (local/mutation.py) parses, as
mutmut and pytest read it, and says what the module's entry says: a marker description with an
apostrophe once made it unreadable, and every module's run failed at once (issue 40)."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest
from mutmut import configuration as mutmut_configuration

from local import mutation
from local.mutation_results import Result, fingerprint, record, recorded
from local.template import ROOT

OURS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]


@pytest.mark.parametrize("name", sorted(mutation.MODULES))
def test_the_work_directorys_configuration_parses_for_every_module(name):
    module = mutation.MODULES[name]
    parsed = tomllib.loads(mutation.configuration(module))
    assert parsed["tool"]["mutmut"]["only_mutate"] == list(module.files)
    assert parsed["tool"]["mutmut"]["pytest_add_cli_args_test_selection"] == list(module.tests)
    pytest_options = parsed["tool"]["pytest"]["ini_options"]
    assert pytest_options["markers"] == OURS["markers"]
    assert any("'" in marker for marker in pytest_options["markers"])  # the case that broke it
    assert pytest_options["pythonpath"] == [path for path in OURS["pythonpath"] if path != "layers/shared"]


def test_mutmut_reads_the_work_directory_it_is_given(tmp_path, monkeypatch):
    monkeypatch.setattr(mutation, "WORK", tmp_path)
    root = mutation.prepare("pagination", mutation.MODULES["pagination"])
    assert (root / "bindery").resolve() == (ROOT / "layers/shared/bindery").resolve()
    monkeypatch.chdir(root)
    monkeypatch.setattr(mutmut_configuration, "_config", None)
    read = mutmut_configuration.config()
    assert read.source_paths == [Path("bindery")]
    assert read.should_mutate("bindery/platform/pagination.py")
    assert not read.should_mutate("bindery/engines/content/positions.py")
    assert read.pytest_add_cli_args_test_selection == ["tests/test_pagination.py"]
    assert read.use_git_change_detection is False
    assert os.fspath(root) in os.fspath(read.resolved_mutated_source_paths[0])


def test_every_module_names_files_and_tests_that_exist():
    for module in mutation.MODULES.values():
        for path in module.files:
            assert (ROOT / "layers/shared" / path).is_file(), path
        for path in module.tests:
            assert (ROOT / path).is_file(), path


TABLE = """## Results

| module | mutants | killed | equivalent | alive | killed of the non-equivalent | fingerprint |
|---|---|---|---|---|---|---|
| `pagination` | 155 | 147 | 8 | 0 | 100% |
| `positions` | 70 | 66 | 4 | 0 | 100.0% | 0123456789ab |

After the table.
"""


def test_a_passing_run_rewrites_its_row_and_a_new_module_gets_one(tmp_path):
    doc = tmp_path / "testing.md"
    doc.write_text(TABLE)
    assert recorded(doc) == {"pagination": "", "positions": "0123456789ab"}
    record(doc, Result("pagination", 156, 148, 8, 0, 1.0, "fedcba987654"))
    record(doc, Result("sso-binding", 40, 37, 1, 2, 37 / 39, "aaaaaaaaaaaa"))
    assert recorded(doc) == {"pagination": "fedcba987654", "positions": "0123456789ab",
                             "sso-binding": "aaaaaaaaaaaa"}
    lines = doc.read_text().splitlines()
    assert lines[4:8] == ["| `pagination` | 156 | 148 | 8 | 0 | 100.0% | fedcba987654 |",
                          "| `positions` | 70 | 66 | 4 | 0 | 100.0% | 0123456789ab |",
                          "| `sso-binding` | 40 | 37 | 1 | 2 | 94.9% | aaaaaaaaaaaa |", ""]
    assert lines[-1] == "After the table."


def test_changed_names_the_modules_whose_files_differ_from_their_recorded_run(tmp_path, monkeypatch):
    doc = tmp_path / "testing.md"
    doc.write_text(TABLE)
    monkeypatch.setattr(mutation, "DOC", doc)
    assert mutation.changed() == list(mutation.MODULES)  # nothing recorded matches
    for name, module in mutation.MODULES.items():
        record(doc, Result(name, 1, 1, 0, 0, 1.0, module.fingerprint()))
    assert mutation.changed() == []
    edited = dict(mutation.MODULES)
    positions = edited["positions"]
    # Another test file for a module is a change to it, as an edit of its source or tests would be.
    edited["positions"] = mutation.Module(positions.files, (*positions.tests, "tests/test_pagination.py"))
    monkeypatch.setattr(mutation, "MODULES", edited)
    assert mutation.changed() == ["positions"]


def test_a_fingerprint_covers_the_bytes_of_each_file(tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    before = fingerprint(tmp_path, ["a.py"])
    (tmp_path / "a.py").write_text("x = 2\n")
    assert fingerprint(tmp_path, ["a.py"]) != before
