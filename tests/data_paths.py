"""Where the data the tests read lives: inside the repository, so that a clone alone runs every test."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The Fluentd documentation, a real Git Sync repository (source, commit, license: tests/corpus/README.md).
FLUENTD_CORPUS = ROOT / "tests" / "corpus" / "fluentd-docs"
# GitBook's own layout front matter (`layout.cover.size: background`), trimmed (tests/corpus/README.md).
GITBOOK_LAYOUT_CORPUS = ROOT / "tests" / "corpus" / "gitbook-public-docs-layout"
# The official @gitbook/api 0.146.0 spec, pruned to the operations Bindery serves: the wire contract.
REFERENCE_SPEC = ROOT / "tests" / "reference" / "gitbook-openapi-0.146.0-seed-ops.json"
# Trimmed excerpts of public Git Sync repositories that once failed the fidelity bench (bench/fidelity.py),
# one folder each (source, commit, license: tests/corpus/README.md).
FIDELITY_CORPUS = ROOT / "tests" / "corpus" / "fidelity"
