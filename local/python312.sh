#!/usr/bin/env bash
# Prints the path of a CPython 3.12 interpreter, the runtime of every function (template.yaml's
# python3.12): `sam build` runs pip with it, and the local Lambda base image (lambda_base_image/)
# carries it. Looked for as `python3.12` on PATH, then among pyenv's versions (PYENV_ROOT, `pyenv root`,
# ~/.pyenv). None of the registries this project may use has one to install: Debian 12's python3 is
# 3.11, PyPI ships no interpreter, and npm's portable builds download theirs from elsewhere at install
# time. docs/local-runner.md ("sam build") says what to install.
set -euo pipefail
is_312() { [[ -x "$1" ]] && [[ "$("$1" -c 'import sys; print(sys.version_info[:2] == (3, 12))' 2>/dev/null)" == True ]]; }

if found="$(command -v python3.12 2>/dev/null)" && is_312 "$found"; then
    echo "$found"; exit 0
fi
roots=()
[[ -n "${PYENV_ROOT:-}" ]] && roots+=("$PYENV_ROOT")
command -v pyenv >/dev/null 2>&1 && roots+=("$(pyenv root)")
roots+=("$HOME/.pyenv")
for root in "${roots[@]}"; do
    # The newest 3.12 patch release first.
    for candidate in $(ls -d "$root"/versions/3.12* 2>/dev/null | sort -V -r); do
        if is_312 "$candidate/bin/python3.12"; then
            echo "$candidate/bin/python3.12"; exit 0
        fi
    done
done
echo "No CPython 3.12 found (python3.12 on PATH or a pyenv 3.12.x): install one, e.g." \
     "\`pyenv install 3.12\`, and try again (docs/local-runner.md, \"sam build\")." >&2
exit 1
