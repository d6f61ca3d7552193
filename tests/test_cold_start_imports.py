"""What each API function imports when Lambda loads it (its cold start): the heavy engines only where a
route needs them on its first call — markdown-it when Markdown is converted, dulwich for Git Sync, fpdf2
for a PDF, PyYAML for a YAML document — never when the handler module loads."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from local.template import ROOT, load

HEAVY = ("markdown_it", "mdit_py_plugins", "dulwich", "fpdf", "PIL", "yaml", "emoji", "pygments",
         "numpy", "scipy", "sklearn", "yake")  # the last four: the conversations worker image's
API_FUNCTIONS = sorted(name for name, function in load().functions.items() if function.routes)


def _loaded_on_import(function_name: str) -> list[str]:
    function = load().functions[function_name]
    module = function.handler.rpartition(".")[0]
    script = (f"import sys, json; import {module}; "
              f"print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}})))")
    env_path = f"{ROOT / 'layers' / 'shared'}:{function.code_uri}"
    out = subprocess.run([sys.executable, "-c", script], env={"PYTHONPATH": env_path, "PATH": ""},
                         capture_output=True, text=True, check=True).stdout
    return [name for name in json.loads(out) if name in HEAVY]


@pytest.mark.parametrize("function_name", API_FUNCTIONS)
def test_loading_a_handler_imports_no_heavy_engine(function_name):
    assert _loaded_on_import(function_name) == []


def test_the_check_sees_a_heavy_import():
    # The Git Sync worker needs dulwich for every message: it imports it when it loads.
    assert "dulwich" in _loaded_on_import("GitSyncWorker")


def test_the_conversations_worker_loads_the_insights_engine_only_when_it_processes():
    assert _loaded_on_import("ConversationsWorker") == []
