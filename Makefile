# Bindery: `make run` starts the whole API locally; `make test` runs every test tier.
# Both create the virtualenv and install what they need on first use.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat requirements-dev.txt layers/shared/requirements.txt layers/insights/requirements.txt | sha1sum | cut -c1-12)

SAM_VENV ?= .venv-sam
SAM_STAMP := $(SAM_VENV)/.installed-$(shell cat requirements-sam.txt | sha1sum | cut -c1-12)
# What `sam build` builds for: arm64, the deployed default; `make test-sam` builds for its host instead.
SAM_ARCHITECTURE ?= arm64

.PHONY: run test test-moto test-dynamodb-local test-browser test-sam conformance mutation fuzz lint openapi check-openapi check-wheels sam-build clean

$(STAMP): requirements-dev.txt layers/shared/requirements.txt layers/insights/requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	rm -f $(VENV)/.installed-* && touch $@

run: $(STAMP)
	$(PY) -m local.server

test: test-moto test-dynamodb-local test-browser conformance fuzz test-sam

test-moto: $(STAMP)
	$(PY) -m pytest

test-dynamodb-local: $(STAMP)
	BINDERY_TEST_ENGINE=dynamodb-local $(PY) -m pytest -m "repository or concurrent"

# Published sites in a real browser (tests/browser): Debian's Chromium, installed with apt when missing,
# driven by Playwright (requirements-dev.txt) against a throwaway `make run` server.
test-browser: $(STAMP)
	command -v chromium >/dev/null || { $$( [ "$$(id -u)" = 0 ] || echo sudo ) apt-get update -qq && \
		$$( [ "$$(id -u)" = 0 ] || echo sudo ) apt-get install -y -qq chromium; }
	$(PY) -m pytest -m browser tests/browser

# SAM CLI in its own virtualenv, on the CPython 3.12 every function runs (local/python312.sh finds it):
# `sam build` runs pip with the `python3.12` it finds on PATH, which this venv's bin/ provides.
$(SAM_STAMP): requirements-sam.txt
	test -x $(SAM_VENV)/bin/python3.12 || "$$(local/python312.sh)" -m venv $(SAM_VENV)
	$(SAM_VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r requirements-sam.txt
	rm -f $(SAM_VENV)/.installed-* && touch $@

sam-build: $(SAM_STAMP)
	PATH="$(abspath $(SAM_VENV))/bin:$$PATH" sam build --parameter-overrides Architecture=$(SAM_ARCHITECTURE)

# The stack under `sam local` in Docker (docs/local-runner.md, "sam local"): start-api behind the
# official-client conformance suite, and `sam local invoke` of every worker with its sample event.
test-sam: $(STAMP) $(SAM_STAMP)
	SAM_VENV=$(SAM_VENV) $(PY) -m local.sam_local

conformance: $(STAMP)
	cd conformance && npm ci --silent --no-audit --no-fund && PYTHON=../$(PY) npm test

# Not part of `make test`: minutes per module (docs/testing.md). MUTATION_ARGS="pagination --max-children 2"
mutation: $(STAMP)
	$(PY) -m local.mutation $(MUTATION_ARGS)

# schemathesis against `make run`'s server (a throwaway one), both OpenAPI documents (docs/testing.md)
fuzz: $(STAMP)
	$(PY) -m tests.fuzz

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(PY) -m local.self_contained
	$(PY) -m local.architecture_index --check
	$(VENV)/bin/mypy layers/shared/bindery functions local bench
	PYTHONPATH=layers/shared $(VENV)/bin/lint-imports --no-cache
	$(VENV)/bin/cfn-lint template.yaml

openapi: $(STAMP)
	$(PY) -m local.openapi --write

check-openapi: $(STAMP)
	$(PY) -m local.openapi --check

check-wheels: $(STAMP)
	$(PY) -m local.wheels

clean:
	rm -rf $(VENV) $(SAM_VENV) .bindery .aws-sam
